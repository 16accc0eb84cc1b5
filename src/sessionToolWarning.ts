import type { ToolFilterOptionName, ToolFilterWarningCode } from "./toolFilter.js";

/**
 * Codes of the warnings session construction reports; the tool-filter helper's own codes
 * (unknown or duplicate identifiers, ...) pass through unchanged.
 *
 * - `AUTOMATIC_OVERRIDE`: a custom tool replaces the built-in of the same name without having
 *   set `overridesBuiltInTool: true` (reported once per client and tool name).
 * - `CASE_ONLY_MATCH`: a custom tool's name equals a built-in's only when case is ignored; both
 *   stay, since names are case-sensitive.
 * - `NEEDLESS_OVERRIDE_FLAG`: a custom tool sets `overridesBuiltInTool: true` but no built-in
 *   has its name; the flag has no effect.
 * - `OVERRIDDEN_BUILT_IN_IDENTIFIER`: `includeTools`/`excludeTools` names `builtin:<name>` for a
 *   built-in that a custom tool replaces.
 * - `CATALOG_FALLBACK`: the runtime could not list its tools, so the SDK's pinned list is used.
 */
export type SessionToolWarningCode =
    | "AUTOMATIC_OVERRIDE"
    | "CASE_ONLY_MATCH"
    | "NEEDLESS_OVERRIDE_FLAG"
    | "OVERRIDDEN_BUILT_IN_IDENTIFIER"
    | "CATALOG_FALLBACK"
    | ToolFilterWarningCode;

/**
 * A problem session construction tells the app about without failing. Delivered to the client
 * option `onToolWarning` (default `console.warn` of the message) and listed in the session's
 * `toolResolution.warnings`.
 */
export interface SessionToolWarning {
    /** Machine-readable reason. */
    readonly code: SessionToolWarningCode;
    /** What happened and what to do about it. */
    readonly message: string;
    /** The tool concerned, when there is one. */
    readonly toolName?: string;
    /** The filter option concerned, when there is one. */
    readonly option?: ToolFilterOptionName;
    /** The filter identifier concerned, when there is one. */
    readonly identifier?: string;
    /** The toolset concerned, when there is one. */
    readonly toolSetId?: string;
}
