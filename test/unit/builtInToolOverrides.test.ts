import { describe, expect, it } from "vitest";
import type { BuiltInToolCatalog } from "../../src/toolCustomization/catalog/builtInToolCatalog.js";
import { resolveBuiltInToolOverrides } from "../../src/toolCustomization/construction/overrides.js";
import type { CustomToolSnapshot } from "../../src/toolCustomization/input/customTools.js";
import { SessionToolError } from "../../src/toolCustomization/api/sessionToolError.js";

// The override rule (docs/using.md, "Custom tools and built-ins"): which custom tools may replace the built-in of their name, and
// how every accepted tool goes on the wire. A small hand-written catalog keeps each case readable.
const handler = async (): Promise<string> => "ok";

const BUILT_INS = ["view", "bash", "read_file", "powershell", "tool_search_tool"];
const catalog: BuiltInToolCatalog = {
    measured: {
        runtimeVersion: "9.9.9",
        sdkVersion: "9.9.9",
        delivery: "bundled",
        builtIns: BUILT_INS,
        unsupportedOverrides: ["powershell"],
        keptOnlyWithToolSearch: ["tool_search_tool"],
        offeredByModel: { "*": ["view", "bash"] },
        offeredByCondition: {},
    },
    source: "measured",
    builtIns: new Set(BUILT_INS),
    unsupportedOverrides: new Set(["powershell"]),
    keptOnlyWithToolSearch: new Set(["tool_search_tool"]),
    offeredByModel: new Map([["*", ["view", "bash"]]]),
    excludedWith: new Map(),
    includedWith: new Map(),
    askAgain: false,
};

const tool = (name: string, extra: Partial<CustomToolSnapshot> = {}): CustomToolSnapshot =>
    Object.freeze({ name, handler, ...extra });

function refusal(run: () => unknown): SessionToolError {
    try {
        run();
    } catch (error) {
        expect(error).toBeInstanceOf(SessionToolError);
        return error as SessionToolError;
    }
    throw new Error("expected a refusal");
}

describe("built-in tool overrides: which names may replace a built-in", () => {
    it("replaces a built-in when the tool has no flag under the override policy, as automatic", () => {
        const result = resolveBuiltInToolOverrides(
            [tool("view"), tool("lint")],
            catalog,
            "override"
        );
        expect(result.overridden).toEqual(["view"]);
        expect(result.automatic).toEqual(["view"]);
        expect(result.caseOnlyMatches).toEqual([]);
    });

    it("replaces a built-in the runtime does not offer the model like any other", () => {
        const result = resolveBuiltInToolOverrides([tool("read_file")], catalog, "override");
        expect(result.overridden).toEqual(["read_file"]);
    });

    it("replaces a built-in silently when the tool sets overridesBuiltInTool: true", () => {
        for (const policy of ["override", "error"] as const) {
            const result = resolveBuiltInToolOverrides(
                [tool("view", { overridesBuiltInTool: true })],
                catalog,
                policy
            );
            expect(result.overridden).toEqual(["view"]);
            expect(result.automatic).toEqual([]);
        }
    });

    it("refuses a built-in's name without the flag under the error policy, naming every tool", () => {
        const error = refusal(() =>
            resolveBuiltInToolOverrides(
                [tool("view"), tool("lint"), tool("bash")],
                catalog,
                "error"
            )
        );
        expect(error.code).toBe("BUILT_IN_TOOL_COLLISION");
        expect(error.toolNames).toEqual(["view", "bash"]);
        expect(error.message).toBe(
            "Custom tools 'view', 'bash' have the names of built-in tools. Set overridesBuiltInTool: true on them to replace the built-ins, or rename them to keep both."
        );
    });

    it("refuses overridesBuiltInTool: false on a built-in's name under either policy", () => {
        for (const policy of ["override", "error"] as const) {
            const error = refusal(() =>
                resolveBuiltInToolOverrides(
                    [tool("read_file", { overridesBuiltInTool: false })],
                    catalog,
                    policy
                )
            );
            expect(error.code).toBe("BUILT_IN_TOOL_COLLISION");
            expect(error.toolNames).toEqual(["read_file"]);
            expect(error.message).toBe(
                "Custom tool 'read_file' sets overridesBuiltInTool: false, but the runtime has a built-in tool of that name, which would answer its calls. Rename it, or set overridesBuiltInTool: true to replace the built-in."
            );
        }
    });

    it("speaks of tools in the plural only when it names several", () => {
        const error = refusal(() =>
            resolveBuiltInToolOverrides(
                [
                    tool("view", { overridesBuiltInTool: false }),
                    tool("bash", { overridesBuiltInTool: false }),
                ],
                catalog,
                "override"
            )
        );
        expect(error.toolNames).toEqual(["view", "bash"]);
        expect(error.message).toBe(
            "Custom tools 'view', 'bash' set overridesBuiltInTool: false, but the runtime has built-in tools of these names, which would answer their calls. Rename them, or set overridesBuiltInTool: true to replace the built-ins."
        );
        const policy = refusal(() => resolveBuiltInToolOverrides([tool("bash")], catalog, "error"));
        expect(policy.message).toBe(
            "Custom tool 'bash' has the name of a built-in tool. Set overridesBuiltInTool: true on it to replace the built-in, or rename it to keep both."
        );
    });

    it("accepts overridesBuiltInTool: false on a name no built-in has", () => {
        const result = resolveBuiltInToolOverrides(
            [tool("notes", { overridesBuiltInTool: false })],
            catalog,
            "error"
        );
        expect(result.overridden).toEqual([]);
        expect(result.tools).toEqual([{ name: "notes", handler, overridesBuiltInTool: false }]);
    });

    it("refuses an unsupported override with UNSUPPORTED_OVERRIDE, flag or not, and says rename", () => {
        for (const flag of [undefined, true]) {
            const error = refusal(() =>
                resolveBuiltInToolOverrides(
                    [tool("powershell", { overridesBuiltInTool: flag })],
                    catalog,
                    "override"
                )
            );
            expect(error.code).toBe("UNSUPPORTED_OVERRIDE");
            expect(error.toolNames).toEqual(["powershell"]);
            expect(error.message).toBe(
                "The runtime (version 9.9.9) does not let a custom tool replace its built-in tool 'powershell': the built-in would still answer, or the custom tool would be dropped. Rename this tool."
            );
        }
    });

    it("refuses a name the runtime keeps only while tool search defers tools, whatever the flag", () => {
        for (const flag of [undefined, true]) {
            const error = refusal(() =>
                resolveBuiltInToolOverrides(
                    [tool("tool_search_tool", { overridesBuiltInTool: flag }), tool("view")],
                    catalog,
                    "override"
                )
            );
            expect(error.code).toBe("UNSUPPORTED_OVERRIDE");
            expect(error.toolNames).toEqual(["tool_search_tool"]);
            expect(error.message).toMatch(
                /^Custom tool 'tool_search_tool' replaces the runtime's tool-search tool, which the runtime keeps only while its tool search defers tools; .* Rename it; toolSearch: \{ enabled: true \} keeps the runtime's own tool search\.$/
            );
        }
    });

    it("names another built-in kept only with tool search as a built-in, not as the tool-search tool", () => {
        const error = refusal(() =>
            resolveBuiltInToolOverrides(
                [tool("session_store_sql")],
                {
                    ...catalog,
                    builtIns: new Set([...BUILT_INS, "session_store_sql"]),
                    keptOnlyWithToolSearch: new Set(["session_store_sql", "tool_search_tool"]),
                },
                "override"
            )
        );
        expect(error.code).toBe("UNSUPPORTED_OVERRIDE");
        expect(error.message).toMatch(
            /^Custom tool 'session_store_sql' replaces a built-in that the runtime may keep only while its tool search defers tools; /
        );
    });

    it("keeps a name that matches a built-in only when case is ignored, and reports the pair", () => {
        const result = resolveBuiltInToolOverrides([tool("View")], catalog, "error");
        expect(result.overridden).toEqual([]);
        expect(result.automatic).toEqual([]);
        expect(result.caseOnlyMatches).toEqual([{ tool: "View", builtIn: "view" }]);
    });
});

describe("built-in tool overrides: the tools sent", () => {
    it("sends every accepted tool with overridesBuiltInTool: true unless the app set false", () => {
        const result = resolveBuiltInToolOverrides(
            [
                tool("view"),
                tool("bash", { overridesBuiltInTool: true }),
                tool("lint"),
                tool("notes", { overridesBuiltInTool: false }),
                tool("fmt", { defer: "never" }),
                tool("View"),
            ],
            catalog,
            "override"
        );
        expect(result.tools).toEqual([
            { name: "view", handler, overridesBuiltInTool: true },
            { name: "bash", handler, overridesBuiltInTool: true },
            // Not a built-in: keeps the SDK's documented defer default explicit.
            { name: "lint", handler, overridesBuiltInTool: true, defer: "auto" },
            { name: "notes", handler, overridesBuiltInTool: false },
            { name: "fmt", handler, overridesBuiltInTool: true, defer: "never" },
            { name: "View", handler, overridesBuiltInTool: true, defer: "auto" },
        ]);
        expect(result.tools.every((sent) => Object.isFrozen(sent))).toBe(true);
    });

    it("leaves the snapshots it was given unchanged", () => {
        const given = [tool("view"), tool("lint")];
        resolveBuiltInToolOverrides(given, catalog, "override");
        expect(given).toEqual([
            { name: "view", handler },
            { name: "lint", handler },
        ]);
    });
});
