// One record per running session: everything the tool customization knows about a session it
// constructed, created once when `createSession` / `resumeSession` returns it and released when
// it is disconnected. Busy tracking, tool changes, call attribution and model switches read and
// write this record; none keeps per-session state of its own (see install.ts for who does what).

import type { Tool } from "@github/copilot-sdk";
import type { SessionToolError } from "../api/sessionToolError.js";
import type { SessionToolHost } from "../construction/clientState.js";
import type { ToolSessionConfig } from "../api/sessionConfig.js";
import type {
    ToolAnswer,
    CallAttributionConfig,
    SessionToolResolution,
} from "../api/publicTypes.js";
import type { TurnState } from "./turns.js";
import type { WireFilter } from "./transition.js";
import type { PromptAgreement, PromptTools } from "../prompt/promptAgreement.js";

/** The part of `CopilotSession` the record's users call (its public surface). */
export interface RunningSession {
    readonly sessionId: string;
    readonly rpc: {
        readonly options: { update(params: Record<string, unknown>): Promise<unknown> };
        readonly tools: {
            set(params: { tools: object[] }): Promise<unknown>;
            initializeAndValidate(): Promise<unknown>;
            handlePendingToolCall(params: { requestId: string; error: string }): Promise<unknown>;
        };
        readonly metadata?: { isProcessing?: () => Promise<unknown> };
    };
    on(handler: (event: SessionEventLike) => void): () => void;
    /** The session's history: `getEvents` from SDK 1.0.14 on, `getMessages` before. */
    getEvents?: () => Promise<unknown>;
    getMessages?: () => Promise<unknown>;
    abort?: () => Promise<unknown>;
}

/** A session event as the SDK hands it to a handler. */
export interface SessionEventLike {
    readonly type: string;
    readonly data?: unknown;
    /** The sub-agent instance the event comes from; absent for the main agent's. */
    readonly agentId?: unknown;
}

/** One side of a change of tools: what the runtime is sent and which handlers answer. */
export interface ToolConfig {
    /** The custom tools as sent (handlers included). */
    readonly tools: readonly Tool[];
    /** By name, each tool's definition as `session.tools.set` carries it, serialised. */
    readonly definitions: ReadonlyMap<string, string>;
    /** The filter as sent, with the guards of `guardedFilter`. */
    readonly filter: WireFilter;
    readonly resolution: SessionToolResolution;
    /** The tools as the rewrite of the runtime's instructions reads them (promptAgreement.ts). */
    readonly promptTools: PromptTools;
    /** By option (`customAgents.<name>.tools`, `defaultAgent.excludedTools`), the names sent. */
    readonly agentTools: ReadonlyMap<string, readonly string[]>;
}

/** What the runtime said about a call when it started it. */
export interface StartedCall {
    readonly toolName: string;
    readonly mcpServer: string | undefined;
    /** What should answer it, decided from the tools in force when it started. */
    readonly expected: ToolAnswer["expected"];
    /** The agent that made it. */
    readonly agent: ToolAnswer["agent"];
}

/** The record's part for call attribution. */
export interface CallRecord {
    readonly onToolAnswered: CallAttributionConfig["onToolAnswered"];
    readonly mcpServers: readonly string[];
    /** Ids of the calls the runtime handed to a client. */
    readonly requested: Set<string>;
    /** Ids of the calls whose permission was denied: nothing ran. */
    readonly denied: Set<string>;
    readonly started: Map<string, StartedCall>;
    /** The latest answers, newest last (`toolResolution.calls`). */
    answers: readonly ToolAnswer[];
    /** Request ids of external calls answered (for the answer to calls of removed tools). */
    readonly completedRequests: Set<string>;
    /** The names of the session's custom agents (the others are the runtime's own). */
    readonly customAgents: ReadonlySet<string>;
    /** By the id of the `task` call that started it, each sub-agent seen (`subagent.started`). */
    readonly subAgents: Map<string, ToolAnswer["agent"]>;
    /** By sub-agent instance id (an event's `agentId`), the same sub-agents. */
    readonly subAgentIds: Map<string, ToolAnswer["agent"]>;
    /** The custom agent selected as the session's main agent, if one is. */
    selected: string | undefined;
}

/** Everything the tool customization keeps for one running session. */
export interface SessionRecord {
    /** The client that constructed the session. */
    readonly client: SessionToolHost;
    /** The number of the resume that made this object, see `SessionToolState.resumes`. */
    readonly generation: number;
    /** The session's config as the session step last read it. */
    config: ToolSessionConfig;
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
    /** The last tool change in line (`setTools`, a model switch); the next one waits for it. */
    queue: Promise<unknown>;
    /** Aborted when the session is disconnected: every wait of a change ends there. */
    readonly disconnected: AbortController;
    /** Whether the session is busy (busy.ts). */
    turns: TurnState;
    /** How many messages were sent through the session object (numbers them). */
    sends: number;
    /** How many turn events of the runtime the session saw (a resume's probe checks it). */
    turnEvents: number;
    /** A running change of a built-in's owner; messages sent meanwhile wait for it. */
    ownerChange: Promise<void> | undefined;
    readonly calls: CallRecord;
    /** The tool requests this session object's handlers took (toolRequests.ts). */
    readonly toolRequests: Map<string, string>;
    /**
     * The session's `promptAgreement` (undefined when off, or in replace mode): its transforms
     * read `current.promptTools` through it when the runtime calls them.
     */
    readonly agreement: PromptAgreement | undefined;
}

const records = new WeakMap<object, SessionRecord>();

/**
 * By session, the `CALL_ANSWERED_ELSEWHERE` failure it had: kept after the record is released,
 * so that the session keeps refusing messages.
 */
const failures = new WeakMap<object, SessionToolError>();

/** The record of a running session; undefined for one this package did not construct, or released. */
export function recordOf(session: object): SessionRecord | undefined {
    return records.get(session);
}

/** Stores `record` as the session's. */
export function storeRecord(session: object, record: SessionRecord): void {
    records.set(session, record);
}

/** The session's `CALL_ANSWERED_ELSEWHERE` failure, once it has one. */
export function failureOf(session: object): SessionToolError | undefined {
    return failures.get(session);
}

/** Records the session's first `CALL_ANSWERED_ELSEWHERE` failure. */
export function recordFailure(session: object, failure: SessionToolError): void {
    if (!failures.has(session)) failures.set(session, failure);
}

/**
 * Releases the session's record (at disconnect): a change under way stops, and nothing of the
 * tools is kept (a change under way keeps its own reference until it settles).
 *
 * @param session - the session
 * @param reason - makes what the waits of a change under way reject with (called only when a
 *   change waits: an error's stack is not free, and most sessions end without one)
 */
export function releaseRecord(session: object, reason: () => SessionToolError): void {
    const record = records.get(session);
    if (record === undefined) return;
    records.delete(session);
    // The SDK keeps a disconnected session object, and with it the transforms and hooks that
    // read the tools through the agreement: from now on they read the last tools' names alone,
    // not the record (which holds the handlers).
    if (record.agreement !== undefined) {
        const last = record.current.promptTools;
        record.agreement.tools = () => last;
    }
    record.disconnected.abort(reason);
    record.answered.clear();
    record.removed.clear();
    record.calls.requested.clear();
    record.calls.denied.clear();
    record.calls.started.clear();
    record.calls.completedRequests.clear();
}
