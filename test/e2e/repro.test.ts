/**
 * `npm run repro -- <name>`, the reproductions behind patches/upstream/issues/, run as a user
 * runs them: a child process with the real bundled runtime and the mock model on 127.0.0.1.
 * Each must show the reported defect on the unpatched SDK (exit 0) and print what the patched
 * SDK does; a reproduction that stops reproducing fails here
 * before a report goes stale.
 */
import { execFile } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const REPRO = join(ROOT, "scripts", "repro", "repro.mjs");

interface ReproRun {
    readonly exitCode: number;
    readonly stdout: string;
    readonly stderr: string;
}

/** Runs `node scripts/repro/repro.mjs ...args` and resolves with its exit code and output. */
function repro(...args: string[]): Promise<ReproRun> {
    return new Promise((resolve) => {
        execFile(process.execPath, [REPRO, ...args], { timeout: 60_000 }, (error, stdout, stderr) =>
            resolve({ exitCode: error ? Number(error.code ?? 1) : 0, stdout, stderr })
        );
    });
}

/** The temporary base directories the reproductions create (and must remove). */
const reproDirectories = (): string[] =>
    readdirSync(tmpdir()).filter((entry) => entry.startsWith("copilot-repro-"));

describe("npm run repro", () => {
    const directoriesBefore = reproDirectories();

    it("lists every reproduction with its report", async () => {
        const { exitCode, stdout } = await repro("--list");

        expect(exitCode).toBe(0);
        for (const name of ["builtin-name-collision", "duplicate-tool-names", "grep-rg-alias"]) {
            expect(stdout).toContain(name);
        }
        expect(stdout).toContain("patches/upstream/issues/01-builtin-name-collision.md");
        // Each report a reproduction names exists, and the reports' index lists it.
        const reports = new Set(stdout.match(/patches\/upstream\/issues\/[^\s)]+/g));
        expect(reports.size).toBeGreaterThan(5);
        const index = readFileSync(
            join(ROOT, "patches", "upstream", "issues", "README.md"),
            "utf8"
        );
        for (const report of reports) {
            expect(existsSync(join(ROOT, report)), report).toBe(true);
            expect(index, report).toContain(`\`${basename(report)}\``);
        }
    });

    it("builtin-name-collision: the unpatched SDK accepts `view` and no send reaches the model; the patched one runs the custom handler", async () => {
        const { exitCode, stdout } = await repro("builtin-name-collision");

        expect(stdout).toMatch(
            /send 1: send failed: .*External tool "view" conflicts with a built-in tool/
        );
        expect(stdout).toContain("unpatched: DEFECT: createSession accepted the tool");
        expect(stdout).toContain("patched: OK: the tool works: send 3: custom handler ran");
        expect(stdout).toContain(
            "verdict: reproduced on the unpatched SDK; the patched SDK does not show it"
        );
        expect(exitCode).toBe(0);
    });

    it("duplicate-tool-names: the unpatched SDK offers the first `lint` and runs the second; the patched SDK refuses them", async () => {
        const { exitCode, stdout } = await repro("duplicate-tool-names");

        expect(stdout).toContain(
            "unpatched: DEFECT: both accepted silently; the model saw #1, handler #2 ran"
        );
        expect(stdout).toMatch(/createSession rejected them: DUPLICATE_TOOL_NAME/);
        expect(stdout).toContain("patched: OK: refused at createSession");
        expect(exitCode).toBe(0);
    });

    it("security-poc: on the published SDK a built-in answers each custom tool of the private report and refundOrder runs outside availableTools; the patched SDK shows neither", async () => {
        const { exitCode, stdout } = await repro("security-poc");

        expect(stdout).toMatch(/HIJACKED: 1 custom read_file: built-in answered/);
        for (const name of ["store_memory", "powershell", "local_shell"]) {
            expect(stdout).toMatch(
                new RegExp(
                    `HIJACKED: 2 custom ${name}, overridesBuiltInTool: true: built-in answered`
                )
            );
        }
        expect(stdout).toContain(
            "defence in depth: refundOrder, not in availableTools: the app's handler ran"
        );
        expect(stdout).toContain(
            "unpatched: DEFECT: 4 of 4 calls of custom tools answered by a built-in; refundOrder, outside availableTools, ran"
        );
        expect(stdout).toContain(
            "patched: OK: 0 of 4 calls of custom tools answered by a built-in; refundOrder, outside availableTools, did not run"
        );
        expect(exitCode).toBe(0);
    });

    it("subagent-duplicate-tool-request: runtime 1.0.85 requests each sub-agent call of a custom tool twice under one id; the published SDK can run the handler twice, the patched one runs it once", async () => {
        const { exitCode, stdout } = await repro("subagent-duplicate-tool-request");

        expect(stdout).toContain(
            "main agent's call: external_tool.requested 1 time(s); handler ran 1 time(s)"
        );
        expect(stdout).toMatch(
            /unpatched: DEFECT: \d+ of 10 sub-agent calls requested twice under one request id/
        );
        expect(stdout).toMatch(
            /^ {2}patched: DEFECT: \d+ of 10 sub-agent calls requested twice under one request id; the handler ran twice for 0$/m
        );
        expect(exitCode).toBe(0);
    });

    it("hook-points: a session with one onPreToolUse is asked at other hook points on a turn without tool calls, on both SDKs", async () => {
        const { exitCode, stdout } = await repro("hook-points");

        expect(exitCode).toBe(0);
        // The runtime's behaviour: the published and the patched SDK alike.
        const counts = [
            ...stdout.matchAll(/onPreToolUse alone registered: (\d+) \(([^)]*)\)/g),
        ].map((match) => ({ count: Number(match[1]), types: match[2] ?? "" }));
        expect(counts).toHaveLength(2);
        for (const { count, types } of counts) {
            expect(count).toBeGreaterThan(0);
            expect(types).toContain("userPromptSubmitted");
        }
        expect(stdout).toMatch(/unpatched: DEFECT: asked at \d+ hook points/);
        expect(stdout).toMatch(/ {2}patched: DEFECT: asked at \d+ hook points/);
    }, 120_000);

    it("rejects an unknown name with a usage error", async () => {
        const { exitCode, stderr } = await repro("no-such-repro");

        expect(exitCode).toBe(2);
        expect(stderr).toContain("Unknown reproduction 'no-such-repro'");
    });

    it("leaves no temporary base directory behind", () => {
        // Only new ones count: another test run on the machine may remove its own meanwhile.
        expect(reproDirectories().filter((dir) => !directoriesBefore.includes(dir))).toEqual([]);
    });
});
