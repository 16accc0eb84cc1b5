// Whether a running session is busy, kept in its record. The rule is the pure reducer of
// turns.ts; this module feeds it: the runtime's turn events, the messages sent through the
// session object (busy from the moment `send` is called), and, for a session object that a resume
// made, the runtime's own answer to whether it is processing (until then it counts as busy).

import { SessionToolError } from "../api/sessionToolError.js";
import { isBusy, nextTurnState, RESUMED, type TurnEvent } from "./turns.js";
import type { RunningSession, SessionEventLike, SessionRecord } from "./record.js";
import { answerWithin } from "./timeLimit.js";

/** How long a message waits for the tool changes made before it, in milliseconds. */
export const SEND_WAIT = 120_000;

/** How long a resumed session object waits for the runtime to say whether it is processing. */
export const RESUME_PROBE_TIMEOUT = 5_000;

/** The turn event a session event is, if any. */
function turnEventOf(event: SessionEventLike): TurnEvent | undefined {
    const data = (event.data ?? {}) as Record<string, unknown>;
    const text = (key: string) =>
        typeof data[key] === "string" ? (data[key] as string) : undefined;
    const agent = typeof event.agentId === "string" ? event.agentId : undefined;
    switch (event.type) {
        case "subagent.started":
        case "subagent.completed":
        case "subagent.failed": {
            // These name the sub-agent by the id of the task call that started it.
            const taskCallId = text("toolCallId");
            if (taskCallId === undefined) return undefined;
            const kind = event.type === "subagent.started" ? "subagent.started" : "subagent.ended";
            return { kind, taskCallId, agent };
        }
        case "user.message":
            // A sub-agent's first message is the task's prompt: busy as the sub-agent.
            if (agent !== undefined) return undefined;
            return {
                kind: "user.message",
                messageId: text("messageId"),
                delivery: text("delivery"),
            };
        case "assistant.turn_start":
            return {
                kind: "turn_start",
                interactionId: text("interactionId"),
                turnId: text("turnId"),
                agent,
            };
        case "assistant.turn_end":
            return {
                kind: "turn_end",
                interactionId: text("interactionId"),
                turnId: text("turnId"),
                agent,
            };
        case "session.idle":
            return {
                kind: "idle",
                autopilot: data.mode === "autopilot",
                aborted: data.aborted === true,
            };
        default:
            return undefined;
    }
}

/** Follows one session event: the busy state, and the removed names, which end at idle. */
export function followTurnEvent(record: SessionRecord, event: SessionEventLike): void {
    const turnEvent = turnEventOf(event);
    if (turnEvent === undefined) return;
    record.turnEvents++;
    record.turns = nextTurnState(record.turns, turnEvent);
    // Once idle, no call of a removed tool is on its way any more.
    if (turnEvent.kind === "idle" && !isBusy(record.turns)) record.removed.clear();
}

/**
 * Whether the session is busy for a change that was asked for after `sends` messages: the
 * messages sent through this object later wait for that change before they go (see
 * {@link trackedSend}), so they do not count.
 */
export function isBusyFor(record: SessionRecord, sends: number): boolean {
    const { turns } = record;
    return isBusy({ ...turns, waiting: turns.waiting.filter(({ call }) => call <= sends) });
}

/**
 * `session.send` of a session with a record: the message counts as busy from this call on; it
 * waits for the tool changes asked for before it (at most {@link SEND_WAIT} ms, then it is
 * refused with `SESSION_BUSY`), and stays busy until the runtime took and finished it.
 */
export async function trackedSend(
    record: SessionRecord,
    session: object,
    send: (...args: unknown[]) => Promise<unknown>,
    args: unknown[]
): Promise<unknown> {
    const call = ++record.sends;
    const step = (event: TurnEvent) => {
        record.turns = nextTurnState(record.turns, event);
    };
    step({ kind: "send", call });
    try {
        await waitAtMost(SEND_WAIT, () => Promise.all([record.queue, record.ownerChange]));
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
                    `The message was not sent: a session.setTools call made before it has not finished within ` +
                        `${timeout} ms (the runtime does not answer). ` +
                        `Send it again once setTools settles, or disconnect and resume the session.`
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

/**
 * The busy state of a session object that a resume made: it starts as busy ({@link RESUMED}),
 * since the session may be in the middle of a turn that another object started; the runtime is
 * asked whether it is processing, and a "no" makes it idle, unless a turn event arrived
 * meanwhile (the events then decide). Without an answer within {@link RESUME_PROBE_TIMEOUT} ms
 * it stays busy until the runtime's next `session.idle`. Tool changes wait for this probe.
 *
 * @returns when the probe settled (never rejects)
 */
export async function probeResumedTurns(
    record: SessionRecord,
    session: RunningSession
): Promise<void> {
    record.turns = RESUMED;
    const seen = record.turnEvents;
    const processing = await askProcessing(session).catch(() => undefined);
    if (processing === false && record.turnEvents === seen && !record.disconnected.signal.aborted) {
        record.turns = nextTurnState(record.turns, { kind: "idle", autopilot: false });
    }
}

/**
 * Whether the runtime processes a message in the session: `session.metadata.isProcessing` where
 * the release has it and answers, else (no such method, a rejection, a throw, no answer in time,
 * an answer without a boolean) the session's last turn event in its history (`getEvents`, or
 * `getMessages` before SDK 1.0.14);
 * undefined when neither answers in time.
 */
async function askProcessing(session: RunningSession): Promise<boolean | undefined> {
    const isProcessing = session.rpc.metadata?.isProcessing;
    if (typeof isProcessing === "function") {
        let answer: unknown;
        try {
            answer = await answerWithin(
                isProcessing.call(session.rpc.metadata),
                RESUME_PROBE_TIMEOUT
            );
        } catch {
            // A runtime that refuses the question may still list the session's history.
            answer = undefined;
        }
        const processing = (answer as { processing?: unknown } | null)?.processing;
        if (typeof processing === "boolean") return processing;
    }
    // The SDK renamed the history's method (getMessages, then getEvents from 1.0.14 on).
    const history =
        typeof session.getEvents === "function"
            ? session.getEvents
            : typeof session.getMessages === "function"
              ? session.getMessages
              : undefined;
    if (history === undefined) return undefined;
    const events = await answerWithin(history.call(session), RESUME_PROBE_TIMEOUT);
    if (!Array.isArray(events)) return undefined;
    for (let index = events.length - 1; index >= 0; index--) {
        const event = events[index] as SessionEventLike | null;
        const turnEvent =
            event === null || typeof event !== "object" ? undefined : turnEventOf(event);
        if (turnEvent === undefined) continue;
        return !(turnEvent.kind === "idle" && !turnEvent.autopilot);
    }
    return false;
}
