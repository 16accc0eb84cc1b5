/**
 * The client's rewriter (`createPromptRewrites`): the same answer as the rewrite itself, found
 * again without a second scan only when the text and the tools are the same, and bounded.
 */
import { describe, expect, it } from "vitest";
import {
    createPromptRewrites,
    noteFor,
    type PromptTools,
} from "../../src/toolCustomization/prompt/promptAgreement.js";
import { rewriteWithoutTools } from "../../src/toolCustomization/prompt/promptRewrite.js";

const NAMES = ["bash", "view", "edit", "grep", "glob"];

function tools(dropped: string[]): PromptTools {
    return {
        names: new Set(NAMES),
        dropped: new Set(dropped),
        missing: dropped,
        replaced: [],
        unconfirmed: [],
    };
}

const TEXT = "* Use grep, glob, view, edit yourself.\n<bash>\nRun.\n</bash>\nEnd.";

describe("createPromptRewrites", () => {
    it("answers as rewriteWithoutTools does, for each set of tools", () => {
        const rewrite = createPromptRewrites();
        for (const dropped of [["view"], ["bash"], [], ["grep", "glob", "view"], ["view"]]) {
            const expected = rewriteWithoutTools(TEXT, new Set(NAMES), new Set(dropped));
            expect(rewrite(TEXT, tools(dropped))).toEqual(expected);
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
        noteFor({ names: new Set(NAMES), dropped: new Set(), missing, replaced, unconfirmed });

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
