// prepack / postpack: the packed package.json carries no script and no devDependencies. The
// repository's own `npm install` builds through `prepare`, which an installed copy must not run
// (npm 11 lists it as an install script to approve, and the files it runs are not packed); the
// other scripts and the dev tools are the repository's. `strip` keeps the manifest as it is in
// build/package.json.packing and removes them; `restore` puts it back (`strip` does that first
// too, should a pack have stopped between the two).

import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { checkArguments } from "../../build/cli/cliArguments.js";

const USAGE = "Usage: node scripts/package/manifest.mjs strip|restore";
const [mode] = checkArguments(process.argv.slice(2), { usage: USAGE, positionals: 1 });
const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const manifest = join(root, "package.json");
const kept = join(root, "build", "package.json.packing");

function restore() {
    if (!existsSync(kept)) return;
    writeFileSync(manifest, readFileSync(kept));
    rmSync(kept);
}

if (mode === "restore") {
    restore();
} else if (mode === "strip") {
    restore();
    const text = readFileSync(manifest, "utf8");
    const parsed = JSON.parse(text);
    mkdirSync(dirname(kept), { recursive: true });
    writeFileSync(kept, text);
    // An installed copy runs none of the repository's scripts and installs none of its dev
    // tools; the one fact it needs of them, the SDK release the CLI's conformance suite drives,
    // moves to toolCustomization.pinnedSdkVersion.
    const pinned = parsed.devDependencies?.["@github/copilot-sdk"];
    if (pinned === undefined) {
        console.error("package.json pins no @github/copilot-sdk in devDependencies.");
        process.exit(1);
    }
    parsed.toolCustomization = { ...parsed.toolCustomization, pinnedSdkVersion: pinned };
    delete parsed.scripts;
    delete parsed.devDependencies;
    writeFileSync(manifest, `${JSON.stringify(parsed, null, 4)}\n`);
} else {
    console.error(`${mode === undefined ? "Missing mode" : `Unknown mode '${mode}'`}.\n\n${USAGE}`);
    process.exit(2);
}
