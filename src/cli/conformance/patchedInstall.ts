// A patched copy of an SDK release installed with its runtime (sdkVersions.ts),
// for the conformance suite: the SDK folder copied and given the thin patch (the same appends the
// CLI renders), this package linked beside it, everything else linked to the unpatched install.

import {
    cpSync,
    mkdirSync,
    readdirSync,
    readFileSync,
    rmSync,
    symlinkSync,
    writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { appendTo, THIN_PATCH_APPENDS } from "../thinPatch.js";
import { PACKAGE_NAME, ROOT } from "./servedReleases.js";
import { CACHE } from "./sdkVersions.js";

/**
 * @param version - the SDK release
 * @param sdkDir - the unpatched install's SDK package directory
 * @param purpose - the cache folder the copy goes to (`.cache/<purpose>/<version>`)
 * @returns the patched copy's SDK package directory
 */
export function patchedCopy(version: string, sdkDir: string, purpose: string): string {
    const app = join(CACHE, purpose, version);
    const target = linkedModules(app, dirname(dirname(sdkDir)));
    symlinkSync(ROOT, join(target, "copilot-sdk-tool-override"));
    const copy = join(target, "@github", "copilot-sdk");
    cpSync(sdkDir, copy, { recursive: true });
    appendThinPatch(copy);
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
 * @param app - the scratch app's folder (emptied first)
 * @param modules - the install's node_modules folder
 * @returns the scratch app's node_modules folder
 */
export function linkedModules(app: string, modules: string): string {
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

/**
 * Appends the thin patch's lines to an unpatched SDK folder in place (what applying the patch
 * does), for the conformance suite's patched copies.
 */
export function appendThinPatch(sdkDir: string) {
    for (const [file, lines] of THIN_PATCH_APPENDS) {
        const path = join(sdkDir, file);
        writeFileSync(path, appendTo(readFileSync(path, "utf8"), lines));
    }
}
