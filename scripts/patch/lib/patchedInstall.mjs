// A patched copy of an SDK release installed with its runtime (scripts/measure/lib/sdkVersions.mjs), for
// the conformance suite and the release test run: the SDK folder copied and patched with
// patch-package, everything else linked to the unpatched install.

import { cpSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { runPatchPackage } from "./applyPatch.mjs";
import { PACKAGE_NAME, patchFilePath } from "./sdkPatch.mjs";
import { CACHE } from "../../measure/lib/sdkVersions.mjs";

/**
 * @param {string} version the SDK release
 * @param {string} sdkDir the unpatched install's SDK package directory
 * @param {string} purpose the cache folder the copy goes to (`.cache/<purpose>/<version>`)
 * @returns {string} the patched copy's SDK package directory
 */
export function patchedCopy(version, sdkDir, purpose) {
    const app = join(CACHE, purpose, version);
    rmSync(app, { recursive: true, force: true });
    const modules = dirname(dirname(sdkDir));
    const target = join(app, "node_modules");
    mkdirSync(join(target, "@github"), { recursive: true });
    for (const entry of readdirSync(modules)) {
        if (entry === "@github" || entry.startsWith(".")) continue;
        symlinkSync(join(modules, entry), join(target, entry));
    }
    for (const entry of readdirSync(join(modules, "@github"))) {
        if (entry === "copilot-sdk") continue;
        symlinkSync(join(modules, "@github", entry), join(target, "@github", entry));
    }
    cpSync(sdkDir, join(target, "@github", "copilot-sdk"), { recursive: true });
    writeFileSync(
        join(app, "package.json"),
        JSON.stringify({ name: purpose, private: true, dependencies: { [PACKAGE_NAME]: version } })
    );
    mkdirSync(join(app, "patches"));
    cpSync(patchFilePath(version), join(app, "patches", basename(patchFilePath(version))));
    runPatchPackage(app);
    return join(target, "@github", "copilot-sdk");
}
