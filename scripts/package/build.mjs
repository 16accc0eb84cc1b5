// npm run build (and prepare / prepack): compiles src/ into build/esm (ES modules with typings),
// build/cjs (CommonJS with typings) and build/cli (the command). build/ is never committed.

import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { checkArguments } from "../lib/cliArguments.mjs";

checkArguments(process.argv.slice(2), { usage: "Usage: npm run build" });
const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
for (const folder of ["esm", "cjs", "cli"])
    rmSync(join(root, "build", folder), { recursive: true, force: true });
for (const project of ["tsconfig.build-esm.json", "tsconfig.build-cjs.json", "tsconfig.cli.json"]) {
    execFileSync(process.execPath, [tsc, "-p", join(root, project)], {
        cwd: root,
        stdio: "inherit",
    });
}
writeFileSync(join(root, "build", "cjs", "package.json"), '{ "type": "commonjs" }\n');
// `import.meta` does not exist in CommonJS: this module's location comes from __filename there.
writeFileSync(
    join(root, "build", "cjs", "moduleLocation.js"),
    '"use strict";\nObject.defineProperty(exports, "__esModule", { value: true });\nexports.MODULE_URL = require("node:url").pathToFileURL(__filename).href;\n'
);
