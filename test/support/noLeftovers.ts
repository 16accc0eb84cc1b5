import { describe, expect, it } from "vitest";
import { leftovers } from "./e2eHarness.js";

/**
 * Declares the last tests of an e2e file: once the file's other tests and their clean-ups have
 * run (vitest runs a file's tests in order), no mock model or temporary directory that the file
 * made is left, and, on Linux, whose /proc lists child processes, no runtime process either.
 */
export function describeNoLeftovers(): void {
    describe("after the suite", () => {
        it("leaves no open port or temporary directory behind", async () => {
            const { openModels, directories } = await leftovers();
            expect({ openModels, directories }).toEqual({ openModels: [], directories: [] });
        });

        it.skipIf(process.platform !== "linux")(
            "leaves no runtime process behind (read from /proc, so Linux only)",
            async () => {
                expect((await leftovers()).runtimeProcesses).toEqual([]);
            }
        );
    });
}
