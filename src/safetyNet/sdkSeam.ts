/**
 * The one place where the safety net touches members of the SDK that are not its public
 * contract (marked `@internal` in its typings, or private). Everything else goes through the
 * SDK's public surface. Each member is listed in {@link INTERNAL_MEMBERS} with why it is needed;
 * `test/integration/sdkSeam.test.ts` checks every one against the SDK as published, so a release
 * that renames or drops one fails there, naming the member and the release.
 */

/** A member of an SDK class that the safety net uses although it is not public. */
export interface InternalMember {
    /** `CopilotClient` or `CopilotSession`. */
    readonly owner: "CopilotClient" | "CopilotSession";
    /** The member's name. */
    readonly name: string;
    /** `method` (on the prototype) or `field` (set on each instance). */
    readonly kind: "method" | "field";
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
        name: "sessions",
        kind: "field",
        why: "which session object the client routes a session id to: setTools refuses an object resumeSession replaced",
    },
    {
        owner: "CopilotSession",
        name: "registerTools",
        kind: "method",
        why: "switches the handlers that answer the runtime's tool calls when setTools changes the tools",
    },
    {
        owner: "CopilotSession",
        name: "disconnected",
        kind: "field",
        why: "whether the session was disconnected (by disconnect, client.stop or a dead runtime)",
    },
    {
        owner: "CopilotSession",
        name: "_markDisconnected",
        kind: "method",
        why: "the one step every way of disconnecting runs: setTools settles and per-session state is released there",
    },
]);

/** The client members the safety net reaches through this seam. */
export interface ClientInternals {
    resolveToolFilterOptions(config: object): { availableTools?: unknown; excludedTools?: unknown };
    readonly sessions?: ReadonlyMap<string, unknown>;
}

/** The session members the safety net reaches through this seam. */
interface SessionInternals {
    registerTools(tools: readonly object[] | undefined): void;
    readonly disconnected?: boolean;
    _markDisconnected?: () => void;
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
 * Runs `callback` once the session is disconnected, whichever way: `disconnect()`,
 * `client.stop()` / `forceStop()`, or the runtime's connection closing. The SDK runs one step for
 * all of them; the callback runs right after it.
 *
 * @returns false when this SDK release has no such step (nothing was hooked)
 */
export function onDisconnected(session: object, callback: () => void): boolean {
    const internals = session as SessionInternals;
    const step = internals._markDisconnected;
    if (typeof step !== "function") return false;
    Object.defineProperty(session, "_markDisconnected", {
        value: function markDisconnected(this: SessionInternals) {
            const already = internals.disconnected === true;
            step.call(this);
            if (!already) callback();
        },
        configurable: true,
        writable: true,
        enumerable: false,
    });
    return true;
}
