// npm test: runs each stage named on the command line (a shell command, run as npm runs scripts,
// with node_modules/.bin on PATH), reports each (passed, failed with its exit code, its time), and
// exits 1 if any failed. A failing stage does not hide the ones after it: every stage runs, except
// that when the first stage (the build the others test) fails, nothing else can be trusted and the
// rest are reported as not run. The e2e retries of a runtime that did not start in time
// (test/support/runtimeStart.ts) are counted in a file and reported at the end.

import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// Like every script here (build/cli/cliArguments.js is not used: this script runs the build),
// it checks its command line first. A stage is a command, so it never starts with '-'.
const USAGE =
    "Usage: node scripts/test/run-stages.mjs '<command>' ['<command>' ...]: runs each, reports each, exits 1 if any failed.";
const stages = process.argv.slice(2);
if (stages.includes("--help") || stages.includes("-h")) {
    console.log(USAGE);
    process.exit(0);
}
const option = stages.find((stage) => stage.startsWith("-"));
if (option !== undefined || stages.length === 0) {
    console.error(
        `${option === undefined ? "No stage to run" : `Unknown option '${option}'`}.\n\n${USAGE}`
    );
    process.exit(2);
}
const scratch = mkdtempSync(join(tmpdir(), "npm-test-stages-"));
const retries = join(scratch, "runtime-start-retries.log");
/** @type {{ command: string, status: number | string | undefined, seconds: number }[]} */
const results = [];
for (const [index, command] of stages.entries()) {
    if (index > 0 && results[0]?.status !== 0) {
        results.push({ command, status: undefined, seconds: 0 });
        continue;
    }
    console.log(`\n=== stage ${index + 1}/${stages.length}: ${command}`);
    const started = performance.now();
    const result = spawnSync(command, {
        shell: true,
        stdio: "inherit",
        env: { ...process.env, COPILOT_E2E_START_RETRIES_LOG: retries },
    });
    results.push({
        command,
        status: result.status ?? (result.signal === null ? 1 : result.signal),
        seconds: Math.round((performance.now() - started) / 100) / 10,
    });
}
console.log("\n=== npm test: stages");
for (const { command, status, seconds } of results) {
    const mark = status === 0 ? "ok  " : status === undefined ? "skip" : "FAIL";
    const detail =
        status === undefined
            ? "not run: the first stage failed"
            : status === 0
              ? `${seconds} s`
              : `exit ${status}, ${seconds} s`;
    console.log(`${mark} ${command} (${detail})`);
}
const retried = existsSync(retries) ? readFileSync(retries, "utf8").trim().split("\n") : [];
console.log(
    retried.length === 0
        ? "runtime start retries: 0"
        : `runtime start retries: ${retried.length} (a runtime did not start in time and was started again):\n${retried.map((line) => `  ${line}`).join("\n")}`
);
rmSync(scratch, { recursive: true, force: true });
const failed = results.filter(({ status }) => status !== 0);
if (failed.length > 0) {
    console.log(`npm test: ${failed.length} of ${results.length} stages did not pass.`);
    process.exit(1);
}
console.log(`npm test: all ${results.length} stages passed.`);
