/*---------------------------------------------------------------------------------------------
 *  Errors thrown by includeTools / excludeTools tool filtering.
 *--------------------------------------------------------------------------------------------*/

import type { ToolFilterOptionName } from "./toolFilter.js";

/**
 * Why {@link ToolFilterError} was thrown. Callers branch on this rather than on the message,
 * which is written for people and may be reworded.
 *
 * - `EMPTY_INCLUDE_TOOLS`: `includeTools: []` was given; it would enable no tool at all.
 * - `NO_TOOLS_ENABLED`: `includeTools` / `excludeTools` left no tool enabled.
 * - `INVALID_OPTION`: the options object, `includeTools`, `excludeTools` or `onWarning` has the
 *   wrong type (for example `includeTools: "view"` instead of `["view"]`).
 * - `INVALID_IDENTIFIER`: an entry of `includeTools` / `excludeTools` is not a non-empty string.
 * - `INVALID_CATALOG`: the tool catalog itself is malformed (for example two tools share an id).
 */
export type ToolFilterErrorCode =
    | "EMPTY_INCLUDE_TOOLS"
    | "NO_TOOLS_ENABLED"
    | "INVALID_OPTION"
    | "INVALID_IDENTIFIER"
    | "INVALID_CATALOG";

/**
 * The setting a {@link ToolFilterError} is about: one of the two filter options, or the
 * `onWarning` callback of the resolver settings.
 */
export type ToolFilterErrorOption = ToolFilterOptionName | "onWarning";

/**
 * Optional details attached to a {@link ToolFilterError}.
 */
export interface ToolFilterErrorDetails {
    /** The option the error is about, when there is one. */
    readonly option?: ToolFilterErrorOption;
    /**
     * Position of the offending entry: in the option's array for `INVALID_IDENTIFIER`, in
     * `catalog.tools` / `catalog.toolSets` for `INVALID_CATALOG`.
     */
    readonly index?: number;
    /** The offending value itself (a bad identifier, a duplicated catalog id, ...). */
    readonly value?: unknown;
}

/**
 * Thrown by tool filtering when the options or the catalog cannot be honoured. Unknown
 * identifiers are never an error (they are reported as warnings), so this is reserved for
 * input that is malformed or that would leave the session without any tool.
 *
 * @example
 * ```typescript
 * try {
 *     resolveToolFilter(catalog, { includeTools: [] });
 * } catch (error) {
 *     if (error instanceof ToolFilterError && error.code === "EMPTY_INCLUDE_TOOLS") {
 *         // omit includeTools instead
 *     }
 * }
 * ```
 */
export class ToolFilterError extends Error {
    override readonly name = "ToolFilterError";
    /** Machine-readable reason; see {@link ToolFilterErrorCode}. */
    readonly code: ToolFilterErrorCode;
    // `declare` keeps these fields from being defined as `undefined` when they do not apply.
    /** The option the error is about, when there is one. */
    declare readonly option?: ToolFilterErrorOption;
    /** Position of the offending entry, when there is one. */
    declare readonly index?: number;
    /** The offending value, when there is one. */
    declare readonly value?: unknown;

    /**
     * @param code - Machine-readable reason.
     * @param message - Human-readable message naming the option, quoting the bad value and
     *   saying what to do instead.
     * @param details - Option, index and value the error is about.
     */
    constructor(code: ToolFilterErrorCode, message: string, details: ToolFilterErrorDetails = {}) {
        super(message);
        this.code = code;
        // Only set what applies, so `"option" in error` tells whether an option is involved.
        if (details.option !== undefined) {
            this.option = details.option;
        }
        if (details.index !== undefined) {
            this.index = details.index;
        }
        if ("value" in details) {
            this.value = details.value;
        }
    }
}
