// Installs a published @github/copilot-sdk version with its bundled runtime into
// .cache/sdk/<version>, apart from the project's own package.json, lockfile and node_modules, for
// the discovery, the multi-version patch build and the conformance suite.

import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const PLATFORM = `${process.platform}-${process.arch}`;

/**
 * Where SDK installs and patched copies are kept: `.cache/` of the repository, or, when the
 * scripts run from the installed package (`copilot-sdk-tool-override conformance`), the folder
 * its CLI names in COPILOT_SDK_TOOL_OVERRIDE_CACHE (never inside the installed package).
 */
export const CACHE = process.env.COPILOT_SDK_TOOL_OVERRIDE_CACHE ?? join(ROOT, ".cache");

/**
 * @param {string} version an exact published version
 * @returns {string} the cache folder (npm prefix) of that version
 */
export function sdkCacheDir(version) {
    return join(CACHE, "sdk", version);
}

/**
 * Installs `@github/copilot-sdk@<version>` and, through its optional dependency, the platform
 * runtime of the same version, unless a complete install is already cached.
 * @param {string} version an exact published version
 * @returns {Promise<string>} the directory of the installed SDK package
 */
export async function installSdkVersion(version) {
    const prefix = sdkCacheDir(version);
    const sdkDir = join(prefix, "node_modules", "@github", "copilot-sdk");
    if (isComplete(prefix, version)) return sdkDir;
    rmSync(prefix, { recursive: true, force: true });
    mkdirSync(prefix, { recursive: true });
    // A package.json of its own keeps npm from walking up to the project's.
    writeFileSync(
        join(prefix, "package.json"),
        JSON.stringify({ name: "sdk-cache", private: true })
    );
    execFileSync(
        "npm",
        [
            "install",
            "--prefix",
            prefix,
            "--no-save",
            "--no-audit",
            "--no-fund",
            "--ignore-scripts",
            `@github/copilot-sdk@${version}`,
        ],
        { cwd: prefix, stdio: ["ignore", "ignore", "inherit"] }
    );
    if (!isComplete(prefix, version)) {
        throw new Error(
            `Installing @github/copilot-sdk@${version} with its ${PLATFORM} runtime into ${prefix} failed.`
        );
    }
    return sdkDir;
}

/**
 * @param {string} sdkDir an installed SDK package directory
 * @returns {string} the directory of its platform runtime package
 *     (`@github/copilot-sdk-<platform>-<arch>`, a sibling of the SDK package)
 */
export function runtimeDirOf(sdkDir) {
    return join(dirname(sdkDir), `copilot-sdk-${PLATFORM}`);
}

/**
 * The install at `prefix` finished (npm writes node_modules/.package-lock.json last, and the
 * prefix is emptied before every install, so an interrupted one lacks it) and holds the SDK and
 * its runtime package, both at `version`, with the runtime binary.
 */
function isComplete(prefix, version) {
    const sdkDir = join(prefix, "node_modules", "@github", "copilot-sdk");
    const runtimeDir = runtimeDirOf(sdkDir);
    return (
        existsSync(join(prefix, "node_modules", ".package-lock.json")) &&
        versionAt(sdkDir) === version &&
        versionAt(runtimeDir) === version &&
        existsSync(join(sdkDir, "dist", "index.js")) &&
        existsSync(join(runtimeDir, "prebuilds", PLATFORM, "runtime.node"))
    );
}

/**
 * @param {string} dir a package directory
 * @returns {string | undefined} the version its package.json declares, if it has one
 */
export function versionAt(dir) {
    const manifest = join(dir, "package.json");
    return existsSync(manifest) ? JSON.parse(readFileSync(manifest, "utf8")).version : undefined;
}
