// The thin patch of any release, rendered by the same code the CLI's init and upgrade run
// (src/cli/thinPatch.ts, compiled by `npm run build` into build/cli/thinPatch.js).

import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { pristineDir, ROOT } from "./sdkPatch.mjs";

/** @returns {Promise<typeof import("../../../src/cli/thinPatch.ts")>} */
export async function thinPatchModule() {
    const compiled = join(ROOT, "build", "cli", "thinPatch.js");
    if (!existsSync(compiled)) {
        throw new Error("build/cli/thinPatch.js is missing: run `npm run build` first.");
    }
    return import(pathToFileURL(compiled).href);
}

/**
 * @param {string} version an @github/copilot-sdk release
 * @param {"patch-package" | "pnpm"} layout
 * @param {string} [sdkDir] an unpatched copy of the release (default: its pristine tarball)
 * @returns {Promise<string>} the thin patch's text
 */
export async function renderThinPatchFor(version, layout, sdkDir = pristineDir(version)) {
    const { renderThinPatch } = await thinPatchModule();
    return renderThinPatch((path) => readFileSync(join(sdkDir, path), "utf8"), version, layout);
}

/**
 * Appends the thin patch's lines to an unpatched SDK folder in place (what applying the patch
 * does), for the scratch copies of the release tests and the conformance suite.
 *
 * @param {string} sdkDir
 */
export async function appendThinPatch(sdkDir) {
    const { THIN_PATCH_APPENDS, appendTo } = await thinPatchModule();
    const { writeFileSync } = await import("node:fs");
    for (const [file, lines] of THIN_PATCH_APPENDS) {
        const path = join(sdkDir, file);
        writeFileSync(path, appendTo(readFileSync(path, "utf8"), lines));
    }
}
