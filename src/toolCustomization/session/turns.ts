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
      }
    | { readonly kind: "idle"; readonly autopilot: boolean; readonly aborted?: boolean };

/** The state of a session nothing has happened to. */
export const IDLE: TurnState = Object.freeze({
    waiting: Object.freeze([]),
    takenEarly: Object.freeze([]),
    running: false,
    openTurns: Object.freeze([]),
    awaitingTurn: false,
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
        state.openTurns.length > 0
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
            return {
                ...state,
                running: true,
                awaitingTurn: false,
                openTurns: [...state.openTurns, turnKey(event.interactionId, event.turnId)],
            };
        case "turn_end": {
            const key = turnKey(event.interactionId, event.turnId);
            let index = state.openTurns.indexOf(key);
            // turn_end carries no interactionId on some releases: match the turn id alone.
            if (index < 0) {
                index = state.openTurns.findIndex((open) => open.endsWith(`/${event.turnId}`));
            }
            if (index < 0) return state;
            return {
                ...state,
                openTurns: state.openTurns.filter((_, position) => position !== index),
            };
        }
        case "idle":
            // In autopilot the runtime goes on by itself after this idle.
            if (event.autopilot) return state;
            // A late idle (of the run before a turn or a taken message that has not ended) ends
            // nothing; an aborted run's idle ends everything the runtime took. Messages it has
            // not taken yet stay busy.
            if (!event.aborted && (state.openTurns.length > 0 || state.awaitingTurn)) {
                return state;
            }
            return {
                ...state,
                running: false,
                awaitingTurn: false,
                openTurns: [],
                takenEarly: [],
            };
    }
}

function turnKey(interactionId: string | undefined, turnId: string | undefined): string {
    return `${interactionId ?? ""}/${turnId ?? ""}`;
}
