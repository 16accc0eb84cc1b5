import { describe, expect, it } from "vitest";
import type { BuiltInToolCatalog } from "../../src/builtInToolCatalog.js";
import { resolveBuiltInToolOverrides } from "../../src/builtInToolOverrides.js";
import type { CustomToolSnapshot } from "../../src/customTools.js";
import { SessionToolError } from "../../src/sessionToolError.js";

const handler = async (): Promise<string> => "ok";

/** A small hand-written catalog: what a runtime has, and what it will not let be replaced. */
const catalog: BuiltInToolCatalog = {
    measured: {
        runtimeVersion: "9.9.9",
        sdkVersion: "9.9.9",
        builtIns: ["view", "bash", "read_file", "powershell", "tool_search_tool"],
        unsupportedOverrides: ["powershell"],
        keptOnlyWithToolSearch: ["tool_search_tool"],
        offeredByModel: { "*": ["view", "bash"] },
        offeredByCondition: {},
    },
    source: "measured",
    builtIns: new Set(["view", "bash", "read_file", "powershell", "tool_search_tool"]),
    unsupportedOverrides: new Set(["powershell"]),
    keptOnlyWithToolSearch: new Set(["tool_search_tool"]),
};

const tool = (name: string, extra: Partial<CustomToolSnapshot> = {}): CustomToolSnapshot => ({
    name,
    handler,
    ...extra,
});

function refusal(run: () => unknown): SessionToolError {
    try {
        run();
    } catch (error) {
        expect(error).toBeInstanceOf(SessionToolError);
        return error as SessionToolError;
    }
    throw new Error("expected a refusal");
}

describe("built-in tool overrides", () => {
    it("replaces a built-in without the flag under the override policy, reporting it as automatic", () => {
        const result = resolveBuiltInToolOverrides(
            [tool("view"), tool("lint")],
            catalog,
            "override"
        );
        expect(result.overridden).toEqual(["view"]);
        expect(result.automatic).toEqual(["view"]);
    });

    it("replaces a built-in the runtime hides (a silent shadow today) like a listed one", () => {
        const result = resolveBuiltInToolOverrides([tool("read_file")], catalog, "override");
        expect(result.overridden).toEqual(["read_file"]);
    });

    it("refuses a built-in's name without the flag under the error policy", () => {
        const error = refusal(() =>
            resolveBuiltInToolOverrides([tool("view"), tool("bash")], catalog, "error")
        );
        expect(error.code).toBe("BUILT_IN_TOOL_COLLISION");
        expect(error.toolNames).toEqual(["view", "bash"]);
        expect(error.message).toContain("Set overridesBuiltInTool: true on them");
    });

    it("accepts an explicit override under the error policy, silently", () => {
        const result = resolveBuiltInToolOverrides(
            [tool("view", { overridesBuiltInTool: true })],
            catalog,
            "error"
        );
        expect(result.overridden).toEqual(["view"]);
        expect(result.automatic).toEqual([]);
    });

    it("refuses overridesBuiltInTool: false on a built-in's name, since the built-in would answer", () => {
        const error = refusal(() =>
            resolveBuiltInToolOverrides(
                [tool("read_file", { overridesBuiltInTool: false })],
                catalog,
                "override"
            )
        );
        expect(error.code).toBe("BUILT_IN_TOOL_COLLISION");
        expect(error.message).toContain(
            "set overridesBuiltInTool: false, but the runtime has built-in tools"
        );
    });

    it("refuses a name whose override the runtime does not honour, flag or not", () => {
        for (const flag of [undefined, true]) {
            const error = refusal(() =>
                resolveBuiltInToolOverrides(
                    [tool("powershell", { overridesBuiltInTool: flag })],
                    catalog,
                    "override"
                )
            );
            expect(error.code).toBe("UNSUPPORTED_OVERRIDE");
            expect(error.message).toContain("'powershell'");
            expect(error.message).toContain("Rename these tools");
        }
    });

    it("lists the tool-search tool for the check that needs the session's tool count", () => {
        const result = resolveBuiltInToolOverrides(
            [tool("tool_search_tool", { overridesBuiltInTool: true })],
            catalog,
            "override"
        );
        expect(result.needToolSearch).toEqual(["tool_search_tool"]);
    });

    it("sends every accepted tool with overridesBuiltInTool: true unless the app set false", () => {
        const result = resolveBuiltInToolOverrides(
            [
                tool("view"),
                tool("lint"),
                tool("notes", { overridesBuiltInTool: false }),
                tool("fmt", { defer: "never" }),
            ],
            catalog,
            "override"
        );
        expect(result.tools.map((t) => [t.name, t.overridesBuiltInTool, t.defer])).toEqual([
            ["view", true, undefined],
            // Flagged only for safety: keeps the SDK's documented defer default explicit.
            ["lint", true, "auto"],
            ["notes", false, undefined],
            ["fmt", true, "never"],
        ]);
    });

    it("keeps a name that differs from a built-in only in case, and reports it", () => {
        const result = resolveBuiltInToolOverrides([tool("View")], catalog, "override");
        expect(result.overridden).toEqual([]);
        expect(result.caseOnlyMatches).toEqual([{ tool: "View", builtIn: "view" }]);
    });
});
