// The built-in sub-agents' half of the prompt agreement. The runtime starts a sub-agent for each
// `task` call with a system prompt of its own, which no section transform reaches; the sub-agent's
// first message is the call's `prompt`. A `preToolUse` hook that returns `modifiedArgs` for the
// call changes that message, so the package appends the agreement's note (what the session lacks
// or replaces) to it.
//
// Measured on runtime 1.0.85 (docs/runtime-checks.md, test/e2e/taskPromptNote.test.ts):
// - `task` never reaches `onPermissionRequest`, with or without a hook;
// - `modifiedArgs` apply without a `permissionDecision` (and with `permissionDecisionReason`
//   alone); with `"ask"` the runtime asks the app's permission handler (kind `hook`) and keeps
//   the original arguments; with `"deny"` the task does not run;
// - the sub-agent's own calls still go to the app's permission handler, whose decision stands.
// So the package never returns a `permissionDecision` of its own: the app's handler decides as it
// would without the package.
//
// Composition with the app's own `onPreToolUse`: the app's hook runs first, on every call, with
// the arguments the model wrote; its result stands. For a `task` call its `modifiedArgs` (or the
// model's arguments when it returns none) get the note; a result that denies or asks is returned
// as it is (the runtime keeps the original arguments then). An app hook that throws throws on
// (the SDK then treats the hook as having returned nothing, as it does without the package).

import { isPromiseLike } from "../../shared/promiseLike.js";
import { noteFor, type PromptTools } from "./promptAgreement.js";

/** The SDK's `onPreToolUse`, as far as the package reads it. */
export type PreToolUseHook = (
    input: { toolName: string; toolArgs: unknown },
    invocation: { sessionId: string }
) => unknown;

/** The runtime's tool that starts a sub-agent; its `prompt` is the sub-agent's first message. */
export const TASK_TOOL = "task";

/**
 * The `hooks` option to send: the app's hooks with an `onPreToolUse` that appends the prompt
 * agreement's note to each `task` call's `prompt`, or the app's `hooks` as given when the package
 * adds nothing.
 *
 * The package's hook is registered when the session, as created, has something to note, or when
 * the app has an `onPreToolUse` of its own (which it then wraps): registering a hook makes the
 * runtime ask the client before every tool call, a cost a session with nothing to say does not
 * take. A `hooks` that is not an object, or whose `onPreToolUse` is not a function, goes as given
 * (the SDK's own handling).
 *
 * @param given - the app's `hooks` option, as given (never modified)
 * @param tools - the session's tools in force, read at each call
 * @returns the `hooks` to send
 */
export function hooksWithTaskNote(given: unknown, tools: () => PromptTools): unknown {
    const appHooks = given !== null && typeof given === "object" ? given : undefined;
    if (appHooks === undefined && given !== undefined) return given;
    const appHook = appHooks === undefined ? undefined : readHook(appHooks);
    if (appHook === false) return given;
    if (appHook === undefined && noteFor(tools()) === undefined) return given;
    const onPreToolUse = taskNoteHook(appHook, () => noteFor(tools()));
    // The app's other hooks stay reachable as they were (own, inherited or getters).
    return appHooks === undefined
        ? { onPreToolUse }
        : Object.create(appHooks, { onPreToolUse: { value: onPreToolUse, enumerable: true } });
}

/** The app's `onPreToolUse`, read once: undefined when absent, false when not a function. */
function readHook(hooks: object): PreToolUseHook | undefined | false {
    let hook: unknown;
    try {
        hook = (hooks as { onPreToolUse?: unknown }).onPreToolUse;
    } catch {
        return false;
    }
    if (hook === undefined || hook === null) return undefined;
    return typeof hook === "function" ? (hook as PreToolUseHook) : false;
}

/**
 * An `onPreToolUse` that runs `appHook` (when given) and appends `note()` to a `task` call's
 * `prompt` unless the app's result denies or asks. Exported for the unit tests.
 *
 * @param appHook - the app's own hook, whose result stands
 * @param note - the note for the tools in force now; undefined when there is nothing to say
 */
export function taskNoteHook(
    appHook: PreToolUseHook | undefined,
    note: () => string | undefined
): PreToolUseHook {
    return (input, invocation) => {
        const appResult: unknown = appHook?.(input, invocation);
        if (input?.toolName !== TASK_TOOL) return appResult;
        return isPromiseLike(appResult)
            ? Promise.resolve(appResult).then((result) => withNote(input.toolArgs, result, note))
            : withNote(input.toolArgs, appResult, note);
    };
}

/** The hook's result for a `task` call: the app's, with the note in its arguments' prompt. */
function withNote(modelArgs: unknown, appResult: unknown, note: () => string | undefined): unknown {
    const result =
        appResult !== null && typeof appResult === "object"
            ? (appResult as Record<string, unknown>)
            : undefined;
    if (result === undefined && appResult !== undefined && appResult !== null) return appResult;
    const decision = result?.permissionDecision;
    if (decision === "deny" || decision === "ask") return appResult;
    const args = result?.modifiedArgs !== undefined ? result.modifiedArgs : modelArgs;
    if (args === null || typeof args !== "object" || Array.isArray(args)) return appResult;
    const prompt = (args as { prompt?: unknown }).prompt;
    const text = note();
    if (typeof prompt !== "string" || text === undefined || prompt.includes(text)) return appResult;
    return { ...result, modifiedArgs: { ...args, prompt: `${prompt}\n\n${text}` } };
}
