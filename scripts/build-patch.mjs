// npm run patch:build: regenerates patches/@github+copilot-sdk+<version>.patch for every supported
// SDK version from src/, and re-applies the pinned version's patch to this project's
// node_modules, so tests run the code just built.

import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { execFileSync } from "node:child_process";
import {
    buildPatchedFiles,
    PACKAGE_NAME,
    patchFilePath,
    pinnedVersion,
    ROOT,
    renderPatch,
    supportedVersions,
} from "./lib/sdkPatch.mjs";

let pinnedFiles;
for (const version of supportedVersions()) {
    const { files } = await buildPatchedFiles(version);
    const patchPath = patchFilePath(version);
    mkdirSync(dirname(patchPath), { recursive: true });
    writeFileSync(patchPath, renderPatch(files));
    console.log(`wrote ${relative(ROOT, patchPath)} (${files.size} files)`);
    if (version === pinnedVersion()) pinnedFiles = files;
}

// Put the installed SDK back to its pristine state for every file the patch touches, then let
// the postinstall step apply the new patch exactly as 'npm install' does.
const installed = join(ROOT, "node_modules", ...PACKAGE_NAME.split("/"));
if (!existsSync(join(installed, "package.json"))) {
    throw new Error(`${PACKAGE_NAME} is not installed: run 'npm install' first.`);
}
for (const [packagePath, { before }] of pinnedFiles) {
    const target = join(installed, packagePath);
    if (before === null) rmSync(target, { force: true });
    else writeFileSync(target, before);
}
// Files that an earlier build added but this one no longer does are left behind harmlessly;
// 'npm install' on a fresh clone never sees them.
execFileSync(process.execPath, [join(ROOT, "scripts", "apply-sdk-patch.mjs")], {
    cwd: ROOT,
    stdio: "inherit",
});
