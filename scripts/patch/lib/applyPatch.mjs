// Applies a patch with patch-package itself, the way a consuming app's postinstall does.

import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";

/**
 * Runs patch-package in an app folder; fails on any patch that does not apply and on a version
 * mismatch between a patch file and the installed package.
 *
 * @param {string} appDir folder holding package.json, node_modules/ and patches/
 * @returns {string} patch-package's output
 */
export function runPatchPackage(appDir) {
    // Resolved like any dependency: the package's own, or one hoisted into the app's node_modules.
    const bin = createRequire(import.meta.url).resolve("patch-package/index.js");
    return execFileSync(process.execPath, [bin, "--error-on-fail", "--error-on-warn"], {
        cwd: appDir,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
    });
}
