import { defineConfig } from "vitest/config";
import { measureRuntimeStart, timeoutFromStart } from "./test/support/runtimeStart.js";

// By default the tests load this repository's own @github/copilot-sdk, which carries the thin patch
// (the patch form). npm run test:release -- <version> runs the end-to-end tests in the library
// form: it points "@github/copilot-sdk" at this package's library entry in a scratch app beside
// that release (scripts/patch/lib/libraryApp.mjs).
const sdkUnderTest = process.env.COPILOT_SDK_UNDER_TEST;

// End-to-end tests start the real runtime (a native process, ~100 MB); two workers on this
// 2-core machine keep them from starving each other. Their timeouts come from one start of the
// runtime under test, measured here and now (test/support/runtimeStart.ts), so that a loaded
// machine or a slow release's runtime gets the time it needs instead of a fixed 60 s.
export default defineConfig(async () => {
    let timeout: number;
    try {
        const sdk = (await import(sdkUnderTest ?? "@github/copilot-sdk")) as Parameters<
            typeof measureRuntimeStart
        >[0];
        const startMs = await measureRuntimeStart(sdk);
        timeout = timeoutFromStart(startMs);
        console.log(
            `e2e timeouts: the runtime under test started in ${Math.round(startMs)} ms: test and hook timeout ${Math.round(timeout / 1000)} s`
        );
    } catch (error) {
        // The tests that need the runtime will fail with its own error; the others still run.
        timeout = timeoutFromStart(0);
        console.warn(
            `e2e timeouts: the runtime under test did not start (${error instanceof Error ? error.message.split("\n")[0] : String(error)}): test and hook timeout ${timeout / 1000} s`
        );
    }
    return {
        resolve: {
            alias:
                sdkUnderTest === undefined
                    ? []
                    : [
                          {
                              find: /^@github\/copilot-sdk$/,
                              replacement: sdkUnderTest,
                          },
                      ],
        },
        test: {
            include: ["test/**/*.test.ts"],
            pool: "forks",
            maxWorkers: 2,
            testTimeout: timeout,
            hookTimeout: timeout,
        },
    };
});
