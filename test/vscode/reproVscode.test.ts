/**
 * `npm run repro:vscode -- <name>`, the reproductions behind patches/vscode/issues/, run as a user
 * runs them: a child process against VS Code's published workbench code. Each must show the
 * reported bug (exit 0); one that stops reproducing fails here before its report goes stale.
 * Skipped, with the reason, only when the package cannot be installed (exit 3).
 */
import { execFile } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const REPRO = join(import.meta.dirname, "..", "..", "scripts", "repro", "repro-vscode.mjs");

interface ReproRun {
    readonly exitCode: number;
    readonly stdout: string;
    readonly stderr: string;
}

function repro(...args: string[]): Promise<ReproRun> {
    return new Promise((resolve) => {
        execFile(
            process.execPath,
            [REPRO, ...args],
            { timeout: 120_000 },
            (error, stdout, stderr) =>
                resolve({ exitCode: error ? Number(error.code ?? 1) : 0, stdout, stderr })
        );
    });
}

function skipWhenUnavailable(run: ReproRun, skip: (note: string) => void): void {
    if (run.exitCode === 3) skip(`VS Code's workbench package cannot be installed: ${run.stderr}`);
}

describe("npm run repro:vscode", () => {
    it("lists each reproduction with its report", async () => {
        const { exitCode, stdout } = await repro("--list");
        expect(exitCode).toBe(0);
        expect(stdout).toContain("patches/vscode/issues/01-toolsinclude-whitelist-later-tools.md");
        expect(stdout).toContain("patches/vscode/issues/02-identifier-names-toolset-and-tool.md");
    });

    it("refuses an unknown name with the usage", async () => {
        const { exitCode, stderr } = await repro("no-such-bug");
        expect(exitCode).toBe(2);
        expect(stderr).toContain("Unknown reproduction 'no-such-bug'");
    });

    it("toolsinclude-later-tools: VS Code 1.138.0 enables an MCP toolset and an extension tool registered after toolsInclude: ['edit']", async ({
        skip,
    }) => {
        const run = await repro("toolsinclude-later-tools");
        skipWhenUnavailable(run, skip);
        expect(run.stdout).toContain("VS Code 1.138.0 (commit 7debcd0e");
        expect(run.stdout).toContain(
            "chat.open { toolsInclude: ['edit'] }: enabled tools 'vscode_editFile', 'vscode_deleteFile'\n"
        );
        expect(run.stdout).toContain(
            "DEFECT: the whitelist admits 'mcp_github_create_issue', 'ext_deploy', registered after the command"
        );
        expect(run.stdout).toContain("toolset 'github' enabled");
        expect(run.exitCode).toBe(0);
    });

    it("toolsinclude-later-tools --with-proposed-fix: the report's change to the published ChatSelectedTools keeps the whitelist", async ({
        skip,
    }) => {
        const run = await repro("toolsinclude-later-tools", "--with-proposed-fix");
        skipWhenUnavailable(run, skip);
        expect(run.stdout).toContain("chatSelectedTools.proposed-fix.js");
        expect(run.stdout).toContain(
            "register: enabled tools 'vscode_editFile', 'vscode_deleteFile'; toolset 'github' disabled"
        );
        expect(run.stdout).toContain(
            "verdict: NOT reproduced with the proposed fix: the fix holds"
        );
        expect(run.exitCode).toBe(1);
    });

    it("toolset-and-tool-name: VS Code 1.138.0 enables the built-in fetch tool for an MCP toolset named 'fetch'", async ({
        skip,
    }) => {
        const run = await repro("toolset-and-tool-name");
        skipWhenUnavailable(run, skip);
        expect(run.stdout).toContain(
            `{"toolsInclude":["fetch"]}: enabled tools 'copilot_fetchWebPage', 'mcp_fetch_fetch'; unknown identifiers none`
        );
        expect(run.stdout).toContain("verdict: reproduced on VS Code 1.138.0");
        expect(run.exitCode).toBe(0);
    });
});
