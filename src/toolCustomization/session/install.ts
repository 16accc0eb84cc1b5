// The installer: gives a session that createSession / resumeSession constructed its record and
// its members. The only module that touches a session's class.
//
// The members, installed once per session class (a session object gets no own property; a
// session without a record gets the SDK's own behaviour):
// - `toolResolution` (getter), `setTools`, `previewModel`;
// - `send`: first the attribution guard (a session whose custom tool's call was answered
//   elsewhere refuses every message), then busy tracking (busy from the call; the message waits
//   for the tool changes asked for before it), then the SDK's own `send` (`sendAndWait` calls it);
// - `setModel`: in the session's queue of tool changes, the preview's guard, then the SDK's own
//   `setModel`, then the session's tools for the new model;
// - the SDK's step that runs a custom tool's handler: once per tool request (toolRequests.ts);
// - at disconnect (whichever way), the record is released.
//
// Each session has one event subscription, which hands each event to busy tracking, the
// answer for calls of removed tools, and the attribution, in that order.

import { onDisconnected, onToolRequest } from "../../sdk/internals.js";
import type { PreparedSessionTools } from "../construction/pipeline.js";
import type { SessionToolHost } from "../construction/clientState.js";
import type { ToolSessionConfig } from "../api/sessionConfig.js";
import { sessionToolStateOf } from "../construction/clientState.js";
import type {
    CallAttributionConfig,
    PromptAgreementReport,
    SessionToolResolution,
    ToolAnswer,
} from "../api/publicTypes.js";
import { IDLE } from "./turns.js";
import { followCallEvent, newCallRecord } from "./attribution.js";
import { followTurnEvent, probeResumedTurns, trackedSend } from "./busy.js";
import { previewModelMember, switchModel } from "./modelSwitch.js";
import {
    failureOf,
    recordOf,
    releaseRecord,
    storeRecord,
    type RunningSession,
    type SessionEventLike,
    type SessionRecord,
} from "./record.js";
import { answerRemovedCalls } from "./removedCalls.js";
import { takesToolRequest } from "./toolRequests.js";
import { setTools } from "./setTools.js";
import { commitTools, configOf, disconnectedDuringChange } from "./toolChange.js";

/** What the wrap knows of a constructed session besides the session step's outcome. */
export interface SessionAttachment {
    /** The client that constructed it. */
    readonly client: SessionToolHost;
    readonly onToolAnswered: CallAttributionConfig["onToolAnswered"];
    /** The names of the session's configured MCP servers. */
    readonly mcpServers: readonly string[];
    /** The names of the session's custom agents, and the one selected (option `agent`). */
    readonly agents?: { readonly custom: readonly string[]; readonly selected?: string };
    /** Whether a resume made this object (it may join a session in the middle of a turn). */
    readonly resumed: boolean;
}

/**
 * Gives a constructed session its record and its members, and delivers the session step's
 * warnings (the runtime took the session). For a resumed session, the returned promise settles
 * once the runtime said whether the session is processing (bounded; see busy.ts), so that the
 * object knows its busy state from the moment the app has it.
 *
 * @param session - the session the SDK returned
 * @param prepared - the session step's outcome for it
 * @param attachment - see {@link SessionAttachment}
 */
export function attachSession(
    session: object,
    prepared: PreparedSessionTools<ToolSessionConfig>,
    attachment: SessionAttachment
): Promise<void> {
    prepared.deliverWarnings();
    const live = session as RunningSession;
    const { client } = attachment;
    const record: SessionRecord = {
        client,
        generation:
            prepared.generation ?? sessionToolStateOf(client).resumes.get(live.sessionId) ?? 0,
        config: prepared.source,
        current: configOf(prepared),
        known: true,
        answered: new Set(),
        removed: new Set(),
        mayReplace: new Set(),
        queue: Promise.resolve(),
        disconnected: new AbortController(),
        turns: IDLE,
        sends: 0,
        turnEvents: 0,
        ownerChange: undefined,
        calls: newCallRecord(
            attachment.onToolAnswered,
            attachment.mcpServers,
            attachment.agents?.custom,
            attachment.agents?.selected
        ),
        agreement: prepared.agreement,
        toolRequests: new Map(),
    };
    // From now on the transforms read the tools in force, as setTools and setModel leave them.
    if (record.agreement !== undefined) record.agreement.tools = () => record.current.promptTools;
    // The SDK's construction registered the handlers of exactly these tools, the config it sent.
    commitTools(live, record, record.current.tools, true);
    storeRecord(session, record);
    installMembers(Object.getPrototypeOf(session) as object);
    live.on((event) => followEvent(record, live, event));
    if (!attachment.resumed) return Promise.resolve();
    // Tool changes wait until the runtime said whether a resumed session is processing.
    const probe = probeResumedTurns(record, live);
    record.queue = probe;
    return probe;
}

/** Hands one session event to everything that follows the session. */
function followEvent(
    record: SessionRecord,
    session: RunningSession,
    event: SessionEventLike
): void {
    if (event === null || typeof event !== "object" || record.disconnected.signal.aborted) return;
    followTurnEvent(record, event);
    answerRemovedCalls(record, session, event);
    followCallEvent(record.calls, (name) => expectedAnswerer(record, name), session, event);
}

/** What should answer a call of `toolName`, from the session's tools now. */
function expectedAnswerer(record: SessionRecord, toolName: string): ToolAnswer["expected"] {
    if (record.answered.has(toolName) || record.current.resolution.wire.tools.includes(toolName)) {
        return "handler";
    }
    const { mcpServers } = record.calls;
    return mcpServers.some((server) => toolName.startsWith(`${server}-`)) ? "mcp" : "built-in";
}

/** Session classes whose members {@link installMembers} installed. */
const installed = new WeakSet<object>();

type Method = (...args: unknown[]) => Promise<unknown>;

/** Installs the members (see the top of this module) on a session class, once. */
function installMembers(prototype: object): void {
    if (installed.has(prototype)) return;
    installed.add(prototype);
    const define = (name: string, value: unknown) =>
        Object.defineProperty(prototype, name, {
            value,
            enumerable: false,
            writable: true,
            configurable: true,
        });
    Object.defineProperty(prototype, "toolResolution", {
        get: toolResolutionOf,
        enumerable: false,
        configurable: true,
    });
    define("setTools", setTools);
    define("previewModel", previewModelMember);
    const { send, setModel } = prototype as { send?: unknown; setModel?: unknown };
    if (typeof send === "function") {
        define("send", function send_(this: RunningSession, ...args: unknown[]) {
            const failure = failureOf(this);
            if (failure !== undefined) return Promise.reject(failure);
            const record = recordOf(this);
            return record === undefined
                ? (send as Method).apply(this, args)
                : trackedSend(record, this, send as Method, args);
        });
    }
    if (typeof setModel === "function") {
        define("setModel", function setModel_(this: RunningSession, ...args: unknown[]) {
            const record = recordOf(this);
            return record === undefined
                ? (setModel as Method).apply(this, args)
                : switchModel(this, record, setModel as Method, args);
        });
    }
    onToolRequest(prototype, (session, requestId, toolName, toolCallId) => {
        const record = recordOf(session);
        return record === undefined || takesToolRequest(record, requestId, toolName, toolCallId);
    });
    onDisconnected(prototype, (session) =>
        releaseRecord(session, () =>
            disconnectedDuringChange(String((session as RunningSession).sessionId))
        )
    );
}

/** `session.toolResolution`: the resolution in force with the recorded calls; undefined once released. */
function toolResolutionOf(this: object): SessionToolResolution | undefined {
    const record = recordOf(this);
    if (record === undefined) return undefined;
    const { resolution } = record.current;
    const { answers } = record.calls;
    const prompt = record.agreement?.report;
    if (answers.length === 0 && prompt === undefined) return resolution;
    return resolutionWithCalls(resolution, answers, prompt);
}

/** The resolution with `calls` and `prompt`: the same object as long as none changes. */
const views = new WeakMap<
    SessionToolResolution,
    WeakMap<readonly ToolAnswer[], WeakMap<object, SessionToolResolution>>
>();

/** The key of a view without a prompt report. */
const NO_PROMPT = {};

function resolutionWithCalls(
    resolution: SessionToolResolution,
    answers: readonly ToolAnswer[],
    prompt: PromptAgreementReport | undefined
): SessionToolResolution {
    let byCalls = views.get(resolution);
    if (byCalls === undefined) {
        byCalls = new WeakMap();
        views.set(resolution, byCalls);
    }
    let byPrompt = byCalls.get(answers);
    if (byPrompt === undefined) {
        byPrompt = new WeakMap();
        byCalls.set(answers, byPrompt);
    }
    let view = byPrompt.get(prompt ?? NO_PROMPT);
    if (view === undefined) {
        view = Object.freeze({
            ...resolution,
            calls: answers,
            ...(prompt === undefined ? {} : { prompt }),
        });
        byPrompt.set(prompt ?? NO_PROMPT, view);
    }
    return view;
}
