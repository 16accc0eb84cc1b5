import { describe, expect, it } from "vitest";
import {
    resolveToolFilter,
    ToolFilterError,
    type ToolFilterCatalog,
    type ToolFilterOptions,
    type ToolFilterWarning,
} from "../../src/toolFilter.js";

// The rules of the workbench.action.chat.open tool-filtering specification, one test each, on a
// catalog shaped like VS Code's: tools with ids and reference names, toolsets with ids and
// reference names.
const catalog: ToolFilterCatalog = {
    tools: [
        { id: "vscode_editFile", toolReferenceName: "editFile" },
        { id: "vscode_deleteFile", toolReferenceName: "deleteFile" },
        { id: "vscode_readFile", toolReferenceName: "readFile" },
        { id: "vscode_search", toolReferenceName: "codebase" },
        { id: "vscode_fetch", toolReferenceName: "fetch" },
        { id: "vscode_githubRepo", toolReferenceName: "githubRepo" },
        { id: "vscode_runSubagent", toolReferenceName: "runSubagent" },
    ],
    toolSets: [
        {
            id: "toolset:GitHub.copilot-chat/edit",
            referenceName: "edit",
            tools: ["vscode_editFile", "vscode_deleteFile"],
        },
        { id: "toolset:read", referenceName: "read", tools: ["vscode_readFile"] },
        { id: "toolset:search", referenceName: "search", tools: ["vscode_search"] },
        { id: "toolset:web", referenceName: "web", tools: ["vscode_fetch", "vscode_githubRepo"] },
        { id: "toolset:agent", referenceName: "agent", tools: ["vscode_runSubagent"] },
    ],
};
const ALL = [
    "vscode_editFile",
    "vscode_deleteFile",
    "vscode_readFile",
    "vscode_search",
    "vscode_fetch",
    "vscode_githubRepo",
    "vscode_runSubagent",
];

function enabled(options: ToolFilterOptions, settings = {}): readonly string[] {
    return resolveToolFilter(catalog, options, { onWarning: () => {}, ...settings }).enabledTools;
}

describe("behaviour matrix", () => {
    it("enables every tool when neither option is given (default mode)", () => {
        const result = resolveToolFilter(catalog, {});
        expect(result.mode).toBe("default");
        expect(result.enabledTools).toEqual(ALL);
    });

    it("enables only the named tools and toolsets when include is given (whitelist mode)", () => {
        const result = resolveToolFilter(catalog, { include: ["edit", "readFile"] });
        expect(result.mode).toBe("whitelist");
        expect(result.enabledTools).toEqual([
            "vscode_editFile",
            "vscode_deleteFile",
            "vscode_readFile",
        ]);
    });

    it("enables everything but the named tools and toolsets when exclude is given (blacklist mode)", () => {
        const result = resolveToolFilter(catalog, { exclude: ["web", "deleteFile"] });
        expect(result.mode).toBe("blacklist");
        expect(result.enabledTools).toEqual([
            "vscode_editFile",
            "vscode_readFile",
            "vscode_search",
            "vscode_runSubagent",
        ]);
    });

    it("starts from include and removes exclude when both are given (combined mode)", () => {
        const result = resolveToolFilter(catalog, { include: ["edit"], exclude: ["deleteFile"] });
        expect(result.mode).toBe("combined");
        expect(result.enabledTools).toEqual(["vscode_editFile"]);
    });
});

describe("identifier resolution", () => {
    it("matches a toolset by its id", () => {
        expect(enabled({ include: ["toolset:GitHub.copilot-chat/edit"] })).toEqual([
            "vscode_editFile",
            "vscode_deleteFile",
        ]);
    });

    it("matches a toolset by its reference name", () => {
        expect(enabled({ include: ["web"] })).toEqual(["vscode_fetch", "vscode_githubRepo"]);
    });

    it("matches a tool by its id and by its reference name", () => {
        expect(enabled({ include: ["vscode_fetch", "codebase"] })).toEqual([
            "vscode_search",
            "vscode_fetch",
        ]);
    });

    it("prefers a toolset over a tool when one identifier names both", () => {
        const result = resolveToolFilter(
            {
                tools: [{ id: "a" }, { id: "b", toolReferenceName: "group" }],
                toolSets: [{ id: "set", referenceName: "group", tools: ["a"] }],
            },
            { include: ["group"] }
        );
        expect(result.enabledTools).toEqual(["a"]);
    });

    it("names a tool by source and every tool of a source, where tools carry sources", () => {
        const sourced: ToolFilterCatalog = {
            tools: [
                { id: "view", sources: ["builtin"] },
                { id: "bash", sources: ["builtin"] },
                { id: "lint", sources: ["custom"] },
            ],
        };
        expect(
            resolveToolFilter(sourced, { include: ["builtin:view", "custom:*"] }).enabledTools
        ).toEqual(["view", "lint"]);
        expect(resolveToolFilter(sourced, { exclude: ["builtin:*"] }).enabledTools).toEqual([
            "lint",
        ]);
    });

    it("names a toolset only by its id when reference names are turned off", () => {
        const warnings: ToolFilterWarning[] = [];
        const result = resolveToolFilter(
            catalog,
            { include: ["web", "toolset:read"] },
            { matchToolSetReferenceNames: false, onWarning: (w) => warnings.push(w) }
        );
        expect(result.enabledTools).toEqual(["vscode_readFile"]);
        expect(result.unknownIdentifiers).toEqual([
            { option: "includeTools", identifier: "web", suggestion: "toolset:web" },
        ]);
    });
});

describe("precedence", () => {
    it("excludes a tool that appears in both include and exclude", () => {
        expect(enabled({ include: ["readFile", "fetch"], exclude: ["fetch"] })).toEqual([
            "vscode_readFile",
        ]);
    });

    it("includes a toolset but removes a member excluded by name", () => {
        expect(enabled({ include: ["web"], exclude: ["githubRepo"] })).toEqual(["vscode_fetch"]);
    });

    it("keeps a tool included by name although its toolset is excluded", () => {
        expect(enabled({ include: ["editFile", "read"], exclude: ["edit"] })).toEqual([
            "vscode_editFile",
            "vscode_readFile",
        ]);
    });

    it("excludes a tool by name even when it is also included by name and through a toolset", () => {
        expect(enabled({ include: ["editFile", "edit"], exclude: ["vscode_editFile"] })).toEqual([
            "vscode_deleteFile",
        ]);
    });

    it("excludes a tool that is in an included and in an excluded toolset", () => {
        const overlapping: ToolFilterCatalog = {
            tools: [{ id: "a" }, { id: "b" }],
            toolSets: [
                { id: "one", referenceName: "one", tools: ["a", "b"] },
                { id: "two", referenceName: "two", tools: ["b"] },
            ],
        };
        expect(
            resolveToolFilter(overlapping, { include: ["one"], exclude: ["two"] }).enabledTools
        ).toEqual(["a"]);
    });
});

describe("toolset enablement", () => {
    it("enables a toolset when all its members are enabled, keyed by reference name", () => {
        const result = resolveToolFilter(catalog, { include: ["edit", "fetch"] });
        expect(Object.fromEntries(result.toolSetEnablement)).toEqual({
            edit: true,
            read: false,
            search: false,
            web: false,
            agent: false,
        });
    });

    it("never enables a toolset without members in the catalog", () => {
        const result = resolveToolFilter(
            { tools: [{ id: "a" }], toolSets: [{ id: "s", referenceName: "s", tools: ["gone"] }] },
            {}
        );
        expect(result.toolSetEnablement.get("s")).toBe(false);
    });
});

describe("edge cases", () => {
    it("throws for include: [] (at least one tool must be enabled)", () => {
        expect(() => resolveToolFilter(catalog, { include: [] })).toThrow(
            expect.objectContaining({ code: "EMPTY_INCLUDE", option: "includeTools" })
        );
    });

    it("treats exclude: [] like an omitted exclude", () => {
        const result = resolveToolFilter(catalog, { exclude: [] });
        expect(result.enabledTools).toEqual(ALL);
    });

    it("throws when filtering leaves no tool enabled", () => {
        expect(() => resolveToolFilter(catalog, { include: ["edit"], exclude: ["edit"] })).toThrow(
            ToolFilterError
        );
        expect(() =>
            resolveToolFilter(catalog, { include: ["nothing"] }, { onWarning() {} })
        ).toThrow(expect.objectContaining({ code: "NO_TOOLS_ENABLED" }));
    });

    it("warns about an unknown identifier without blocking", () => {
        const warnings: ToolFilterWarning[] = [];
        const result = resolveToolFilter(
            catalog,
            { include: ["edit", "nope"] },
            { onWarning: (w) => warnings.push(w) }
        );
        expect(result.enabledTools).toEqual(["vscode_editFile", "vscode_deleteFile"]);
        expect(warnings.map((w) => w.code)).toEqual(["UNKNOWN_IDENTIFIERS"]);
    });

    it("lets the caller allow include: [] and an empty result instead", () => {
        const warnings: ToolFilterWarning[] = [];
        const settings = {
            emptyInclude: "allow" as const,
            noToolsEnabled: "warn" as const,
            onWarning: (w: ToolFilterWarning) => warnings.push(w),
        };
        expect(resolveToolFilter(catalog, { include: [] }, settings).enabledTools).toEqual([]);
        expect(warnings).toEqual([]);
        expect(resolveToolFilter(catalog, { exclude: ALL }, settings).enabledTools).toEqual([]);
        expect(warnings.map((w) => w.code)).toEqual(["NO_TOOLS_ENABLED"]);
        expect(
            resolveToolFilter(catalog, { exclude: ALL }, { noToolsEnabled: "allow" }).warnings
        ).toEqual([]);
    });
});

describe("the specification's examples", () => {
    it("enables only the edit and search toolsets", () => {
        expect(enabled({ include: ["edit", "search"] })).toEqual([
            "vscode_editFile",
            "vscode_deleteFile",
            "vscode_search",
        ]);
    });

    it("enables all tools except the web toolset", () => {
        expect(enabled({ exclude: ["web"] })).toEqual([
            "vscode_editFile",
            "vscode_deleteFile",
            "vscode_readFile",
            "vscode_search",
            "vscode_runSubagent",
        ]);
    });

    it("enables the edit toolset without the dangerous deleteFile", () => {
        expect(enabled({ include: ["edit"], exclude: ["deleteFile"] })).toEqual([
            "vscode_editFile",
        ]);
    });

    it("adds web to agent and read, then removes fetch", () => {
        expect(enabled({ include: ["agent", "read", "web"], exclude: ["fetch"] })).toEqual([
            "vscode_readFile",
            "vscode_githubRepo",
            "vscode_runSubagent",
        ]);
    });
});
