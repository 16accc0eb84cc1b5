import type { ToolFilterWarningCode } from "../../toolFilter/toolFilter.js";

/**
 * Codes of {@link SessionToolWarning}: those of the tool filter (`UNKNOWN_IDENTIFIERS`, also for
 * members of `customToolSets`; `NO_TOOLS_ENABLED`, `TOO_MANY_TOOLS`) and
 * - `EMPTY_TOOL_SET`: a toolset of `customToolSets` has no members;
 * - `AUTOMATIC_OVERRIDE`: a custom tool replaces the built-in of its name without setting
 *   `overridesBuiltInTool: true` (once per client and name);
 * - `CASE_ONLY_MATCH`: a custom tool's name differs from a built-in's only in case, so both stay;
 * - `CATALOG_FALLBACK`: the runtime's built-ins were not measured, so a stand-in list is used;
 * - `PROMPT_NAMES_REMOVED_TOOL`: the `systemMessage` names a tool the filter removed, or a
 *   built-in a custom tool replaces (by the naming rule of the runtime's prompt rewrite); or a
 *   custom agent's `prompt` names a tool the agent is not offered (option
 *   `customAgents.<name>.prompt`);
 * - `FILTER_DROPS_CUSTOM_TOOL`: a custom tool passed in `tools` is not offered because an
 *   `excludedTools` toolset entry removes it or `availableTools` does not name it (an error
 *   under `strictToolFilters`; a tool excluded by its own name gets none);
 * - `BUILT_IN_COMPANIONS_REMAIN`: a custom tool replaces one member of a built-in family (`bash`
 *   and `read_bash`/`write_bash`/`stop_bash`/`list_bash`, the `powershell` ones) while others stay
 *   built-in;
 * - `RUNTIME_PROMPT_NAMES_MISSING_TOOL`: with `promptAgreement: "warn"` (set, or the default on a
 *   runtime whose rewrite is not proven), the runtime's instructions recommend or describe a tool
 *   the session does not offer, or a built-in a custom tool replaces (with `"rewrite"` the package
 *   removes that text instead);
 * - `PROMPT_REWRITE_FAILED`: the rewrite of a section of the runtime's instructions failed; the
 *   section was left as the runtime wrote it;
 * - `AGENT_TOOL_WITHHELD`: a custom agent's `tools` name a tool that the session's
 *   `availableTools` / `excludedTools` remove, which the runtime then withholds from the agent
 *   too (an error under `strictToolFilters`);
 * - `PROMPT_TRANSFORM_FAILED`: the app's own `systemMessage` transform of a section threw; the
 *   section was sent as the package's rewrite left it, without the app's change.
 *
 * @public
 */
export type SessionToolWarningCode =
    | ToolFilterWarningCode
    | "EMPTY_TOOL_SET"
    | "AUTOMATIC_OVERRIDE"
    | "CASE_ONLY_MATCH"
    | "CATALOG_FALLBACK"
    | "PROMPT_NAMES_REMOVED_TOOL"
    | "FILTER_DROPS_CUSTOM_TOOL"
    | "BUILT_IN_COMPANIONS_REMAIN"
    | "RUNTIME_PROMPT_NAMES_MISSING_TOOL"
    | "PROMPT_REWRITE_FAILED"
    | "PROMPT_TRANSFORM_FAILED"
    | "AGENT_TOOL_WITHHELD";

/**
 * Something session construction could honour but that is probably not what the app meant. Sent
 * to the client option `onToolWarning` (default: `console.warn` of the message) and listed in
 * `session.toolResolution.warnings`.
 *
 * @public
 */
export interface SessionToolWarning {
    /** Machine-readable reason. */
    readonly code: SessionToolWarningCode;
    /** What happened and what to do about it. */
    readonly message: string;
    /**
     * The option concerned (`availableTools`, `excludedTools`, `tools`, `customToolSets.<name>`,
     * `systemMessage`, `customAgents.<name>.tools`, `defaultAgent.excludedTools`), when there is
     * one.
     */
    readonly option?: string;
    /** The tool names or filter entries concerned, when there are any. */
    readonly identifiers?: readonly string[];
}
