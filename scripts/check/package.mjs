// npm test's check of the package as a user installs it: packs it (the build npm test made, with
// the manifest prepack makes), checks that the packed manifest has no script and no
// devDependencies but the pinned SDK release, and holds the tarball to publint and
// @arethetypeswrong/cli, every resolution mode (node10, node16 from CommonJS and from ESM,
// bundler).

import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
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
    // As prepack and postpack do, around the build npm test made.
    /** @param {"strip" | "restore"} mode */
    const manifest = (mode) =>
        execFileSync(process.execPath, [join(root, "scripts/package/manifest.mjs"), mode], {
            cwd: root,
            stdio: "inherit",
        });
    let packed;
    manifest("strip");
    try {
        packed = JSON.parse(
            execFileSync(
                "npm",
                ["pack", "--ignore-scripts", "--json", "--pack-destination", scratch],
                {
                    cwd: root,
                    encoding: "utf8",
                    env: { ...process.env, npm_config_loglevel: "error" },
                }
            )
        );
    } finally {
        manifest("restore");
    }
    const tarball = join(scratch, packed[0].filename);
    // No install-time script in the packed manifest (an installed copy runs none).
    const shipped = JSON.parse(
        execFileSync("tar", ["-xOzf", tarball, "package/package.json"], { encoding: "utf8" })
    );
    // Nor any script or dev tool of the repository's; the pinned SDK release travels instead.
    for (const field of ["scripts", "devDependencies"]) {
        if (shipped[field] !== undefined) {
            console.error(
                `The packed package.json has "${field}" (${Object.keys(shipped[field]).join(", ")}): scripts/package/manifest.mjs strip removes them.`
            );
            process.exitCode = 1;
        }
    }
    const own = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    const pinned = own.devDependencies["@github/copilot-sdk"];
    if (shipped.toolCustomization?.pinnedSdkVersion !== pinned) {
        console.error(
            `The packed package.json's toolCustomization.pinnedSdkVersion is '${shipped.toolCustomization?.pinnedSdkVersion}', not the pinned '${pinned}'.`
        );
        process.exitCode = 1;
    }
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
