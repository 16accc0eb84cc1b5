// npm run patch:build: regenerates patches/@github+copilot-sdk+<version>.patch from src/ and
// re-applies it to this project's node_modules, so tests run the code just built.

import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { runPatchPackage } from "./lib/applyPatch.mjs";
import {
    buildPatchedFiles,
    PACKAGE_NAME,
    patchFilePath,
    ROOT,
    renderPatch,
} from "./lib/sdkPatch.mjs";

const { files } = await buildPatchedFiles();
const patchPath = patchFilePath();
mkdirSync(dirname(patchPath), { recursive: true });
writeFileSync(patchPath, renderPatch(files));
console.log(`wrote ${relative(ROOT, patchPath)} (${files.size} files)`);

// Put the installed SDK back to its pristine state for every file the patch touches, then let
// patch-package apply the new patch exactly as the postinstall step does.
const installed = join(ROOT, "node_modules", ...PACKAGE_NAME.split("/"));
for (const [packagePath, { before }] of files) {
    const target = join(installed, packagePath);
    if (before === null) rmSync(target, { force: true });
    else writeFileSync(target, before);
}
// Files that an earlier build added but this one no longer does are left behind harmlessly;
// 'npm install' on a fresh clone never sees them.
if (!existsSync(join(installed, "package.json"))) {
    throw new Error(`${PACKAGE_NAME} is not installed: run 'npm install' first.`);
}
process.stdout.write(runPatchPackage(ROOT));
