import { defineConfig } from "vitest/config";

// End-to-end tests start the real runtime (a native process, ~100 MB); two workers on this
// 2-core machine keep them from starving each other.
export default defineConfig({
    test: {
        include: ["test/**/*.test.ts"],
        pool: "forks",
        maxWorkers: 2,
        testTimeout: 60_000,
        hookTimeout: 60_000,
    },
});
