/**
 * The one rule for "a text names a tool" (`toolMentions`), which `PROMPT_NAMES_REMOVED_TOOL` and
 * the rewrite of the runtime's sections share, and the rewrite itself (`rewriteWithoutTools`):
 * each context the rule counts, the ordinary English it does not, its bound on any text, and a
 * property over hand-labelled sentences: the rewrite never touches a sentence that names only
 * offered tools, and leaves no mention of a dropped one.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
    toolMentions,
    toolNamesInPrompt,
} from "../../src/toolCustomization/prompt/toolMentions.js";
import {
    mentionExcerpt,
    rewriteWithoutTools,
} from "../../src/toolCustomization/prompt/promptRewrite.js";

const NAMES = new Set([
    "view",
    "edit",
    "create",
    "grep",
    "glob",
    "bash",
    "read_bash",
    "stop_bash",
    "task",
    "apply_patch",
    "rg",
]);

describe("toolMentions: the rule for what counts as naming a tool", () => {
    it("counts bold, backticked, block, 'tool'/'calls', underscore and list contexts", () => {
        const text =
            "Use **grep** or `glob`.\n<bash>\nRun it.\n</bash>\nThe view tool reads. Make 3 edit calls. " +
            "Then read_bash. Use create, task, and rg yourself.";
        expect(toolMentions(text, NAMES).map((m) => [m.name, m.kind])).toEqual([
            ["grep", "bold"],
            ["glob", "code"],
            ["bash", "block"],
            ["bash", "block"],
            ["view", "tool-word"],
            ["edit", "tool-word"],
            ["read_bash", "identifier"],
            ["create", "list"],
            ["task", "list"],
            ["rg", "list"],
        ]);
    });

    it("does not count ordinary words that happen to be tool names", () => {
        const text =
            "View the file, then edit it and create a summary. Default task agents to sync. " +
            "Chain bash commands. Create and edit files. Pipe to grep/head when needed.";
        expect(toolNamesInPrompt(text, NAMES)).toEqual([]);
    });

    it("does not count a name inside a path, a file name or a longer identifier", () => {
        expect(
            toolNamesInPrompt("see src/read_bash.ts, a.view, view_range and __init__", NAMES)
        ).toEqual([]);
    });

    it("counts a list joined by slashes only when every item is a tool name", () => {
        expect(toolNamesInPrompt("Use view/edit for files.", NAMES)).toEqual(["view", "edit"]);
        expect(toolNamesInPrompt("Pipe to grep/head.", NAMES)).toEqual([]);
    });

    it("takes time linear in the text and constant stack on a 10 MB one-token text", () => {
        const text = "a_".repeat(5_000_000) + "a";
        const started = performance.now();
        expect(toolMentions(text, NAMES)).toEqual([]);
        expect(rewriteWithoutTools(text, NAMES, new Set(["view"])).edits).toEqual([]);
        expect(performance.now() - started).toBeLessThan(10_000);
    });

    it("rewrites a 9 MB text of one repeated mention in time linear in its length", () => {
        // Against the same rewrite of a tenth of the text, timed just before: a ratio holds on a
        // busy machine where a wall-clock bound does not (quadratic work would give about 100).
        const timed = (repeats: number) => {
            const text = "**view** ".repeat(repeats);
            const started = performance.now();
            const { text: out } = rewriteWithoutTools(text, NAMES, new Set(["view"]));
            expect(toolNamesInPrompt(out, NAMES)).toEqual([]);
            return performance.now() - started;
        };
        const tenth = timed(100_000);
        const whole = timed(1_000_000);
        expect(whole / Math.max(tenth, 1)).toBeLessThan(30);
    }, 180_000);
});

describe("rewriteWithoutTools: the smallest unit that leaves correct text", () => {
    const dropped = new Set(["view", "grep", "glob"]);

    it("removes a tool's own block, and an XML block it leaves empty", () => {
        const text =
            "<bash>\nRun.\n</bash>\n<view>\nRead.\n</view>\n<prefs>\nUse **view**.\n</prefs>\nEnd.";
        expect(rewriteWithoutTools(text, NAMES, dropped).text).toBe("<bash>\nRun.\n</bash>\nEnd.");
    });

    it("removes the sentence, or the list item that is one sentence", () => {
        const text = "* Make 3 view tool calls.\n* Keep going. Use `grep` now. Then stop.\nDone.";
        const { text: out, edits } = rewriteWithoutTools(text, NAMES, dropped);
        expect(out).toBe("* Keep going. Then stop.\nDone.");
        expect(edits.map((edit) => [edit.action, edit.names])).toEqual([
            ["removed", ["view"]],
            ["removed", ["grep"]],
        ]);
    });

    it("writes a list of names again without the dropped ones", () => {
        expect(
            rewriteWithoutTools("Use grep, glob, view, edit yourself.", NAMES, dropped).text
        ).toBe("Use edit yourself.");
        expect(rewriteWithoutTools("Use view, edit, and create here.", NAMES, dropped).text).toBe(
            "Use edit and create here."
        );
        expect(rewriteWithoutTools("Use view/edit for files.", NAMES, dropped).text).toBe(
            "Use edit for files."
        );
    });

    it("removes the sentence when the list would be left empty", () => {
        expect(rewriteWithoutTools("A. Use grep/glob/view. B.", NAMES, dropped).text).toBe("A. B.");
    });

    it("writes a ranking again without the phrases a dropped name heads", () => {
        const text = "A. Prefer: LSP > glob > grep with a glob > bash. B.";
        expect(rewriteWithoutTools(text, NAMES, dropped).text).toBe("A. Prefer: LSP > bash. B.");
        expect(rewriteWithoutTools(text, NAMES, new Set(["bash"])).text).toBe(
            "A. Prefer: LSP > glob > grep with a glob. B."
        );
    });

    it("writes backticked lists and pairs again without the dropped items", () => {
        expect(
            rewriteWithoutTools("Prefer `rg`, `glob`, `view`, and `apply_patch`.", NAMES, dropped)
                .text
        ).toBe("Prefer `rg` and `apply_patch`.");
        expect(
            rewriteWithoutTools(
                "Use **grep** instead of `grep`, **glob** instead of `ls`, and **view** instead of `cat`. Done.",
                NAMES,
                new Set(["view"])
            ).text
        ).toBe("Use **grep** instead of `grep` and **glob** instead of `ls`. Done.");
    });

    it("keeps a sentence conditional on the tool's availability", () => {
        const text =
            "Use the ask_user tool (if available) to ask. If the ask_user tool is not available, list the options.";
        const names = new Set([...NAMES, "ask_user"]);
        expect(rewriteWithoutTools(text, names, new Set(["ask_user"])).text).toBe(text);
    });

    it("keeps a list item's marker when only its first sentence goes", () => {
        expect(
            rewriteWithoutTools("* Use `grep` here. Verify with tests.\n", NAMES, dropped).text
        ).toBe("* Verify with tests.\n");
        expect(
            rewriteWithoutTools("- Use `view` for it. Scripts are exempt.\n- Next.", NAMES, dropped)
                .text
        ).toBe("- Next.");
    });

    it("removes only the trailing clause when the dropped mentions are all in it", () => {
        expect(
            rewriteWithoutTools(
                "* Never delegate a trace; follow it with grep/view. Next.",
                NAMES,
                dropped
            ).text
        ).toBe("* Never delegate a trace. Next.");
    });

    it("edits a sentence of clauses clause by clause, keeping what the offered tools are told", () => {
        // A list item whose first clause is all about apply_patch and whose second recommends
        // view and apply_patch together: without apply_patch the item keeps its advice on view.
        const item =
            "- Use `apply_patch` to change files, never sed; use `view`/`apply_patch` over scripts.\n";
        const { text, edits } = rewriteWithoutTools(item, NAMES, new Set(["apply_patch"]));
        expect(text).toBe("- Use `view` over scripts.\n");
        expect(edits.map((edit) => [edit.action, edit.excerpt])).toEqual([
            ["removed", "Use `apply_patch` to change files, never sed;"],
            ["rewritten", "`view`/`apply_patch`"],
        ]);
        // A later clause without a dropped name stays; a clause that starts with a tool's name
        // keeps its case.
        expect(
            rewriteWithoutTools("Run `grep` first; then read; edit last.", NAMES, dropped).text
        ).toBe("Then read; edit last.");
        expect(
            rewriteWithoutTools("Call `view` once; bash/glob help.", NAMES, new Set(["view"])).text
        ).toBe("bash/glob help.");
        // Every clause about dropped tools: the sentence goes, as before.
        expect(rewriteWithoutTools("A. Use `grep`; then `view`. B.", NAMES, dropped).text).toBe(
            "A. B."
        );
    });

    it("keeps for a replaced built-in all but its own block", () => {
        const text = "<view>\nRead.\n</view>\nMake 3 view tool calls. Use view, edit.";
        expect(rewriteWithoutTools(text, NAMES, new Set(["view"]), new Set(["view"])).text).toBe(
            "Make 3 view tool calls. Use view, edit."
        );
    });
});

/** Hand-labelled sentences: the names each names as a tool (by reading it, not by the rule). */
const LABELLED: readonly {
    readonly sentence: string;
    readonly names: readonly string[];
    /** True when the sentence is true whether or not the session offers the tools it names. */
    readonly conditional?: boolean;
}[] = [
    { sentence: "Read files with the view tool.", names: ["view"] },
    { sentence: "View the output before you go on.", names: [] },
    { sentence: "Edit only what the task needs.", names: [] },
    { sentence: "Make 3 view tool calls in one response.", names: ["view"] },
    { sentence: "Prefer **grep** over shell search commands.", names: ["grep"] },
    { sentence: "Use `glob` to find files by pattern.", names: ["glob"] },
    { sentence: "Use grep, glob, view, edit yourself.", names: ["grep", "glob", "view", "edit"] },
    { sentence: "Use view/edit for existing files.", names: ["view", "edit"] },
    { sentence: "Pipe long output to grep/head.", names: [] },
    { sentence: "Create a summary when done.", names: [] },
    { sentence: "Do not create files you do not need.", names: [] },
    { sentence: "Default task agents to sync.", names: [] },
    { sentence: "Read the result with read_bash.", names: ["read_bash"] },
    { sentence: "Stop a shell with **stop_bash** when done.", names: ["stop_bash"] },
    { sentence: "Chain related bash commands with &&.", names: [] },
    { sentence: "Pay attention to this when using the bash tool.", names: ["bash"] },
    { sentence: "Prefer apply_patch for edits on this model.", names: ["apply_patch"] },
    { sentence: "Put all independent edit calls in one response.", names: ["edit"] },
    { sentence: "Search with rg, grep, and glob first.", names: ["rg", "grep", "glob"] },
    { sentence: "See src/view.ts and the view_range option.", names: [] },
    { sentence: "A good view of the code helps.", names: [] },
    { sentence: "Create and edit files carefully.", names: [] },
    { sentence: "You can create and edit files here.", names: [] },
    { sentence: "Then view or edit the result.", names: [] },
    {
        sentence: "Use **grep** instead of commands such as `grep`/`rg`, not `find`/`ls`.",
        names: ["grep"],
    },
    { sentence: "Avoid shell commands like `rg` here.", names: [] },
    { sentence: "Use the `rg` tool for fast search.", names: ["rg"] },
    {
        sentence: "Prefer built-ins such as `rg`, `glob`, `view`, and `apply_patch` here.",
        names: ["rg", "glob", "view", "apply_patch"],
    },
    {
        sentence: "For code, prefer: LSP > glob > grep with a glob > bash.",
        names: ["glob", "grep", "bash"],
    },
    {
        sentence:
            "Use **grep** instead of commands such as `rg`, and **glob** instead of `find`/`ls`.",
        names: ["grep", "glob"],
    },
    { sentence: "Use the task tool (if available) for this.", names: ["task"], conditional: true },
    {
        sentence: "If the bash tool is not available, say so.",
        names: ["bash"],
        conditional: true,
    },
];

describe("rewriteWithoutTools over hand-labelled sentences (property)", () => {
    const names = NAMES;
    const arbitraryText = fc.record({
        sentences: fc.array(fc.integer({ min: 0, max: LABELLED.length - 1 }), {
            minLength: 1,
            maxLength: 12,
        }),
        joins: fc.array(fc.constantFrom(" ", "\n", "\n* ", "\n- "), {
            minLength: 12,
            maxLength: 12,
        }),
        dropped: fc.subarray([...names]),
    });

    it("never touches a sentence that names only offered tools, and leaves no dropped mention", () => {
        const seed = Number(process.env.PROMPT_SEED ?? Date.now() % 2_147_483_647);
        console.log(`rewrite property: seed ${seed} (rerun with PROMPT_SEED=${seed})`);
        fc.assert(
            fc.property(arbitraryText, ({ sentences, joins, dropped }) => {
                const drop = new Set(dropped);
                const text = sentences
                    .map((index, at) => (at === 0 ? "" : joins[at]!) + LABELLED[index]!.sentence)
                    .join("");
                const { text: out } = rewriteWithoutTools(text, names, drop);
                for (const index of sentences) {
                    const { sentence, names: named, conditional } = LABELLED[index]!;
                    if (conditional === true || named.every((name) => !drop.has(name))) {
                        expect(out).toContain(sentence);
                    }
                }
                const left = toolMentions(out, names).filter(
                    (mention) => drop.has(mention.name) && mention.conditional !== true
                );
                expect(left).toEqual([]);
            }),
            { seed, numRuns: 500 }
        );
    });

    it("agrees with the labels: the rule finds exactly the labelled names of each sentence", () => {
        for (const { sentence, names: named } of LABELLED) {
            expect([...toolNamesInPrompt(sentence, names)].sort(), sentence).toEqual(
                [...named].sort()
            );
        }
    });
});

describe("mentionExcerpt: the text around a mention, for reports", () => {
    it("keeps the mention's line, at most 50 characters on either side, marking cuts", () => {
        const text = `${"x".repeat(80)} use **view** here ${"y".repeat(80)}`;
        const [mention] = toolMentions(text, NAMES);
        expect(mentionExcerpt(text, mention!)).toBe(
            `…${"x".repeat(43)} use **view** here ${"y".repeat(42)}…`
        );
    });

    it("stops at the line's ends and collapses spaces", () => {
        const text = "first line\n*  Make   3 view tool calls.\nnext line";
        const [mention] = toolMentions(text, NAMES);
        expect(mentionExcerpt(text, mention!)).toBe("* Make 3 view tool calls.");
    });
});
