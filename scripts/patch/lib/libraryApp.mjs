// A scratch app that uses the library form, as an app that installed this package would: its
// node_modules links the SDK release under test (unpatched) and everything beside it, and holds a
// copy of this package (package.json and build/), so that this package resolves
// "@github/copilot-sdk" to that release and not to this repository's own patched SDK.

import { cpSync, mkdirSync, readdirSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { linkedModules } from "../../../build/cli/conformance/patchedInstall.js";
import { ROOT } from "../../../build/cli/conformance/servedReleases.js";
import { CACHE } from "../../../build/cli/conformance/sdkVersions.js";

/**
 * @param {string} sdkDir the unpatched SDK package folder (an install with its runtime)
 * @param {string} purpose the cache folder the app goes to (`.cache/<purpose>/<version>`)
 * @param {string} version the release, for the folder name
 * @returns {{ app: string, entry: string, remove: () => void }} the app folder, the library
 *   entry tests import in place of "@github/copilot-sdk", and the clean-up
 */
export function libraryApp(sdkDir, purpose, version) {
    const app = join(CACHE, purpose, version);
    const realSdk = realpathSync(sdkDir);
    // The node_modules folder that holds the SDK (scoped, or an alias such as copilot-sdk-unpatched).
    let modules = dirname(realSdk);
    while (!modules.endsWith("node_modules")) modules = dirname(modules);
    const target = linkedModules(app, modules);
    symlinkSync(realSdk, join(target, "@github", "copilot-sdk"));
    const own = join(target, "copilot-sdk-tool-override");
    mkdirSync(own);
    cpSync(join(ROOT, "package.json"), join(own, "package.json"));
    for (const folder of ["esm", "cjs"]) {
        cpSync(join(ROOT, "build", folder), join(own, "build", folder), { recursive: true });
    }
    return {
        app,
        entry: join(own, "build", "esm", "library.js"),
        remove: () => {
            rmSync(app, { recursive: true, force: true });
            // The purpose folder too, once no other release's app is in it.
            if (readdirSync(dirname(app)).length === 0) rmSync(dirname(app), { recursive: true });
        },
    };
}
