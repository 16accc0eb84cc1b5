/**
 * The task prompt note's hook (`taskPromptNote.ts`): the note goes into a `task` call's prompt,
 * the package never makes a permission decision, and the app's hook and its result stand.
 */
import { describe, expect, it } from "vitest";
import {
    hooksWithTaskNote,
    taskNoteHook,
    type PreToolUseHook,
} from "../../src/toolCustomization/prompt/taskPromptNote.js";
import type { PromptTools } from "../../src/toolCustomization/prompt/promptAgreement.js";

const NOTE = "<tool_availability>\nnote\n</tool_availability>";
const task = { toolName: "task", toolArgs: { agent_type: "explore", prompt: "Find it." } };
const at = { sessionId: "s" };
const noted = (prompt: string) => ({
    modifiedArgs: { agent_type: "explore", prompt: `${prompt}\n\n${NOTE}` },
});

function tools(missing: string[]): PromptTools {
    return {
        names: new Set(missing),
        dropped: new Set(missing),
        missing,
        replaced: [],
        droppedBuiltIns: missing,
        unconfirmed: [],
    };
}

describe("taskNoteHook", () => {
    it("appends the note to a task call's prompt and returns no permission decision", () => {
        const result = taskNoteHook(undefined, () => NOTE)(task, at);
        expect(result).toEqual(noted("Find it."));
        expect(result).not.toHaveProperty("permissionDecision");
    });

    it("leaves other tools' calls, a prompt that is not a string and a prompt with the note alone", () => {
        const hook = taskNoteHook(undefined, () => NOTE);
        expect(hook({ toolName: "bash", toolArgs: { command: "ls" } }, at)).toBeUndefined();
        expect(hook({ toolName: "task", toolArgs: { prompt: 3 } }, at)).toBeUndefined();
        expect(hook({ toolName: "task", toolArgs: ["x"] }, at)).toBeUndefined();
        expect(
            hook({ toolName: "task", toolArgs: { prompt: `a\n\n${NOTE}` } }, at)
        ).toBeUndefined();
        expect(taskNoteHook(undefined, () => undefined)(task, at)).toBeUndefined();
    });

    it("runs the app's hook on every call with the model's arguments, and its result stands", async () => {
        const seen: unknown[] = [];
        const app: PreToolUseHook = (input) => {
            seen.push(input);
            return input.toolName === "task"
                ? {
                      additionalContext: "ctx",
                      modifiedArgs: { agent_type: "explore", prompt: "App." },
                  }
                : { permissionDecision: "allow" };
        };
        const hook = taskNoteHook(app, () => NOTE);
        expect(hook({ toolName: "view", toolArgs: {} }, at)).toEqual({
            permissionDecision: "allow",
        });
        expect(hook(task, at)).toEqual({ additionalContext: "ctx", ...noted("App.") });
        expect(seen).toEqual([{ toolName: "view", toolArgs: {} }, task]);
        // A promise: the same, once it resolves.
        const later = taskNoteHook(
            () => Promise.resolve({ permissionDecisionReason: "r" }),
            () => NOTE
        );
        await expect(later(task, at)).resolves.toEqual({
            permissionDecisionReason: "r",
            ...noted("Find it."),
        });
    });

    it("returns the app's deny and ask as they are (the runtime keeps the model's arguments then)", () => {
        for (const permissionDecision of ["deny", "ask"]) {
            const decided = { permissionDecision, modifiedArgs: { prompt: "x" } };
            expect(
                taskNoteHook(
                    () => decided,
                    () => NOTE
                )(task, at)
            ).toBe(decided);
        }
    });

    it("lets an app hook's error through (the SDK treats it as no result, as without the package)", () => {
        const hook = taskNoteHook(
            () => {
                throw new Error("app");
            },
            () => NOTE
        );
        expect(() => hook(task, at)).toThrow("app");
    });
});

describe("hooksWithTaskNote", () => {
    it("adds a hook of its own only when the session has something to note", () => {
        expect(hooksWithTaskNote(undefined, () => tools([]))).toBeUndefined();
        const hooks = hooksWithTaskNote(undefined, () => tools(["grep"])) as {
            onPreToolUse: PreToolUseHook;
        };
        expect(hooks.onPreToolUse(task, at)).toEqual({
            modifiedArgs: {
                agent_type: "explore",
                prompt: expect.stringContaining("does not offer the tool grep") as string,
            },
        });
    });

    it("wraps the app's onPreToolUse, keeps its other hooks and reads the tools at each call", () => {
        let missing: string[] = [];
        const onSessionStart = () => {};
        const given = { onSessionStart, onPreToolUse: () => undefined };
        const hooks = hooksWithTaskNote(given, () => tools(missing)) as typeof given & {
            onPreToolUse: PreToolUseHook;
        };
        expect(hooks).not.toBe(given);
        expect(given.onPreToolUse).not.toBe(hooks.onPreToolUse);
        expect(hooks.onSessionStart).toBe(onSessionStart);
        expect(hooks.onPreToolUse(task, at)).toBeUndefined();
        missing = ["glob"];
        expect(JSON.stringify(hooks.onPreToolUse(task, at))).toContain("glob");
    });

    it("passes hooks it cannot compose with as given", () => {
        const odd = { onPreToolUse: "not a function" };
        expect(hooksWithTaskNote(odd, () => tools(["grep"]))).toBe(odd);
        expect(hooksWithTaskNote("x", () => tools(["grep"]))).toBe("x");
        const throwing = {
            get onPreToolUse() {
                throw new Error("getter");
            },
        };
        expect(hooksWithTaskNote(throwing, () => tools(["grep"]))).toBe(throwing);
    });
});
