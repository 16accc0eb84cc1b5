/**
 * `npm run conformance:chat-open` for the pinned VS Code build, run as a user runs it (a child
 * process; the package is installed into .cache/vscode-workbench/ when absent). Skipped, with the
 * reason, only when the package cannot be installed. Expected values come from the design (each
 * case's hand-written answer) and from the decisions in docs/chat-open.md, not from the adapter.
 */
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const SCRIPT = join(ROOT, "scripts", "repro", "conformance-chat-open.mjs");
const PINNED = "37.6.1";
const PINNED_VSCODE = "1.138.0";

type Expected =
    | { enabled: string[]; toolSets?: Record<string, boolean>; unknown?: string[] }
    | { error: string };
interface Outcome {
    readonly error?: { readonly code?: string; readonly message: string };
    readonly enabled?: string[];
    readonly toolSets?: Record<string, boolean> | null;
    readonly unknown?: string[];
    readonly extra?: string[];
    readonly warnings?: string[];
}
interface CaseResult {
    readonly id: string;
    readonly vscode: Outcome;
    readonly adapter: Outcome;
    readonly verdict: string;
}
interface Runs {
    readonly cases: { id: string; design: Expected | null }[];
    readonly runs: {
        facts: {
            vscodeVersion: string;
            packageVersion: string;
            openOptions: Record<string, boolean>;
            filterCondition: string;
            applyCall: string;
        };
        cases: CaseResult[];
    }[];
}

/** Where the adapter departs from VS Code on purpose or by the design's silence (docs/chat-open.md). */
const DIFFERING = [
    "toolset-and-tool-include",
    "toolset-and-tool-exclude",
    "toolset-id-and-reference-name",
    "tool-id-and-reference-name",
    "shared-toolset-reference-name",
    "member-not-listed",
    "unlisted-members-only",
];

let scratch: string;
let run: { exitCode: number; stdout: string; stderr: string };

beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), "chat-open-conformance-"));
    run = await new Promise((resolve) => {
        execFile(
            process.execPath,
            [SCRIPT, "--versions", PINNED, "--out", join(scratch, "report.md")].concat([
                "--json",
                join(scratch, "runs.json"),
            ]),
            { timeout: 120_000 },
            (error, stdout, stderr) =>
                resolve({ exitCode: error ? Number(error.code ?? 1) : 0, stdout, stderr })
        );
    });
    if (run.exitCode === 3)
        console.warn(`skipping the chat-open conformance: ${run.stderr.trim()}`);
}, 150_000);

afterAll(() => {
    rmSync(scratch, { recursive: true, force: true });
});

/** The script's results, or a skip when the package cannot be installed (exit status 3). */
function results(skip: (note: string) => void): Runs {
    if (run.exitCode === 3) {
        const reason = `@codingame/monaco-vscode-api@${PINNED} cannot be installed: ${run.stderr.trim()}`;
        skip(reason);
    }
    expect(run.stderr).toBe("");
    expect(run.exitCode).toBe(0);
    return JSON.parse(readFileSync(join(scratch, "runs.json"), "utf8")) as Runs;
}

describe(`VS Code's chat.open filter (${PINNED_VSCODE}) beside the adapter`, () => {
    it("measures the pinned build: VS Code's names, its filter condition and how it applies the map", ({
        skip,
    }) => {
        const { runs } = results(skip);
        expect(runs).toHaveLength(1);
        const { facts } = runs[0]!;
        expect(facts.vscodeVersion).toBe(PINNED_VSCODE);
        expect(facts.packageVersion).toBe(PINNED);
        expect(facts.openOptions).toEqual({
            toolsInclude: true,
            toolsExclude: true,
            includeTools: false,
            excludeTools: false,
        });
        expect(facts.filterCondition).toBe("opts?.toolsInclude || opts?.toolsExclude");
        expect(facts.applyCall).toBe(
            "chatWidget.input.selectedToolsModel.set(result.enablementMap, true)"
        );
    });

    it("finds the adapter as designed on every case the design decides", ({ skip }) => {
        const { cases, runs } = results(skip);
        expect(cases.length).toBeGreaterThanOrEqual(38);
        for (const { id, design } of cases) {
            if (design === null) continue;
            const { adapter } = runs[0]!.cases.find((c) => c.id === id)!;
            if ("error" in design) {
                expect(adapter.error?.code, id).toBe(design.error);
                continue;
            }
            expect(adapter.error, id).toBeUndefined();
            expect(adapter.enabled, id).toEqual(design.enabled);
            if (design.toolSets) expect(adapter.toolSets, id).toEqual(design.toolSets);
            if (design.unknown) expect(adapter.unknown, id).toEqual(design.unknown);
        }
    });

    it("finds VS Code and the adapter apart exactly on the documented divergences", ({ skip }) => {
        const { runs } = results(skip);
        const differing = runs[0]!.cases.filter((c) => c.verdict === "differs").map((c) => c.id);
        expect(differing).toEqual(DIFFERING);
    });

    it("shows VS Code applying a name shared by a toolset and a tool to both", ({ skip }) => {
        const { runs } = results(skip);
        const byId = new Map(runs[0]!.cases.map((c) => [c.id, c]));
        expect(byId.get("toolset-and-tool-include")!.vscode.enabled).toEqual([
            "copilot_fetchWebPage",
            "mcp_fetch_fetch",
        ]);
        expect(byId.get("toolset-and-tool-include")!.adapter.warnings).toEqual([
            "AMBIGUOUS_IDENTIFIER",
        ]);
        expect(byId.get("toolset-and-tool-exclude")!.vscode.enabled).not.toContain(
            "copilot_fetchWebPage"
        );
    });

    it("shows VS Code refusing toolsInclude: [] and an empty result with one generic error", ({
        skip,
    }) => {
        const { runs } = results(skip);
        const byId = new Map(runs[0]!.cases.map((c) => [c.id, c]));
        for (const id of ["empty-include", "zero-tools-left", "zero-tools-include"]) {
            expect(byId.get(id)!.vscode.error?.message, id).toBe(
                "Tool filtering resulted in zero enabled tools. At least one tool must be enabled."
            );
        }
    });

    it("matches the committed CONFORMANCE-chat-open.md for the pinned version", ({ skip }) => {
        results(skip);
        const fresh = readFileSync(join(scratch, "report.md"), "utf8");
        const committed = readFileSync(join(ROOT, "CONFORMANCE-chat-open.md"), "utf8");
        const row = (report: string) =>
            report.split("\n").find((line) => line.startsWith(`| ${PINNED_VSCODE} |`));
        expect(row(committed)).toBe(row(fresh));
        expect(column(committed, PINNED_VSCODE)).toEqual(column(fresh, PINNED_VSCODE));
    });
});

/** The verdicts of one VS Code version in a report's case table, by case id. */
function column(report: string, version: string): Map<string, string> {
    const cells = (line: string) => line.split("|").map((cell) => cell.trim());
    const lines = report.split("\n");
    const at = cells(lines.find((line) => line.startsWith("| case |"))!).indexOf(version);
    expect(at).toBeGreaterThan(0);
    const verdicts = new Map<string, string>();
    for (const line of lines) {
        const id = /^\| `([^`]+)`/.exec(line)?.[1];
        if (id !== undefined) verdicts.set(id, cells(line)[at]!);
    }
    return verdicts;
}
