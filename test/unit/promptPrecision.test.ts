/**
 * The rewrite removes only what is false for the session (issue 42's table), held on the
 * runtime's real section texts, captured from the installed runtime when the test runs (and from
 * the runtime at COPILOT_EXTERNAL_RUNTIME, when set: runtime 1.0.102 writes `<skill>` blocks the
 * bundled one lacks). Each case names the sentence the runtime writes and what the rewrite must
 * leave of it; a case whose sentence this runtime does not write is skipped with a message, so a
 * runtime that rewords the text shows up as skipped cases, not as passing ones.
 */
import { existsSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { RuntimeConnection } from "@github/copilot-sdk";
import { CLAUDE_MODEL, GPT_MODEL, cleanupStack } from "../support/e2eHarness.js";
import { captureRuntimePrompt, type CapturedPrompt } from "../support/runtimeSections.js";
import { rewriteWithoutTools } from "../../src/toolCustomization/prompt/promptRewrite.js";
import { toolMentions } from "../../src/toolCustomization/prompt/toolMentions.js";
import { describeNoLeftovers } from "../support/noLeftovers.js";
import { MEASURED_BUILT_IN_TOOLS } from "../../src/toolCustomization/catalog/generated/measuredBuiltInTools.generated.js";

/** Every built-in name any measured runtime has. */
const NAMES = new Set([
    ...MEASURED_BUILT_IN_TOOLS.flatMap((measured) => measured.builtIns),
    "skill",
]);

const external = process.env.COPILOT_EXTERNAL_RUNTIME;
const RUNTIMES: readonly (readonly [string, Record<string, unknown>])[] = [
    ["bundled", {}],
    ...(external !== undefined && existsSync(external)
        ? ([["external", { connection: RuntimeConnection.forStdio({ path: external }) }]] as const)
        : []),
];

/** A session's view of the captured text: what it offers, lacks and replaces. */
interface Session {
    /** Built-ins the session lacks beyond those the model is not offered. */
    readonly lacks?: readonly string[];
    /** Built-ins a custom tool of the same name replaces. */
    readonly replaces?: readonly string[];
}

/** The captured sections rewritten for `session`, joined. */
function rewritten(captured: CapturedPrompt, session: Session): { before: string; after: string } {
    const offered = new Set(captured.tools);
    const replaced = new Set(session.replaces ?? []);
    const dropped = new Set(
        [...NAMES].filter(
            (name) => !offered.has(name) || session.lacks?.includes(name) || replaced.has(name)
        )
    );
    const before: string[] = [];
    const after: string[] = [];
    for (const text of captured.sections.values()) {
        before.push(text);
        after.push(rewriteWithoutTools(text, NAMES, dropped, replaced).text);
    }
    return { before: before.join("\n"), after: after.join("\n") };
}

/** By tag, opening minus closing tags. */
function tagBalance(text: string): Map<string, number> {
    const balance = new Map<string, number>();
    for (const match of text.matchAll(/<(\/?)([A-Za-z_]+)>/g)) {
        balance.set(match[2]!, (balance.get(match[2]!) ?? 0) + (match[1] === "/" ? -1 : 1));
    }
    return balance;
}

interface KeptCase {
    readonly row: string;
    readonly model: string;
    readonly session: Session;
    /** Text the runtime writes (the case is skipped where it does not). */
    readonly written: string;
    /** What the rewritten text must hold. */
    readonly kept: readonly string[];
    /** What it must not hold (a false recommendation, or an orphan). */
    readonly gone?: readonly string[];
}

const CASES: readonly KeptCase[] = [
    {
        row: "a sentence conditional on ask_user's absence is kept (no ask_user)",
        model: CLAUDE_MODEL,
        session: {},
        written: "If the ask_user tool is not available",
        kept: [
            "If the ask_user tool is not available, present the follow-up options as a numbered list and ask the user to reply with their choice.",
            "use the ask_user tool (if available) to offer follow-up actions with these choices:",
        ],
    },
    {
        row: "only view replaced: the grep and glob pairs are kept, and the view pair too",
        model: CLAUDE_MODEL,
        session: { replaces: ["view"] },
        written: "**view** instead of",
        kept: [
            "**grep** instead of commands such as `grep`/`rg`",
            "**glob** instead of `find`/`ls`",
        ],
    },
    {
        row: "only view excluded: its pair goes, the grep and glob pairs stay",
        model: CLAUDE_MODEL,
        session: { lacks: ["view"] },
        written: "**view** instead of",
        kept: [
            "use built-in tools rather than bash commands: **grep** instead of commands such as `grep`/`rg` and **glob** instead of `find`/`ls`. Fall back to bash only when these tools cannot meet your needs.",
        ],
        gone: ["**view** instead of"],
    },
    {
        row: "only bash missing: the ranking keeps glob and grep",
        model: CLAUDE_MODEL,
        session: { lacks: ["bash"] },
        written: "> grep with a glob > bash.",
        kept: [
            "For code, prefer: available code intelligence > available LSP > glob > grep with a glob.",
        ],
    },
    {
        row: "only apply_patch missing: the backticked list keeps rg, glob and view",
        model: GPT_MODEL,
        session: { lacks: ["apply_patch"] },
        written: "`view`, and `apply_patch`",
        kept: ["- Prefer built-ins such as `rg`, `glob`, and `view`; use shell commands"],
    },
    {
        row: "a replaced view keeps the advice on parallel calls",
        model: CLAUDE_MODEL,
        session: { replaces: ["view"] },
        written: "view tool calls in one response",
        kept: [
            "make 3 view tool calls in one response",
            "Put all independent view calls in one response",
        ],
        gone: ["For likely-large files, use `view_range` immediately"],
    },
    {
        row: "a list item keeps its marker, and its first clause's opening phrase, when the clause goes",
        model: CLAUDE_MODEL,
        session: { lacks: ["view", "grep", "glob"] },
        written: "compile the report. Verify with tests",
        kept: [
            "\n* After defining a delegated explore scope, compile the report. Verify with tests",
        ],
        gone: ["parent grep", "\n* Compile the report."],
    },
    {
        row: "a list item keeps its advice on view, and what refers back to it (no apply_patch)",
        model: GPT_MODEL,
        session: { lacks: ["apply_patch"] },
        written: "Formatting commands and bulk-edit tools are exempt.",
        kept: [
            "- Use `view` instead of Python when it suffices. Formatting commands and bulk-edit",
        ],
        gone: ["for manual file creation/edits"],
    },
];

describe.each(RUNTIMES)("on the %s runtime's sections", (_label, clientOptions) => {
    const captured = new Map<string, CapturedPrompt>();
    const cleanups = cleanupStack();
    beforeAll(async () => {
        for (const model of [CLAUDE_MODEL, GPT_MODEL]) {
            captured.set(
                model,
                await captureRuntimePrompt(cleanups.defer, model, {}, clientOptions)
            );
        }
        await cleanups.run();
    });

    it.for(CASES)("$row", (testCase, { skip }) => {
        const prompt = captured.get(testCase.model)!;
        const { before, after } = rewritten(prompt, testCase.session);
        if (!before.includes(testCase.written)) {
            skip(`runtime ${prompt.runtimeVersion} does not write "${testCase.written}"`);
        }
        for (const text of testCase.kept) expect(after, text).toContain(text);
        for (const text of testCase.gone ?? []) expect(after, text).not.toContain(text);
    });

    it.for([
        { label: "view, grep and glob excluded", lacks: ["view", "grep", "glob"] },
        { label: "bash excluded", lacks: ["bash"] },
        { label: "skill and task excluded", lacks: ["skill", "task"] },
        { label: "apply_patch excluded", lacks: ["apply_patch"] },
    ])(
        "$label: tags stay balanced, no list item loses its marker, no mention is left",
        ({ lacks }) => {
            for (const [model, prompt] of captured) {
                const { before, after } = rewritten(prompt, { lacks });
                // Each tag left is as balanced as it was (a block removed whole takes its tags).
                const balanceBefore = tagBalance(before);
                for (const [tag, balance] of tagBalance(after)) {
                    expect(balance, `${model} <${tag}>`).toBe(balanceBefore.get(tag));
                }
                expect(after.split("```").length % 2, model).toBe(before.split("```").length % 2);
                // A line the rewrite left or edited keeps the marker its source line had.
                const sources = before.split("\n");
                for (const line of after.split("\n")) {
                    if (line.trim() === "" || sources.includes(line)) continue;
                    const tail = line.slice(-24);
                    const source = sources.find((candidate) => candidate.endsWith(tail));
                    if (source === undefined) continue;
                    const marker = (text: string) => /^\s*(?:[*-]|\d+\.)?\s*/.exec(text)![0];
                    expect(marker(line), `${model}: ${line}`).toBe(marker(source));
                }
                const dropped = new Set(lacks);
                const left = toolMentions(after, NAMES).filter(
                    (mention) => dropped.has(mention.name) && mention.conditional !== true
                );
                expect(left, model).toEqual([]);
            }
        }
    );
});

describe("the rules on sentences of our own (what each keeps, labelled by reading)", () => {
    const rewrite = (text: string, lacks: string[]) =>
        rewriteWithoutTools(text, NAMES, new Set(lacks)).text;

    it("a first clause that goes leaves its opening phrase to the clause after it", () => {
        expect(
            rewrite(
                "* Once a scope is handed off, never run grep/view over it; merge the findings.",
                ["grep", "view"]
            )
        ).toBe("* Once a scope is handed off, merge the findings.");
        // Without an opening phrase the kept clause starts the sentence, as before.
        expect(rewrite("Never run grep/view over it; merge the findings.", ["grep", "view"])).toBe(
            "Merge the findings."
        );
    });

    it("a list left with one item makes the 'they' of its clause singular", () => {
        expect(rewrite("Prefer `view`/`edit` over scripts when they fit.", ["edit"])).toBe(
            "Prefer `view` over scripts when it fits."
        );
        expect(
            rewrite("Use grep, glob, and view since they are fast; they help.", ["grep", "glob"])
        ).toBe("Use view since it is fast; they help.");
        expect(rewrite("Use `view`/`edit` where they can run.", ["edit"])).toBe(
            "Use `view` where it can run."
        );
        // Two items left: still "they".
        expect(rewrite("Use grep, glob, and view when they fit.", ["grep"])).toBe(
            "Use glob and view when they fit."
        );
    });

    it("a phrase that only says with which dropped tools something is done goes alone", () => {
        const lacks = ["grep", "glob", "view"];
        expect(rewrite("**Asking a helper** (not grep/glob):", lacks)).toBe("**Asking a helper**:");
        expect(rewrite("For small lookups, answer it yourself using grep/glob/view.", lacks)).toBe(
            "For small lookups, answer it yourself."
        );
        expect(rewrite("Never repeat its work by calling grep/view again.", lacks)).toBe(
            "Never repeat its work again."
        );
        expect(
            rewrite(
                "Check whether a quick path (a couple of calls with grep/view) is enough.",
                lacks
            )
        ).toBe("Check whether a quick path (a couple of calls) is enough.");
    });

    it("a sentence about the tools themselves still goes whole", () => {
        // "with" outside a parenthesis may be what the sentence says.
        expect(
            rewrite("Keep this. Bulk edits need not be made with apply_patch.", ["apply_patch"])
        ).toBe("Keep this.");
        // Fewer than three words would stay before "using".
        expect(rewrite("Keep this. Try using grep/view.", ["grep", "view"])).toBe("Keep this.");
    });

    it("a ranking's phrase may hold '(if available)', and a conditional item stays", () => {
        expect(
            rewrite(
                "* Search order: semantic tools (if available) > lsp (if available) > glob > grep with a pattern",
                ["glob", "grep", "lsp"]
            )
        ).toBe("* Search order: semantic tools (if available) > lsp (if available)");
    });

    it("'the X tool or Y' is a list of two tools", () => {
        const text = "Skip scripts when the view tool or apply_patch would do.";
        expect(rewrite(text, ["view"])).toBe("Skip scripts when apply_patch would do.");
        expect(rewrite(text, ["apply_patch"])).toBe("Skip scripts when the view tool would do.");
        // English words joined by "or" are no list: "view or edit the file" names nothing.
        expect(toolMentions("You may view or edit the file.", NAMES)).toEqual([]);
    });
});

describe("blocks of the same tag nested in a tool's block", () => {
    it("are removed with it: runtime 1.0.102's <skill> holds <skill> entries", () => {
        const text = [
            "<edit>",
            "Edit.",
            "</edit>",
            "<skill>",
            "<available_skills>",
            "<skill>",
            "  <name>a</name>",
            "</skill>",
            "</available_skills>",
            "</skill>",
            "<sql>",
            "Query.",
            "</sql>",
        ].join("\n");
        expect(rewriteWithoutTools(text, NAMES, new Set(["skill"])).text).toBe(
            "<edit>\nEdit.\n</edit>\n<sql>\nQuery.\n</sql>"
        );
    });
});

describeNoLeftovers();
