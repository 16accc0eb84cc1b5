import { defineConfig } from "vitest/config";

// npm run test:release -- <version> runs the end-to-end override and filter tests against another
// SDK release: it points "@github/copilot-sdk" at a patched install of that release.
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
                          replacement: `${sdkUnderTest}/dist/index.js`,
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
