// npm run pack:size: what `npm pack` would put into the package, measured without writing it
// (`npm pack --dry-run --json`): the packed and unpacked size and the number of files. Exits 1
// when the packed package reaches the limit (300 KB) or carries a generated release patch.

import { execFileSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { checkArguments } from "../../build/cli/cliArguments.js";

checkArguments(process.argv.slice(2), { usage: "Usage: npm run pack:size" });
const LIMIT = 300 * 1024;
const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const output = execFileSync(
    "npm",
    ["pack", "--dry-run", "--json", "--ignore-scripts", "--loglevel=error"],
    {
        cwd: root,
        encoding: "utf8",
        maxBuffer: 64 * 1024 * 1024,
    }
);
const [pack] = JSON.parse(output);
const patches = pack.files.filter((/** @type {{ path: string }} */ file) =>
    /\.patch$/.test(file.path)
);
console.log(
    `${pack.filename}: ${(pack.size / 1024).toFixed(1)} KB packed, ${(pack.unpackedSize / 1024).toFixed(1)} KB unpacked, ${pack.entryCount} files${patches.length === 0 ? ", no patch files" : `, patch files: ${patches.map((/** @type {{ path: string }} */ f) => f.path).join(", ")}`}`
);
if (pack.size >= LIMIT || patches.length > 0) {
    console.error(
        `The packed package must stay under ${LIMIT / 1024} KB and carry no generated patches.`
    );
    process.exit(1);
}
