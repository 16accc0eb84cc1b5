import type { SessionConfig, Tool } from "@github/copilot-sdk";
import { validateSessionTools } from "./customToolChecks.js";
import { readOrRefuse } from "./callerInput.js";
import { snapshotCustomTools } from "./customTools.js";
import { formatList, messageOf, quoteValue } from "../toolFilter/formatting.js";
import {
    isDisconnected,
    isHeld,
    isRoutedTo,
    normaliseToolFilters,
    onDisconnected,
    registerToolHandlers,
    wireToolDefinition,
} from "../sdkSeam/sdkSeam.js";
import { TOOL_CUSTOMIZATION_PATCH } from "../patchMarker.js";
import { SessionToolError } from "./sessionToolError.js";
import {
    prepareSessionTools,
    sessionToolStateOf,
    type PreparedSessionTools,
    type SessionToolHost,
    type SessionToolConfig,
    type SessionToolResolution,
    type ToolSessionConfig,
} from "./sessionToolSetup.js";
import { readFilterOptions } from "./sessionToolFilter.js";
import { withRecordedCalls } from "./callAttribution.js";
import { IDLE, isBusy, nextTurnState, type TurnEvent, type TurnState } from "./sessionTurns.js";
import {
    meetFilter,
    planToolTransition,
    stopsForTurn,
    type ToolSide,
    type WireFilter,
} from "./toolTransition.js";

/**
 * What `session.setTools` changes. An option left out (or `undefined`) stays as it is; `null`
 * removes it: no custom tools, no `availableTools` (every tool allowed), no `excludedTools`, no
 * `customToolSets`.
 *
 * @experimental
 */
export interface SessionToolUpdate {
    /** The custom tools, replacing the current ones (their handlers too). */
    tools?: SessionConfig["tools"] | null;
    /** The allowlist, as at construction (tool names, `toolset:<name>`, patterns, a ToolSet). */
    availableTools?: SessionConfig["availableTools"] | null;
    /** The denylist, as at construction. */
    excludedTools?: SessionConfig["excludedTools"] | null;
    /** Named groups for `toolset:<name>`, as at construction. */
    customToolSets?: SessionToolConfig["customToolSets"] | null;
}

/**
 * How long `session.setTools` waits for each runtime request by default, in milliseconds. A
 * request that takes longer counts as failed: the previous tools are put back.
 */
export const DEFAULT_TOOL_UPDATE_TIMEOUT = 30_000;

/** A session's config, as construction read it. */
type SessionToolSource = ToolSessionConfig;

/** The keys of {@link SessionToolUpdate}. */
const UPDATE_KEYS = ["tools", "availableTools", "excludedTools", "customToolSets"] as const;
type UpdateKey = (typeof UPDATE_KEYS)[number];

/** The part of `CopilotClient` that `setTools` uses. */
export type SessionToolUpdateHost = SessionToolHost;

/** The part of `CopilotSession` that `setTools` uses (its public surface). */
export interface UpdatableSession {
    readonly sessionId: string;
    readonly rpc: {
        readonly options: { update(params: Record<string, unknown>): Promise<unknown> };
        readonly tools: {
            set(params: { tools: object[] }): Promise<unknown>;
            initializeAndValidate(): Promise<unknown>;
            handlePendingToolCall(params: { requestId: string; error: string }): Promise<unknown>;
        };
    };
    on(
        eventType: "external_tool.requested",
        handler: (event: { data: { requestId: string; toolName: string } }) => void
    ): () => void;
    on(
        eventType: "assistant.turn_start" | "assistant.turn_end" | "session.idle" | "user.message",
        handler: (event: { data?: TurnEventData }) => void
    ): () => void;
    on(
        eventType: "external_tool.completed",
        handler: (event: { data?: { requestId?: string } }) => void
    ): () => void;
    setModel?: (model: string, ...rest: unknown[]) => Promise<unknown>;
    send?: (...args: unknown[]) => Promise<unknown>;
}

/** The fields of the turn events the session reads. */
interface TurnEventData {
    readonly mode?: string;
    readonly delivery?: string;
    readonly aborted?: boolean;
    readonly messageId?: string;
    readonly interactionId?: string;
    readonly turnId?: string;
}

/** One side of a change of tools: what the runtime is sent and which handlers answer. */
interface ToolConfig {
    /** The custom tools as sent (handlers included). */
    readonly tools: readonly Tool[];
    /** By name, each tool's definition as `session.tools.set` carries it, serialised. */
    readonly definitions: ReadonlyMap<string, string>;
    /** The filter as sent, with the guards of {@link guardedFilter}. */
    readonly filter: WireFilter;
    readonly resolution: SessionToolResolution;
}

/** What a session's tools are now. */
interface SessionTools {
    /** The session's config as the step last read it; undefined once the session is released. */
    config: SessionToolSource | undefined;
    /** The tools, filter and resolution in force. */
    current: ToolConfig;
    /**
     * False after a change failed half-way and could not be undone: the runtime may hold either
     * config's tools, so handlers of both answer and the next change sends everything.
     */
    known: boolean;
    /** Names of the custom tools registered: the SDK answers them, or the app (declared only). */
    readonly answered: Set<string>;
    /**
     * Names a change took away while a turn ran, until the session is next idle: only their calls
     * get the "removed" answer (a name this session never had, or removed while idle, may be
     * another client's tool on the same session).
     */
    readonly removed: Set<string>;
    /**
     * While the runtime's tools are unknown (`known` false): every built-in a custom tool may
     * replace there, from either config of the change that could not be undone.
     */
    mayReplace: ReadonlySet<string>;
    /** The number of the resume that made this object, see `SessionToolState.resumes`. */
    readonly generation: number;
    /** The client that constructed the session. */
    readonly client: SessionToolUpdateHost;
    /** The last `setTools` in line; the next one waits for it. */
    queue: Promise<unknown>;
    /** Aborted when the session is disconnected: every wait of `setTools` ends there. */
    readonly disconnected: AbortController;
    /** Whether the session is busy (see {@link followTurns}). */
    turns: TurnState;
    /** How many messages were sent through the session (numbers them for the busy state). */
    sends: number;
    /** A running change of a built-in's owner; messages sent meanwhile wait for it. */
    ownerChange: Promise<void> | undefined;
}

const sessionTools = new WeakMap<object, SessionTools>();

/** `session.toolResolution`: the resolution in force; undefined once disconnected. */
function toolResolutionOf(this: object): SessionToolResolution | undefined {
    const resolution = sessionTools.get(this)?.current.resolution;
    return resolution === undefined ? undefined : withRecordedCalls(this, resolution);
}

/** `session.setTools` (see {@link setSessionTools}). */
function setToolsOf(
    this: UpdatableSession,
    update: unknown,
    timeout?: number
): Promise<SessionToolResolution> {
    if (this === null || typeof this !== "object") {
        return Promise.reject(
            new SessionToolError(
                "INVALID_TOOL_UPDATE",
                "setTools was called without its session: call it as session.setTools({ tools }), or bind it (session.setTools.bind(session))."
            )
        );
    }
    const entry = sessionTools.get(this);
    if (entry === undefined) {
        return Promise.reject(
            new SessionToolError(
                "INVALID_TOOL_UPDATE",
                `Session '${this.sessionId}' is disconnected, so setTools cannot change it: resume it with client.resumeSession('${this.sessionId}', { tools, ... }) and call setTools on the session that returns.`
            )
        );
    }
    return setSessionTools(entry.client, this, update, timeout);
}

/**
 * Gives a constructed session its read-only `toolResolution`, its `setTools` method, an answer
 * for every tool call no handler takes, and the release of its tool state at disconnect.
 *
 * @param session - the session `createSession` / `resumeSession` constructed
 * @param prepared - the session step's outcome for it
 * @param client - the client that constructed it
 * @returns the same session
 */
export function attachSessionTools<S extends object>(
    session: S,
    prepared: PreparedSessionTools<SessionToolSource>,
    client: SessionToolUpdateHost
): S {
    prepared.deliverWarnings();
    const live = session as S & UpdatableSession;
    const state = sessionToolStateOf(client);
    const entry: SessionTools = {
        config: prepared.source,
        current: configOf(prepared),
        known: true,
        answered: new Set(),
        removed: new Set(),
        mayReplace: new Set(),
        generation: prepared.generation ?? state.resumes.get(live.sessionId) ?? 0,
        client,
        queue: Promise.resolve(),
        disconnected: new AbortController(),
        turns: IDLE,
        sends: 0,
        ownerChange: undefined,
    };
    commit(live, entry, entry.current.tools);
    sessionTools.set(session, entry);
    // The methods live on the session class, shared: a session object gets no own property,
    // and a disconnected one keeps nothing of the tool state (bench/sessionMemory.bench.ts).
    installSessionMethods(Object.getPrototypeOf(session) as object);
    answerUnhandledCalls(live, entry);
    followTurns(live, entry);
    return session;
}

/**
 * The session's config as the session step last read it (construction, `setTools`, `setModel`),
 * for `session.previewModel`; undefined for a session the patched SDK did not construct or that
 * was released.
 */
export function sessionToolSource(session: object): ToolSessionConfig | undefined {
    return sessionTools.get(session)?.config;
}

/**
 * The client that constructed the session, while it has tool state (not released); undefined
 * otherwise.
 */
export function sessionToolClient(session: object): SessionToolUpdateHost | undefined {
    return sessionTools.get(session)?.client;
}

/**
 * Changes a running session's custom tools and filter, with the checks of construction: the
 * update is read and checked as `createSession` would, and refused with the same
 * `SessionToolError` before anything is sent, leaving the session as it was. Accepted, the change
 * goes to the runtime in steps that are each safe on their own (see {@link transition}); the
 * model sees the new set from its next request on, also in the middle of a turn. Calls on one
 * session apply in call order; each runtime request waits at most `timeout` milliseconds.
 *
 * @param client - the client that constructed the session
 * @param session - the session
 * @param update - what to change (see {@link SessionToolUpdate})
 * @param timeout - how long to wait for each runtime request, in milliseconds
 * @returns the session's new `toolResolution`
 * @throws SessionToolError for a malformed update or anything construction refuses
 */
export function setSessionTools(
    client: SessionToolUpdateHost,
    session: UpdatableSession,
    update: unknown,
    timeout: number = DEFAULT_TOOL_UPDATE_TIMEOUT
): Promise<SessionToolResolution> {
    const entry = sessionTools.get(session);
    if (entry === undefined) {
        return Promise.reject(
            new SessionToolError(
                "INVALID_TOOL_UPDATE",
                "This session was not constructed by the patched createSession or resumeSession, so its tools cannot be changed: construct it again."
            )
        );
    }
    let read: Pick<SessionToolSource, UpdateKey>;
    try {
        assertSupported(session);
        if (typeof timeout !== "number" || !(timeout > 0) || timeout > 2_147_483_647) {
            throw new SessionToolError(
                "INVALID_TOOL_UPDATE",
                `Invalid setTools timeout ${quoteValue(timeout)}: pass a number of milliseconds above 0 (default ${DEFAULT_TOOL_UPDATE_TIMEOUT}), or leave it out.`
            );
        }
        // Read now, at the call: what the caller changes afterwards does not count.
        read = readUpdate(update);
        assertLive(client, session, entry);
    } catch (error) {
        return Promise.reject(error);
    }
    return enqueue(client, session, entry, () =>
        applyUpdate(client, session, entry, read, timeout)
    );
}

/** The runtime requests `setTools` sends, as the SDK's session RPC names them. */
const UPDATE_REQUESTS = [
    ["tools", "set", "session.tools.set"],
    ["options", "update", "session.options.update"],
] as const;

/**
 * An SDK release that lacks a request `setTools` needs (releases before 1.0.13-preview.4 have no
 * `session.tools.set`) gets a refusal naming the release and the request, before anything is
 * attempted: the patch build records what the release can do, and the session's RPC is asked too.
 */
function assertSupported(session: UpdatableSession): void {
    const rpc = session.rpc as unknown as Record<string, Record<string, unknown> | undefined>;
    const missing = UPDATE_REQUESTS.filter(
        ([group, method, request]) =>
            typeof rpc[group]?.[method] !== "function" ||
            (request === "session.tools.set" && !TOOL_CUSTOMIZATION_PATCH.capabilities.setTools)
    ).map(([, , request]) => request);
    if (missing.length === 0) return;
    throw new SessionToolError(
        "UNSUPPORTED_BY_RELEASE",
        `session.setTools needs the runtime ${missing.length === 1 ? "request" : "requests"} ${formatList(missing)}, which @github/copilot-sdk ${TOOL_CUSTOMIZATION_PATCH.sdkVersion} does not have, so it cannot change a running session's tools: resume the session with the new tools instead, client.resumeSession('${session.sessionId}', { tools, ... }), or move to an SDK release that has it (1.0.13 or later).`,
        missing
    );
}

/** Runs `step` after the session's earlier `setTools` calls; `resumeSession` waits for it. */
function enqueue<T>(
    client: SessionToolUpdateHost,
    session: UpdatableSession,
    entry: SessionTools,
    step: () => Promise<T>
): Promise<T> {
    const { updates } = sessionToolStateOf(client);
    const applied = entry.queue.then(() => {
        assertLive(client, session, entry);
        return step();
    });
    const settled = applied.catch(() => {});
    entry.queue = settled;
    updates.set(session.sessionId, settled);
    void settled.then(() => {
        if (updates.get(session.sessionId) === settled) updates.delete(session.sessionId);
    });
    return applied;
}

/**
 * A session must not change the tools once its client no longer routes its id to it
 * (disconnected, or replaced by a `resumeSession` of the same id, also one still starting):
 * `session.tools.set` and `session.options.update` act on the id, so they would change the
 * tools of the session that holds it now.
 */
function assertLive(
    client: SessionToolUpdateHost,
    session: UpdatableSession,
    entry: SessionTools
): void {
    const { resumes } = sessionToolStateOf(client);
    if (isDisconnected(session) || entry.disconnected.signal.aborted) {
        throw new SessionToolError(
            "INVALID_TOOL_UPDATE",
            `Session '${session.sessionId}' is disconnected, so setTools cannot change it: resume it with client.resumeSession('${session.sessionId}', { tools, ... }) and call setTools on the session that returns.`
        );
    }
    if (!isHeld(client, session.sessionId)) {
        throw new SessionToolError(
            "INVALID_TOOL_UPDATE",
            `Session '${session.sessionId}' is no longer held by its client (a resumeSession of it failed, or it was deleted), so setTools cannot change it: resume it with client.resumeSession('${session.sessionId}', { tools, ... }) and call setTools on the session that returns.`
        );
    }
    if (
        !isRoutedTo(client, session.sessionId, session) ||
        (resumes.get(session.sessionId) ?? 0) !== entry.generation
    ) {
        throw new SessionToolError(
            "INVALID_TOOL_UPDATE",
            `Session '${session.sessionId}' was resumed as another object: call setTools on the session that resumeSession returned.`
        );
    }
}

async function applyUpdate(
    client: SessionToolUpdateHost,
    session: UpdatableSession,
    entry: SessionTools,
    update: Pick<SessionToolSource, UpdateKey> | { model: string },
    timeout: number
): Promise<SessionToolResolution> {
    const config: SessionToolSource = { ...entry.config!, ...update };
    // The same pipeline as construction: the SDK's own checks, then the session step.
    const prepared = await prepareSessionTools(
        client,
        config,
        normaliseToolFilters(client, config)
    );
    // The session may have been disconnected or replaced while the step waited for the runtime.
    assertLive(client, session, entry);
    const next = configOf(prepared);
    await transition(client, session, entry, next, prepared, timeout);
    prepared.deliverWarnings();
    entry.config = prepared.source;
    return next.resolution;
}

/**
 * Carries out the change {@link planToolTransition} decides on (see there for the states and why
 * each is safe). Before each request the session must still own its id; a change that must stay
 * in an idle session stops before the tool definitions are sent if a turn started meanwhile
 * (another client, `fleet.start`), and is then refused as busy. A request that fails or does not
 * answer within `timeout` puts the previous config back the same way; if that fails too, the
 * handlers of both stay and the next change sends everything.
 */
async function transition(
    client: SessionToolUpdateHost,
    session: UpdatableSession,
    entry: SessionTools,
    next: ToolConfig,
    prepared: PreparedSessionTools<SessionToolSource>,
    timeout: number
): Promise<void> {
    const previous = entry.current;
    const plan = planToolTransition(sideOf(previous), sideOf(next), {
        busy: isBusy(entry.turns),
        known: entry.known,
        mayReplace: entry.mayReplace,
    });
    if (plan.kind === "refuse") throw busyRefusal(plan.names);
    const send = (what: string, request: () => Promise<unknown>) =>
        bounded(client, session, entry, what, request, timeout);
    const meet = meetFilter(sideOf(previous), sideOf(next));
    const steps = (async () => {
        for (const call of plan.calls) {
            switch (call.kind) {
                case "handlers":
                    registerHandlers(
                        session,
                        entry,
                        call.first === "current"
                            ? both(previous.tools, next.tools)
                            : both(next.tools, previous.tools)
                    );
                    break;
                case "handlers-next":
                    break;
                case "filter":
                    await send("session.options.update", () => sendFilter(session, call.filter));
                    break;
                case "tools":
                    if (stopsForTurn(plan, call, isBusy(entry.turns))) {
                        throw new BusyMeanwhile(plan.idleOnly);
                    }
                    await send("session.tools.set", () =>
                        session.rpc.tools.set({ tools: next.tools.map(toolsSetDefinition) })
                    );
                    break;
                case "validate":
                    // As at construction, with validateTools: the runtime checks the new tools.
                    await send("session.tools.initializeAndValidate", () =>
                        validateSessionTools(session, prepared.config, async () => {})
                    );
                    break;
            }
        }
    })();
    // Messages sent meanwhile wait for a change that must stay in an idle session.
    if (plan.idleOnly.length > 0) entry.ownerChange = steps.catch(() => {});
    try {
        await steps;
    } catch (failure) {
        const error = await putBack(client, session, entry, previous, next, meet, failure, send);
        if (failure instanceof BusyMeanwhile && error.message.startsWith("setTools failed:")) {
            throw busyRefusal(failure.names);
        }
        // Put back: the runtime's name clash, said as such. Not put back: the error says so.
        const putBackDone = error.message.startsWith("setTools failed:");
        throw (putBackDone ? clashOf(failure, next.tools) : undefined) ?? error;
    } finally {
        entry.ownerChange = undefined;
    }
    commit(session, entry, next.tools);
    entry.current = next;
    entry.known = true;
    entry.mayReplace = new Set();
}

/** A turn started while a change that must stay in an idle session was under way. */
class BusyMeanwhile extends Error {
    constructor(readonly names: readonly string[]) {
        super(`a turn started while setTools changed ${formatList(names)}`);
    }
}

function busyRefusal(names: readonly string[]): SessionToolError {
    return new SessionToolError(
        "SESSION_BUSY",
        `setTools cannot change which tool answers ${formatList(names)}, or its definition, while the session is processing a message: the runtime could route a call the model makes with one definition to another tool of that name (the built-in, an MCP tool, or none). Call it once the session is idle (after sendAndWait resolves, or on 'session.idle'); adding or removing other tools, changing handlers and changing the filter can be made at any time.`,
        names
    );
}

/**
 * The runtime's refusal of a name another connection registered on the same session, as a
 * `SessionToolError` naming the tool; undefined for any other failure.
 */
export function clashOf(failure: unknown, tools: readonly Tool[]): SessionToolError | undefined {
    const reason = messageOf(failure);
    if (!/External tool name clash/i.test(reason)) return undefined;
    const names = tools.map((tool) => tool.name).filter((name) => reason.includes(name));
    return new SessionToolError(
        "TOOL_NAME_CLASH",
        `Custom ${names.length === 1 ? "tool" : "tools"} ${formatList(names.length > 0 ? names : ["(unnamed)"])} ${names.length === 1 ? "is" : "are"} already registered on this session by another connection (another client holds the session: ${reason}). One client owns each name: rename the tool, or remove it from the other client first. Nothing was changed.`,
        names,
        { cause: failure }
    );
}

/** The rule's view of one side of a change. */
function sideOf(config: ToolConfig): ToolSide {
    return {
        definitions: config.definitions,
        filter: config.filter,
        overridden: config.resolution.overriddenBuiltInTools,
        enablement: config.resolution.toolEnablement,
        modeBuiltIns: [
            ...config.resolution.modeTools.plan,
            ...config.resolution.modeTools.autopilot,
        ],
    };
}

/** Puts `previous` back after a failed step; returns the error to throw. */
async function putBack(
    client: SessionToolUpdateHost,
    session: UpdatableSession,
    entry: SessionTools,
    previous: ToolConfig,
    next: ToolConfig,
    meet: WireFilter,
    failure: unknown,
    send: (what: string, request: () => Promise<unknown>) => Promise<unknown>
): Promise<Error> {
    const reason = messageOf(failure);
    if (failure instanceof SessionToolError || entry.disconnected.signal.aborted) {
        // No longer this object's to change (disconnected or resumed): nothing more is sent.
        return failure instanceof Error ? failure : new Error(reason);
    }
    try {
        assertLive(client, session, entry);
        await send("session.options.update", () => sendFilter(session, meet));
        await send("session.tools.set", () =>
            session.rpc.tools.set({ tools: previous.tools.map(toolsSetDefinition) })
        );
        registerHandlers(session, entry, both(previous.tools, next.tools));
        await send("session.options.update", () => sendFilter(session, previous.filter));
    } catch (undo) {
        // The runtime may hold either config's tools: every custom name keeps a handler, and the
        // next change sends everything.
        entry.known = false;
        entry.mayReplace = new Set([
            ...entry.mayReplace,
            ...previous.resolution.overriddenBuiltInTools,
            ...next.resolution.overriddenBuiltInTools,
        ]);
        const union = both(previous.tools, next.tools);
        // Both sets' handlers answer; nothing counts as removed (the runtime may hold either).
        registerHandlers(session, entry, union);
        for (const tool of union) entry.answered.add(tool.name);
        entry.current = { ...previous, tools: union };
        const advice = isDisconnected(session)
            ? `resume it with client.resumeSession('${session.sessionId}', { tools, ... })`
            : "call setTools again to set them";
        return new Error(
            `setTools failed (${reason}), and putting the previous tools back failed too (${messageOf(undo)}): the runtime may hold either set of tools; calls to either set's custom tools reach their handlers, and built-ins that neither set allows stay excluded. To recover, ${advice}.`,
            { cause: failure }
        );
    }
    // Put back: the names the change only tried to add leave no trace.
    registerHandlers(session, entry, previous.tools);
    return new Error(
        `setTools failed: ${reason}. The session keeps its previous tools and filter.`,
        {
            cause: failure,
        }
    );
}

/**
 * Runs one runtime request of `setTools`, after checking that the session still owns its id, and
 * waits at most `timeout` ms for it; a disconnect ends the wait at once.
 */
function bounded(
    client: SessionToolUpdateHost,
    session: UpdatableSession,
    entry: SessionTools,
    what: string,
    request: () => Promise<unknown>,
    timeout: number
): Promise<unknown> {
    const { signal } = entry.disconnected;
    return new Promise((resolve, reject) => {
        try {
            assertLive(client, session, entry);
        } catch (error) {
            return reject(error);
        }
        const done = () => {
            clearTimeout(timer);
            signal.removeEventListener("abort", onAbort);
        };
        const onAbort = () => {
            done();
            reject(signal.reason);
        };
        const timer = setTimeout(() => {
            done();
            reject(new Error(`the runtime did not answer ${what} within ${timeout} ms`));
        }, timeout);
        timer.unref?.();
        signal.addEventListener("abort", onAbort, { once: true });
        Promise.resolve()
            .then(request)
            .then(
                (value) => {
                    done();
                    resolve(value);
                },
                (error: unknown) => {
                    done();
                    reject(error);
                }
            );
    });
}

/** Registers `tools`' handlers with the SDK (a step of a change; nothing is noted). */
function registerHandlers(
    session: UpdatableSession,
    entry: SessionTools,
    tools: readonly Tool[]
): void {
    // A disconnected session has no handlers; nothing must put them back.
    if (isDisconnected(session) || entry.disconnected.signal.aborted) return;
    registerToolHandlers(session, tools);
}

/**
 * Makes `tools` the session's tools once the runtime took them: their handlers answer, and a
 * name taken away while a turn runs gets the "removed" answer until the session is next idle.
 */
function commit(session: UpdatableSession, entry: SessionTools, tools: readonly Tool[]): void {
    registerHandlers(session, entry, tools);
    const names = new Set(tools.map((tool) => tool.name));
    if (isBusy(entry.turns)) {
        for (const name of entry.answered) if (!names.has(name)) entry.removed.add(name);
    }
    for (const name of names) entry.removed.delete(name);
    entry.answered.clear();
    for (const name of names) entry.answered.add(name);
}

/** How long a call of a removed tool waits for another client's answer before ours, in ms. */
const REMOVED_ANSWER_DELAY = 200;

/**
 * Every `external_tool.requested` gets an answer: the SDK's handlers take the names they have;
 * a name this session removed while a turn ran (a call on its way when `setTools` took the tool
 * away) gets an error result naming the tool, instead of a turn that waits forever, unless
 * another client answers it first. Other names are not this client's to answer.
 */
function answerUnhandledCalls(session: UpdatableSession, entry: SessionTools): void {
    const completed = new Set<string>();
    session.on("external_tool.completed", (event) => {
        const requestId = event.data?.requestId;
        if (typeof requestId === "string" && entry.removed.size > 0) completed.add(requestId);
    });
    session.on("external_tool.requested", (event) => {
        const { requestId, toolName } = event.data ?? {};
        if (typeof requestId !== "string" || !entry.removed.has(toolName)) return;
        if (entry.disconnected.signal.aborted) return;
        const timer = setTimeout(() => {
            const answered = completed.delete(requestId);
            if (answered || entry.disconnected.signal.aborted) return;
            if (!entry.removed.has(toolName)) return;
            session.rpc.tools
                .handlePendingToolCall({
                    requestId,
                    error: `Tool ${quoteValue(toolName)} was removed from this session (session.setTools) before this call ran, so it is not available; use the tools offered now.`,
                })
                .catch(() => {});
        }, REMOVED_ANSWER_DELAY);
        timer.unref?.();
    });
}

/** Session classes whose methods {@link installSessionMethods} installed. */
const installed = new WeakSet<object>();

/**
 * Installs, once per session class, what a session constructed by the patch has: the read-only
 * `toolResolution` (undefined for a session the patch did not construct, or once disconnected),
 * `setTools`, `send` that follows the session's busy state and waits for `setTools` calls made
 * before it, `setModel` whose resolution follows the new model, and the release of the session's
 * tool state at disconnect. A session without tool state gets the SDK's own behaviour.
 */
function installSessionMethods(prototype: object): void {
    if (installed.has(prototype)) return;
    installed.add(prototype);
    const methods = prototype as {
        send?: (...args: unknown[]) => Promise<unknown>;
        setModel?: (model: string, ...rest: unknown[]) => Promise<unknown>;
    };
    Object.defineProperty(prototype, "toolResolution", {
        get: toolResolutionOf,
        enumerable: false,
        configurable: true,
    });
    Object.defineProperty(prototype, "setTools", {
        value: setToolsOf,
        enumerable: false,
        writable: true,
        configurable: true,
    });
    const send = methods.send;
    if (typeof send === "function") {
        Object.defineProperty(prototype, "send", {
            value: function send_(this: UpdatableSession, ...args: unknown[]) {
                const entry = sessionTools.get(this);
                return entry === undefined
                    ? send.apply(this, args)
                    : followedSend(this, entry, send, args);
            },
            enumerable: false,
            writable: true,
            configurable: true,
        });
    }
    const setModel = methods.setModel;
    if (typeof setModel === "function") {
        Object.defineProperty(prototype, "setModel", {
            value: async function setModel_(
                this: UpdatableSession,
                model: string,
                ...rest: unknown[]
            ) {
                const result = await setModel.call(this, model, ...rest);
                const entry = sessionTools.get(this);
                if (typeof model === "string" && entry?.config !== undefined) {
                    await enqueue(entry.client, this, entry, () =>
                        applyUpdate(
                            entry.client,
                            this,
                            entry,
                            { model },
                            DEFAULT_TOOL_UPDATE_TIMEOUT
                        )
                    ).catch(() => {
                        // The model changed; a resolution that could not follow keeps the old.
                    });
                }
                return result;
            },
            enumerable: false,
            writable: true,
            configurable: true,
        });
    }
    onDisconnected(prototype, releaseSession);
}

/**
 * At disconnect, whichever way: a `setTools` under way stops, and the session's tool state is
 * dropped (a call under way keeps its own reference until it settles); the SDK drops its
 * handlers at the same step.
 */
function releaseSession(session: object): void {
    const entry = sessionTools.get(session);
    if (entry === undefined) return;
    sessionTools.delete(session);
    entry.disconnected.abort(
        new Error(
            `Session '${(session as UpdatableSession).sessionId}' was disconnected while setTools was changing its tools; nothing more was sent.`
        )
    );
    entry.config = undefined;
    entry.answered.clear();
    entry.removed.clear();
}

/**
 * A custom tool as `session.tools.set` must carry it. `createSession`/`resumeSession` send a tool
 * without `description` with the field left out, and the runtime takes it (the model is offered
 * the tool with no description); `session.tools.set` refuses the same tool ("missing field
 * `description`", measured on runtime 1.0.14). So a missing description goes as the empty
 * string, the nearest the runtime accepts: `setTools` takes every tool `createSession` takes.
 */
function toolsSetDefinition(tool: Tool): object {
    const definition = wireToolDefinition(tool) as { description?: unknown };
    return definition.description === undefined ? { ...definition, description: "" } : definition;
}

/** What the step prepared, as one side of a change. */
function configOf(prepared: PreparedSessionTools<SessionToolSource>): ToolConfig {
    const tools = prepared.config.tools ?? [];
    return {
        tools,
        definitions: new Map(
            tools.map((tool) => [tool.name, JSON.stringify(wireToolDefinition(tool))])
        ),
        filter: guardedFilter(prepared.resolution, prepared.excludedWith),
        resolution: prepared.resolution,
    };
}

/**
 * The filter for the runtime, with each built-in that a custom tool replaces excluded by its
 * `builtin:` pattern (the custom tool stays): should the runtime ever hold other tools than this
 * filter was made for (a request that timed out and applied late), the built-in still cannot
 * answer. A name whose exclusion would also remove another built-in the session offers (the
 * runtime's `rg`/`grep` alias) is not guarded.
 */
function guardedFilter(
    resolution: SessionToolResolution,
    excludedWith: ReadonlyMap<string, readonly string[]>
): WireFilter {
    const { wire, overriddenBuiltInTools, toolEnablement } = resolution;
    const offered = [...toolEnablement].filter(([, on]) => on).map(([name]) => name);
    const guards = overriddenBuiltInTools
        .filter(
            (name) =>
                !offered.some(
                    (other) => other !== name && excludedWith.get(other)?.includes(name) === true
                )
        )
        .map((name) => `builtin:${name}`);
    return {
        availableTools: wire.availableTools === undefined ? null : wire.availableTools,
        excludedTools: unique([...(wire.excludedTools ?? []), ...guards]),
    };
}

/** How long a message waits for the `setTools` calls made before it, in milliseconds. */
const SEND_WAIT = DEFAULT_TOOL_UPDATE_TIMEOUT * 4;

/**
 * Follows whether the session is busy (see `sessionTurns.ts`): the runtime's turn events, and the
 * messages sent through this object, matched to the `user.message` that takes each. A message
 * waits for the `setTools` calls made before it and for a change that must stay in an idle
 * session, at most {@link SEND_WAIT} ms; then it is refused with `SESSION_BUSY`.
 */
function followTurns(session: UpdatableSession, entry: SessionTools): void {
    const step = (event: TurnEvent) => {
        entry.turns = nextTurnState(entry.turns, event);
        // Once idle, no call of a removed tool is on its way any more.
        if (event.kind === "idle" && !isBusy(entry.turns)) entry.removed.clear();
    };
    session.on("user.message", (event) => {
        const { messageId, delivery } = event?.data ?? {};
        step({ kind: "user.message", messageId, delivery });
    });
    session.on("assistant.turn_start", (event) => {
        const { interactionId, turnId } = event?.data ?? {};
        step({ kind: "turn_start", interactionId, turnId });
    });
    session.on("assistant.turn_end", (event) => {
        const { interactionId, turnId } = event?.data ?? {};
        step({ kind: "turn_end", interactionId, turnId });
    });
    session.on("session.idle", (event) => {
        const { mode, aborted } = event?.data ?? {};
        step({ kind: "idle", autopilot: mode === "autopilot", aborted: aborted === true });
    });
}

/**
 * `session.send` of a session with tool state: waits for the `setTools` calls made before the
 * message and for a change that must stay in an idle session (at most {@link SEND_WAIT} ms), and
 * counts the message as busy until the runtime took and finished it.
 */
async function followedSend(
    session: UpdatableSession,
    entry: SessionTools,
    send: (...args: unknown[]) => Promise<unknown>,
    args: unknown[]
): Promise<unknown> {
    const call = ++entry.sends;
    const step = (event: TurnEvent) => {
        entry.turns = nextTurnState(entry.turns, event);
    };
    // setTools calls made before this message apply before it.
    await waitAtMost(SEND_WAIT, () => Promise.all([entry.queue, entry.ownerChange]));
    step({ kind: "send", call });
    try {
        const messageId = await send.apply(session, args);
        step({
            kind: "sent",
            call,
            messageId: typeof messageId === "string" ? messageId : undefined,
        });
        return messageId;
    } catch (error) {
        step({ kind: "send-failed", call });
        throw error;
    }
}

/** Waits for `what` at most `timeout` ms; then refuses the message with `SESSION_BUSY`. */
function waitAtMost(timeout: number, what: () => Promise<unknown>): Promise<void> {
    return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
            reject(
                new SessionToolError(
                    "SESSION_BUSY",
                    `The message was not sent: a session.setTools call made before it has not finished within ${timeout} ms (the runtime does not answer). Send it again once setTools settles, or disconnect and resume the session.`
                )
            );
        }, timeout);
        timer.unref?.();
        const settle = () => {
            clearTimeout(timer);
            resolve();
        };
        what().then(settle, settle);
    });
}

/** Sends a filter as the session's (`null` availableTools: every tool allowed). */
async function sendFilter(session: UpdatableSession, filter: WireFilter): Promise<void> {
    await session.rpc.options.update({
        availableTools: filter.availableTools === null ? null : [...filter.availableTools],
        excludedTools: [...filter.excludedTools],
    });
}

/** `first`'s tools, then those of `second` whose names `first` lacks. */
function both(first: readonly Tool[], second: readonly Tool[]): Tool[] {
    const names = new Set(first.map((tool) => tool.name));
    return [...first, ...second.filter((tool) => !names.has(tool.name))];
}

function unique(entries: readonly string[]): readonly string[] {
    return Object.freeze([...new Set(entries)]);
}

/**
 * The update's options, read once (a `ToolSet` becomes its entries, lists frozen copies read by
 * index), `null` turned into "not set". Their values are checked by the session step, as at
 * construction.
 */
function readUpdate(update: unknown): Pick<SessionToolSource, UpdateKey> {
    const example = "e.g. session.setTools({ tools: [lint] })";
    const keys = readOrRefuse(
        () => {
            if (update === null || typeof update !== "object" || Array.isArray(update)) {
                throw new SessionToolError(
                    "INVALID_TOOL_UPDATE",
                    `Invalid setTools argument ${quoteValue(update)}: pass an object with any of ${UPDATE_KEYS.map((key) => `'${key}'`).join(", ")}, ${example}.`
                );
            }
            return Object.keys(update);
        },
        "INVALID_TOOL_UPDATE",
        (reason) =>
            `Invalid setTools argument: it cannot be read (${reason}); pass a plain object, ${example}.`
    );
    const unknown = keys.filter((key) => !(UPDATE_KEYS as readonly string[]).includes(key));
    if (unknown.length > 0) {
        throw new SessionToolError(
            "INVALID_TOOL_UPDATE",
            `setTools does not change ${unknown.map((key) => quoteValue(key)).join(", ")}: it takes ${UPDATE_KEYS.map((key) => `'${key}'`).join(", ")}. Other options need a new session or resumeSession.`,
            unknown
        );
    }
    const given = readOrRefuse(
        () => {
            const values: Partial<Record<UpdateKey, unknown>> = {};
            for (const key of UPDATE_KEYS) {
                if (keys.includes(key)) values[key] = (update as Record<UpdateKey, unknown>)[key];
            }
            return values;
        },
        "INVALID_TOOL_UPDATE",
        (reason) =>
            `Invalid setTools argument: it cannot be read (${reason}); pass a plain object, ${example}.`
    );
    const present = (key: UpdateKey) => given[key] !== undefined;
    const orNull = (key: UpdateKey) => (given[key] === null ? undefined : given[key]);
    const filters = readFilterOptions({
        availableTools: orNull("availableTools"),
        excludedTools: orNull("excludedTools"),
        customToolSets: orNull("customToolSets"),
    });
    const read: Partial<Record<UpdateKey, unknown>> = {};
    if (present("tools")) read.tools = snapshotCustomTools(orNull("tools"));
    for (const key of ["availableTools", "excludedTools", "customToolSets"] as const) {
        if (present(key)) read[key] = filters[key];
    }
    return read as Pick<SessionToolSource, UpdateKey>;
}
