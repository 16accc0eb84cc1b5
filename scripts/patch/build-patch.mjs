// npm run patch:build: regenerates, for every supported SDK version, the patch-package patch
// patches/@github+copilot-sdk+<version>.patch and the pnpm patch
// patches/pnpm/@github__copilot-sdk@<version>.patch from src/, and re-applies the pinned version's
// patch to this project's node_modules, so tests run the code just built.
//
// npm run patch:build -- --sdk <version> writes that version's two patches only (a new SDK
// version leaves the committed patches of the others alone). Either way the README's
// compatibility table is written again.

import { checkArguments } from "../lib/cliArguments.mjs";
import { updateReadmeTable } from "./lib/compatibilityTable.mjs";
import { existsSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { execFileSync } from "node:child_process";
import {
    buildPatchedFiles,
    PACKAGE_NAME,
    pristineDir,
    releaseCapabilities,
    supportedVersions,
    patchFilePath,
    pinnedVersion,
    pnpmPatchFilePath,
    requestedVersions,
    ROOT,
    renderPatch,
} from "./lib/sdkPatch.mjs";
checkArguments(process.argv.slice(2), {
    usage: "Usage: npm run patch:build [-- --sdk <version>]",
    flags: { sdk: "value" },
    positionals: 0,
});

let pinnedFiles;
for (const version of requestedVersions(process.argv.slice(2))) {
    const { files } = await buildPatchedFiles(version);
    for (const [patchPath, layout] of /** @type {const} */ ([
        [patchFilePath(version), "patch-package"],
        [pnpmPatchFilePath(version), "pnpm"],
    ])) {
        mkdirSync(dirname(patchPath), { recursive: true });
        writeFileSync(patchPath, renderPatch(files, layout));
        console.log(`wrote ${relative(ROOT, patchPath)} (${files.size} files)`);
    }
    if (version === pinnedVersion()) pinnedFiles = files;
}
await updateReadmeTable(ROOT, supportedVersions(), (/** @type {string} */ version) =>
    releaseCapabilities(pristineDir(version))
);
if (pinnedFiles === undefined) process.exit(0);

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
execFileSync(process.execPath, [join(ROOT, "scripts", "patch", "apply-sdk-patch.mjs")], {
    cwd: ROOT,
    stdio: "inherit",
});
