// Installs a published @github/copilot-sdk version with its bundled runtime into
// .cache/sdk/<version>, apart from the project's own node_modules, for the discovery and the
// conformance suite.

import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * @param {string} version an exact published version
 * @returns {Promise<string>} the directory of the installed SDK package
 */
export async function installSdkVersion(version) {
    const prefix = join(ROOT, ".cache", "sdk", version);
    const sdkDir = join(prefix, "node_modules", "@github", "copilot-sdk");
    if (versionAt(sdkDir) === version && existsSync(runtimeDirOf(sdkDir))) return sdkDir;
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
            "--no-save",
            "--no-audit",
            "--no-fund",
            "--ignore-scripts",
            `@github/copilot-sdk@${version}`,
        ],
        { cwd: prefix, stdio: ["ignore", "ignore", "inherit"] }
    );
    if (versionAt(sdkDir) !== version || !existsSync(runtimeDirOf(sdkDir))) {
        throw new Error(
            `Installing @github/copilot-sdk@${version} with its runtime into ${prefix} failed.`
        );
    }
    return sdkDir;
}

/**
 * @param {string} sdkDir an installed SDK package directory
 * @returns {string} the directory of its platform runtime package
 */
export function runtimeDirOf(sdkDir) {
    return join(dirname(sdkDir), `copilot-sdk-${process.platform}-${process.arch}`);
}

function versionAt(dir) {
    const manifest = join(dir, "package.json");
    return existsSync(manifest) ? JSON.parse(readFileSync(manifest, "utf8")).version : undefined;
}
