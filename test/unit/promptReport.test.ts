/**
 * The conformance report of the prompt probe and its comparison between two runtimes: pure
 * functions over hand-made probe results (src/cli/conformance/promptReport.ts and the
 * NEW_PROMPT_MENTION difference of runtimeComparison.ts). Expected texts and values are written
 * here by hand.
 */
import { describe, expect, it } from "vitest";
import {
    newPromptMentions,
    promptAgreementLines,
    promptAgreementSummary,
} from "../../src/cli/conformance/promptReport.js";
import type { ProbedMention, PromptScenarioResult } from "../../src/cli/conformance/promptProbe.js";
import {
    acceptDifferences,
    compareRuntimes,
    formatComparison,
    readAcceptedDifferences,
} from "../../src/cli/conformance/runtimeComparison.js";
import type { CompareProbeResult } from "../../src/cli/conformance/compareProbe.js";

const CLAUDE = "claude-sonnet-4.5";
const GPT = "gpt-4o";
const EXCLUDED = "excludedTools ['view', 'grep', 'glob']";

const mention = (
    section: string,
    name: string,
    excerpt: string,
    reason: ProbedMention["reason"] = "not-offered"
): ProbedMention => ({ section, name, reason, excerpt });

const GREP = mention("tool_efficiency", "grep", "**grep** instead of `grep`/`rg`");
const VIEW = mention("tool_instructions", "view", "<view>");
const GLOB = mention("guidelines", "glob", "glob > grep | find");

describe("promptAgreementSummary", () => {
    it("sums the mentions and holds only when nothing is left and every case was rewritten", () => {
        const rewritten: PromptScenarioResult[] = [
            { label: EXCLUDED, model: CLAUDE, before: [GREP, VIEW], after: [], builds: 1 },
            { label: EXCLUDED, model: GPT, before: [GREP], after: [], builds: 1 },
        ];
        expect(promptAgreementSummary(rewritten)).toEqual({
            holds: true,
            before: 3,
            after: 0,
            notBuilt: 0,
            refused: 0,
        });
        expect(
            promptAgreementSummary([
                { label: EXCLUDED, model: CLAUDE, before: [GREP], after: [GREP], builds: 1 },
                { label: EXCLUDED, model: GPT, notBuilt: "no transform ran" },
                { label: "x", model: GPT, refused: "INVALID_TOOL_FILTER" },
            ])
        ).toEqual({ holds: false, before: 1, after: 1, notBuilt: 1, refused: 1 });
        // Nothing measured is not agreement.
        expect(promptAgreementSummary([]).holds).toBe(false);
    });
});

describe("promptAgreementLines: a release's part of CONFORMANCE.md", () => {
    it("gives the counts per case and model, and one row per mention with the models that showed it", () => {
        const lines = promptAgreementLines(
            [
                {
                    label: EXCLUDED,
                    model: CLAUDE,
                    before: [GREP, GLOB, GREP],
                    after: [],
                    builds: 1,
                },
                { label: EXCLUDED, model: GPT, before: [GREP], after: [], builds: 2 },
            ],
            [CLAUDE, GPT]
        );
        expect(lines).toEqual([
            "Prompt agreement (patched, `promptAgreement: 'rewrite'`): holds; 4 mentions of tools the session lacks or replaces in the runtime's sections as the transforms received them, 0 in what the package returned (its note aside).",
            "",
            "| case | model | mentions before | mentions after |",
            "| --- | --- | --- | --- |",
            "| excludedTools ['view', 'grep', 'glob'] | claude-sonnet-4.5 | 3 (grep 2, glob 1) | 0 |",
            "| excludedTools ['view', 'grep', 'glob'] | gpt-4o | 1 (grep 1) | 0 |",
            "",
            "Mentions before the rewrite:",
            "",
            "| case | models | section | tool | excerpt |",
            "| --- | --- | --- | --- | --- |",
            "| excludedTools ['view', 'grep', 'glob'] | all | `tool_efficiency` | `grep` (not-offered) | **grep** instead of `grep`/`rg` |",
            "| excludedTools ['view', 'grep', 'glob'] | claude-sonnet-4.5 | `guidelines` | `glob` (not-offered) | glob > grep \\| find |",
            "",
            "Mentions left after the rewrite:",
            "",
            "(none)",
        ]);
    });

    it("says what was not rewritten or refused, and escapes markup in excerpts", () => {
        const lines = promptAgreementLines(
            [
                { label: EXCLUDED, model: CLAUDE, before: [VIEW], after: [VIEW], builds: 1 },
                { label: EXCLUDED, model: GPT, notBuilt: "no transform ran" },
            ],
            [CLAUDE, GPT]
        );
        expect(lines[0]).toBe(
            "Prompt agreement (patched, `promptAgreement: 'rewrite'`): does not hold; 1 mentions of tools the session lacks or replaces in the runtime's sections as the transforms received them, 1 in what the package returned (its note aside); 1 cases not rewritten."
        );
        expect(lines).toContain(
            "| excludedTools ['view', 'grep', 'glob'] | gpt-4o | not rewritten: no transform ran | — |"
        );
        expect(lines.slice(-3)).toEqual([
            "| case | models | section | tool | excerpt |",
            "| --- | --- | --- | --- | --- |",
            "| excludedTools ['view', 'grep', 'glob'] | claude-sonnet-4.5 | `tool_instructions` | `view` (not-offered) | &lt;view> |",
        ]);
    });
});

/** A compare probe result with only prompt cases. */
function withPrompt(prompt: PromptScenarioResult[]): CompareProbeResult {
    return {
        runtimeVersion: "x",
        listed: [],
        listedByModel: { [CLAUDE]: [] },
        offered: { [CLAUDE]: [] },
        names: { [CLAUDE]: {} },
        app: undefined,
        prompt,
    };
}

describe("conformance --compare: NEW_PROMPT_MENTION", () => {
    it("fails on a mention left after the rewrite on B that A did not have", () => {
        const a = withPrompt([
            { label: EXCLUDED, model: CLAUDE, before: [GREP], after: [], builds: 1 },
        ]);
        const b = withPrompt([
            { label: EXCLUDED, model: CLAUDE, before: [GREP, GLOB], after: [GLOB], builds: 1 },
        ]);
        const { differences, promptMentionsAdded } = compareRuntimes(a, b, []);
        expect(differences).toEqual([
            {
                kind: "NEW_PROMPT_MENTION",
                tool: "glob",
                model: CLAUDE,
                a: "not named after the rewrite (excludedTools ['view', 'grep', 'glob'])",
                b: 'guidelines: glob (not-offered) "glob > grep | find"',
            },
        ]);
        // New in the runtime's text too, listed for information.
        expect(promptMentionsAdded.map((m) => [m.model, m.mention.name])).toEqual([
            [CLAUDE, "glob"],
        ]);
    });

    it("lists a new mention the rewrite removed for information only (exit 0)", () => {
        const a = withPrompt([
            { label: EXCLUDED, model: CLAUDE, before: [GREP], after: [], builds: 1 },
        ]);
        const b = withPrompt([
            { label: EXCLUDED, model: CLAUDE, before: [GREP, VIEW], after: [], builds: 1 },
        ]);
        const compared = compareRuntimes(a, b, []);
        expect(compared.differences).toEqual([]);
        expect(compared.promptMentionsAdded).toEqual([
            {
                label: EXCLUDED,
                model: CLAUDE,
                mention: VIEW,
                b: 'tool_instructions: view (not-offered) "<view>"',
            },
        ]);
        const text = formatComparison({
            a: { spec: "A", version: "1" },
            b: { spec: "B", version: "2" },
            tools: [],
            differences: compared.differences,
            added: compared.added,
            prompt: {
                a: promptAgreementSummary(a.prompt!),
                b: promptAgreementSummary(b.prompt!),
            },
            promptMentionsAdded: compared.promptMentionsAdded,
        });
        expect(text).toContain(
            "Prompt agreement (mentions of tools a session lacks or replaces, before / after the package's rewrite): A 1 before, 0 after; B 2 before, 0 after."
        );
        expect(text).toContain(
            `  ${EXCLUDED}, ${CLAUDE}: tool_instructions: view (not-offered) "<view>"`
        );
        expect(text).toContain("Nothing the app relies on changed.");
    });

    it("counts a case B did not rewrite as each tool A saw named reaching the model", () => {
        const a = withPrompt([
            { label: EXCLUDED, model: CLAUDE, before: [GREP, GREP, VIEW], after: [], builds: 1 },
        ]);
        const b = withPrompt([{ label: EXCLUDED, model: CLAUDE, notBuilt: "no transform ran" }]);
        expect(newPromptMentions(a.prompt!, b.prompt!, "after").map((m) => m.b)).toEqual([
            'not rewritten (no transform ran): tool_efficiency: grep (not-offered) "**grep** instead of `grep`/`rg`"',
            'not rewritten (no transform ran): tool_instructions: view (not-offered) "<view>"',
        ]);
        expect(compareRuntimes(a, b, []).differences.map((d) => [d.kind, d.tool])).toEqual([
            ["NEW_PROMPT_MENTION", "grep"],
            ["NEW_PROMPT_MENTION", "view"],
        ]);
    });

    it("compares nothing where A has no prompt cases (an older probe) or the same ones", () => {
        const same = withPrompt([
            { label: EXCLUDED, model: CLAUDE, before: [GREP], after: [GREP], builds: 1 },
        ]);
        expect(compareRuntimes(same, same, []).differences).toEqual([]);
        expect(compareRuntimes(withPrompt([]), same, []).differences).toEqual([]);
    });

    it("is a code an --accept file can name", () => {
        const entries = readAcceptedDifferences(
            JSON.stringify({
                accepted: [{ code: "NEW_PROMPT_MENTION", tool: "glob", reason: "reviewed" }],
            }),
            "reviewed.json"
        );
        const difference = {
            kind: "NEW_PROMPT_MENTION" as const,
            tool: "glob",
            model: CLAUDE,
            a: "not named after the rewrite (x)",
            b: "y",
        };
        expect(acceptDifferences([difference], entries)).toEqual({
            accepted: [difference],
            unaccepted: [],
        });
    });
});
