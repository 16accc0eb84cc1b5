import { defineConfig } from "vitest/config";

// By default the tests load this repository's own @github/copilot-sdk, which carries the thin patch
// (the patch form). npm run test:release -- <version> runs the end-to-end tests in the library
// form: it points "@github/copilot-sdk" at this package's library entry in a scratch app beside
// that release (scripts/patch/lib/libraryApp.mjs).
const sdkUnderTest = process.env.COPILOT_SDK_UNDER_TEST;

// End-to-end tests start the real runtime (a native process, ~100 MB); two workers on this
// 2-core machine keep them from starving each other.
export default defineConfig({
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
        testTimeout: 60_000,
        hookTimeout: 60_000,
    },
});
