// The change runner: carries out a change of a running session's tools (a `setTools` call, or
// the resolution that follows a model switch) as the pure planner of transition.ts decides
// it, request by request, each bounded, and puts the previous tools back when a request fails.

import type { Tool } from "@github/copilot-sdk";
import { validateSessionTools } from "../input/customToolChecks.js";
import { formatList, messageOf } from "../../shared/formatting.js";
import { isDisconnected, registerToolHandlers, wireToolDefinition } from "../../sdk/internals.js";
import { SessionToolError } from "../api/sessionToolError.js";
import type { PreparedSessionTools } from "../construction/pipeline.js";
import type { ToolSessionConfig } from "../api/sessionConfig.js";
import type { SessionToolResolution } from "../api/publicTypes.js";
import {
    meetFilter,
    planToolTransition,
    stopsForTurn,
    type ToolSide,
    type WireFilter,
} from "./transition.js";
import { isBusyFor } from "./busy.js";
import { agentToolsOf } from "./agentTools.js";
import type { RunningSession, SessionRecord, ToolConfig } from "./record.js";

/** One change, as the runner takes it. */
export interface ToolChange {
    readonly session: RunningSession;
    readonly record: SessionRecord;
    /** What the session step prepared for the new side. */
    readonly prepared: PreparedSessionTools<ToolSessionConfig>;
    /** How long each runtime request may take, in milliseconds. */
    readonly timeout: number;
    /** How many messages were sent through the session object when the change was asked for. */
    readonly sends: number;
    /** Throws when the session object may no longer change its session's tools. */
    readonly assertLive: () => void;
}

/**
 * What the step prepared, as one side of a change. The wire definitions and the guarded filter
 * are read only when a change compares two sides (`setTools`, `setModel`), which most sessions
 * never make: each is built on its first read, once, from the prepared tools and resolution,
 * which are frozen, so it is the same whenever it is built.
 */
export function configOf(prepared: PreparedSessionTools<ToolSessionConfig>): ToolConfig {
    const tools = prepared.config.tools ?? [];
    let definitions: ReadonlyMap<string, string> | undefined;
    let filter: WireFilter | undefined;
    let agentTools: ReadonlyMap<string, readonly string[]> | undefined;
    return {
        tools,
        get definitions() {
            return (definitions ??= new Map(
                tools.map((tool) => [tool.name, JSON.stringify(wireToolDefinition(tool))])
            ));
        },
        get filter() {
            return (filter ??= guardedFilter(prepared.resolution, prepared.excludedWith));
        },
        get resolution() {
            return prepared.resolution;
        },
        get promptTools() {
            return prepared.promptTools;
        },
        get agentTools() {
            return (agentTools ??= agentToolsOf(prepared.config));
        },
    };
}

/**
 * Carries out a change as {@link planToolTransition} decides it (see there for the states and
 * why each is safe). Before each request the session must still own its id; a change that must
 * stay in an idle session stops before the tool definitions are sent if a turn started
 * meanwhile (another client, `fleet.start`), and is then refused as busy. A request that fails or
 * does not answer within the timeout puts the previous config back the same way; if that fails
 * too, the handlers of both stay and the next change sends everything.
 *
 * @returns the new resolution, once in force
 * @throws SessionToolError for every failure: `SESSION_BUSY`, `TOOL_NAME_CLASH`,
 *   `TOOL_UPDATE_FAILED` (put back, or not), `INVALID_TOOL_UPDATE` (disconnected or replaced)
 */
export async function runToolChange(change: ToolChange): Promise<SessionToolResolution> {
    const { session, record, prepared } = change;
    const previous = record.current;
    const next = configOf(prepared);
    const busy = () => isBusyFor(record, change.sends);
    const plan = planToolTransition(sideOf(previous), sideOf(next), {
        busy: busy(),
        known: record.known,
        mayReplace: record.mayReplace,
    });
    if (plan.kind === "refuse") throw busyRefusal(plan.names);
    const send = (what: string, request: () => Promise<unknown>) =>
        boundedRequest(change, what, request);
    const steps = (async () => {
        for (const call of plan.calls) {
            switch (call.kind) {
                case "handlers":
                    registerHandlers(
                        session,
                        record,
                        call.first === "current"
                            ? both(previous.tools, next.tools)
                            : both(next.tools, previous.tools)
                    );
                    break;
                case "handlers-next":
                    commitTools(session, record, next.tools);
                    break;
                case "filter":
                    await send("session.options.update", () => sendFilter(session, call.filter));
                    break;
                case "tools":
                    if (stopsForTurn(plan, call, busy())) throw new BusyMeanwhile(plan.idleOnly);
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
    if (plan.idleOnly.length > 0) record.ownerChange = steps.catch(() => {});
    try {
        await steps;
    } catch (failure) {
        const restored = await putBack(change, previous, next, failure);
        if (restored !== true) throw restored;
        if (failure instanceof BusyMeanwhile) throw busyRefusal(failure.names);
        throw (
            clashOf(failure, next.tools) ??
            new SessionToolError(
                "TOOL_UPDATE_FAILED",
                `setTools failed: ${messageOf(failure)}. The session keeps its previous tools and filter.`,
                [],
                { cause: failure }
            )
        );
    } finally {
        record.ownerChange = undefined;
    }
    record.current = next;
    record.known = true;
    record.mayReplace = new Set();
    // A session created with nothing to agree on has no transforms to follow this change.
    record.agreement?.changed((prepared.source as { model?: unknown }).model);
    return next.resolution;
}

/** A turn started while a change that must stay in an idle session was under way. */
class BusyMeanwhile extends Error {
    constructor(readonly names: readonly string[]) {
        super(`a turn started while setTools changed ${formatList(names)}`);
    }
}

/** `SESSION_BUSY` for a change of which tool answers `names`. */
function busyRefusal(names: readonly string[]): SessionToolError {
    return new SessionToolError(
        "SESSION_BUSY",
        `setTools cannot change which tool answers ${formatList(names)}, or its definition, ` +
            `while the session is processing a message: ` +
            `the runtime could route a call the model makes with one definition to another tool of that name (the built-in, ` +
            `an MCP tool, or none). Call it once the session is idle (after sendAndWait resolves, ` +
            `or on 'session.idle'); adding or removing other tools, ` +
            `changing handlers and changing the filter can be made at any time.`,
        names
    );
}

/**
 * The runtime's refusal of a name another connection registered on the same session, as a
 * `SessionToolError` naming the tool; undefined for any other failure.
 */
export function clashOf(failure: unknown, tools: readonly Tool[]): SessionToolError | undefined {
    const reason = messageOf(failure);
    // The runtime's own message: it carries no code.
    if (!/External tool name clash/i.test(reason)) return undefined;
    const names = tools.map((tool) => tool.name).filter((name) => reason.includes(name));
    return new SessionToolError(
        "TOOL_NAME_CLASH",
        `Custom ${names.length === 1 ? "tool" : "tools"} ` +
            `${formatList(names.length > 0 ? names : ["(unnamed)"])} ${names.length === 1 ? "is" : "are"} ` +
            `already registered on this session by another connection (another client holds the session: ` +
            `${reason}). One client owns each name: rename the tool, or remove it from the other client first. Nothing was changed.`,
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

/**
 * Puts `previous` back after a failed step.
 *
 * @returns true once put back, else the `SessionToolError` to throw
 */
async function putBack(
    change: ToolChange,
    previous: ToolConfig,
    next: ToolConfig,
    failure: unknown
): Promise<true | SessionToolError> {
    const { session, record } = change;
    if (SessionToolError.isInstance(failure)) return failure;
    if (record.disconnected.signal.aborted) {
        // No longer this object's to change: nothing more is sent.
        return disconnectedDuringChange(session.sessionId, failure);
    }
    const send = (what: string, request: () => Promise<unknown>) =>
        boundedRequest(change, what, request);
    try {
        change.assertLive();
        await send("session.options.update", () =>
            sendFilter(session, meetFilter(sideOf(previous), sideOf(next)))
        );
        await send("session.tools.set", () =>
            session.rpc.tools.set({ tools: previous.tools.map(toolsSetDefinition) })
        );
        registerHandlers(session, record, both(previous.tools, next.tools));
        await send("session.options.update", () => sendFilter(session, previous.filter));
    } catch (undo) {
        if (record.disconnected.signal.aborted || isDisconnected(session)) {
            return disconnectedDuringChange(session.sessionId, failure);
        }
        // The runtime may hold either config's tools: every custom name keeps a handler, and the
        // next change sends everything.
        record.known = false;
        record.mayReplace = new Set([
            ...record.mayReplace,
            ...previous.resolution.overriddenBuiltInTools,
            ...next.resolution.overriddenBuiltInTools,
        ]);
        const union = both(previous.tools, next.tools);
        // Both sets' handlers answer; nothing counts as removed (the runtime may hold either).
        registerHandlers(session, record, union);
        for (const tool of union) record.answered.add(tool.name);
        record.current = { ...previous, tools: union };
        return new SessionToolError(
            "TOOL_UPDATE_FAILED",
            `setTools failed (${messageOf(failure)}), ` +
                `and putting the previous tools back failed too (${messageOf(undo)}): ` +
                `the runtime may hold either set of tools; calls to either set's custom tools reach their handlers, ` +
                `and built-ins that neither set allows stay excluded. To recover, call setTools again to set them.`,
            union.map((tool) => tool.name),
            { cause: failure }
        );
    }
    // Put back: the names the change only tried to add leave no trace.
    registerHandlers(session, record, previous.tools);
    return true;
}

/** The error of a change that the session's disconnect interrupted. */
export function disconnectedDuringChange(sessionId: string, cause?: unknown): SessionToolError {
    return new SessionToolError(
        "INVALID_TOOL_UPDATE",
        `Session '${sessionId}' was disconnected while setTools was changing its tools; ` +
            `nothing more was sent. To change its tools, resume it with client.resumeSession('${sessionId}', { tools, ... }).`,
        [],
        cause === undefined ? undefined : { cause }
    );
}

/**
 * Runs one runtime request of a change, after checking that the session still owns its id, and
 * waits at most the change's timeout for it; a disconnect ends the wait at once.
 */
function boundedRequest(
    change: ToolChange,
    what: string,
    request: () => Promise<unknown>
): Promise<unknown> {
    const { signal } = change.record.disconnected;
    return new Promise((resolve, reject) => {
        try {
            change.assertLive();
        } catch (error) {
            return reject(error);
        }
        const done = () => {
            clearTimeout(timer);
            signal.removeEventListener("abort", onAbort);
        };
        const onAbort = () => {
            done();
            reject(abortReason(change));
        };
        const timer = setTimeout(() => {
            done();
            reject(new Error(`the runtime did not answer ${what} within ${change.timeout} ms`));
        }, change.timeout);
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

/** What a wait of a change rejects with once the session was disconnected. */
function abortReason(change: ToolChange): unknown {
    const reason: unknown = change.record.disconnected.signal.reason;
    return typeof reason === "function" ? (reason as () => unknown)() : reason;
}

/** Registers `tools`' handlers with the SDK (a step of a change; nothing is noted). */
function registerHandlers(
    session: RunningSession,
    record: SessionRecord,
    tools: readonly Tool[]
): void {
    // A disconnected session has no handlers; nothing must put them back.
    if (isDisconnected(session) || record.disconnected.signal.aborted) return;
    registerToolHandlers(session, tools);
}

/**
 * Makes `tools` the session's tools once the runtime took them: their handlers answer, and a
 * name taken away while a turn runs gets the "removed" answer until the session is next idle.
 *
 * @param registered - whether the session's handlers are these tools' already: true right after
 *   construction, where the SDK's createSession / resumeSession registered the config's tools
 *   (every 1.0 release calls `registerTools(config.tools)`)
 */
export function commitTools(
    session: RunningSession,
    record: SessionRecord,
    tools: readonly Tool[],
    registered = false
): void {
    if (!registered) registerHandlers(session, record, tools);
    const names = new Set(tools.map((tool) => tool.name));
    if (isBusyFor(record, record.sends)) {
        for (const name of record.answered) if (!names.has(name)) record.removed.add(name);
    }
    for (const name of names) record.removed.delete(name);
    record.answered.clear();
    for (const name of names) record.answered.add(name);
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
        excludedTools: Object.freeze([...new Set([...(wire.excludedTools ?? []), ...guards])]),
    };
}

/** Sends a filter as the session's (`null` availableTools: every tool allowed). */
async function sendFilter(session: RunningSession, filter: WireFilter): Promise<void> {
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
