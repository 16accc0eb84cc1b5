// Untouched copies of @github/copilot-sdk, one per supported version, for building and checking
// the patches. The pinned version is the npm alias `copilot-sdk-unpatched` in node_modules; any
// other version is the package tarball alone (no runtime, no dependencies), unpacked once into
// .cache/sdk-pristine/<version>/package.

import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import {
    PACKAGE_NAME,
    pinnedVersion,
    ROOT,
} from "../../../build/cli/conformance/servedReleases.js";
import { versionAt } from "../../../build/cli/conformance/sdkVersions.js";

/** The untouched copy of the pinned version, installed through an npm alias. */
const PRISTINE_ALIAS = "copilot-sdk-unpatched";

/** @returns {string} directory of an untouched copy of the SDK at `version` */
export function pristineDir(version = pinnedVersion()) {
    return pristineSdkDir(ROOT, PACKAGE_NAME, PRISTINE_ALIAS, version);
}

/** @returns {string} the patch-package patch file path for a version */
export function patchFilePath(version = pinnedVersion()) {
    return join(ROOT, "patches", `${PACKAGE_NAME.replace("/", "+")}+${version}.patch`);
}

/**
 * @param {string} root the project root
 * @param {string} packageName the SDK's package name
 * @param {string} alias the npm alias of the pinned version's untouched copy
 * @param {string} version the exact version wanted
 * @returns {string} the directory of an untouched copy of that version
 */
function pristineSdkDir(root, packageName, alias, version) {
    const aliased = join(root, "node_modules", alias);
    if (versionAt(aliased) === version) return aliased;
    const cache = join(root, ".cache", "sdk-pristine", version);
    const dir = join(cache, "package");
    if (versionAt(dir) === version) return dir;
    rmSync(cache, { recursive: true, force: true });
    mkdirSync(cache, { recursive: true });
    const tarball = execFileSync(
        "npm",
        ["pack", `${packageName}@${version}`, "--pack-destination", cache, "--silent"],
        { cwd: cache, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }
    )
        .trim()
        .split("\n")
        .at(-1);
    if (tarball === undefined) throw new Error(`npm pack ${packageName}@${version} named no file.`);
    execFileSync("tar", ["xzf", tarball], { cwd: cache });
    if (versionAt(dir) !== version) {
        throw new Error(`npm pack ${packageName}@${version} did not give that version in ${dir}.`);
    }
    return dir;
}
