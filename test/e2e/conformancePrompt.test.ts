/**
 * The conformance suite's prompt probe (src/cli/conformance/promptProbe.ts) on the real bundled
 * runtime through this repository's patched SDK, offline with the mock model: the mentions the
 * report gives for excluded view/grep/glob and for a replaced view (none: what the runtime says
 * about it holds for the app's view), before and after the
 * package's rewrite, and the report's Markdown. Expected values are what the runtime's text was
 * seen to hold (docs/conformance.md), written here by hand as bounds and names.
 */
import { describe, expect, it } from "vitest";
import { CopilotClient, approveAll } from "@github/copilot-sdk";
import { CLAUDE_MODEL, GPT_MODEL, e2eRig, testCleanups } from "../support/e2eHarness.js";
import { describeNoLeftovers } from "../support/noLeftovers.js";
import { probePromptScenarios } from "../../src/cli/conformance/promptProbe.js";
import {
    promptAgreementLines,
    promptAgreementSummary,
} from "../../src/cli/conformance/promptReport.js";

describe("conformance: prompt agreement on the bundled runtime", () => {
    it("reports the runtime's mentions of excluded view/grep/glob and of a replaced view, none left after the rewrite", async ({
        onTestFinished,
    }) => {
        const defer = testCleanups(onTestFinished);
        const rig = await e2eRig(
            defer,
            (baseDirectory) => new CopilotClient({ baseDirectory, onToolWarning: () => {} })
        );
        const results = await probePromptScenarios(rig.client, { approveAll }, rig.model as never, [
            CLAUDE_MODEL,
            GPT_MODEL,
        ]);
        const excluded = results.find(
            (r) => r.model === CLAUDE_MODEL && r.label.startsWith("excludedTools")
        )!;
        if (!("before" in excluded)) throw new Error(`not rewritten: ${JSON.stringify(excluded)}`);
        const names = new Set(excluded.before.map((m) => m.name));
        // The three, and whatever else the session lacks on this model (rg is GPT's; ask_user
        // needs an onUserInputRequest handler).
        for (const name of ["view", "grep", "glob"]) expect(names).toContain(name);
        expect(excluded.before.length).toBeGreaterThan(0);
        expect(excluded.before.every((m) => m.reason === "not-offered")).toBe(true);
        expect(excluded.after).toEqual([]);
        const replaced = results.find(
            (r) => r.model === CLAUDE_MODEL && r.label.startsWith("a custom view")
        )!;
        if (!("before" in replaced)) throw new Error(`not rewritten: ${JSON.stringify(replaced)}`);
        // The runtime leaves out the block of a built-in a custom tool replaces, and the rest of
        // what it says about view (when to call it, its parallel calls) holds for the app's view:
        // nothing to remove (promptRewrite.ts).
        expect(replaced.before.filter((m) => m.name === "view")).toEqual([]);
        expect(replaced.after).toEqual([]);
        const summary = promptAgreementSummary(results);
        console.log(
            `bundled runtime: ${results.map((r) => `${r.label} on ${r.model}: ${"before" in r ? `${r.before.length} -> ${r.after.length}` : JSON.stringify(r)}`).join("; ")}`
        );
        expect(summary).toMatchObject({ holds: true, after: 0, notBuilt: 0, refused: 0 });
        expect(summary.before).toBeGreaterThan(0);
        const lines = promptAgreementLines(results, [CLAUDE_MODEL, GPT_MODEL]);
        expect(lines[0]).toMatch(/^Prompt agreement .*: holds; \d+ mentions/);
        expect(lines).toContain("Mentions left after the rewrite:");
        expect(lines.at(-1)).toBe("(none)");
    }, 180_000);
});

describeNoLeftovers();
