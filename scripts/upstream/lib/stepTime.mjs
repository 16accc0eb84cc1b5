// Time limits of `npm run upstream:check`: how a command is bounded by the run's --time-limit, and
// how its result tells that it ran out of time. A step whose command ran out of time is reported
// as "timed out", never as a test that "did not run" or failed on its own.

/** The exit codes of coreutils `timeout`: the command got SIGTERM (124), or SIGKILL after it (137). */
const TIMEOUT_EXIT_CODES = new Set([124, 137]);
/** Seconds `timeout` waits after SIGTERM before it sends SIGKILL. */
const KILL_AFTER_SECONDS = 10;

/**
 * The command line that runs `command` within what is left of the run's time: wrapped in coreutils
 * `timeout`, which signals the command's whole process group (a test binary that `go test` or
 * `mvn` started stops with it). Without a deadline, the command as it is.
 *
 * @param {string} command
 * @param {string[]} args
 * @param {number | undefined} deadline epoch milliseconds, or undefined for no limit
 * @param {number} now epoch milliseconds
 * @returns {{ command: string, args: string[], seconds: number | undefined }}
 */
export function boundedCommand(command, args, deadline, now) {
    if (deadline === undefined) return { command, args, seconds: undefined };
    const seconds = Math.max(1, Math.ceil((deadline - now) / 1000));
    return {
        command: "timeout",
        args: ["-k", `${KILL_AFTER_SECONDS}`, `${seconds}`, command, ...args],
        seconds,
    };
}

/**
 * Why a finished command ran out of time, or undefined when it did not: the run's limit
 * (`timeout`'s exit code, when the command was bounded), a signal from outside (an outer limit
 * that stopped the whole process group), or a test runner's own limit reported in its output.
 *
 * @param {{ status: number | null, signal: string | null, output: string }} result
 * @param {number | undefined} seconds the bound the command ran under, if any
 * @returns {string | undefined}
 */
export function timeoutOf(result, seconds) {
    if (seconds !== undefined && result.status !== null && TIMEOUT_EXIT_CODES.has(result.status)) {
        return `timed out: the run's --time-limit ended it after ${seconds} s`;
    }
    if (result.signal === "SIGTERM" || result.signal === "SIGKILL" || result.signal === "SIGINT") {
        return `timed out or interrupted: ended by ${result.signal} from outside the run (an outer time limit?)`;
    }
    const own = /panic: test timed out after (\S+)/.exec(result.output);
    if (own) return `timed out: go test's own -timeout (${own[1]})`;
    return undefined;
}
