/**
 * The CLI's smaller promises: its help names every option of `conformance --compare`; `version`
 * answers through npx (which reads `--version` itself); `init` on a 0.x SDK names the `upgrade`
 * that works in one step; the yarn refusal names a command that exists; a reviewed difference
 * that accepts nothing is reported.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { newestServedRelease } from "../../src/cli/adopt.js";
import { detectPackageManager, readManifest } from "../../src/cli/app.js";
import { packageIdentity } from "../../src/cli/patchFiles.js";
import {
    unmatchedAcceptances,
    type AcceptedDifference,
    type Difference,
} from "../../src/cli/conformance/runtimeComparison.js";

const ROOT = join(import.meta.dirname, "..", "..");
const MAIN = join(ROOT, "build", "cli", "main.js");
const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    version: string;
    scripts: Record<string, string>;
};
const work = mkdtempSync(join(tmpdir(), "cli-messages-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function cli(args: string[], cwd = work) {
    const result = spawnSync(process.execPath, [MAIN, ...args], { cwd, encoding: "utf8" });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("the command's help and version", () => {
    it("lists --accept, --sdk-a and --sdk-b with conformance --compare", () => {
        const help = cli(["--help"]).stdout;
        expect(help).toContain("[--accept <file>]");
        expect(help).toContain("[--sdk-a <version>] [--sdk-b <version>]");
    });

    it("answers `version` and `--version` with this package's version", () => {
        expect(cli(["version"])).toMatchObject({ status: 0, stdout: `${manifest.version}\n` });
        expect(cli(["--version"])).toMatchObject({ status: 0, stdout: `${manifest.version}\n` });
    });
});

describe("init on an SDK this package does not serve", () => {
    it("names the upgrade to the newest served release, which works in one step", () => {
        const app = join(work, "old-sdk");
        mkdirSync(join(app, "node_modules", "@github", "copilot-sdk"), { recursive: true });
        writeFileSync(
            join(app, "node_modules", "@github", "copilot-sdk", "package.json"),
            JSON.stringify({ name: "@github/copilot-sdk", version: "0.3.0" })
        );
        writeFileSync(
            join(app, "package.json"),
            JSON.stringify({ name: "old", dependencies: { "@github/copilot-sdk": "0.3.0" } })
        );
        writeFileSync(join(app, "package-lock.json"), "{}");
        const newest = newestServedRelease(packageIdentity(ROOT));
        expect(newest).toBe("1.0.14");
        const { status, stderr } = cli(["init", "--dir", app]);
        expect(status).toBe(1);
        expect(stderr).toContain(
            "'0.3.0' is not a 1.x release of @github/copilot-sdk: copilot-sdk-tool-override"
        );
        expect(stderr).toContain(
            "Fix: `npx --no copilot-sdk-tool-override upgrade 1.0.14` moves the app to @github/copilot-sdk 1.0.14 and patches it, in one step."
        );
    });
});

describe("the yarn refusal", () => {
    it("offers the library form and a command that exists, not a file that does not", () => {
        const app = join(work, "yarn-app");
        mkdirSync(app);
        writeFileSync(join(app, "package.json"), JSON.stringify({ name: "y" }));
        writeFileSync(join(app, "yarn.lock"), "");
        let message = "";
        try {
            detectPackageManager(app, readManifest(app), undefined);
        } catch (error) {
            message = (error as Error).message;
        }
        expect(message).toContain("the library form, which needs no patch");
        expect(message).toContain("`npm run patch:build -- <version> --pnpm --out <file>`");
        expect(message).not.toContain("patches/pnpm/");
        expect(manifest.scripts["patch:build"]).toBeDefined();
    });
});

describe("reviewed differences that accept nothing", () => {
    const found: Difference = {
        kind: "NEW_BUILT_IN",
        tool: "apply_patch",
        model: "gpt-4o",
        a: "none",
        b: "built-in",
    };
    it("are returned, each, while matching entries are not", () => {
        const entries: AcceptedDifference[] = [
            { code: "NEW_BUILT_IN", tool: "apply_patch" },
            { code: "NEW_BUILT_IN", tool: "apply_patch", model: "claude-sonnet-4.5" },
            { code: "TOOL_DROPPED", tool: "apply_patch" },
            { code: "NEW_BUILT_IN", tool: "apply-patch" },
        ];
        expect(unmatchedAcceptances([found], entries)).toEqual(entries.slice(1));
    });
});
