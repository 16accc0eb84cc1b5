/**
 * The one place where the wrap touches members of the SDK that are not its public contract
 * (marked `@internal` in its typings, or private), and where it mirrors what the SDK does
 * privately (the wire form of a custom tool). Everything else goes through the SDK's public
 * surface. Each member is listed in {@link INTERNAL_MEMBERS} with why it is needed;
 * `test/integration/sdkSeam.test.ts` checks every one against each served release as published,
 * so a release that renames or drops one fails there, naming the member and the release.
 */
import { Socket } from "node:net";
import type { Tool } from "@github/copilot-sdk";

/** A member of an SDK class that the safety net uses although it is not public. */
export interface InternalMember {
    /** `CopilotClient` or `CopilotSession`. */
    readonly owner: "CopilotClient" | "CopilotSession" | "ToolSet";
    /** The member's name. */
    readonly name: string;
    /** `method` (on the prototype) or `field` (set on each instance). */
    readonly kind: "method" | "field";
    /**
     * Set when only some releases have the member: the capability (see `SdkCapabilities`) that
     * says whether a release has it. Without it, every served release must have the member.
     */
    readonly capability?: "disconnectHook" | "extensionResume";
    /** Why the safety net needs it. */
    readonly why: string;
}

/** Every internal member the safety net uses. */
export const INTERNAL_MEMBERS: readonly InternalMember[] = Object.freeze([
    {
        owner: "CopilotClient",
        name: "resolveToolFilterOptions",
        kind: "method",
        why: "the SDK's own checks of availableTools / excludedTools, run on setTools updates as at construction",
    },
    {
        owner: "CopilotClient",
        name: "resumeSessionForExtension",
        kind: "method",
        why: "the extension entry point (joinSession) resumes sessions without resumeSession: the tool step wraps it too",
        capability: "extensionResume",
    },
    {
        owner: "CopilotClient",
        name: "connection",
        kind: "field",
        why: "whether the client is connected yet: createSession starts it first only then, as the SDK's own method does",
    },
    {
        owner: "CopilotClient",
        name: "isExternalServer",
        kind: "field",
        why:
            "whether the client talks to a runtime it did not start (cliUrl, a URI connection): " +
            "its version is then asked, not assumed",
    },
    {
        owner: "CopilotClient",
        name: "resolvedCliPath",
        kind: "field",
        why: "whether the client starts a runtime at a path of its own (cliPath): its version is then asked, not assumed",
    },
    {
        owner: "CopilotClient",
        name: "sessions",
        kind: "field",
        why:
            "which session object the client routes a session id to: " +
            "setTools refuses an object resumeSession replaced, " +
            "and a resume the runtime's validation refused is forgotten as the SDK forgets a failed one",
    },
    {
        owner: "CopilotSession",
        name: "registerTools",
        kind: "method",
        why: "switches the handlers that answer the runtime's tool calls when setTools changes the tools",
    },
    {
        owner: "CopilotSession",
        name: "_executeToolAndRespond",
        kind: "method",
        why:
            "the step that runs a custom tool's handler for an external_tool.requested: runtime 1.0.85 sends a " +
            "sub-agent's request twice under one request id, and the handler must run once per request",
    },
    {
        owner: "CopilotSession",
        name: "disconnected",
        kind: "field",
        why: "whether the session was disconnected (by disconnect, client.stop or a dead runtime)",
        capability: "disconnectHook",
    },
    {
        owner: "CopilotSession",
        name: "_markDisconnected",
        kind: "method",
        why:
            "the one step every way of disconnecting runs: " +
            "setTools settles and per-session state is released there, " +
            "and a session the runtime's validation refused is released through it as the SDK releases a failed one",
        capability: "disconnectHook",
    },
    {
        owner: "CopilotClient",
        name: "connectViaTcp",
        kind: "method",
        why:
            "the TCP connect path (cliUrl, a runtime started with a port): the socket it makes " +
            "gets TCP_NODELAY, since the JSON-RPC writer sends each message's header and body " +
            "in two writes and every request then waits on a delayed ACK (about 40 ms)",
    },
    {
        owner: "CopilotClient",
        name: "socket",
        kind: "field",
        why: "the socket connectViaTcp makes, to set TCP_NODELAY on it before it connects",
    },
    {
        owner: "ToolSet",
        name: "items",
        kind: "field",
        why: "the filter strings a ToolSet accumulates: addToolSet adds `toolset:<name>` to them as addBuiltIn adds `builtin:<name>`",
    },
]);

/** The client members the safety net reaches through this seam. */
export interface ClientInternals {
    resolveToolFilterOptions(config: object): { availableTools?: unknown; excludedTools?: unknown };
    readonly sessions?: Map<string, unknown>;
    readonly isExternalServer?: boolean;
    readonly connection?: unknown;
    readonly resolvedCliPath?: string;
}

/** The session members the safety net reaches through this seam. */
interface SessionInternals {
    registerTools(tools: readonly object[] | undefined): void;
    readonly disconnected?: boolean;
    _markDisconnected?: () => void;
    _executeToolAndRespond?: (requestId: unknown, toolName: unknown, ...rest: unknown[]) => unknown;
}

/** The SDK's normalisation of the filter lists (`ToolSet` to array, `'*'` refused). */
export function normaliseToolFilters(
    client: object,
    config: object
): { availableTools?: unknown; excludedTools?: unknown } {
    return (client as ClientInternals).resolveToolFilterOptions(config);
}

/** Whether `client` routes `sessionId` to `session` (true when the client keeps no registry). */
export function isRoutedTo(client: object, sessionId: string, session: object): boolean {
    const { sessions } = client as ClientInternals;
    return sessions === undefined || sessions.get(sessionId) === session;
}

/**
 * Drops `session` from the client's routing, as the SDK does when its own resume fails: for a
 * resume whose custom tools the runtime refused (`validateTools`) after the SDK returned it.
 */
export function forgetSession(client: object, sessionId: string, session: object): void {
    const { sessions } = client as ClientInternals;
    if (sessions?.get(sessionId) === session) sessions.delete(sessionId);
}

/** Whether `client` routes `sessionId` to any session object (true when it keeps no registry). */
export function isHeld(client: object, sessionId: string): boolean {
    const { sessions } = client as ClientInternals;
    return sessions === undefined || sessions.has(sessionId);
}

/** Replaces the handlers that answer the session's tool calls. */
export function registerToolHandlers(session: object, tools: readonly object[]): void {
    (session as SessionInternals).registerTools(tools);
}

/** Whether the session was disconnected. */
export function isDisconnected(session: object): boolean {
    return (session as SessionInternals).disconnected === true;
}

/**
 * Runs `callback` for each session of a class once it is disconnected, whichever way:
 * `disconnect()`, `client.stop()` / `forceStop()`, or the runtime's connection closing. The SDK
 * runs one step for all of them; the callback runs right after it. Installed once on the class,
 * so that a session object carries nothing of the hook.
 *
 * @param prototype - the session class's prototype
 * @param callback - receives the session that was disconnected
 * @returns false when this SDK release has no such step (nothing was hooked)
 */
export function onDisconnected(prototype: object, callback: (session: object) => void): boolean {
    const step = (prototype as SessionInternals)._markDisconnected;
    if (typeof step !== "function") return false;
    Object.defineProperty(prototype, "_markDisconnected", {
        value: function markDisconnected(this: SessionInternals) {
            const already = this.disconnected === true;
            step.call(this);
            if (!already) callback(this);
        },
        configurable: true,
        writable: true,
        enumerable: false,
    });
    return true;
}

/**
 * Lets `takes` decide, each time the SDK is about to run a custom tool's handler for an
 * `external_tool.requested` event, whether it does: when `takes` returns false, the SDK's step is
 * skipped (no handler runs, no answer is sent), as the SDK itself skips a request whose id is
 * already being handled. Installed once on the class, so that a session object carries nothing.
 *
 * @param prototype - the session class's prototype
 * @param takes - receives the session, the request id, the tool name and the call id
 * @returns false when this SDK release has no such step (nothing was hooked)
 */
export function onToolRequest(
    prototype: object,
    takes: (session: object, requestId: unknown, toolName: unknown, toolCallId: unknown) => boolean
): boolean {
    const step = (prototype as SessionInternals)._executeToolAndRespond;
    if (typeof step !== "function") return false;
    Object.defineProperty(prototype, "_executeToolAndRespond", {
        value: function executeToolAndRespond(this: object, ...args: unknown[]) {
            const [requestId, toolName, toolCallId] = args;
            if (!takes(this, requestId, toolName, toolCallId)) return Promise.resolve();
            return step.apply(this, args as Parameters<typeof step>);
        },
        configurable: true,
        writable: true,
        enumerable: false,
    });
    return true;
}

/**
 * Whether the client runs the runtime its SDK release ships (bundled with the SDK, or the
 * `@github/copilot` dependency it resolves), rather than a server at a URL or a runtime at a path
 * of the app's own. Read right after the SDK's constructor, before `start()` resolves a path.
 */
export function runsShippedRuntime(client: object): boolean {
    const { isExternalServer, resolvedCliPath } = client as ClientInternals;
    return isExternalServer !== true && resolvedCliPath === undefined;
}

/** Whether the client has a connection to its runtime (started, or being started). */
export function hasConnection(client: object): boolean {
    const { connection } = client as ClientInternals;
    return connection !== undefined && connection !== null;
}

/**
 * Marks a session disconnected as the SDK's own failure paths do (its handlers and its GitHub
 * token provider registration are dropped); nothing on a release without that step.
 */
export function markDisconnected(session: object): void {
    const step = (session as SessionInternals)._markDisconnected;
    if (typeof step === "function") step.call(session);
}

/** Whether the client starts its runtime itself (stdio, in-process), not a server at a URL. */
export function startsItsRuntime(client: object): boolean {
    return (client as ClientInternals).isExternalServer !== true;
}

/** Adds one filter string to a `ToolSet`, as its own `addBuiltIn` does. */
export function addToolSetItem(toolSet: object, item: string): void {
    (toolSet as { items: string[] }).items.push(item);
}

/**
 * A custom tool as `session.create`, `session.resume` and `session.tools.set` carry it. The SDK
 * builds this form privately, field for field, inside `createSession` and `resumeSession`;
 * `setTools` sends the same form, and `test/integration/sdkSeam.test.ts` compares the two on
 * what the SDK sends.
 */
export function wireToolDefinition(tool: Tool): object {
    const {
        name,
        description,
        parameters,
        overridesBuiltInTool,
        skipPermission,
        defer,
        metadata,
        isTerminal,
    } = tool as Tool & { defer?: unknown; metadata?: unknown; isTerminal?: unknown };
    return {
        name,
        description,
        parameters: jsonSchemaOf(parameters),
        overridesBuiltInTool,
        skipPermission,
        defer,
        metadata,
        isTerminal,
    };
}

/**
 * A tool's `parameters` as the runtime receives them: a Zod schema becomes JSON Schema (as the
 * SDK converts it), anything else goes as it is.
 */
export function jsonSchemaOf(parameters: unknown): unknown {
    if (!parameters) return undefined;
    const { toJSONSchema } = parameters as { toJSONSchema?: unknown };
    return typeof toJSONSchema === "function" ? toJSONSchema.call(parameters) : parameters;
}

/** `resumeSessionForExtension`, where a release has it (behind `joinSession`). */
export type ExtensionResume = (
    this: object,
    sessionId: string,
    config: object,
    ...rest: unknown[]
) => Promise<object>;

/** The extension resume of a client class's prototype, or undefined on a release without it. */
export function extensionResumeOf(prototype: object): ExtensionResume | undefined {
    const resume = (prototype as { resumeSessionForExtension?: unknown }).resumeSessionForExtension;
    return typeof resume === "function" ? (resume as ExtensionResume) : undefined;
}

/**
 * Sets the extension resume of a client class's prototype (a wrapper, or the SDK's own put back):
 * `value` undefined removes the prototype's own member.
 *
 * @returns the prototype's own member before (undefined: it had none), for putting it back
 */
export function setExtensionResume(
    prototype: object,
    value: PropertyDescriptor | undefined
): PropertyDescriptor | undefined {
    const key = "resumeSessionForExtension";
    const own = Object.getOwnPropertyDescriptor(prototype, key);
    if (value === undefined) delete (prototype as Record<string, unknown>)[key];
    else Object.defineProperty(prototype, key, value);
    return own;
}

/**
 * Makes the TCP connect path of a client class set TCP_NODELAY on the socket it creates (before it
 * connects, so every request is sent at once): the SDK's JSON-RPC writer sends a message's header
 * and body in two writes, which Nagle's algorithm holds back until the runtime's delayed ACK
 * (about 40 ms per request on loopback). Nothing on a release without `connectViaTcp`.
 *
 * @param prototype - the wrapped client class's prototype
 * @returns whether the connect path was found and wrapped
 */
export function setNoDelayOnConnect(prototype: object): boolean {
    const connect = (prototype as { connectViaTcp?: unknown }).connectViaTcp;
    if (typeof connect !== "function") return false;
    Object.defineProperty(prototype, "connectViaTcp", {
        value: function connectViaTcp(this: { socket?: unknown }, ...rest: unknown[]) {
            const connecting = (connect as (...args: unknown[]) => Promise<unknown>).apply(
                this,
                rest
            );
            // The socket is made synchronously, before the connection is attempted.
            const { socket } = this;
            if (socket instanceof Socket) socket.setNoDelay(true);
            return connecting;
        },
        writable: true,
        configurable: true,
    });
    return true;
}
