/**
 * Whether a session is busy, from the runtime's own events matched to what they belong to, as a
 * pure reducer. Measured on the runtime (1.0.14): `session.send` resolves with the message id;
 * the runtime emits `user.message` with that id (and the `interactionId` of the run that takes
 * it) when the message is processed, possibly long after `send` resolved (`delivery: "queued"`),
 * then `assistant.turn_start` / `assistant.turn_end` pairs carrying `interactionId` / `turnId`
 * (turn ids restart at "0" in each run), and `session.idle` when nothing runs any more.
 *
 * A message sent through the session is busy from the call until a `session.idle` that comes
 * after its own `user.message` and its turns: an idle that arrives while a turn is open or a
 * taken message waits for its turn (a late idle of the run before) ends nothing. A run or turn started any other way (another client, `fleet.start`,
 * `commands.enqueue`) is busy from its `user.message` or `assistant.turn_start` to the next
 * non-autopilot `session.idle`.
 *
 * Sub-agents (the runtime's `task` tool; measured on runtime 1.0.85): a sub-agent is busy from its
 * `subagent.started` to its `subagent.completed` or `subagent.failed`, whatever `session.idle`
 * says (an aborted run's idle ends it too). Its own events carry its `agentId`: its turns are
 * keyed by it (its `turn_end`, like the main agent's, carries only a turn id, and both count
 * turns from "0") and end with it, and its first `user.message` (the task's prompt) is no
 * message of the app's.
 * Measured: a `task` in `mode: "background"` lets the main agent's turn end while the sub-agent
 * runs, and the runtime holds `session.idle` back until the sub-agent completed and the main
 * agent took its result; a sync `task` keeps the main turn open throughout.
 */

/** What the reducer knows. Immutable: each event gives a new state. */
export interface TurnState {
    /** Messages sent through this session object that the runtime has not taken yet. */
    readonly waiting: readonly WaitingMessage[];
    /** Message ids the runtime took before `send` resolved with them. */
    readonly takenEarly: readonly string[];
    /** Whether a run is going on: a message was taken or a turn started, and no idle since. */
    readonly running: boolean;
    /** Turns started and not ended, as `interactionId/turnId`. */
    readonly openTurns: readonly string[];
    /** A message was taken to start a run (not steered into one) and its turn has not started. */
    readonly awaitingTurn: boolean;
    /** Sub-agents started and not completed or failed, by the id of the `task` call. */
    readonly subAgents: readonly string[];
}

/** A message sent through the session, until the runtime takes it. */
export interface WaitingMessage {
    /** The number the session gave the `send` call. */
    readonly call: number;
    /** The id `send` resolved with; undefined until then. */
    readonly messageId: string | undefined;
}

/** An event the reducer takes: the app's `send` calls and the runtime's session events. */
export type TurnEvent =
    | { readonly kind: "send"; readonly call: number }
    | { readonly kind: "sent"; readonly call: number; readonly messageId: string | undefined }
    | { readonly kind: "send-failed"; readonly call: number }
    | {
          readonly kind: "user.message";
          readonly messageId: string | undefined;
          /** `"steering"`: put into the run going on, which its idle ends. */
          readonly delivery?: string;
      }
    | {
          readonly kind: "turn_start" | "turn_end";
          readonly interactionId: string | undefined;
          readonly turnId: string | undefined;
          /** The sub-agent whose turn it is (the event's `agentId`); undefined for the main agent. */
          readonly agent?: string;
      }
    | {
          readonly kind: "subagent.started" | "subagent.ended";
          readonly taskCallId: string;
          /** The sub-agent's `agentId`, which its turns carry. */
          readonly agent?: string;
      }
    | { readonly kind: "idle"; readonly autopilot: boolean; readonly aborted?: boolean };

/** The state of a session nothing has happened to. */
export const IDLE: TurnState = Object.freeze({
    waiting: Object.freeze([]),
    takenEarly: Object.freeze([]),
    running: false,
    openTurns: Object.freeze([]),
    awaitingTurn: false,
    subAgents: Object.freeze([]),
});

/**
 * The state of a session object that a resume made, before the runtime said whether the session
 * is processing: a run counts as going on until the runtime's next `session.idle` (or its answer).
 */
export const RESUMED: TurnState = Object.freeze({ ...IDLE, running: true });

/** Whether a session in `state` processes (or is about to process) a message. */
export function isBusy(state: TurnState): boolean {
    return (
        state.running ||
        state.awaitingTurn ||
        state.waiting.length > 0 ||
        state.openTurns.length > 0 ||
        state.subAgents.length > 0
    );
}

/**
 * The state after `event`.
 *
 * @param state - the state before
 * @param event - what happened
 * @returns the state after (`state` itself when nothing changed)
 */
export function nextTurnState(state: TurnState, event: TurnEvent): TurnState {
    switch (event.kind) {
        case "send":
            return {
                ...state,
                waiting: [...state.waiting, { call: event.call, messageId: undefined }],
            };
        case "sent": {
            if (event.messageId !== undefined && state.takenEarly.includes(event.messageId)) {
                return {
                    ...state,
                    waiting: state.waiting.filter(({ call }) => call !== event.call),
                    takenEarly: state.takenEarly.filter((id) => id !== event.messageId),
                };
            }
            return {
                ...state,
                waiting: state.waiting.map((message) =>
                    message.call === event.call
                        ? { call: message.call, messageId: event.messageId }
                        : message
                ),
            };
        }
        case "send-failed":
            return {
                ...state,
                waiting: state.waiting.filter(({ call }) => call !== event.call),
            };
        case "user.message": {
            const { messageId } = event;
            let waiting = state.waiting;
            let takenEarly = state.takenEarly;
            if (messageId === undefined) {
                // A release whose events carry no id: the oldest message sent is the one taken.
                waiting = waiting.slice(1);
            } else if (waiting.some((message) => message.messageId === messageId)) {
                waiting = waiting.filter((message) => message.messageId !== messageId);
            } else if (waiting.some((message) => message.messageId === undefined)) {
                // Taken before send resolved; matched when it does. (Bounded: ids of other
                // clients' messages are kept only while this session has a send in flight.)
                takenEarly = [...takenEarly, messageId].slice(-64);
            }
            const awaitingTurn = state.awaitingTurn || event.delivery !== "steering";
            return { ...state, waiting, takenEarly, running: true, awaitingTurn };
        }
        case "turn_start":
            // A sub-agent's turn is busy as an open turn; the main agent's run is another's.
            if (event.agent !== undefined) {
                return {
                    ...state,
                    openTurns: [
                        ...state.openTurns,
                        turnKey(event.agent, event.interactionId, event.turnId),
                    ],
                };
            }
            return {
                ...state,
                running: true,
                awaitingTurn: false,
                openTurns: [
                    ...state.openTurns,
                    turnKey(event.agent, event.interactionId, event.turnId),
                ],
            };
        case "turn_end": {
            const key = turnKey(event.agent, event.interactionId, event.turnId);
            let index = state.openTurns.indexOf(key);
            // turn_end carries no interactionId on some releases: match the agent and turn id.
            if (index < 0) {
                const agent = `${event.agent ?? ""}|`;
                const turn = `/${event.turnId}`;
                index = state.openTurns.findIndex(
                    (open) => open.startsWith(agent) && open.endsWith(turn)
                );
            }
            if (index < 0) return state;
            return {
                ...state,
                openTurns: state.openTurns.filter((_, position) => position !== index),
            };
        }
        case "subagent.started":
            // Bounded: a runtime that never ends its sub-agents keeps the session busy, not memory.
            return {
                ...state,
                subAgents: [...state.subAgents, event.taskCallId].slice(-MAX_SUB_AGENTS),
            };
        case "subagent.ended": {
            // A sub-agent that failed mid-turn sends no turn_end: its turns end with it.
            const own = event.agent === undefined ? undefined : `${event.agent}|`;
            const index = state.subAgents.indexOf(event.taskCallId);
            return {
                ...state,
                subAgents: state.subAgents.filter((_, position) => position !== index),
                openTurns:
                    own === undefined
                        ? state.openTurns
                        : state.openTurns.filter((open) => !open.startsWith(own)),
            };
        }
        case "idle":
            // In autopilot the runtime goes on by itself after this idle.
            if (event.autopilot) return state;
            // A late idle (of the run before a turn or a taken message that has not ended) ends
            // nothing; an aborted run's idle ends everything the runtime took. Messages it has
            // not taken yet stay busy, and so do sub-agents still running (unless aborted).
            if (!event.aborted && (state.openTurns.length > 0 || state.awaitingTurn)) {
                return state;
            }
            return {
                ...state,
                running: false,
                awaitingTurn: false,
                openTurns: [],
                takenEarly: [],
                subAgents: event.aborted === true ? [] : state.subAgents,
            };
    }
}

/** At most this many running sub-agents are remembered. */
const MAX_SUB_AGENTS = 64;

function turnKey(
    agent: string | undefined,
    interactionId: string | undefined,
    turnId: string | undefined
): string {
    return `${agent ?? ""}|${interactionId ?? ""}/${turnId ?? ""}`;
}
