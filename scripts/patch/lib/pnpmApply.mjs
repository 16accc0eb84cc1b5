// Applies a pnpm patch the way a pnpm app does: a clean `pnpm install` of one SDK version in a
// scratch app whose package.json names the patch in pnpm.patchedDependencies. pnpm is this
// project's pinned devDependency; its store and metadata cache live in .cache/ so that repeated
// checks reuse them (and need the registry only the first time).

import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { promisify } from "node:util";
import { PACKAGE_NAME, ROOT } from "../../../build/cli/conformance/servedReleases.js";

/** The pinned pnpm's entry point (devDependency "pnpm"). */
export const PNPM = join(ROOT, "node_modules", "pnpm", "bin", "pnpm.cjs");

/** Store and cache folders shared by every pnpm run of this project's scripts and tests. */
export const PNPM_CACHE_ARGS = [
    `--config.store-dir=${join(ROOT, ".cache", "pnpm-store")}`,
    `--config.cache-dir=${join(ROOT, ".cache", "pnpm-cache")}`,
];

/**
 * Installs `@github/copilot-sdk@<version>` with pnpm into a new scratch app, patched through
 * `pnpm.patchedDependencies` with `patchPath`. The platform runtime (an optional dependency) is
 * left out, and koffi's build script is not run: the check reads files only.
 *
 * @param {string} version the SDK version
 * @param {string} patchPath the pnpm patch file
 * @returns {Promise<{ app: string, sdkDir: string }>} the scratch app (the caller removes it)
 *   and the installed SDK package inside it
 */
export async function pnpmInstallPatched(version, patchPath) {
    const app = mkdtempSync(join(tmpdir(), "sdk-pnpm-check-"));
    mkdirSync(join(app, "patches"));
    cpSync(patchPath, join(app, "patches", basename(patchPath)));
    writeFileSync(
        join(app, "package.json"),
        JSON.stringify({
            name: "pnpm-patch-check",
            private: true,
            dependencies: { [PACKAGE_NAME]: version },
            pnpm: {
                patchedDependencies: {
                    [`${PACKAGE_NAME}@${version}`]: `patches/${basename(patchPath)}`,
                },
                onlyBuiltDependencies: [],
            },
        })
    );
    await promisify(execFile)(
        process.execPath,
        [
            PNPM,
            "install",
            "--no-optional",
            "--prefer-offline",
            "--reporter=silent",
            ...PNPM_CACHE_ARGS,
        ],
        { cwd: app, encoding: "utf8", env: { ...process.env, CI: "true" } }
    );
    return { app, sdkDir: join(app, "node_modules", ...PACKAGE_NAME.split("/")) };
}
