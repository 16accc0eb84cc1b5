// npm run build (and prepare / prepack): compiles src/ into build/esm (ES modules with typings),
// build/cjs (CommonJS with typings) and build/cli (the command and the conformance suite, with
// typings for the repository's scripts). build/ is never committed.

import { execFileSync } from "node:child_process";
import { rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// The one script that cannot use the command-line check of build/cli/cliArguments.js: it makes
// it. It takes no arguments, so any argument stops it the same way (usage, exit code 2).
const USAGE = "Usage: npm run build";
const [first] = process.argv.slice(2);
if (first === "--help" || first === "-h") {
    console.log(USAGE);
    process.exit(0);
}
if (first !== undefined) {
    console.error(
        `${first.startsWith("-") ? "Unknown option" : "Unexpected argument"} '${first}'.\n\n${USAGE}`
    );
    process.exit(2);
}
const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
for (const folder of ["esm", "cjs", "cli"])
    rmSync(join(root, "build", folder), { recursive: true, force: true });
for (const project of ["tsconfig/build-esm.json", "tsconfig/build-cjs.json", "tsconfig/cli.json"]) {
    execFileSync(process.execPath, [tsc, "-p", join(root, project)], {
        cwd: root,
        stdio: "inherit",
    });
}
writeFileSync(join(root, "build", "cjs", "package.json"), '{ "type": "commonjs" }\n');
// `import.meta` does not exist in CommonJS: this module's location comes from __filename there.
writeFileSync(
    join(root, "build", "cjs", "shared", "moduleLocation.js"),
    '"use strict";\nObject.defineProperty(exports, "__esModule", { value: true });\nexports.MODULE_URL = require("node:url").pathToFileURL(__filename).href;\n'
);
