// Where the `task` call's prompt can carry the prompt agreement's note (taskPromptNote.ts): the
// runtimes on which a `preToolUse` hook's `modifiedArgs` for a `task` call, with no permission
// decision, reach the sub-agent as its first message. Measured (test/e2e/taskPromptNote.test.ts,
// docs/runtime-checks.md): runtime 1.0.85 (SDK 1.0.14), 1.0.89-7 (SDK 1.0.15-preview.4) and the
// external 1.0.102 apply them; runtime 1.0.57 (SDK 1.0.0) starts no sub-agent at all when the
// hook returns `modifiedArgs` for `task` (the call fails), so the note is never added there, nor
// on a runtime not measured.

/** The runtime versions on which the task prompt note is added. */
export const TASK_PROMPT_NOTE_RUNTIMES: ReadonlySet<string> = new Set([
    "1.0.85",
    "1.0.89-7",
    "1.0.102",
]);
