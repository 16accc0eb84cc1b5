/**
 * npm test on a busy machine: the end-to-end timeouts grow with the measured runtime start, and a
 * runtime start that timed out is retried (at most twice, each retry logged), while every other
 * failure of a start fails at once.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
    MAX_START_RETRIES,
    retryStartOnTimeout,
    timeoutFromStart,
} from "../support/runtimeStart.js";

const work = mkdtempSync(join(tmpdir(), "runtime-start-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

/** A client whose start fails with the given errors, then succeeds. */
function failingClient(...errors: Error[]) {
    let calls = 0;
    return {
        get calls() {
            return calls;
        },
        start: async () => {
            const error = errors[calls++];
            if (error !== undefined) throw error;
        },
    };
}

const timedOut = () => new Error("Timeout waiting for CLI server to start");

describe("the runtime start of an end-to-end test", () => {
    it("is started again when it timed out, each retry logged", async () => {
        const log = join(work, "retries.log");
        process.env.COPILOT_E2E_START_RETRIES_LOG = log;
        try {
            const client = failingClient(timedOut(), timedOut());
            retryStartOnTimeout(client, "test/e2e/x.test.ts:1");
            await client.start();
            expect(client.calls).toBe(3);
            const lines = readFileSync(log, "utf8").trim().split("\n");
            expect(lines).toHaveLength(2);
            expect(lines[1]).toContain(
                "test/e2e/x.test.ts:1: runtime start retry 2 of 2 (Timeout waiting for CLI server to start)"
            );
        } finally {
            delete process.env.COPILOT_E2E_START_RETRIES_LOG;
        }
    });

    it("gives up after two retries with the runtime's error", async () => {
        const client = failingClient(...Array.from({ length: MAX_START_RETRIES + 1 }, timedOut));
        retryStartOnTimeout(client, "x");
        await expect(client.start()).rejects.toThrow("Timeout waiting for CLI server to start");
        expect(client.calls).toBe(MAX_START_RETRIES + 1);
    });

    it("is not retried for any other failure", async () => {
        const client = failingClient(new Error("CLI server exited with code 1"));
        retryStartOnTimeout(client, "x");
        await expect(client.start()).rejects.toThrow("CLI server exited with code 1");
        expect(client.calls).toBe(1);
    });
});

describe("the end-to-end timeouts", () => {
    it("are the old 60 s plus 20 measured starts", () => {
        expect(timeoutFromStart(100)).toBe(62_000);
        expect(timeoutFromStart(5_000)).toBe(160_000);
    });
});
