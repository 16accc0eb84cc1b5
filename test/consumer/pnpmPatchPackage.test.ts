/**
 * Why docs/patch-form.md says not to use patch-package with pnpm, measured: two apps share one pnpm store
 * (a store of this test's own, so that no other test's store is touched). App A applies the
 * patch-package patch in its postinstall, as an npm app does; app B installs the same SDK version
 * afterwards, without any patch. Then docs/patch-form.md's three statements must hold: A kept its patch,
 * B got an unpatched copy, and `pnpm store status` reports the store's copy as modified
 * (ERR_PNPM_MODIFIED_DEPENDENCY). The platform runtime is left out (`--no-optional`): only the
 * SDK's JavaScript is patched. Needs the npm registry.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const VERSION = "1.0.14";
const PNPM = join(ROOT, "node_modules", "pnpm", "bin", "pnpm.cjs");
const PNPM_VERSION = JSON.parse(
    readFileSync(join(ROOT, "node_modules", "pnpm", "package.json"), "utf8")
).version as string;
const GUIDE = readFileSync(join(ROOT, "docs", "patch-form.md"), "utf8");

const work = mkdtempSync(join(tmpdir(), "pnpm-patch-package-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const store = [
    `--config.store-dir=${join(work, "store")}`,
    // Package metadata only; the store above is this test's own.
    `--config.cache-dir=${join(ROOT, ".cache", "pnpm-cache")}`,
];

function pnpm(app: string, args: string[]): { status: number | null; output: string } {
    const { CI: _ci, ...env } = process.env;
    const run = spawnSync(process.execPath, [PNPM, ...args, ...store], {
        cwd: app,
        encoding: "utf8",
        env,
    });
    return { status: run.status, output: run.stdout + run.stderr };
}

/** What the app's SDK exports as its patch marker, or "unpatched". */
function markerOf(app: string): string {
    writeFileSync(
        join(app, "marker.mjs"),
        'import * as sdk from "@github/copilot-sdk";\nconsole.log(sdk.TOOL_CUSTOMIZATION_PATCH?.sdkVersion ?? "unpatched");\n'
    );
    const run = spawnSync(process.execPath, ["marker.mjs"], { cwd: app, encoding: "utf8" });
    return run.stdout.trim() || run.stderr;
}

function newApp(name: string, extra: object): string {
    const app = join(work, name);
    mkdirSync(app);
    writeFileSync(
        join(app, "package.json"),
        JSON.stringify({
            name,
            private: true,
            dependencies: { "@github/copilot-sdk": VERSION, "patch-package": "8.0.1" },
            ...extra,
        })
    );
    return app;
}

describe(`patch-package in a pnpm app (pnpm ${PNPM_VERSION})`, () => {
    it("keeps the patch in that app, gives the next app of the version an unpatched copy, and leaves the store modified", () => {
        const a = newApp("app-a", {
            scripts: { postinstall: "patch-package --error-on-fail --error-on-warn" },
        });
        mkdirSync(join(a, "patches"));
        const patch = `@github+copilot-sdk+${VERSION}.patch`;
        copyFileSync(join(ROOT, "patches", patch), join(a, "patches", patch));
        const installedA = pnpm(a, ["install", "--no-optional"]);
        expect(installedA.status, installedA.output).toBe(0);
        expect(markerOf(a)).toBe(VERSION);

        const b = newApp("app-b", {});
        const installedB = pnpm(b, ["install", "--no-optional"]);
        expect(installedB.status, installedB.output).toBe(0);
        expect(markerOf(b)).toBe("unpatched");
        expect(markerOf(a)).toBe(VERSION);

        const status = pnpm(a, ["store", "status"]);
        expect(status.status).not.toBe(0);
        expect(status.output).toContain("ERR_PNPM_MODIFIED_DEPENDENCY");
    }, 300_000);

    it("is what docs/patch-form.md says, for this pnpm version", () => {
        expect(GUIDE).toContain(`Measured with pnpm ${PNPM_VERSION}`);
        expect(GUIDE).toContain("ERR_PNPM_MODIFIED_DEPENDENCY");
    });
});
