import { describe, expect, it } from "vitest";
import { snapshotCustomTools } from "../../src/toolCustomization/input/customTools.js";
import { SessionToolError } from "../../src/toolCustomization/api/sessionToolError.js";

// The rule for custom tools (docs/using.md, "Custom tools and built-ins"): `tools` is read once into frozen snapshots and checked; what is
// checked is what is sent and registered. Expected values are written by hand from the rule.
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

function deepFreeze<T>(value: T): T {
    if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
        Object.freeze(value);
        for (const key of Reflect.ownKeys(value)) {
            deepFreeze((value as Record<PropertyKey, unknown>)[key]);
        }
    }
    return value;
}

describe("custom tool snapshots", () => {
    it("returns undefined when tools is not given, and no snapshots for an empty array", () => {
        expect(snapshotCustomTools(undefined)).toBeUndefined();
        expect(snapshotCustomTools(null)).toBeUndefined();
        expect(snapshotCustomTools([])).toEqual([]);
    });

    it("accepts a tool without a handler as a declaration the app answers itself", () => {
        const snapshots = snapshotCustomTools([
            { name: "lookup", description: "answered by the app" },
        ]);
        expect(snapshots).toEqual([{ name: "lookup", description: "answered by the app" }]);
        expect(snapshots![0]!.handler).toBeUndefined();
    });

    it("reads a getter-based name once, so the name checked is the name kept", () => {
        let reads = 0;
        const shifty = {
            get name(): string {
                reads++;
                return reads === 1 ? "safe_name" : "bad name!";
            },
            handler,
        };
        const [tool] = snapshotCustomTools([shifty])!;
        expect(tool!.name).toBe("safe_name");
        expect(tool!.name).toBe("safe_name");
        expect(reads).toBe(1);
    });

    it("reads each field the SDK uses once, even where it is a getter", () => {
        const reads = new Map<string, number>();
        const tool: Record<string, unknown> = {};
        const values: Record<string, unknown> = {
            name: "lint",
            description: "lints",
            parameters: { type: "object" },
            handler,
            overridesBuiltInTool: false,
            skipPermission: true,
            defer: "never",
            metadata: { owner: "qa" },
            isTerminal: false,
        };
        for (const [field, value] of Object.entries(values)) {
            Object.defineProperty(tool, field, {
                enumerable: true,
                get: () => {
                    reads.set(field, (reads.get(field) ?? 0) + 1);
                    return value;
                },
            });
        }
        const [snapshot] = snapshotCustomTools([tool])!;
        expect({ ...snapshot }).toEqual(values);
        expect(Object.fromEntries(reads)).toEqual({
            name: 1,
            description: 1,
            parameters: 1,
            handler: 1,
            overridesBuiltInTool: 1,
            skipPermission: 1,
            defer: 1,
            metadata: 1,
            isTerminal: 1,
        });
    });

    it("reads the fields a class declares on its prototype", () => {
        class LintTool {
            get name(): string {
                return "lint";
            }
            get description(): string {
                return "lints";
            }
            handler = handler;
        }
        const [tool] = snapshotCustomTools([new LintTool()])!;
        expect({ ...tool }).toEqual({ name: "lint", description: "lints", handler });
    });

    it("keeps the tool's other own enumerable properties", () => {
        const [tool] = snapshotCustomTools([{ name: "lint", handler, category: "quality" }])!;
        expect(tool).toEqual({ name: "lint", handler, category: "quality" });
    });

    it("returns frozen snapshots and leaves deep-frozen caller tools untouched", () => {
        const original = deepFreeze({
            name: "lint",
            handler,
            parameters: { type: "object", properties: { path: { type: "string" } } },
        });
        const tools = deepFreeze([original]);
        const snapshots = snapshotCustomTools(tools)!;
        expect(Object.isFrozen(snapshots)).toBe(true);
        expect(Object.isFrozen(snapshots[0])).toBe(true);
        expect(snapshots[0]).not.toBe(original);
        expect(tools).toEqual([
            {
                name: "lint",
                handler,
                parameters: { type: "object", properties: { path: { type: "string" } } },
            },
        ]);
    });

    it("accepts names of Object.prototype members like any other name", () => {
        const snapshots = snapshotCustomTools([
            { name: "__proto__", handler },
            { name: "constructor", handler },
            { name: "toString", handler },
        ])!;
        expect(snapshots.map((tool) => tool.name)).toEqual([
            "__proto__",
            "constructor",
            "toString",
        ]);
    });

    it("accepts names of 1 to 64 letters, digits, '_' and '-'", () => {
        const long = "a".repeat(64);
        const snapshots = snapshotCustomTools([
            { name: "x", handler },
            { name: "Lint_2-fix", handler },
            { name: long, handler },
        ])!;
        expect(snapshots.map((tool) => tool.name)).toEqual(["x", "Lint_2-fix", long]);
    });
});

describe("custom tool checks", () => {
    it("refuses tools that are not an array with INVALID_CUSTOM_TOOL", () => {
        const error = refusal({ name: "lint" });
        expect(error.code).toBe("INVALID_CUSTOM_TOOL");
        expect(error.message).toBe(
            `Invalid tools {"name":"lint"}: pass an array of tools, e.g. [defineTool("lint", { ... })].`
        );
        expect(refusal("lint").message).toMatch(/^Invalid tools 'lint': pass an array of tools/);
    });

    it("refuses an empty slot of a sparse array with a SessionToolError, not a TypeError", () => {
        const tools: unknown[] = [{ name: "a", handler }];
        tools[2] = { name: "c", handler };
        const error = refusal(tools);
        expect(error.code).toBe("INVALID_CUSTOM_TOOL");
        expect(error.message).toBe(
            "tools[1] is an empty slot of a sparse array: pass a tool at every position."
        );
    });

    it("refuses an entry that is not an object", () => {
        expect(refusal([null]).message).toBe(
            "tools[0] is null, not a tool: pass an object with a name (see defineTool)."
        );
        expect(refusal([{ name: "a", handler }, "view"]).message).toBe(
            "tools[1] is 'view', not a tool: pass an object with a name (see defineTool)."
        );
    });

    it("refuses names models do not accept, quoting them", () => {
        const cases: [unknown, string][] = [
            ["", "''"],
            ["has space", "'has space'"],
            ["dots.not.allowed", "'dots.not.allowed'"],
            ["a".repeat(65), `'${"a".repeat(65)}'`],
            [42, "42"],
            [undefined, "undefined"],
        ];
        for (const [name, quoted] of cases) {
            const error = refusal([{ name, handler }]);
            expect(error.code).toBe("INVALID_CUSTOM_TOOL");
            expect(error.message).toBe(
                `Invalid tool name ${quoted} at tools[0]: use 1 to 64 letters, digits, '_' or '-', as models require.`
            );
        }
    });

    it("refuses a handler that is not a function", () => {
        const error = refusal([{ name: "lint", handler: "run lint" }]);
        expect(error.code).toBe("INVALID_CUSTOM_TOOL");
        expect(error.message).toBe(
            "Custom tool 'lint' has handler 'run lint': pass a function, or leave handler out to answer its calls yourself."
        );
        expect(error.toolNames).toEqual(["lint"]);
    });

    it("refuses an overridesBuiltInTool that is not a boolean", () => {
        const error = refusal([{ name: "view", handler, overridesBuiltInTool: "true" }]);
        expect(error.code).toBe("INVALID_CUSTOM_TOOL");
        expect(error.message).toBe(
            "Custom tool 'view' has overridesBuiltInTool 'true': use true or false, or leave it out."
        );
    });

    it("refuses names that are equal when case is ignored with DUPLICATE_TOOL_NAME, naming all", () => {
        const error = refusal([
            { name: "lint", handler },
            { name: "Lint", handler },
            { name: "fmt", handler },
            { name: "fmt", handler },
            { name: "view", handler },
        ]);
        expect(error.code).toBe("DUPLICATE_TOOL_NAME");
        expect(error.toolNames).toEqual(["lint", "Lint", "fmt", "fmt"]);
        expect(error.message).toBe(
            "Custom tool names must be unique, also when case is ignored; these repeat: 'lint', 'Lint'; 'fmt', 'fmt'. Rename or remove all but one of each."
        );
    });
});

describe("a tool object passed to many sessions", () => {
    it("gives its earlier snapshot while it reads the same, frozen through, and a new one once it changes", () => {
        const tool: Record<string, unknown> = {
            name: "lint",
            description: "Lint a file",
            parameters: { type: "object", properties: { path: { type: "string" } } },
            handler,
        };
        const [first] = snapshotCustomTools([tool])!;
        const [again] = snapshotCustomTools([tool])!;
        expect(again).toBe(first);
        const parameters = first!.parameters as { properties: Record<string, unknown> };
        expect(Object.isFrozen(parameters)).toBe(true);
        expect(Object.isFrozen(parameters.properties.path)).toBe(true);
        expect(() => {
            parameters.properties.extra = { type: "number" };
        }).toThrow(TypeError);

        // The app's own schema changes: the next session reads the change.
        (tool.parameters as { properties: Record<string, unknown> }).properties.line = {
            type: "number",
        };
        const [changedSchema] = snapshotCustomTools([tool])!;
        expect(changedSchema).not.toBe(first);
        expect(changedSchema!.parameters).toEqual({
            type: "object",
            properties: { path: { type: "string" }, line: { type: "number" } },
        });

        const otherHandler = async (): Promise<string> => "other";
        tool.handler = otherHandler;
        const [changedHandler] = snapshotCustomTools([tool])!;
        expect(changedHandler).not.toBe(changedSchema);
        expect(changedHandler!.handler).toBe(otherHandler);

        tool.skipPermission = true;
        const [added] = snapshotCustomTools([tool])!;
        expect(added!.skipPermission).toBe(true);
        delete tool.skipPermission;
        tool.metadata = null;
        const [nullMetadata] = snapshotCustomTools([tool])!;
        expect(nullMetadata).not.toBe(added);
        expect(nullMetadata!.metadata).toBeNull();
        expect("skipPermission" in nullMetadata!).toBe(false);
    });

    it("reads a getter on every call: a changed answer gives a new snapshot", () => {
        const descriptions = ["first", "first", "second"];
        let reads = 0;
        const tool = {
            name: "lint",
            handler,
            get description() {
                return descriptions[reads++];
            },
        };
        const snapshots = descriptions.map(() => snapshotCustomTools([tool])![0]!);
        expect(reads).toBe(3);
        expect(snapshots.map((snapshot) => snapshot.description)).toEqual(descriptions);
        expect(snapshots[1]).toBe(snapshots[0]);
        expect(snapshots[2]).not.toBe(snapshots[1]);
    });
});
