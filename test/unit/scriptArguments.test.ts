/**
 * Every script behind an npm script checks its command line first: an unknown option (or a typo
 * of a known one) stops it with its usage and exit code 2 before it does any work, and --help
 * prints the usage.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const SCRIPTS = join(import.meta.dirname, "..", "..", "scripts");
const NAMES = [
    "build-patch",
    "check-patch",
    "conformance",
    "conformance-chat-open",
    "discover-reserved-tool-names",
    "repro",
    "repro-vscode",
    "build-upstream-series",
    "upstream-check",
    "measure-validate-tools",
];

function run(name: string, args: string[]) {
    return spawnSync(process.execPath, [join(SCRIPTS, `${name}.mjs`), ...args], {
        encoding: "utf8",
        timeout: 30_000,
    });
}

describe("script command lines", () => {
    for (const name of NAMES) {
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
        const refused = run("build-patch", ["--skd", "1.0.14"]);
        expect(refused.status).toBe(2);
        expect(refused.stderr).toMatch(/^Unknown option '--skd'\./);
    });

    it("refuses an option without its value", () => {
        const refused = run("conformance", ["--runtime"]);
        expect(refused.status).toBe(2);
        expect(refused.stderr).toMatch(/^--runtime needs a value\./);
    });
});
