import { describe, expect, it } from "vitest";
import { resolveToolFilter, type ToolFilterCatalog } from "../../src/toolFilter/toolFilter.js";

// Precedence, strongest first: excluded by name > included by name > member of an excluded
// toolset > member of an included toolset; then the vocabulary beyond the specification's table:
// `<source>:<id>`, `<source>:*` groups, and toolsets named only by id.
const silent = { onWarning: () => {} };

describe("precedence", () => {
    const catalog: ToolFilterCatalog = {
        tools: [
            { id: "view", toolReferenceName: "readFile" },
            { id: "grep", toolReferenceName: "textSearch" },
            { id: "glob" },
            { id: "bash" },
        ],
        toolSets: [
            { id: "toolset:read", referenceName: "read", tools: ["view", "grep"] },
            { id: "toolset:search", referenceName: "search", tools: ["grep", "glob"] },
            { id: "toolset:execute", referenceName: "execute", tools: ["bash"] },
        ],
    };
    const enabled = (include: string[] | undefined, exclude: string[] | undefined) =>
        resolveToolFilter(catalog, { include, exclude }, silent).enabledTools;

    it("lets an exclusion by id win over an inclusion by toolReferenceName", () => {
        expect(enabled(["readFile", "bash"], ["view"])).toEqual(["bash"]);
    });

    it("lets an exclusion by toolReferenceName win over inclusion by id and through a toolset", () => {
        expect(enabled(["grep", "search"], ["textSearch"])).toEqual(["glob"]);
    });

    it("lets an inclusion by name win even when every toolset of the tool is excluded", () => {
        expect(enabled(["textSearch", "execute"], ["read", "search"])).toEqual(["grep", "bash"]);
    });

    it("lets membership of an excluded toolset win over membership of an included one", () => {
        expect(enabled(["read", "search"], ["search"])).toEqual(["view"]);
    });

    it("disables a tool in two toolsets when only one of them is excluded", () => {
        expect(enabled(undefined, ["read"])).toEqual(["glob", "bash"]);
    });

    it("enables a tool in two toolsets when only one of them is included", () => {
        expect(enabled(["search"], undefined)).toEqual(["grep", "glob"]);
    });

    it("does not depend on the order of the identifiers", () => {
        expect(enabled(["execute", "textSearch"], ["search", "read"])).toEqual(
            enabled(["textSearch", "execute"], ["read", "search"])
        );
    });
});

describe("source-qualified identifiers", () => {
    const catalog: ToolFilterCatalog = {
        tools: [
            { id: "view", sources: ["builtin"] },
            { id: "bash", sources: ["builtin"] },
            { id: "lint", sources: ["custom"] },
            { id: "deploy", sources: ["custom", "mcp"] },
        ],
        sources: ["builtin", "custom", "plugin"],
    };

    it("names one tool by <source>:<id>", () => {
        expect(resolveToolFilter(catalog, { include: ["builtin:bash"] }).enabledTools).toEqual([
            "bash",
        ]);
    });

    it("names a tool with several sources by each of them", () => {
        for (const identifier of ["custom:deploy", "mcp:deploy"]) {
            expect(resolveToolFilter(catalog, { exclude: [identifier] }).enabledTools).toEqual([
                "view",
                "bash",
                "lint",
            ]);
        }
    });

    it("does not name a tool by a source it does not have", () => {
        const result = resolveToolFilter(catalog, { exclude: ["custom:view"] }, silent);
        expect(result.enabledTools).toHaveLength(4);
        expect(result.unknownIdentifiers.map((entry) => entry.identifier)).toEqual(["custom:view"]);
    });

    it("names every tool of a source by <source>:* and records it as a group", () => {
        const result = resolveToolFilter(catalog, { include: ["custom:*"] });
        expect(result.enabledTools).toEqual(["lint", "deploy"]);
        expect(result.namedToolSets.include).toEqual(["custom:*"]);
    });

    it("ranks a <source>:* group like a toolset: a tool named explicitly beats its exclusion", () => {
        expect(
            resolveToolFilter(
                catalog,
                { include: ["builtin:view", "custom:*"], exclude: ["custom:*", "builtin:*"] },
                silent
            ).enabledTools
        ).toEqual(["view"]);
    });

    it("knows a catalog source without tools as an empty group, not as an unknown name", () => {
        const result = resolveToolFilter(catalog, { exclude: ["plugin:*"] }, silent);
        expect(result.enabledTools).toHaveLength(4);
        expect(result.unknownIdentifiers).toEqual([]);
        expect(result.namedToolSets.exclude).toEqual(["plugin:*"]);
    });
});

describe("toolsets named only by id", () => {
    const catalog: ToolFilterCatalog = {
        tools: [{ id: "view" }, { id: "web_fetch" }],
        toolSets: [
            { id: "toolset:read", referenceName: "read", tools: ["view"] },
            { id: "toolset:web", referenceName: "web", tools: ["web_fetch"] },
        ],
    };
    const byIdOnly = { matchToolSetReferenceNames: false, ...silent };

    it("treats a bare referenceName as unknown and suggests the toolset id", () => {
        const result = resolveToolFilter(catalog, { exclude: ["web"] }, byIdOnly);
        expect(result.enabledTools).toEqual(["view", "web_fetch"]);
        expect(result.unknownIdentifiers).toEqual([
            { option: "excludeTools", identifier: "web", suggestion: "toolset:web" },
        ]);
    });

    it("still matches the toolset id", () => {
        expect(
            resolveToolFilter(catalog, { include: ["toolset:web"] }, byIdOnly).enabledTools
        ).toEqual(["web_fetch"]);
    });

    it("lists toolsets by id in the unknown-identifier warning", () => {
        const result = resolveToolFilter(catalog, { exclude: ["nothing"] }, byIdOnly);
        expect(result.warnings[0]!.message).toContain("Toolsets: 'toolset:read', 'toolset:web'.");
    });

    it("keeps keying toolset enablement by referenceName", () => {
        const result = resolveToolFilter(catalog, { exclude: ["toolset:web"] }, byIdOnly);
        expect(Object.fromEntries(result.toolSetEnablement)).toEqual({ read: true, web: false });
    });
});

describe("toolset members and shared names", () => {
    it("resolves members given by toolReferenceName and ignores names of no known tool", () => {
        const result = resolveToolFilter(
            {
                tools: [{ id: "copilot_readFile", toolReferenceName: "readFile" }, { id: "other" }],
                toolSets: [{ id: "read", referenceName: "read", tools: ["readFile", "viewImage"] }],
            },
            { include: ["read"] }
        );
        expect(result.enabledTools).toEqual(["copilot_readFile"]);
        expect(result.toolSetEnablement.get("read")).toBe(true);
    });

    it("names every tool that shares a toolReferenceName", () => {
        const result = resolveToolFilter(
            {
                tools: [
                    { id: "mcp_a_search", toolReferenceName: "search" },
                    { id: "mcp_b_search", toolReferenceName: "search" },
                    { id: "view" },
                ],
            },
            { exclude: ["search"] }
        );
        expect(result.enabledTools).toEqual(["view"]);
    });
});
