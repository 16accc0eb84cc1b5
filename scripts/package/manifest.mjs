// prepack / postpack: the packed package.json carries no install-time script. The repository's
// own `npm install` builds through `prepare`, which an installed copy must not run (npm 11 lists
// it as an install script to approve, and the files it runs are not packed). `strip` keeps the
// manifest as it is in build/package.json.packing and removes those scripts; `restore` puts it
// back (`strip` does that first too, should a pack have stopped between the two).

import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { checkArguments } from "../../build/cli/cliArguments.js";

/** The scripts npm runs when a package is installed. */
const INSTALL_SCRIPTS = ["preinstall", "install", "postinstall", "prepare"];

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
    for (const name of INSTALL_SCRIPTS) delete parsed.scripts?.[name];
    writeFileSync(manifest, `${JSON.stringify(parsed, null, 4)}\n`);
} else {
    console.error(`${mode === undefined ? "Missing mode" : `Unknown mode '${mode}'`}.\n\n${USAGE}`);
    process.exit(2);
}
