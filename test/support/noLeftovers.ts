import { describe, expect, it } from "vitest";
import { leftovers } from "./e2eHarness.js";

/**
 * Declares the last tests of an e2e file: once the file's other tests and their clean-ups have
 * run (vitest runs a file's suites in order), no runtime process, connected client, mock model or
 * temporary directory that the file made is left. Portable: child processes are counted from
 * Node's own handles, not from /proc.
 */
export function describeNoLeftovers(): void {
    describe("after the suite", () => {
        it("leaves no runtime process, connected client, open port or temporary directory behind", async () => {
            expect(await leftovers()).toEqual({
                runtimeProcesses: [],
                connectedClients: [],
                openModels: [],
                directories: [],
            });
        });
    });
}
