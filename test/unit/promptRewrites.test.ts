/**
 * The client's rewriter (`createPromptRewrites`): the same answer as the rewrite itself, found
 * again without a second scan only when the text and the tools are the same, and bounded.
 */
import { describe, expect, it, vi } from "vitest";
import {
    createPromptRewrites,
    noteFor,
    type PromptTools,
} from "../../src/toolCustomization/prompt/promptAgreement.js";
import {
    droppedMentions,
    rewriteWithoutTools,
} from "../../src/toolCustomization/prompt/promptRewrite.js";

// The rewrite itself, counted: an answer found again is one the rewriter did not scan for.
vi.mock("../../src/toolCustomization/prompt/promptRewrite.js", async (importOriginal) => {
    const original =
        await importOriginal<
            typeof import("../../src/toolCustomization/prompt/promptRewrite.js")
        >();
    return { ...original, rewriteWithoutTools: vi.fn(original.rewriteWithoutTools) };
});

const NAMES = ["bash", "view", "edit", "grep", "glob"];

function tools(dropped: string[]): PromptTools {
    return {
        names: new Set(NAMES),
        dropped: new Set(dropped),
        missing: dropped,
        replaced: [],
        droppedBuiltIns: dropped,
        unconfirmed: [],
    };
}

const TEXT = "* Use grep, glob, view, edit yourself.\n<bash>\nRun.\n</bash>\nEnd.";

/** What the rewriter answers, computed without it. */
function direct(text: string, dropped: string[], names: string[] = NAMES) {
    const rewritten = rewriteWithoutTools(text, new Set(names), new Set(dropped));
    return {
        ...rewritten,
        left: droppedMentions(rewritten.text, new Set(names), new Set(dropped)),
    };
}

/** A section as runtime 1.0.85 writes `runtime_instructions`: the session folder ends with its id. */
function sessionText(id: string, extra = ""): string {
    return `* Use grep, glob, view, edit yourself.${extra}\n<session_context>\nSession folder: /tmp/b/session-state/${id}\n\nContents:\n- files/: Persistent storage\n</session_context>\n<bash>\nRun.\n</bash>\nEnd.`;
}

const IDS = [
    "52acdb26-0bfc-4ee6-b811-2e705b36c415",
    "b86d4859-a021-4857-8372-c29a65ce9849",
    "0cc1bd7a-9e7d-4f4e-8c5a-0e2b1f0b9d11",
];

describe("createPromptRewrites", () => {
    it("answers as rewriteWithoutTools does, for each set of tools", () => {
        const rewrite = createPromptRewrites();
        for (const dropped of [["view"], ["bash"], [], ["grep", "glob", "view"], ["view"]]) {
            expect(rewrite(TEXT, tools(dropped))).toEqual(direct(TEXT, dropped));
        }
    });

    it("finds an earlier answer for the same text and equal tools, and not for others", () => {
        const rewrite = createPromptRewrites();
        const first = rewrite(TEXT, tools(["view"]));
        expect(rewrite(TEXT, tools(["view"]))).toBe(first);
        expect(rewrite(TEXT, tools(["bash"]))).not.toBe(first);
        expect(rewrite(`${TEXT} `, tools(["view"]))).not.toBe(first);
        expect(Object.isFrozen(first) && Object.isFrozen(first.edits[0])).toBe(true);
    });

    it("finds an earlier answer for a text that differs only in the session's id", () => {
        const rewrite = createPromptRewrites();
        const counted = vi.mocked(rewriteWithoutTools);
        const expected = IDS.map((id) => direct(sessionText(id), ["view", "bash"]));
        const first = rewrite(sessionText(IDS[0]!), tools(["view", "bash"]));
        counted.mockClear();
        const later = IDS.slice(1).map((id) => rewrite(sessionText(id), tools(["view", "bash"])));
        expect(counted).not.toHaveBeenCalled();
        expect([first, ...later]).toEqual(expected);
        expect(later[0]!.text).toContain(`session-state/${IDS[1]}\n`);
    });

    it("answers as rewriteWithoutTools does where an id goes with removed text or a name looks like an id", () => {
        const rewrite = createPromptRewrites();
        for (const id of IDS) {
            // The sentence naming grep, and the id in it, go.
            const removed = sessionText(id, ` Then grep /s/${id} alone.`);
            expect(rewrite(removed, tools(["grep"]))).toEqual(direct(removed, ["grep"]));
            // Twice the same id, and a tool whose name an id could spell.
            const twice = `${sessionText(id)}\nAgain: ${id}; use the **add** tool.`;
            const named = [...NAMES, "add"];
            const withAdd: PromptTools = { ...tools(["add"]), names: new Set(named) };
            expect(rewrite(twice, withAdd)).toEqual(direct(twice, ["add"], named));
            expect(rewrite(twice, tools(["view"]))).toEqual(direct(twice, ["view"]));
            // The id inside a removed block: the edit shows the id, not the placeholder.
            const inBlock = `Start.\n<bash>\nRun in /s/${id} only.\n</bash>\nEnd.`;
            expect(rewrite(inBlock, tools(["bash"]))).toEqual(direct(inBlock, ["bash"]));
            // Two ids, the first in a removed block past its excerpt's end: the second is kept.
            const two = `<bash>\nRun.${" Wait.".repeat(40)}\n/s/${id}\n</bash>\nKeep /s/${IDS[0]!}.`;
            expect(rewrite(two, tools(["bash"]))).toEqual(direct(two, ["bash"]));
            // A tool named like an id: its mention is not compared as a placeholder.
            const asName = `${sessionText(id)}\nUse the \`${id}\` tool.`;
            const withId: PromptTools = { ...tools([id]), names: new Set([...NAMES, id]) };
            expect(rewrite(asName, withId)).toEqual(direct(asName, [id], [...NAMES, id]));
        }
    });

    it("forgets the oldest answers beyond its bound", () => {
        const rewrite = createPromptRewrites();
        const first = rewrite(TEXT, tools(["view"]));
        for (let i = 0; i < 200; i++) rewrite(`${TEXT} ${i}`, tools(["bash"]));
        expect(rewrite(TEXT, tools(["view"]))).not.toBe(first);
        expect(rewrite(TEXT, tools(["view"]))).toEqual(first);
    });
});

describe("noteFor: the note reads as English for one or many tools", () => {
    const note = (missing: string[], replaced: string[], unconfirmed: string[] = []) =>
        noteFor({
            names: new Set(NAMES),
            dropped: new Set(),
            missing,
            replaced,
            droppedBuiltIns: [],
            unconfirmed,
        });

    it("says 'the tool X ... it' for one and 'the tools X and Y ... them' for many", () => {
        expect(note(["view"], ["bash"])).toBe(
            "<tool_availability>\nThis session does not offer the tool view: where any instruction names it, use the tools you are given instead.\nThe tool bash is this application's own: follow its description, not what any instruction says about a built-in tool of the same name.\n</tool_availability>"
        );
        expect(note(["view", "grep", "glob"], ["bash", "edit"], ["skill"])).toBe(
            "<tool_availability>\nThis session does not offer the tools view, grep and glob: where any instruction names them, use the tools you are given instead.\nThe tools bash and edit are this application's own: follow their descriptions, not what any instruction says about a built-in tool of the same name.\nThis session may not offer the tool skill: where an instruction names it and you are not given that tool, use the tools you are given instead.\n</tool_availability>"
        );
        expect(note([], [])).toBe(undefined);
    });
});
