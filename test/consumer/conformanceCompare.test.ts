/**
 * `conformance --compare` on real runtimes from the npm registry (1.0.83 and 1.0.102), offline
 * otherwise (mock model on 127.0.0.1). Runtime and SDK installs go to the cache named by
 * COPILOT_SDK_TOOL_OVERRIDE_CACHE when it is set (kept), else to a temporary folder removed at
 * the end. Expected values are what the runtimes were seen to do (docs/runtime-proof.md), written
 * here by hand.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const COMPARE = join(ROOT, "build", "cli", "conformance", "conformanceCompare.js");
const OLD = "@github/copilot@1.0.83";
const NEW = "@github/copilot@1.0.102";
const ownCache = process.env.COPILOT_SDK_TOOL_OVERRIDE_CACHE === undefined;
const cache =
    process.env.COPILOT_SDK_TOOL_OVERRIDE_CACHE ?? mkdtempSync(join(tmpdir(), "compare-cache-"));

afterAll(() => {
    if (ownCache) rmSync(cache, { recursive: true, force: true });
});

function compare(...args: string[]) {
    const result = spawnSync(process.execPath, [COMPARE, ...args], {
        encoding: "utf8",
        env: { ...process.env, COPILOT_SDK_TOOL_OVERRIDE_CACHE: cache },
    });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

interface CompareReport {
    a: { version: string };
    b: { version: string };
    differences: { kind: string; tool: string; model: string }[];
    observed: Record<"a" | "b", Record<string, Record<string, { noFlag: string; flag: string }>>>;
}

describe("conformance --compare on real runtimes", () => {
    it("1.0.83 to 1.0.102 with view, bash and apply_patch: only built-in sub-agents' tools changed (exit 1)", () => {
        const { status, stdout, stderr } = compare(
            "--compare",
            OLD,
            NEW,
            "--tools",
            "view,bash,apply_patch",
            "--json"
        );
        expect(status, stderr).toBe(1);
        const report = JSON.parse(stdout) as CompareReport;
        expect([report.a.version, report.b.version]).toEqual(["1.0.83", "1.0.102"]);
        // Nothing of the app's tools changed; the built-in sub-agents are offered
        // semantic_code_search on 1.0.102 and not on 1.0.83, a difference of its own
        // (SUB_AGENT_TOOLS_CHANGED, "<agent>: <tool>").
        expect(new Set(report.differences.map((d) => d.kind))).toEqual(
            new Set(["SUB_AGENT_TOOLS_CHANGED"])
        );
        expect(
            new Set(report.differences.map((d) => d.tool.slice(d.tool.indexOf(": ") + 2)))
        ).toEqual(new Set(["semantic_code_search"]));
        // The override of each is honoured on both runtimes and both model families.
        for (const side of [report.observed.a, report.observed.b]) {
            for (const byName of Object.values(side)) {
                expect(Object.values(byName).map((outcome) => outcome.flag)).toEqual([
                    "custom-runs",
                    "custom-runs",
                    "custom-runs",
                ]);
            }
        }
    }, 600_000);

    it("the same runtime twice: exit 0", () => {
        const { status, stdout, stderr } = compare(
            "--compare",
            NEW,
            NEW,
            "--tools",
            "view",
            "--json"
        );
        expect(status, stderr).toBe(0);
        expect((JSON.parse(stdout) as CompareReport).differences).toEqual([]);
    }, 600_000);

    it("1.0.102 back to 1.0.83 drops semantic_code_search on both families (exit 1, each named)", () => {
        const { status, stdout, stderr } = compare(
            "--compare",
            NEW,
            OLD,
            "--tools",
            "view",
            "--json"
        );
        expect(status, stderr).toBe(1);
        const { differences } = JSON.parse(stdout) as CompareReport;
        // The labels cover the text of SDK 1.0.13's runtime 1.0.83. This CLI of that version also
        // offers skill and writes a <skill> block, which those measurements lack: its catalog is
        // the fallback (a measurement counts only for the delivery it was taken on), so nothing
        // removes the block, and no edit goes unlabelled (before the delivery rule: 10 units
        // on the two families removed the block, each an UNLABELLED_PROMPT_EDIT).
        expect(differences.filter((d) => d.kind === "UNLABELLED_PROMPT_EDIT")).toEqual([]);
        // The sub-agents lose semantic_code_search (and skill) too, each a difference of its own.
        const subAgents = differences.filter((d) => d.kind === "SUB_AGENT_TOOLS_CHANGED");
        expect(subAgents.map((d) => d.tool)).toContain("general-purpose: semantic_code_search");
        const own = new Set(["UNLABELLED_PROMPT_EDIT", "SUB_AGENT_TOOLS_CHANGED"]);
        expect(differences.filter((d) => !own.has(d.kind))).toEqual([
            expect.objectContaining({
                kind: "TOOL_DROPPED",
                tool: "semantic_code_search",
                model: "claude-sonnet-4.5",
            }),
            expect.objectContaining({
                kind: "TOOL_DROPPED",
                tool: "semantic_code_search",
                model: "gpt-4o",
            }),
        ]);
    }, 600_000);

    it("a bad value is a usage error (exit 2) that names it, before anything is installed", () => {
        const { status, stderr } = compare("--compare", OLD, "copilot-1.0.102", "--tools", "view");
        expect(status).toBe(2);
        expect(stderr).toContain(
            "Runtime 'copilot-1.0.102' is neither an existing path nor an npm spec"
        );
    });
});
