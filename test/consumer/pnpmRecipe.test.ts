/**
 * The pnpm recipe, followed as an app would, with pnpm from the npm registry (this
 * project's pinned devDependency): a fresh app copies the pnpm patch of @github/copilot-sdk
 * 1.0.14, adds docs/patch-form.md's package.json fragment and runs docs/patch-form.md's install command; the SDK
 * must carry the patch marker and pass docs/patch-form.md's start-up check. Changing the SDK version
 * without changing the patch must fail the install; reinstalling the SDK without the patch must
 * make the start-up check refuse to start with its documented message. The fragment, the command
 * and the check are read from docs/patch-form.md. pnpm's store and metadata cache are the project's
 * (.cache/), a location only, not part of the recipe. Needs the npm registry.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const VERSION = "1.0.14";
const OTHER_VERSION = "1.0.13";
const ROOT = join(import.meta.dirname, "..", "..");
const GUIDE = readFileSync(join(ROOT, "docs", "patch-form.md"), "utf8");
const PNPM = join(ROOT, "node_modules", "pnpm", "bin", "pnpm.cjs");
const STORE = [
    `--config.store-dir=${join(ROOT, ".cache", "pnpm-store")}`,
    `--config.cache-dir=${join(ROOT, ".cache", "pnpm-cache")}`,
];

function fromReadme(pattern: RegExp, what: string): string {
    const match = pattern.exec(GUIDE);
    if (match?.[1] === undefined) throw new Error(`docs/patch-form.md no longer shows ${what}`);
    return match[1];
}

const pnpmSection = fromReadme(/### pnpm\n([\s\S]*?)\n### /, "a pnpm section");
const fragment = JSON.parse(
    fromReadme(
        /```json\n((?:(?!```)[\s\S])*patchedDependencies(?:(?!```)[\s\S])*)```/,
        "the pnpm package.json fragment"
    )
) as { dependencies: Record<string, string>; pnpm: Record<string, unknown> };
const installCommand = /```sh\n\s*(pnpm [^\n]*)\n\s*```/.exec(pnpmSection)?.[1]?.split(" ");
const startUpCheck = fromReadme(
    /```javascript\n(\/\/ ESM\n(?:(?!```)[\s\S])*)```/,
    "the ESM start-up check"
);

const app = mkdtempSync(join(tmpdir(), "consumer-pnpm-app-"));
afterAll(() => rmSync(app, { recursive: true, force: true }));

function writeManifest(extra: object): void {
    writeFileSync(
        join(app, "package.json"),
        JSON.stringify({ name: "consumer-pnpm-app", private: true, type: "module", ...extra })
    );
}

/**
 * Runs pnpm as on a developer's machine: without CI set (under CI pnpm refuses to update the
 * lockfile, which every step after the first needs).
 */
function pnpm(args: string[]): { status: number | null; output: string } {
    const { CI: _ci, ...env } = process.env;
    const run = spawnSync(process.execPath, [PNPM, ...args, ...STORE], {
        cwd: app,
        encoding: "utf8",
        env,
    });
    return { status: run.status, output: run.stdout + run.stderr };
}

function run(file: string): { status: number | null; stdout: string; stderr: string } {
    const result = spawnSync(process.execPath, [file], { cwd: app, encoding: "utf8" });
    return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe(`an app that follows docs/patch-form.md's pnpm recipe with @github/copilot-sdk ${VERSION}`, () => {
    it("gets a patched SDK that carries the marker and passes the start-up check", () => {
        expect(installCommand).toEqual(["pnpm", "install"]);
        expect(fragment.dependencies["@github/copilot-sdk"]).toBe(VERSION);
        mkdirSync(join(app, "patches"));
        const patch = `@github__copilot-sdk@${VERSION}.patch`;
        copyFileSync(join(ROOT, "patches", "pnpm", patch), join(app, "patches", patch));
        writeManifest(fragment);
        writeFileSync(join(app, "start.mjs"), `${startUpCheck}\nconsole.log("started");\n`);
        writeFileSync(
            join(app, "marker.mjs"),
            'import * as sdk from "@github/copilot-sdk";\nconsole.log(sdk.TOOL_CUSTOMIZATION_PATCH.sdkVersion);\n'
        );

        const installed = pnpm(installCommand!.slice(1));
        expect(installed.status, installed.output).toBe(0);
        expect(run("marker.mjs")).toEqual({
            status: 0,
            stdout: `${VERSION}\n`,
            stderr: "",
        });
        expect(run("start.mjs")).toEqual({ status: 0, stdout: "started\n", stderr: "" });
    }, 180_000);

    it("fails the install when the SDK version changes but the patch does not", () => {
        writeManifest({
            ...fragment,
            dependencies: { ...fragment.dependencies, "@github/copilot-sdk": OTHER_VERSION },
        });
        const installed = pnpm(installCommand!.slice(1));
        expect(installed.status).not.toBe(0);
        expect(installed.output).toContain("ERR_PNPM_UNUSED_PATCH");
        expect(installed.output).toContain(`@github/copilot-sdk@${VERSION}`);
    }, 180_000);

    it("refuses to start, naming the version and the fix, once the SDK is installed unpatched", () => {
        const { patchedDependencies: _patch, ...pnpmSettings } = fragment.pnpm;
        writeManifest({ ...fragment, pnpm: pnpmSettings });
        const installed = pnpm(installCommand!.slice(1));
        expect(installed.status, installed.output).toBe(0);
        const started = run("start.mjs");
        expect(started.status).not.toBe(0);
        expect(started.stdout).toBe("");
        expect(started.stderr).toContain(
            `@github/copilot-sdk ${VERSION} runs without its tool-customization patch`
        );
        expect(started.stderr).toContain(`patches/@github__copilot-sdk@${VERSION}.patch`);
    }, 180_000);
});
