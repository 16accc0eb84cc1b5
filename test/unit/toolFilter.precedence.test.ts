import { describe, expect, it } from "vitest";
import {
    resolveToolFilter,
    type ToolCatalog,
    type ToolFilterOptions,
} from "../../src/toolFilter.js";

// The precedence ladder documented on resolveToolFilter, including the cases the spec leaves
// open: a tool in two toolsets (one included, one excluded), and a directly included tool whose
// toolsets are all excluded.

// "shared" belongs to both toolsets; "a" only to setA, "b" only to setB; "loner" to none.
const catalog: ToolCatalog = {
    tools: [
        { id: "shared", toolReferenceName: "sharedRef" },
        { id: "a" },
        { id: "b" },
        { id: "loner" },
    ],
    toolSets: [
        { id: "toolset:a", referenceName: "setA", tools: ["shared", "a"] },
        { id: "toolset:b", referenceName: "setB", tools: ["shared", "b"] },
    ],
};

const silent = { onWarning: () => {} };

function enabled(options: ToolFilterOptions): readonly string[] {
    return resolveToolFilter(catalog, options, silent).enabledTools;
}

describe("precedence between tools and toolsets", () => {
    it("excludes a tool whose one toolset is included and another toolset is excluded", () => {
        expect(enabled({ includeTools: ["setA"], excludeTools: ["setB"] })).toEqual(["a"]);
    });

    it("ignores the order in which the two toolsets are listed", () => {
        expect(enabled({ includeTools: ["setB"], excludeTools: ["setA"] })).toEqual(["b"]);
        expect(enabled({ includeTools: ["setA", "setB"], excludeTools: ["setB"] })).toEqual(["a"]);
    });

    it("includes a directly named tool even when every toolset containing it is excluded", () => {
        expect(
            enabled({ includeTools: ["sharedRef", "loner"], excludeTools: ["setA", "setB"] })
        ).toEqual(["shared", "loner"]);
    });

    it("includes a directly named tool even when another toolset containing it is both included and excluded", () => {
        expect(
            enabled({ includeTools: ["shared", "setA"], excludeTools: ["setA", "setB"] })
        ).toEqual(["shared"]);
    });

    it("excludes a directly excluded tool even when it is also directly included", () => {
        expect(enabled({ includeTools: ["shared", "a"], excludeTools: ["sharedRef"] })).toEqual([
            "a",
        ]);
    });

    it("excludes a directly excluded tool even when its toolsets are included", () => {
        expect(enabled({ includeTools: ["setA", "setB"], excludeTools: ["shared"] })).toEqual([
            "a",
            "b",
        ]);
    });

    it("excludes every member of a toolset named in both options", () => {
        expect(enabled({ includeTools: ["setA", "loner"], excludeTools: ["toolset:a"] })).toEqual([
            "loner",
        ]);
    });

    it("removes a toolset's members in blacklist mode even when they belong to another toolset", () => {
        const result = resolveToolFilter(catalog, { excludeTools: ["setA"] }, silent);
        expect(result.enabledTools).toEqual(["b", "loner"]);
        expect(Object.fromEntries(result.toolSetEnablement)).toEqual({
            "toolset:a": false,
            "toolset:b": false,
        });
    });

    it("treats a toolset named by id and by referenceName like a toolset named once", () => {
        const result = resolveToolFilter(
            catalog,
            { includeTools: ["setA", "toolset:a"], excludeTools: ["a"] },
            silent
        );
        expect(result.enabledTools).toEqual(["shared"]);
        expect(result.warnings).toEqual([]);
    });

    it("treats a tool named by id and by toolReferenceName like a tool named once", () => {
        expect(enabled({ includeTools: ["shared", "sharedRef"] })).toEqual(["shared"]);
    });
});

describe("toolset enablement", () => {
    it("enables a toolset only when all its members are enabled", () => {
        const result = resolveToolFilter(catalog, { includeTools: ["setA", "b"] }, silent);
        expect(Object.fromEntries(result.toolSetEnablement)).toEqual({
            "toolset:a": true,
            "toolset:b": true,
        });
        const partial = resolveToolFilter(catalog, { includeTools: ["setA"] }, silent);
        expect(partial.toolSetEnablement.get("toolset:b")).toBe(false);
    });

    it("enables a toolset whose members were all enabled one by one", () => {
        const result = resolveToolFilter(catalog, { includeTools: ["shared", "b"] }, silent);
        expect(result.toolSetEnablement.get("toolset:b")).toBe(true);
        expect(result.toolSetEnablement.get("toolset:a")).toBe(false);
    });

    it("reports an empty toolset as disabled even when all tools are enabled", () => {
        const result = resolveToolFilter(
            {
                tools: [{ id: "a" }],
                toolSets: [{ id: "empty", referenceName: "nothing", tools: [] }],
            },
            {},
            silent
        );
        expect(result.toolSetEnablement.get("empty")).toBe(false);
        expect(result.enabledTools).toEqual(["a"]);
    });

    it("treats a toolset whose members are all missing from the catalog as empty", () => {
        const warnings: string[] = [];
        const result = resolveToolFilter(
            {
                tools: [{ id: "a" }],
                toolSets: [{ id: "ghosts", referenceName: "g", tools: ["x", "y"] }],
            },
            { includeTools: ["a", "g"] },
            { onWarning: (warning) => warnings.push(warning.code) }
        );
        expect(result.toolSetEnablement.get("ghosts")).toBe(false);
        expect(warnings).toEqual([
            "UNKNOWN_TOOLSET_MEMBER",
            "UNKNOWN_TOOLSET_MEMBER",
            "EMPTY_TOOLSET",
        ]);
    });

    it("warns that an empty toolset in includeTools enables nothing", () => {
        const result = resolveToolFilter(
            {
                tools: [{ id: "a" }],
                toolSets: [{ id: "empty", referenceName: "nothing", tools: [] }],
            },
            { includeTools: ["nothing", "a"] },
            silent
        );
        expect(result.warnings).toEqual([
            expect.objectContaining({
                code: "EMPTY_TOOLSET",
                option: "includeTools",
                identifier: "nothing",
                toolSetId: "empty",
            }),
        ]);
        expect(result.warnings[0]?.message).toMatch(/enables nothing/);
    });

    it("warns that an empty toolset in excludeTools excludes nothing", () => {
        const result = resolveToolFilter(
            {
                tools: [{ id: "a" }],
                toolSets: [{ id: "empty", referenceName: "nothing", tools: [] }],
            },
            { excludeTools: ["empty"] },
            silent
        );
        expect(result.enabledTools).toEqual(["a"]);
        expect(result.warnings[0]?.message).toMatch(/excludes nothing/);
    });

    it("throws NO_TOOLS_ENABLED when includeTools names only an empty toolset", () => {
        expect(() =>
            resolveToolFilter(
                {
                    tools: [{ id: "a" }],
                    toolSets: [{ id: "empty", referenceName: "nothing", tools: [] }],
                },
                { includeTools: ["nothing"] },
                silent
            )
        ).toThrow(expect.objectContaining({ code: "NO_TOOLS_ENABLED", option: "includeTools" }));
    });
});
