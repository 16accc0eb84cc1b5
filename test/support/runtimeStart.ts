/**
 * The end-to-end tests on a busy machine: their timeouts come from how long the runtime under test
 * takes to start here and now, and a runtime that does not start within the SDK's own limit (its
 * "Timeout waiting for CLI server to start", 30 s, fixed in the SDK) is started again, at most
 * twice, each retry recorded. Nothing else is retried: a test that fails for any other reason
 * fails.
 */
import { appendFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The SDK's message when its runtime did not answer in time (the SDK gives it no code). */
const START_TIMEOUT = "Timeout waiting for CLI server to start";
/** Starts after the first, for a runtime that did not start in time. */
export const MAX_START_RETRIES = 2;

/** The old fixed budget of a test, which the measured start-up extends. */
const BASE_TIMEOUT_MS = 60_000;
/**
 * How many runtime starts of headroom a test gets beyond the base: an end-to-end test starts one
 * or two runtimes and makes a handful of requests, each of which slows down with the machine as a
 * start does.
 */
const STARTS_OF_HEADROOM = 20;

/**
 * A test's timeout from a measured runtime start: the old 60 s plus {@link STARTS_OF_HEADROOM}
 * starts. About 62 s on an idle 2-core machine; longer when the runtime starts slowly (a loaded
 * machine, a release whose runtime runs on Node).
 *
 * @param startMs - how long one start (and a first request) took
 */
export function timeoutFromStart(startMs: number): number {
    return Math.round(BASE_TIMEOUT_MS + STARTS_OF_HEADROOM * startMs);
}

/** The part of a client the retry needs. */
interface StartableClient {
    start(): Promise<void>;
}

/**
 * Makes `client.start` (which `createSession` calls) start the runtime again when it did not
 * start in time, at most {@link MAX_START_RETRIES} times; each retry is appended to the file
 * COPILOT_E2E_START_RETRIES_LOG names (npm test reports them), and printed.
 *
 * @param client - a patched or unpatched `CopilotClient`
 * @param label - what the log line names (the test file)
 */
export function retryStartOnTimeout(client: StartableClient, label: string): void {
    const start = client.start.bind(client);
    client.start = async () => {
        for (let attempt = 0; ; attempt++) {
            try {
                return await start();
            } catch (error) {
                const timedOut = error instanceof Error && error.message === START_TIMEOUT;
                if (!timedOut || attempt >= MAX_START_RETRIES) throw error;
                const line = `${new Date().toISOString()} ${label}: runtime start retry ${attempt + 1} of ${MAX_START_RETRIES} (${START_TIMEOUT})`;
                console.warn(line);
                const log = process.env.COPILOT_E2E_START_RETRIES_LOG;
                if (log !== undefined) appendFileSync(log, `${line}\n`);
            }
        }
    };
}

/**
 * Measures one start of the runtime of `sdk` (and its first answer, `tools.list`), on a fresh
 * base directory.
 *
 * @param sdk - the SDK module under test
 * @returns milliseconds
 */
export async function measureRuntimeStart(sdk: {
    CopilotClient: new (options: { baseDirectory: string }) => {
        start(): Promise<void>;
        stop(): Promise<unknown>;
        rpc: { tools: { list(params: object): Promise<unknown> } };
    };
}): Promise<number> {
    const base = mkdtempSync(join(tmpdir(), "runtime-start-"));
    const client = new sdk.CopilotClient({ baseDirectory: base });
    try {
        const started = performance.now();
        await client.start();
        await client.rpc.tools.list({});
        return performance.now() - started;
    } finally {
        await client.stop();
        rmSync(base, { recursive: true, force: true });
    }
}
