// npm test's check of the package as a user installs it: packs it (the build npm test made, no
// scripts run) and holds the tarball to publint and @arethetypeswrong/cli, every resolution mode
// (node10, node16 from CommonJS and from ESM, bundler).

import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { checkArguments } from "../../build/cli/cliArguments.js";

checkArguments(process.argv.slice(2), { usage: "Usage: npm run check:package" });

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
/** @param {string} name */
const bin = (name) => join(root, "node_modules", ".bin", name);
const scratch = mkdtempSync(join(tmpdir(), "package-check-"));
try {
    const packed = JSON.parse(
        execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", scratch], {
            cwd: root,
            encoding: "utf8",
            env: { ...process.env, npm_config_loglevel: "error" },
        })
    );
    const tarball = join(scratch, packed[0].filename);
    /** @type {[string, string[]][]} */
    const checks = [
        ["publint", ["--strict", tarball]],
        ["attw", [tarball]],
    ];
    for (const [name, args] of checks) {
        try {
            execFileSync(bin(name), args, { cwd: root, stdio: "inherit" });
        } catch {
            console.error(`${name} found problems in the packed package (above).`);
            process.exitCode = 1;
        }
    }
} finally {
    rmSync(scratch, { recursive: true, force: true });
}
