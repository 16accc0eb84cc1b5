/**
 * Every script checks its command line first: an unknown option (or a typo of a known one) stops
 * it with its usage and exit code 2 before it does any work, and --help prints the usage. The
 * scripts are found, not listed: every `.mjs` of `scripts/<job>/` is an entry script (the modules
 * they share sit in a `lib/` folder), so a new script cannot skip the check. The conformance
 * suite the package ships (src/cli/conformance/, compiled into build/cli/conformance/) checks its
 * command line the same way.
 */
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const SCRIPTS = join(ROOT, "scripts");
const CONFORMANCE = join(ROOT, "build", "cli", "conformance", "conformance.js");
const NAMES = readdirSync(SCRIPTS, { withFileTypes: true })
    .filter((job) => job.isDirectory() && job.name !== "lib" && job.name !== "data")
    .flatMap((job) =>
        readdirSync(join(SCRIPTS, job.name))
            .filter((file) => file.endsWith(".mjs"))
            .map((file) => `${job.name}/${file.replace(/\.mjs$/, "")}`)
    )
    .sort();

function run(name: string, args: string[]) {
    const path = name === "conformance" ? CONFORMANCE : join(SCRIPTS, `${name}.mjs`);
    return spawnSync(process.execPath, [path, ...args], {
        encoding: "utf8",
        timeout: 30_000,
    });
}

describe("the entry scripts", () => {
    it("are found in every job folder", () => {
        // The layout CONTRIBUTING describes; a folder or script that moves away fails here.
        expect(NAMES).toEqual(
            expect.arrayContaining([
                "patch/build-patch",
                "patch/check-patch",
                "patch/apply-sdk-patch",
                "measure/discover-reserved-tool-names",
                "repro/repro",
                "upstream/upstream-check",
            ])
        );
    });

    it("keep no script outside a job folder", () => {
        const loose = readdirSync(SCRIPTS).filter((file) => file.endsWith(".mjs"));
        expect(loose).toEqual([]);
    });
});

describe("script command lines", () => {
    for (const name of [...NAMES, "conformance"]) {
        it(`${name} refuses an unknown option with its usage, and prints it for --help`, () => {
            const refused = run(name, ["--bogus"]);
            expect(refused.status).toBe(2);
            expect(refused.stderr).toMatch(/'--bogus'/);
            expect(refused.stderr).toMatch(/Usage: /);
            const help = run(name, ["--help"]);
            expect(help.status).toBe(0);
            expect(help.stdout).toMatch(/Usage: /);
        });
    }

    it("refuses a misspelt option of patch:build instead of rebuilding every version", () => {
        const refused = run("patch/build-patch", ["--skd", "1.0.14"]);
        expect(refused.status).toBe(2);
        expect(refused.stderr).toMatch(/^Unknown option '--skd'\./);
    });

    it("refuses an option without its value", () => {
        const refused = run("conformance", ["--runtime"]);
        expect(refused.status).toBe(2);
        expect(refused.stderr).toMatch(/^--runtime needs a value\./);
    });
});
