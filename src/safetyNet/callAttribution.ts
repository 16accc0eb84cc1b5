import type { Tool } from "@github/copilot-sdk";
import { quoteValue } from "../toolFilter/formatting.js";
import { SessionToolError } from "./sessionToolError.js";
import type { SessionToolResolution } from "./sessionToolSetup.js";
import { onDisconnected } from "../sdkSeam/sdkSeam.js";

/**
 * What answered a tool call: the app's handler (a custom tool: the SDK ran its handler, or the
 * runtime handed the call to a client), a built-in of the runtime, or an MCP server; for
 * `answeredBy` also `"none"`, a call refused before anything ran (its permission was denied).
 *
 * @experimental
 */
export type ToolAnswerer = "handler" | "built-in" | "mcp";

/**
 * One tool call of a session, as `onToolAnswered` receives it and `toolResolution.calls` lists
 * it: which tool the model called, what the session's tools say should answer it, and what did.
 *
 * @experimental
 */
export interface ToolAnswer {
    /** The tool's name, as the model called it (an MCP tool's as `<server>-<tool>`). */
    readonly toolName: string;
    /** The runtime's id of the call. */
    readonly toolCallId: string;
    /**
     * What answered, from the runtime's events for the call: `"mcp"` when its
     * `tool.execution_start` names an MCP server, `"handler"` when the runtime handed the call to
     * a client (`external_tool.requested`), whose handler answered it, `"none"` when the call's
     * permission was denied (`permission.completed` with a result other than an approval),
     * `"built-in"` otherwise: a call that failed in the runtime before it reached a client counts
     * as the built-in's, so that a custom tool's call fails closed.
     */
    readonly answeredBy: ToolAnswerer | "none";
    /** The MCP server that answered, when one did. */
    readonly mcpServer?: string;
    /**
     * What the session's tools say should answer: `"handler"` for the custom tools sent
     * (`toolResolution.wire.tools`), `"mcp"` for a name under a configured MCP server
     * (`<server>-...`), `"built-in"` for any other.
     */
    readonly expected: ToolAnswerer;
    /** Whether the runtime reported the call as successful. */
    readonly success: boolean;
}

/**
 * Session option of the call attribution (part of `SessionConfigBase`).
 *
 * @experimental
 */
export interface CallAttributionConfig {
    /**
     * Called once per tool call the session sees, when the call completes, with what answered
     * it. When a built-in or an MCP server answered a custom tool's call, the session fails
     * closed: the turn is aborted and every later `send` rejects with a `SessionToolError`
     * (`CALL_ANSWERED_ELSEWHERE`). An exception thrown here is reported with `console.error`
     * and changes nothing.
     *
     * @example
     * ```typescript
     * await client.createSession({
     *     tools: [viewTool],
     *     onToolAnswered: ({ toolName, answeredBy, expected }) =>
     *         metrics.count(`tool.${toolName}.${answeredBy}`, { expected }),
     *     onPermissionRequest: approveAll,
     * });
     * ```
     */
    onToolAnswered?: (answer: ToolAnswer) => void;
}

/** How many calls `toolResolution.calls` keeps: the latest, oldest dropped first. */
export const MAX_RECORDED_CALLS = 100;

/** Calls started and not completed that a session tracks at most (a runaway runtime). */
const MAX_OPEN_CALLS = 1_000;

/** The part of `CopilotSession` the attribution uses (its public surface). */
interface AttributedSession {
    readonly sessionId: string;
    on(eventType: string, handler: (event: { data?: unknown }) => void): () => void;
    abort?: () => Promise<unknown>;
    send?: (...args: unknown[]) => Promise<unknown>;
    readonly toolResolution?: SessionToolResolution;
}

/** What the runtime said about a call when it started it. */
interface StartedCall {
    readonly toolName: string;
    readonly mcpServer: string | undefined;
}

/** The calls recorded for each attributed session, newest last. */
const recordedCalls = new WeakMap<object, { calls: readonly ToolAnswer[] }>();

/**
 * Reads the session option `onToolAnswered` once, before anything is sent.
 *
 * @param config - the session config as the caller passed it
 * @returns the callback, or undefined
 * @throws SessionToolError `INVALID_SESSION_OPTION` for anything but a function or undefined
 */
export function readToolAnsweredOption(config: unknown): CallAttributionConfig["onToolAnswered"] {
    if (config === null || typeof config !== "object") return undefined;
    const value: unknown = (config as CallAttributionConfig).onToolAnswered;
    if (value === undefined || typeof value === "function") {
        return value as CallAttributionConfig["onToolAnswered"];
    }
    throw new SessionToolError(
        "INVALID_SESSION_OPTION",
        `Invalid onToolAnswered ${quoteValue(value)}: pass a function that receives each tool call's answer ({ toolName, toolCallId, answeredBy, expected, ... }), or leave it out.`,
        ["onToolAnswered"]
    );
}

/**
 * Follows a constructed session's tool calls: records what answered each (`toolResolution.calls`),
 * tells `onToolAnswered`, and when a built-in or an MCP server answered a custom tool's call,
 * aborts the turn and makes every later `send` reject with `CALL_ANSWERED_ELSEWHERE`.
 *
 * What answered is read from the runtime's events, which carry the call id: `tool.execution_start`
 * (`mcpServerName` for an MCP tool), `external_tool.requested` (the runtime handed the call to a
 * client, whose handler answers it: every served SDK release dispatches custom tools this way),
 * `permission.completed` (a denied call: nothing ran) and `tool.execution_complete`. The
 * handlers are not wrapped: the SDK keeps the app's own functions.
 *
 * @param target - the session, after `attachSessionTools`
 * @param onToolAnswered - the session's `onToolAnswered` (see {@link readToolAnsweredOption})
 * @param mcpServers - the names of the session's configured MCP servers
 */
export function attachCallAttribution(
    target: object,
    onToolAnswered: CallAttributionConfig["onToolAnswered"],
    mcpServers: readonly string[]
): void {
    /** Ids of the calls the runtime handed to a client. */
    const requested = new Set<string>();
    /** Ids of the calls whose permission was denied: nothing ran. */
    const denied = new Set<string>();
    const started = new Map<string, StartedCall>();
    const record = { calls: Object.freeze([]) as readonly ToolAnswer[] };

    const remember = (ids: Set<string>, id: unknown) => {
        if (typeof id !== "string") return;
        if (ids.size >= MAX_OPEN_CALLS) ids.delete(ids.values().next().value as string);
        ids.add(id);
    };

    const session = target as AttributedSession;
    recordedCalls.set(session, record);
    const expectedOf = (toolName: string): ToolAnswerer => {
        if (session.toolResolution?.wire.tools.includes(toolName) === true) {
            return "handler";
        }
        return mcpServers.some((server) => toolName.startsWith(`${server}-`)) ? "mcp" : "built-in";
    };
    session.on("external_tool.requested", (event) => {
        remember(requested, (event.data as { toolCallId?: unknown })?.toolCallId);
    });
    session.on("permission.completed", (event) => {
        const data = event.data as
            { toolCallId?: unknown; result?: { kind?: unknown } } | undefined;
        const kind = data?.result?.kind;
        if (typeof kind === "string" && !kind.startsWith("approved")) {
            remember(denied, data?.toolCallId);
        }
    });
    session.on("tool.execution_start", (event) => {
        const data = event.data as
            { toolCallId?: unknown; toolName?: unknown; mcpServerName?: unknown } | undefined;
        if (typeof data?.toolCallId !== "string" || typeof data.toolName !== "string") {
            return;
        }
        if (started.size >= MAX_OPEN_CALLS) {
            started.delete(started.keys().next().value as string);
        }
        started.set(data.toolCallId, {
            toolName: data.toolName,
            mcpServer: typeof data.mcpServerName === "string" ? data.mcpServerName : undefined,
        });
    });
    session.on("tool.execution_complete", (event) => {
        const data = event.data as { toolCallId?: unknown; success?: unknown } | undefined;
        const toolCallId = data?.toolCallId;
        if (typeof toolCallId !== "string") return;
        const call = started.get(toolCallId);
        // A call whose start this session did not see (it began before a resume) has no
        // name to attribute.
        if (call === undefined) return;
        started.delete(toolCallId);
        const byClient = requested.delete(toolCallId);
        const refused = denied.delete(toolCallId);
        const answer: ToolAnswer = Object.freeze({
            toolName: call.toolName,
            toolCallId,
            answeredBy:
                call.mcpServer !== undefined
                    ? "mcp"
                    : byClient
                      ? "handler"
                      : refused
                        ? "none"
                        : "built-in",
            ...(call.mcpServer === undefined ? {} : { mcpServer: call.mcpServer }),
            expected: expectedOf(call.toolName),
            success: data?.success === true,
        });
        record.calls = Object.freeze([...record.calls.slice(-(MAX_RECORDED_CALLS - 1)), answer]);
        if (
            answer.expected === "handler" &&
            answer.answeredBy !== "handler" &&
            answer.answeredBy !== "none"
        ) {
            if (!failures.has(session)) {
                failures.set(session, answeredElsewhere(session.sessionId, answer));
            }
            session.abort?.().catch(() => {});
        }
        try {
            onToolAnswered?.(answer);
        } catch (error) {
            console.error(
                `onToolAnswered threw for the call '${toolCallId}' of '${call.toolName}':`,
                error
            );
        }
    });
    // A session of the SDK's class gets `send` from the class; an object with its own `send`
    // (a test double) gets its own wrapper.
    if (Object.hasOwn(session, "send")) guardSend(session);
    else attributeClass(Object.getPrototypeOf(session) as object | null);
}

/** By session, the call that a built-in or an MCP server answered in its handler's place. */
const failures = new WeakMap<object, SessionToolError>();

/** Session classes that {@link attributeClass} installed. */
const attributedClasses = new WeakSet<object>();

/**
 * Installs, once per session class: `send` that rejects with the session's
 * `CALL_ANSWERED_ELSEWHERE` once it has one, and the release of the recorded calls at disconnect.
 * On the class, so that a session object gets no own property and a disconnected one keeps
 * nothing of its attribution but such a failure (the SDK drops the event handlers at the same
 * step).
 */
function attributeClass(prototype: object | null): void {
    if (prototype === null || prototype === Object.prototype) return;
    if (attributedClasses.has(prototype)) return;
    attributedClasses.add(prototype);
    onDisconnected(prototype, (session) => recordedCalls.delete(session));
    guardSend(prototype);
}

/** Makes `target.send` reject with the session's `CALL_ANSWERED_ELSEWHERE` once it has one. */
function guardSend(target: object): void {
    const send = (target as { send?: unknown }).send;
    if (typeof send !== "function") return;
    Object.defineProperty(target, "send", {
        value: function send_(this: object, ...args: unknown[]) {
            const failure = failures.get(this);
            return failure !== undefined ? Promise.reject(failure) : send.apply(this, args);
        },
        enumerable: false,
        writable: true,
        configurable: true,
    });
}

/**
 * `resolution` with the session's recorded calls as `calls`: `session.toolResolution` of an
 * attributed session. The same object as long as neither changes.
 *
 * @param session - the session
 * @param resolution - the session's current resolution (its `calls` empty)
 */
export function withRecordedCalls(
    session: object,
    resolution: SessionToolResolution
): SessionToolResolution {
    const record = recordedCalls.get(session);
    if (record === undefined || record.calls.length === 0) return resolution;
    let byCalls = views.get(resolution);
    if (byCalls === undefined) {
        byCalls = new WeakMap();
        views.set(resolution, byCalls);
    }
    let view = byCalls.get(record.calls);
    if (view === undefined) {
        view = Object.freeze({ ...resolution, calls: record.calls });
        byCalls.set(record.calls, view);
    }
    return view;
}

const views = new WeakMap<
    SessionToolResolution,
    WeakMap<readonly ToolAnswer[], SessionToolResolution>
>();

function answeredElsewhere(sessionId: string, answer: ToolAnswer): SessionToolError {
    const what =
        answer.answeredBy === "mcp"
            ? `the MCP server ${quoteValue(answer.mcpServer)}`
            : "the runtime's built-in of that name";
    return new SessionToolError(
        "CALL_ANSWERED_ELSEWHERE",
        `The call ${quoteValue(answer.toolCallId)} to the custom tool ${quoteValue(answer.toolName)} was answered by ${what}, not by the app's handler, so session '${sessionId}' aborted its turn and takes no more messages. Something registered the name on the runtime without overridesBuiltInTool (another client of the session, or session.rpc.tools.set), or an MCP server took it: find it in onToolAnswered / toolResolution.calls, then disconnect this session and create or resume one whose tools only the patched SDK sets.`,
        [answer.toolName]
    );
}
