/**
 * Stable codes of {@link SessionToolError}, one per kind of mistake, so that apps can branch on
 * the code rather than on message text.
 */
export type SessionToolErrorCode =
    /** A `tools` entry is not a valid custom tool (bad shape, name, flag or handler). */
    | "INVALID_CUSTOM_TOOL"
    /** Two custom tools have the same name, or names that differ only in case. */
    | "DUPLICATE_TOOL_NAME"
    /** Custom tools collide with built-ins while collisions are refused. */
    | "BUILT_IN_TOOL_COLLISION"
    /** A custom tool overrides a built-in whose override this runtime does not honour. */
    | "UNSUPPORTED_OVERRIDE"
    /** `includeTools`/`excludeTools`/`toolSets` are mixed with `availableTools`/`excludedTools`. */
    | "CONFLICTING_TOOL_FILTERS"
    /** A `toolSets` entry is malformed. */
    | "INVALID_TOOL_SET"
    /** A client or session option has a value outside its documented range. */
    | "INVALID_OPTION";

/**
 * Thrown by `createSession` and `resumeSession` when the session's tools cannot be set up as
 * asked. It is always thrown before anything is created on the runtime, so a caught error leaves
 * no half-made session behind.
 *
 * @example
 * ```typescript
 * try {
 *     await client.createSession({ tools: [viewTool], onPermissionRequest: approveAll });
 * } catch (error) {
 *     if (error instanceof SessionToolError && error.code === "BUILT_IN_TOOL_COLLISION") {
 *         console.error(`rename or mark as overrides: ${error.toolNames.join(", ")}`);
 *     }
 * }
 * ```
 */
export class SessionToolError extends Error {
    /** What kind of mistake this is. */
    readonly code: SessionToolErrorCode;
    /** The tool (or toolset) names the error is about, in the order they were found. */
    readonly toolNames: readonly string[];

    /**
     * @param code - the kind of mistake
     * @param message - what is wrong and what to do instead
     * @param toolNames - the offending tool or toolset names
     */
    constructor(code: SessionToolErrorCode, message: string, toolNames: readonly string[] = []) {
        super(message);
        this.name = "SessionToolError";
        this.code = code;
        this.toolNames = Object.freeze([...toolNames]);
    }
}

/**
 * Quotes a caller-supplied value for an error message: strings in single quotes (with anything
 * unprintable escaped), everything else as JSON-ish text, so the message always shows the value.
 *
 * @param value - any value a caller passed
 * @returns a short printable rendering
 */
export function quoteValue(value: unknown): string {
    if (typeof value === "string") {
        const printable = JSON.stringify(value).slice(1, -1).replace(/'/g, "\\'");
        return `'${printable.length > 80 ? `${printable.slice(0, 77)}...` : printable}'`;
    }
    if (typeof value === "function") return "a function";
    if (value === undefined) return "undefined";
    try {
        const text = JSON.stringify(value);
        if (text !== undefined) return text.length > 80 ? `${text.slice(0, 77)}...` : text;
    } catch {
        // Cyclic or otherwise unprintable: fall through to the type name.
    }
    return `a value of type ${typeof value}`;
}
