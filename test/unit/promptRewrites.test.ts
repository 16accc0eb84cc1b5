/**
 * The client's rewriter (`createPromptRewrites`): the same answer as the rewrite itself, found
 * again without a second scan only when the text and the tools are the same, and bounded.
 */
import { describe, expect, it } from "vitest";
import {
    createPromptRewrites,
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
