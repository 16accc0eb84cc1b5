/**
 * Codes of {@link SessionToolError}, one per kind of mistake:
 * - `INVALID_CUSTOM_TOOL`: a `tools` entry is malformed (not an object, an empty slot, a name
 *   models refuse, a handler that is not a function, a non-boolean `overridesBuiltInTool`);
 * - `DUPLICATE_TOOL_NAME`: two custom tools have one name, or names that differ only in case;
 * - `BUILT_IN_TOOL_COLLISION`: a custom tool has a built-in's name and is not allowed to
 *   replace it (the client refuses collisions, or the tool sets `overridesBuiltInTool: false`),
 *   also a built-in of a custom agent's own `model` that the runtime lists;
 * - `UNSUPPORTED_OVERRIDE`: the runtime does not let a custom tool replace this built-in;
 * - `INVALID_TOOL_FILTER`: an `availableTools` / `excludedTools` entry is malformed, or one of a
 *   custom agent's `tools` or of `defaultAgent.excludedTools` (there, also a `toolset:` entry
 *   that names no toolset);
 * - `INVALID_TOOL_SET`: a `customToolSets` entry is malformed;
 * - `INVALID_CLIENT_OPTION`: `builtInToolCollisions`, `onToolWarning`, `strictToolFilters` or
 *   `failClosed` has a wrong value, or an option contradicts `failClosed: true`;
 * - `INVALID_TOOL_UPDATE`: `session.setTools` got something other than its four options, or the
 *   session was not constructed by the patched SDK, is disconnected or was resumed as another
 *   object;
 * - `SESSION_BUSY`: `session.setTools` would change which tool answers a built-in's name (a
 *   custom tool that starts or stops replacing it) or the definition of a custom tool while the
 *   session processes a message; or a message waited too long for a `setTools` before it;
 * - `TOOL_UPDATE_FAILED`: the runtime failed or did not answer a request of `session.setTools`;
 *   the message says whether the previous tools were put back (its `cause` is the failure);
 * - `TOOL_NAME_CLASH`: another connection (client) registered a custom tool of this name on the
 *   same session; one client owns each name;
 * - `MCP_TOOL_COLLISION`: a custom tool is named like a tool of one of the session's MCP servers,
 *   or of a custom agent's that the agent is offered (`<server>-<tool>`), which would shadow it;
 * - `INVALID_CUSTOM_AGENT`: `customAgents`, `defaultAgent` or `agent` is malformed: not an array
 *   (an object), an agent without a name, two agents of one name, a `prompt`, `model` or MCP
 *   server config of the wrong type, an `agent` that names none of `customAgents`, or a value
 *   that cannot be read;
 * - `AGENT_TOOLS_FIXED`: `session.setTools` would change the tools a custom agent's `tools` (or
 *   `defaultAgent.excludedTools`) name (a `toolset:` entry whose members change, a `custom:*`
 *   that gains a tool), but the runtime keeps each agent's list as `createSession` sent it;
 * - `UNKNOWN_IDENTIFIERS`, `NO_TOOLS_ENABLED`, `EMPTY_TOOL_SET`, `FILTER_DROPS_CUSTOM_TOOL`,
 *   `AGENT_TOOL_WITHHELD`: the warnings of these codes, on a client created with
 *   `strictToolFilters: true`;
 * - `INVALID_SESSION_OPTION`: `onToolAnswered` is not a function, `validateTools` is not a
 *   boolean (or `false` on a `failClosed` client), `model` is not a string, or
 *   `systemMessage` or `mcpServers` holds what JSON cannot carry as it is (or cannot be read);
 * - `CALL_ANSWERED_ELSEWHERE`: a built-in or an MCP server answered a call of one of the session's
 *   custom tools; the turn was aborted and the session refuses every later `send`;
 * - `MODEL_SWITCH_REFUSED`: `session.setModel` would leave a model on which a built-in could
 *   answer a custom tool's call (see `session.previewModel`); the session keeps its model;
 * - `UNSUPPORTED_BY_RELEASE`: the installed `@github/copilot-sdk` release lacks what the feature
 *   needs (for `session.setTools`, the runtime request `session.tools.set`); the message names
 *   the release and the feature.
 *
 * @public
 */
export type SessionToolErrorCode =
    | "INVALID_CUSTOM_TOOL"
    | "DUPLICATE_TOOL_NAME"
    | "BUILT_IN_TOOL_COLLISION"
    | "UNSUPPORTED_OVERRIDE"
    | "INVALID_TOOL_FILTER"
    | "INVALID_TOOL_SET"
    | "INVALID_CLIENT_OPTION"
    | "INVALID_TOOL_UPDATE"
    | "SESSION_BUSY"
    | "TOOL_UPDATE_FAILED"
    | "UNKNOWN_IDENTIFIERS"
    | "NO_TOOLS_ENABLED"
    | "EMPTY_TOOL_SET"
    | "FILTER_DROPS_CUSTOM_TOOL"
    | "INVALID_SESSION_OPTION"
    | "CALL_ANSWERED_ELSEWHERE"
    | "MODEL_SWITCH_REFUSED"
    | "UNSUPPORTED_BY_RELEASE"
    | "TOOL_NAME_CLASH"
    | "MCP_TOOL_COLLISION"
    | "INVALID_CUSTOM_AGENT"
    | "AGENT_TOOL_WITHHELD"
    | "AGENT_TOOLS_FIXED";

/** The mark every `SessionToolError` carries, shared by the ESM and CommonJS builds. */
const MARKER = Symbol.for("copilot-sdk-tool-override.SessionToolError");

/**
 * Thrown by `createSession`, `resumeSession`, `session.setTools` and `session.setModel` (and, for
 * client options, the `CopilotClient` constructor) when the session's tools cannot be set up as
 * asked. It is thrown before anything is sent: no session exists on the runtime yet, or a running
 * session keeps its tools and model as they were, so there is nothing to clean up. One code is
 * the exception: `CALL_ANSWERED_ELSEWHERE` rejects `send` after a call went to the wrong
 * implementation, and the session stays closed.
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
 * @public
 */
export class SessionToolError extends Error {
    private readonly [MARKER] = true;

    /**
     * Whether `value` is a `SessionToolError`, whichever build of the SDK (ESM or CommonJS) threw
     * it: an app that loads both gets two copies of the class, so the check looks for the error's
     * mark instead of its class. `instanceof SessionToolError` answers the same.
     *
     * @param value - anything caught
     * @returns true for a `SessionToolError` of either build
     */
    static isInstance(value: unknown): value is SessionToolError {
        return typeof value === "object" && value !== null && MARKER in value;
    }

    static override [Symbol.hasInstance](value: unknown): boolean {
        return SessionToolError.isInstance(value);
    }

    /** What kind of mistake this is. */
    readonly code: SessionToolErrorCode;
    /** The tool, toolset or option entries the error is about, in the order found. */
    readonly toolNames: readonly string[];

    /**
     * @param code - the kind of mistake
     * @param message - what is wrong, quoting the value, and what to do instead
     * @param toolNames - the offending names
     * @param options - `cause`: the underlying error, when there is one
     */
    constructor(
        code: SessionToolErrorCode,
        message: string,
        toolNames: readonly string[] = [],
        options?: { cause?: unknown }
    ) {
        super(message, options);
        this.name = "SessionToolError";
        this.code = code;
        this.toolNames = Object.freeze([...toolNames]);
    }
}
