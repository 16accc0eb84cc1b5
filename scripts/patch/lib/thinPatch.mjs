// The thin patch of any release, rendered by the same code the CLI's init and upgrade run
// (src/cli/thinPatch.ts, compiled by `npm run build` into build/cli/thinPatch.js).

import { readFileSync } from "node:fs";
import { join } from "node:path";
import { renderThinPatch } from "../../../build/cli/thinPatch.js";
import { pristineDir } from "./pristineSdk.mjs";

/**
 * @param {string} version an @github/copilot-sdk release
 * @param {"patch-package" | "pnpm"} layout
 * @param {string} [sdkDir] an unpatched copy of the release (default: its pristine tarball)
 * @returns {string} the thin patch's text
 */
export function renderThinPatchFor(version, layout, sdkDir = pristineDir(version)) {
    return renderThinPatch((path) => readFileSync(join(sdkDir, path), "utf8"), version, layout);
}
