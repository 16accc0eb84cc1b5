/**
 * Which runtime a lockfile gives the app, as the CI recipe's lockfile-runtime.mjs reads it: the
 * `@github/copilot` the app pins, else the runtime the SDK release bundles, else the
 * `@github/copilot` the SDK depends on (1.0.11 and older); never a guess. The consumer test
 * (test/consumer/runtimeUpgradeRecipe.test.ts) runs it on real lockfiles of the bundled case;
 * these are the lockfile shapes npm 11 and pnpm 10 write for the others.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const SCRIPT = join(
    import.meta.dirname,
    "..",
    "..",
    "docs",
    "examples",
    "runtime-upgrade",
    "lockfile-runtime.mjs"
);
const work = mkdtempSync(join(tmpdir(), "lockfile-runtime-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

function runtimeOf(name: string, text: string) {
    const file = join(work, name);
    writeFileSync(file, text);
    const result = spawnSync(process.execPath, [SCRIPT, file], { encoding: "utf8" });
    return { status: result.status, stdout: result.stdout.trim(), stderr: result.stderr };
}

const npmLock = (packages: Record<string, unknown>) =>
    JSON.stringify({ name: "app", lockfileVersion: 3, packages });
const bundledSdk = {
    version: "1.0.14",
    optionalDependencies: { "@github/copilot-sdk-linux-x64": "1.0.14" },
};

describe("the runtime of an npm lockfile", () => {
    it("is the runtime the SDK release bundles", () => {
        const lock = npmLock({
            "": { dependencies: { "@github/copilot-sdk": "1.0.14" } },
            "node_modules/@github/copilot-sdk": bundledSdk,
        });
        expect(runtimeOf("package-lock.json", lock).stdout).toBe("@github/copilot-sdk@1.0.14");
    });

    it("is the @github/copilot the app pins, over the bundled one", () => {
        const lock = npmLock({
            "": {
                dependencies: { "@github/copilot-sdk": "1.0.14", "@github/copilot": "1.0.102" },
            },
            "node_modules/@github/copilot-sdk": bundledSdk,
            "node_modules/@github/copilot": { version: "1.0.102" },
        });
        expect(runtimeOf("package-lock.json", lock).stdout).toBe("@github/copilot@1.0.102");
    });

    it("is the SDK's @github/copilot for a release without a bundled runtime (1.0.11)", () => {
        const lock = npmLock({
            "": { dependencies: { "@github/copilot-sdk": "1.0.11" } },
            "node_modules/@github/copilot-sdk": {
                version: "1.0.11",
                dependencies: { "@github/copilot": "^1.0.79" },
            },
            "node_modules/@github/copilot": { version: "1.0.79" },
        });
        expect(runtimeOf("package-lock.json", lock).stdout).toBe("@github/copilot@1.0.79");
    });

    it("fails, saying why, when it cannot tell", () => {
        const none = runtimeOf(
            "package-lock.json",
            npmLock({
                "": { dependencies: { "@github/copilot-sdk": "1.0.11" } },
                "node_modules/@github/copilot-sdk": { version: "1.0.11" },
            })
        );
        expect(none).toMatchObject({ status: 2, stdout: "" });
        expect(none.stderr).toContain("cannot tell which runtime the app runs");
        const broken = runtimeOf("package-lock.json", "{ not json");
        expect(broken).toMatchObject({ status: 2, stdout: "" });
        expect(broken.stderr).toContain("is not JSON");
    });
});

const pnpmLock = (dependencies: string, packages: string) =>
    [
        "lockfileVersion: '9.0'",
        "",
        "settings:",
        "  autoInstallPeers: true",
        "  excludeLinksFromLockfile: false",
        "",
        "importers:",
        "",
        "  .:",
        "    dependencies:",
        dependencies,
        "",
        "packages:",
        "",
        packages,
        "",
    ].join("\n");
const sdkDependency = (version: string) =>
    `      '@github/copilot-sdk':\n        specifier: ${version}\n        version: ${version}`;

describe("the runtime of a pnpm lockfile", () => {
    it("is the runtime the SDK release bundles", () => {
        const lock = pnpmLock(
            sdkDependency("1.0.15-preview.4"),
            [
                "  '@github/copilot-sdk-linux-x64@1.0.15-preview.4':",
                "    resolution: {integrity: sha512-x}",
                "  '@github/copilot-sdk@1.0.15-preview.4':",
                "    resolution: {integrity: sha512-y}",
            ].join("\n")
        );
        expect(runtimeOf("pnpm-lock.yaml", lock).stdout).toBe(
            "@github/copilot-sdk@1.0.15-preview.4"
        );
    });

    it("is the @github/copilot the app pins", () => {
        const lock = pnpmLock(
            `${sdkDependency("1.0.14")}\n      '@github/copilot':\n        specifier: 1.0.102\n        version: 1.0.102`,
            "  '@github/copilot-sdk-linux-x64@1.0.14':\n    resolution: {integrity: sha512-x}"
        );
        expect(runtimeOf("pnpm-lock.yaml", lock).stdout).toBe("@github/copilot@1.0.102");
    });

    it("is the SDK's @github/copilot for a release without a bundled runtime", () => {
        const lock = pnpmLock(
            sdkDependency("1.0.11"),
            [
                "  '@github/copilot-linux-x64@1.0.79':",
                "    resolution: {integrity: sha512-x}",
                "  '@github/copilot@1.0.79':",
                "    resolution: {integrity: sha512-y}",
                "  '@github/copilot-sdk@1.0.11':",
                "    resolution: {integrity: sha512-z}",
            ].join("\n")
        );
        expect(runtimeOf("pnpm-lock.yaml", lock).stdout).toBe("@github/copilot@1.0.79");
    });

    it("fails when the app's importer does not lock the SDK", () => {
        const result = runtimeOf(
            "pnpm-lock.yaml",
            pnpmLock("      left-pad:\n        specifier: 1.0.0\n        version: 1.0.0", "")
        );
        expect(result).toMatchObject({ status: 2, stdout: "" });
        expect(result.stderr).toContain("locks no @github/copilot-sdk");
    });
});
