import { describe, expect, it } from "vitest";
import { leftovers } from "./e2eHarness.js";

/**
 * Declares the last test of an e2e file: once the file's other tests and their clean-ups have
 * run (vitest runs a file's tests in order), no runtime process, mock model or temporary
 * directory that the file made is left.
 */
export function describeNoLeftovers(): void {
    describe("after the suite", () => {
        it("leaves no runtime process, open port or temporary directory behind", async () => {
            expect(await leftovers()).toEqual({
                runtimeProcesses: [],
                openModels: [],
                directories: [],
            });
        });
    });
}
