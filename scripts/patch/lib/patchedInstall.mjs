// A patched copy of an SDK release installed with its runtime (scripts/measure/lib/sdkVersions.mjs),
// for the conformance suite: the SDK folder copied and given the thin patch (the same appends the
// CLI renders), this package linked beside it, everything else linked to the unpatched install.

import { cpSync, mkdirSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { appendThinPatch } from "./thinPatch.mjs";
import { PACKAGE_NAME, ROOT } from "./sdkPatch.mjs";
import { CACHE } from "../../measure/lib/sdkVersions.mjs";

/**
 * @param {string} version the SDK release
 * @param {string} sdkDir the unpatched install's SDK package directory
 * @param {string} purpose the cache folder the copy goes to (`.cache/<purpose>/<version>`)
 * @returns {Promise<string>} the patched copy's SDK package directory
 */
export async function patchedCopy(version, sdkDir, purpose) {
    const app = join(CACHE, purpose, version);
    const target = linkedModules(app, dirname(dirname(sdkDir)));
    symlinkSync(ROOT, join(target, "copilot-sdk-tool-override"));
    const copy = join(target, "@github", "copilot-sdk");
    cpSync(sdkDir, copy, { recursive: true });
    await appendThinPatch(copy);
    writeFileSync(
        join(app, "package.json"),
        JSON.stringify({ name: purpose, private: true, dependencies: { [PACKAGE_NAME]: version } })
    );
    return copy;
}

/**
 * A fresh scratch app whose node_modules links everything of an install's node_modules except the
 * SDK and this package, which the caller puts in: the SDK's runtime and dependencies are shared,
 * not installed again.
 *
 * @param {string} app the scratch app's folder (emptied first)
 * @param {string} modules the install's node_modules folder
 * @returns {string} the scratch app's node_modules folder
 */
export function linkedModules(app, modules) {
    rmSync(app, { recursive: true, force: true });
    const target = join(app, "node_modules");
    mkdirSync(join(target, "@github"), { recursive: true });
    for (const entry of readdirSync(modules)) {
        if (entry === "@github" || entry === "copilot-sdk-tool-override" || entry.startsWith("."))
            continue;
        symlinkSync(join(modules, entry), join(target, entry));
    }
    for (const entry of readdirSync(join(modules, "@github"))) {
        if (entry === "copilot-sdk") continue;
        symlinkSync(join(modules, "@github", entry), join(target, "@github", entry));
    }
    return target;
}
