// prepare (npm install of this repository): applies the patch that matches the installed @github/copilot-sdk version.
//
// patches/ holds one patch per supported SDK version. patch-package would apply every patch of
// a package in sequence, so this picks the installed version's patch, puts it alone in a scratch
// patch folder and lets patch-package apply it from there (--error-on-fail --error-on-warn),
// exactly as an app that copied that one file into its own patches/ folder does.

import { execFileSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { checkArguments } from "../lib/cliArguments.mjs";

checkArguments(process.argv.slice(2), {
    usage: "Usage: node scripts/patch/apply-sdk-patch.mjs (npm runs it as prepare, after a bare npm install)",
});
const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
// Installed as a dependency of an app (npm may run `prepare` for tarball and git dependencies),
// there is nothing of this project's to patch: apps adopt the patch with the package's CLI.
if (root.split(/[\\/]/).includes("node_modules")) process.exit(0);
const packageName = "@github/copilot-sdk";
const manifestPath = join(root, "node_modules", ...packageName.split("/"), "package.json");
const { version } = JSON.parse(readFileSync(manifestPath, "utf8"));
const patchName = `${packageName.replace("/", "+")}+${version}.patch`;
const patchPath = join(root, "patches", patchName);
if (!existsSync(patchPath)) {
    console.error(
        `No patch for ${packageName}@${version} in patches/: pin a supported version (see README) or build one (see CONTRIBUTING).`
    );
    process.exit(1);
}
const scratch = join(root, "node_modules", ".tool-customization-patch");
rmSync(scratch, { recursive: true, force: true });
mkdirSync(scratch, { recursive: true });
copyFileSync(patchPath, join(scratch, patchName));
const bin = createRequire(import.meta.url).resolve("patch-package/index.js");
execFileSync(
    process.execPath,
    [bin, "--patch-dir", relative(root, scratch), "--error-on-fail", "--error-on-warn"],
    { cwd: root, stdio: "inherit" }
);
