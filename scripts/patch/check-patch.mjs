// npm run patch:check (part of npm test; run `npm run build` first): fails when
//  1. patches/ holds anything but the pinned release's thin patch, or that patch differs from what
//     the CLI renders for the release (`npm run patch:build` writes it),
//  2. this project's node_modules does not hold the SDK patched with it, linked to this package,
//  3. a release of the compatibility table does not work in either form: for each, the thin patch
//     is rendered, applied with patch-package and loaded in ESM and CommonJS, and the library
//     form's run-time detection reads the unpatched release (scripts/patch/lib/releaseMatrix.mjs);
//     the README's table is generated from those runs and must equal them,
//  4. the measured built-ins module differs from its data files.
// (That patches/upstream/ matches upstream/ is test/unit/upstreamSeries.test.ts: the upstream
// tooling is an area of its own that no script imports.)

import { existsSync, readdirSync, readFileSync, realpathSync } from "node:fs";
import { join } from "node:path";
import { checkArguments } from "../../build/cli/cliArguments.js";
import { PACKAGE_NAME, pinnedVersion, ROOT } from "../../build/cli/conformance/servedReleases.js";
import { patchFilePath } from "./lib/pristineSdk.mjs";
import { measuredModuleDrift } from "../measure/lib/measuredModule.mjs";
import { updateReadmeTable } from "./lib/compatibilityTable.mjs";
import { runReleaseMatrix } from "./lib/releaseMatrix.mjs";
import { THIN_PATCH_APPENDS } from "../../build/cli/thinPatch.js";
import { renderThinPatchFor } from "./lib/thinPatch.mjs";

checkArguments(process.argv.slice(2), {
    usage: "Usage: npm run patch:check",
    flags: {},
    positionals: 0,
});

const started = performance.now();
const failures = [];

// 1. patches/ holds the pinned release's thin patch and nothing generated besides.
const pinned = pinnedVersion();
const generated = readdirSync(join(ROOT, "patches")).filter((file) => file.endsWith(".patch"));
const extra = generated.filter((file) => join(ROOT, "patches", file) !== patchFilePath(pinned));
if (extra.length > 0 || existsSync(join(ROOT, "patches", "pnpm"))) {
    failures.push(
        `patches/ holds generated patches besides the pinned release's thin patch (${[...extra, ...(existsSync(join(ROOT, "patches", "pnpm")) ? ["pnpm/"] : [])].join(", ")}): remove them; \`npm run patch:build -- <version>\` renders any release's patch.`
    );
}
const expected = renderThinPatchFor(pinned, "patch-package");
if (
    !existsSync(patchFilePath(pinned)) ||
    readFileSync(patchFilePath(pinned), "utf8") !== expected
) {
    failures.push(
        `patches/@github+copilot-sdk+${pinned}.patch differs from the thin patch the CLI renders: run 'npm run build && npm run patch:build' and commit it.`
    );
}

// 2. The project's own node_modules runs the SDK with the thin patch, linked to this package.
const installed = join(ROOT, "node_modules", ...PACKAGE_NAME.split("/"));
const unpatched = [...THIN_PATCH_APPENDS].filter(
    ([file, lines]) =>
        !readFileSync(join(installed, file), "utf8").endsWith(`${lines.join("\n")}\n`)
);
const link = join(ROOT, "node_modules", "copilot-sdk-tool-override");
if (unpatched.length > 0 || !existsSync(link) || realpathSync(link) !== realpathSync(ROOT)) {
    failures.push(
        `node_modules/${PACKAGE_NAME} does not run this repository's patch form (${unpatched.map(([file]) => file).join(", ") || "node_modules/copilot-sdk-tool-override is not a link to the repository"}): run 'npm install' (its prepare applies patches/).`
    );
}

// 3. Every release of the table, in both forms; the table is what the runs give.
const runs = await runReleaseMatrix();
const tableDrift = await updateReadmeTable(ROOT, runs, true);
if (tableDrift !== undefined) failures.push(tableDrift);

// 4. The measurements compiled into this package are what the discovery's data files say.
const measuredDrift = await measuredModuleDrift();
if (measuredDrift !== undefined) failures.push(measuredDrift);

if (failures.length > 0) {
    for (const failure of failures) console.error(`patch check failed: ${failure}`);
    process.exit(1);
}
console.log(
    `patch check passed in ${((performance.now() - started) / 1000).toFixed(0)} s: patches/ holds the thin patch of ${pinned} (${expected.split("\n").length - 1} lines) and node_modules runs it; ${runs.length} releases (${runs.map((run) => run.version).join(", ")}) work in both forms and the README's table is theirs; the measured built-ins module matches its data files.`
);
