/**
 * The packed package is self-contained: every relative import of a script or compiled module it
 * ships names a file it also ships. A script left out of `files` in package.json passes every test
 * run from the repository and crashes with ERR_MODULE_NOT_FOUND in an app (as `conformance` did
 * when `scripts/patch/lib/thinPatch.mjs` was missing). And the README's links lead somewhere in an
 * installed copy (node_modules/copilot-sdk-tool-override/README.md).
 */
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** The paths `npm pack` would put in the tarball. */
function packedPaths(): Set<string> {
    const result = spawnSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
        cwd: ROOT,
        encoding: "utf8",
        env: { ...process.env, npm_config_loglevel: "error" },
    });
    expect(result.status, result.stderr).toBe(0);
    const json = result.stdout.slice(result.stdout.indexOf("["));
    const [pack] = JSON.parse(json) as [{ files: { path: string }[] }];
    return new Set(pack.files.map((file) => file.path));
}

/**
 * Relative module specifiers of the module's own imports in `source`: static imports and
 * re-exports at the start of a line (`import ... from "./x.js"`, `} from "./x.js"`), and
 * `await import("./x.js")` / `require("./x.js")`. Type-only imports are erased, and text that
 * merely contains an import (code a script generates, in a template string) is not one.
 */
function relativeImports(source: string): string[] {
    const patterns = [
        /^(?:import(?!\s+type\b)[^;]*?\bfrom|export\s[^;]*?\bfrom|\}\s*from|import)\s*(["'])(\.\.?\/[^"'$]+)\1/gm,
        /(?:\bawait\s+import\(|(?<![`"'])\brequire\()\s*(["'])(\.\.?\/[^"'$]+)\1/g,
    ];
    return patterns.flatMap((pattern) => [...source.matchAll(pattern)].map((match) => match[2]!));
}

describe("the packed package", () => {
    it("ships every file that its scripts and modules import relatively", () => {
        const packed = packedPaths();
        const missing: string[] = [];
        for (const path of packed) {
            if (!/\.(mjs|cjs|js)$/.test(path)) continue;
            const source = readFileSync(join(ROOT, path), "utf8");
            for (const specifier of relativeImports(source)) {
                const target = normalize(join(dirname(path), specifier));
                // Modules the thin patch appends to the SDK's own files resolve there, not here.
                if (path.startsWith("build/cli/thinPatch") && specifier === "./toolSet.js")
                    continue;
                if (!packed.has(target)) missing.push(`${path} imports ${specifier}`);
            }
        }
        expect(missing).toEqual([]);
    }, 60_000);

    it("ships every file the README links to, so that its links work in an installed copy", () => {
        const packed = packedPaths();
        const readme = readFileSync(join(ROOT, "README.md"), "utf8");
        const targets = [...readme.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)]
            .map((match) => match[1]!)
            .filter((target) => !/^[a-z]+:/.test(target));
        expect(targets.length).toBeGreaterThan(10);
        expect(targets.filter((target) => !packed.has(normalize(target)))).toEqual([]);
    }, 60_000);
});
