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

/** A filter as the runtime receives it (`session.options.update`). */
interface WireFilter {
    readonly availableTools: readonly string[] | null;
    readonly excludedTools: readonly string[];
}

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
        eventType: "assistant.turn_start" | "assistant.turn_end" | "session.idle",
        handler: (event: { data?: { mode?: string } }) => void
    ): () => void;
    setModel?: (model: string, ...rest: unknown[]) => Promise<unknown>;
    send?: (...args: unknown[]) => Promise<unknown>;
}

/** One side of a change of tools: what the runtime is sent and which handlers answer. */
interface ToolConfig {
    /** The custom tools as sent (handlers included). */
    readonly tools: readonly Tool[];
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
     * Names this session had and a change took away: only their calls get the "removed" answer
     * (a name this session never had may be another client's tool on the same session).
     */
    readonly removed: Set<string>;
    /**
     * While the runtime's tools are unknown (`known` false): every built-in a custom tool may
     * replace there, from either config of the change that could not be undone.
     */
    mayReplace: ReadonlySet<string>;
    /** The number of the resume that made this object, see `SessionToolState.resumes`. */
    readonly generation: number;
    /** The last `setTools` in line; the next one waits for it. */
    queue: Promise<unknown>;
    /** Aborted when the session is disconnected: every wait of `setTools` ends there. */
    readonly disconnected: AbortController;
    /** How many model turns run now (see {@link followTurns}). */
    turns: number;
    /** How many messages were sent since the session was last idle. */
    sends: number;
    /** A running change of a built-in's owner; messages sent meanwhile wait for it. */
    ownerChange: Promise<void> | undefined;
}

const sessionTools = new WeakMap<object, SessionTools>();

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
        queue: Promise.resolve(),
        disconnected: new AbortController(),
        turns: 0,
        sends: 0,
        ownerChange: undefined,
    };
    answerWith(entry, entry.current.tools);
    sessionTools.set(session, entry);
    Object.defineProperty(session, "toolResolution", {
        get: () => withRecordedCalls(session, entry.current.resolution),
        enumerable: true,
        configurable: false,
    });
    Object.defineProperty(session, "setTools", {
        value: (update: unknown, timeout?: number) =>
            setSessionTools(client, live, update, timeout),
        enumerable: false,
        writable: false,
        configurable: false,
    });
    answerUnhandledCalls(live, entry);
    followTurns(live, entry);
    followModelChanges(client, live, entry);
    onDisconnected(session, () => {
        entry.disconnected.abort(
            new Error(
                `Session '${live.sessionId}' was disconnected while setTools was changing its tools; nothing more was sent.`
            )
        );
        // The SDK drops its handlers here; drop ours and the options that hold them too.
        entry.config = undefined;
        entry.current = { ...entry.current, tools: [] };
        entry.answered.clear();
        entry.removed.clear();
    });
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
 * Moves the runtime from the session's current tools to `target` in states that are each safe:
 *
 * 1. handlers of both configs answer (the current one's for shared names);
 * 2. the filter becomes the meet of both (what both allow, see {@link meetFilter}), which also
 *    excludes every built-in a custom tool replaces on either side;
 * 3. the runtime gets the new tool definitions; handlers of both still answer (the new one's for
 *    shared names), so a call from either set reaches a handler of its name;
 * 4. the filter becomes the new one (guarded, see {@link guardedFilter});
 * 5. only the new handlers answer; a late call of a removed tool gets an error result.
 *
 * A change of which tool answers a built-in's name (a custom tool that starts or stops replacing
 * it) is made only while the session is idle, and messages sent through the session wait for
 * it: the runtime takes the tool definitions the model sees and the tools that answer its calls
 * at different moments of a turn (measured), so during a turn no order of requests keeps a call
 * made with the custom tool's definition from reaching the built-in. While the session is busy
 * such a change is refused before anything is sent.
 *
 * Before each request the session must still own its id. A request that fails or does not
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
    const replacedBefore = new Set(previous.resolution.overriddenBuiltInTools);
    const replacedAfter = new Set(next.resolution.overriddenBuiltInTools);
    // While the runtime's tools are unknown, each name a custom tool may replace there may change
    // hands, whatever the new config says.
    const uncertain = entry.known ? [] : [...entry.mayReplace];
    const ownerChanges = [
        ...new Set([
            ...[...replacedAfter].filter((name) => !replacedBefore.has(name)),
            ...[...replacedBefore].filter((name) => !replacedAfter.has(name)),
            ...uncertain,
        ]),
    ];
    if (ownerChanges.length > 0 && (entry.turns > 0 || entry.sends > 0)) {
        throw new SessionToolError(
            "SESSION_BUSY",
            `setTools cannot change which tool answers ${formatList(ownerChanges)} (a custom tool or the built-in) while the session is processing a message: the runtime could route a call the model makes with one definition to the other. Call it once the session is idle (after sendAndWait resolves, or on 'session.idle'); changes that keep each built-in's name with the same tool can be made at any time.`,
            ownerChanges
        );
    }
    const meet = meetFilter(previous, next);
    const send = (what: string, request: () => Promise<unknown>) =>
        bounded(client, session, entry, what, request, timeout);
    const toolsChanged = !entry.known || !sameDefinitions(previous.tools, next.tools);
    const filterChanged = !entry.known || !sameFilter(previous.filter, next.filter);
    if (!toolsChanged && !filterChanged) {
        switchHandlers(session, entry, next.tools);
        entry.current = next;
        return;
    }
    const steps = (async () => {
        switchHandlers(session, entry, both(previous.tools, next.tools));
        if (!entry.known || !sameFilter(previous.filter, meet)) {
            await send("session.options.update", () => sendFilter(session, meet));
        }
        if (toolsChanged) {
            await send("session.tools.set", () =>
                session.rpc.tools.set({ tools: next.tools.map(wireToolDefinition) })
            );
        }
        switchHandlers(session, entry, both(next.tools, previous.tools));
        if (!sameFilter(meet, next.filter)) {
            await send("session.options.update", () => sendFilter(session, next.filter));
        }
        // As at construction, with validateTools: the runtime checks the new tools now.
        await send("session.tools.initializeAndValidate", () =>
            validateSessionTools(session, prepared.config, async () => {})
        );
    })();
    // Messages sent meanwhile wait for a change of a built-in's owner (see above).
    if (ownerChanges.length > 0) entry.ownerChange = steps.catch(() => {});
    try {
        await steps;
    } catch (failure) {
        throw await putBack(client, session, entry, previous, next, meet, failure, send);
    } finally {
        entry.ownerChange = undefined;
    }
    switchHandlers(session, entry, next.tools);
    entry.current = next;
    entry.known = true;
    entry.mayReplace = new Set();
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
            session.rpc.tools.set({ tools: previous.tools.map(wireToolDefinition) })
        );
        switchHandlers(session, entry, both(previous.tools, next.tools));
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
        switchHandlers(session, entry, union);
        entry.current = { ...previous, tools: union };
        const advice = isDisconnected(session)
            ? `resume it with client.resumeSession('${session.sessionId}', { tools, ... })`
            : "call setTools again to set them";
        return new Error(
            `setTools failed (${reason}), and putting the previous tools back failed too (${messageOf(undo)}): the runtime may hold either set of tools; calls to either set's custom tools reach their handlers, and built-ins that neither set allows stay excluded. To recover, ${advice}.`,
            { cause: failure }
        );
    }
    switchHandlers(session, entry, previous.tools);
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

/** Registers `tools`' handlers with the SDK and notes which names the SDK answers. */
function switchHandlers(
    session: UpdatableSession,
    entry: SessionTools,
    tools: readonly Tool[]
): void {
    // A disconnected session has no handlers; nothing must put them back.
    if (isDisconnected(session) || entry.disconnected.signal.aborted) return;
    registerToolHandlers(session, tools);
    answerWith(entry, tools);
}

function answerWith(entry: SessionTools, tools: readonly Tool[]): void {
    const names = new Set(tools.map((tool) => tool.name));
    for (const name of entry.answered) if (!names.has(name)) entry.removed.add(name);
    for (const name of names) entry.removed.delete(name);
    entry.answered.clear();
    for (const name of names) entry.answered.add(name);
}

/**
 * Every `external_tool.requested` gets an answer: the SDK's handlers take the names they have;
 * a name with neither a handler nor a declaration (a tool `setTools` removed while the model's
 * call to it was on its way) gets an error result naming the tool, instead of a turn that waits
 * forever.
 */
function answerUnhandledCalls(session: UpdatableSession, entry: SessionTools): void {
    session.on("external_tool.requested", (event) => {
        const { requestId, toolName } = event.data ?? {};
        // Only a name this session had and no longer registers (`removed` never holds a
        // registered name): any other may be answered by another client.
        if (typeof requestId !== "string" || !entry.removed.has(toolName)) return;
        if (entry.disconnected.signal.aborted) return;
        session.rpc.tools
            .handlePendingToolCall({
                requestId,
                error: `Tool ${quoteValue(toolName)} was removed from this session (session.setTools) before this call ran, so it is not available; use the tools offered now.`,
            })
            .catch(() => {});
    });
}

/**
 * After `session.setModel`, the resolution describes the new model's tools: the step runs again
 * for it (nothing is sent when the filter stays the same).
 */
function followModelChanges(
    client: SessionToolUpdateHost,
    session: UpdatableSession,
    entry: SessionTools
): void {
    const setModel = session.setModel;
    if (typeof setModel !== "function") return;
    Object.defineProperty(session, "setModel", {
        value: async (model: string, ...rest: unknown[]) => {
            const result = await setModel.call(session, model, ...rest);
            if (typeof model === "string" && entry.config !== undefined) {
                await enqueue(client, session, entry, () =>
                    applyUpdate(client, session, entry, { model }, DEFAULT_TOOL_UPDATE_TIMEOUT)
                ).catch(() => {
                    // The model changed; a resolution that could not follow keeps the old one.
                });
            }
            return result;
        },
        enumerable: false,
        writable: true,
        configurable: true,
    });
}

/** What the step prepared, as one side of a change. */
function configOf(prepared: PreparedSessionTools<SessionToolSource>): ToolConfig {
    const tools = prepared.config.tools ?? [];
    return {
        tools,
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

/** The built-ins a config lets the model call: enabled, and not replaced by a custom tool. */
function builtInsOn(config: ToolConfig): Set<string> {
    const custom = new Set(config.tools.map((tool) => tool.name));
    const { toolEnablement, modeTools } = config.resolution;
    const on = new Set<string>();
    for (const [name, enabled] of toolEnablement) if (enabled && !custom.has(name)) on.add(name);
    for (const name of [...modeTools.plan, ...modeTools.autopilot]) {
        if (!custom.has(name)) on.add(name);
    }
    return on;
}

/**
 * Counts the turns that run (`assistant.turn_start` to `assistant.turn_end`) and the messages
 * sent through this object since the session was last idle (`session.idle` ends all): the
 * session is busy while either is above zero. A message waits for the `setTools` calls made
 * before it, and for a change of a built-in's owner in progress (each bounded by its timeouts).
 */
function followTurns(session: UpdatableSession, entry: SessionTools): void {
    session.on("assistant.turn_start", () => {
        entry.turns++;
    });
    session.on("assistant.turn_end", () => {
        entry.turns = Math.max(0, entry.turns - 1);
    });
    session.on("session.idle", (event) => {
        // In autopilot the runtime goes on by itself after this idle (the SDK's sendAndWait
        // ignores it too).
        if (event?.data?.mode === "autopilot") return;
        entry.turns = 0;
        entry.sends = 0;
    });
    const send = session.send;
    if (typeof send !== "function") return;
    Object.defineProperty(session, "send", {
        value: async (...args: unknown[]) => {
            // setTools calls made before this message apply before it.
            await entry.queue;
            entry.sends++;
            try {
                await entry.ownerChange;
                return await send.apply(session, args);
            } catch (error) {
                entry.sends = Math.max(0, entry.sends - 1);
                throw error;
            }
        },
        enumerable: false,
        writable: true,
        configurable: true,
    });
}

/**
 * A filter that allows only what both configs allow: the allowlists' common entries and the
 * tools both enable, every exclusion of either, every built-in that one enables and the other
 * does not, and every built-in a custom tool replaces on either side. It may allow less than
 * both (a tool named differently in the two lists is out for the moment), never more.
 */
function meetFilter(previous: ToolConfig, next: ToolConfig): WireFilter {
    const a = previous.filter.availableTools;
    const b = next.filter.availableTools;
    let availableTools: readonly string[] | null;
    if (a === null) availableTools = b;
    else if (b === null) availableTools = a;
    else {
        const inB = new Set(b);
        const enabledInBoth = [...previous.resolution.toolEnablement]
            .filter(([name, on]) => on && next.resolution.toolEnablement.get(name) === true)
            .map(([name]) => name);
        availableTools = unique([...a.filter((entry) => inB.has(entry)), ...enabledInBoth]);
    }
    const excluded = unique([...previous.filter.excludedTools, ...next.filter.excludedTools]);
    // A built-in the lists above still let in although one side does not: excluded too.
    const listed = availableTools === null ? undefined : new Set(availableTools);
    const letIn = (name: string) =>
        !excluded.includes(name) &&
        !excluded.includes(`builtin:${name}`) &&
        (listed === undefined ||
            listed.has(name) ||
            listed.has(`builtin:${name}`) ||
            listed.has("builtin:*"));
    const before = builtInsOn(previous);
    const after = builtInsOn(next);
    const differing = [...new Set([...before, ...after])].filter(
        (name) => before.has(name) !== after.has(name)
    );
    const replaced = [
        ...previous.resolution.overriddenBuiltInTools,
        ...next.resolution.overriddenBuiltInTools,
    ];
    const excludedTools = unique([
        ...excluded,
        ...[...differing, ...replaced].filter(letIn).map((name) => `builtin:${name}`),
    ]);
    return { availableTools, excludedTools };
}

/** Sends a filter as the session's (`null` availableTools: every tool allowed). */
async function sendFilter(session: UpdatableSession, filter: WireFilter): Promise<void> {
    await session.rpc.options.update({
        availableTools: filter.availableTools === null ? null : [...filter.availableTools],
        excludedTools: [...filter.excludedTools],
    });
}

function sameFilter(a: WireFilter, b: WireFilter): boolean {
    return (
        sameList(a.availableTools, b.availableTools) && sameList(a.excludedTools, b.excludedTools)
    );
}

function sameList(a: readonly string[] | null, b: readonly string[] | null): boolean {
    if (a === null || b === null) return a === b;
    return a.length === b.length && a.every((entry, index) => entry === b[index]);
}

function sameDefinitions(a: readonly Tool[], b: readonly Tool[]): boolean {
    return (
        a.length === b.length &&
        JSON.stringify(a.map(wireToolDefinition)) === JSON.stringify(b.map(wireToolDefinition))
    );
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
