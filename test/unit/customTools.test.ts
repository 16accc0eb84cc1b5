import { describe, expect, it } from "vitest";
import { snapshotCustomTools } from "../../src/customTools.js";
import { SessionToolError } from "../../src/sessionToolError.js";

const handler = async (): Promise<string> => "ok";

function refusal(tools: unknown): SessionToolError {
    try {
        snapshotCustomTools(tools);
    } catch (error) {
        expect(error).toBeInstanceOf(SessionToolError);
        return error as SessionToolError;
    }
    throw new Error("expected the tools to be refused");
}

describe("custom tool snapshots", () => {
    it("accepts no tools at all", () => {
        expect(snapshotCustomTools(undefined)).toBeUndefined();
        expect(snapshotCustomTools(null)).toBeUndefined();
        expect(snapshotCustomTools([])).toEqual([]);
    });

    it("accepts a tool without a handler as a declaration", () => {
        const [tool] = snapshotCustomTools([
            { name: "lookup", description: "answered by the app" },
        ])!;
        expect(tool).toEqual({ name: "lookup", description: "answered by the app" });
    });

    it("reads every field once, so a getter cannot change the name after the check", () => {
        let reads = 0;
        const shifty = {
            get name() {
                reads++;
                return reads === 1 ? "safe_name" : "view";
            },
            handler,
        };
        const [tool] = snapshotCustomTools([shifty])!;
        expect(tool!.name).toBe("safe_name");
        expect(tool!.name).toBe("safe_name");
        expect(reads).toBe(1);
    });

    it("reads fields a class declares on its prototype", () => {
        class LintTool {
            get name(): string {
                return "lint";
            }
            handler = handler;
        }
        const [tool] = snapshotCustomTools([new LintTool()])!;
        expect(tool!.name).toBe("lint");
        expect(tool!.handler).toBe(handler);
    });

    it("returns frozen snapshots and leaves the caller's tools alone", () => {
        const original = Object.freeze({
            name: "lint",
            handler,
            metadata: Object.freeze({ a: 1 }),
        });
        const tools = Object.freeze([original]);
        const snapshots = snapshotCustomTools(tools)!;
        expect(Object.isFrozen(snapshots)).toBe(true);
        expect(Object.isFrozen(snapshots[0])).toBe(true);
        expect(snapshots[0]).not.toBe(original);
        expect(snapshots[0]!.metadata).toBe(original.metadata);
    });
});

describe("custom tool checks", () => {
    it("refuses tools that are not an array", () => {
        const error = refusal({ name: "lint" });
        expect(error.code).toBe("INVALID_CUSTOM_TOOL");
        expect(error.message).toMatch(/^Invalid tools \{"name":"lint"\}: pass an array of tools/);
    });

    it("refuses an empty slot of a sparse array with its position", () => {
        const tools = [{ name: "a", handler }];
        tools[2] = { name: "c", handler };
        const error = refusal(tools);
        expect(error.code).toBe("INVALID_CUSTOM_TOOL");
        expect(error.message).toContain("tools[1] is an empty slot of a sparse array");
    });

    it("refuses an entry that is not an object", () => {
        expect(refusal([null]).message).toContain("tools[0] is null, not a tool");
        expect(refusal(["view"]).message).toContain("tools[0] is 'view', not a tool");
    });

    it("refuses names models do not accept, quoting them", () => {
        for (const name of ["", "has space", "dots.not.allowed", "x".repeat(65), 42]) {
            const error = refusal([{ name, handler }]);
            expect(error.code).toBe("INVALID_CUSTOM_TOOL");
            expect(error.message).toMatch(
                /^Invalid tool name .* at tools\[0\]: use 1 to 64 letters/
            );
        }
    });

    it("accepts names of Object.prototype members like any other name", () => {
        const names = ["__proto__", "constructor", "toString"];
        const snapshots = snapshotCustomTools(names.map((name) => ({ name, handler })))!;
        expect(snapshots.map((tool) => tool.name)).toEqual(names);
    });

    it("refuses a handler that is not a function", () => {
        const error = refusal([{ name: "lint", handler: "run lint" }]);
        expect(error.message).toBe(
            "Custom tool 'lint' has handler 'run lint': pass a function, or leave handler out to answer its calls yourself."
        );
        expect(error.toolNames).toEqual(["lint"]);
    });

    it("refuses an overridesBuiltInTool that is not a boolean", () => {
        const error = refusal([{ name: "view", handler, overridesBuiltInTool: "true" }]);
        expect(error.code).toBe("INVALID_CUSTOM_TOOL");
        expect(error.message).toContain("overridesBuiltInTool 'true': use true or false");
    });

    it("refuses duplicate names, also when they differ only in case, naming all of them", () => {
        const error = refusal([
            { name: "lint", handler },
            { name: "Lint", handler },
            { name: "fmt", handler },
            { name: "fmt", handler },
        ]);
        expect(error.code).toBe("DUPLICATE_TOOL_NAME");
        expect(error.toolNames).toEqual(["lint", "Lint", "fmt", "fmt"]);
        expect(error.message).toContain("'lint', 'Lint'; 'fmt', 'fmt'");
    });
});
