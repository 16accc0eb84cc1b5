/**
 * `npm run upstream:check --time-limit`: a command is bounded by what is left of the run's time,
 * and a command that ran out of time is reported as timed out, not as a test that did not run.
 */
import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
type Result = { status: number | null; signal: string | null; output: string };
const { boundedCommand, timeoutOf } = (await import(
    pathToFileURL(join(ROOT, "scripts", "upstream", "lib", "stepTime.mjs")).href
)) as {
    boundedCommand(
        command: string,
        args: string[],
        deadline: number | undefined,
        now: number
    ): { command: string; args: string[]; seconds: number | undefined };
    timeoutOf(result: Result, seconds: number | undefined): string | undefined;
};

describe("upstream:check time limits", () => {
    it("runs a command as it is when the run has no time limit", () => {
        expect(boundedCommand("go", ["test", "./..."], undefined, 0)).toEqual({
            command: "go",
            args: ["test", "./..."],
            seconds: undefined,
        });
    });

    it("bounds a command by the time left, rounded up to a whole second", () => {
        expect(boundedCommand("go", ["test"], 90_500, 0)).toEqual({
            command: "timeout",
            args: ["-k", "10", "91", "go", "test"],
            seconds: 91,
        });
    });

    it("reports a command that the run's limit stopped as timed out", () => {
        const bounded = boundedCommand("sleep", ["5"], Date.now() + 1000, Date.now());
        const result = spawnSync(bounded.command, bounded.args, { encoding: "utf8" });
        const why = timeoutOf(
            { status: result.status, signal: result.signal, output: "" },
            bounded.seconds
        );
        expect(why).toMatch(/^timed out: the run's --time-limit ended it after 1 s$/);
    });

    it("reports a command ended by a signal from outside as timed out or interrupted", () => {
        expect(timeoutOf({ status: null, signal: "SIGTERM", output: "" }, undefined)).toMatch(
            /^timed out or interrupted: ended by SIGTERM/
        );
    });

    it("reports go test's own timeout as timed out", () => {
        const output = "panic: test timed out after 10m0s\n\trunning tests:\n";
        expect(timeoutOf({ status: 1, signal: null, output }, undefined)).toBe(
            "timed out: go test's own -timeout (10m0s)"
        );
    });

    it("does not call a failing or passing command timed out", () => {
        expect(timeoutOf({ status: 1, signal: null, output: "FAIL" }, 60)).toBeUndefined();
        expect(timeoutOf({ status: 0, signal: null, output: "ok" }, 60)).toBeUndefined();
        expect(timeoutOf({ status: 124, signal: null, output: "" }, undefined)).toBeUndefined();
    });
});
