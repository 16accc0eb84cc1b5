import { describe, expect, it } from "vitest";
import {
    resolveToolFilter,
    type ToolCatalog,
    type ToolFilterOptions,
    type ToolFilterResult,
    type ToolFilterWarning,
} from "../../src/toolFilter.js";
import { ToolFilterError } from "../../src/toolFilterError.js";

// One test per row of the spec's tables (identifier resolution, behaviour matrix, edge cases),
// per design decision and per example, against a catalog shaped like VS Code's built-in tools.

const EDIT = "toolset:GitHub.copilot-chat/edit";

const catalog: ToolCatalog = {
    tools: [
        { id: "vscode_editFile", toolReferenceName: "editFile" },
        { id: "vscode_createFile", toolReferenceName: "createFile" },
        { id: "vscode_deleteFile", toolReferenceName: "deleteFile" },
        { id: "vscode_fileSearch", toolReferenceName: "fileSearch" },
        { id: "vscode_textSearch", toolReferenceName: "textSearch" },
        { id: "vscode_fetch", toolReferenceName: "fetch" },
        { id: "vscode_githubRepo", toolReferenceName: "githubRepo" },
        { id: "vscode_readFile", toolReferenceName: "readFile" },
        { id: "vscode_listDir", toolReferenceName: "listDir" },
        { id: "vscode_runSubagent", toolReferenceName: "runSubagent" },
        { id: "vscode_todo", toolReferenceName: "todo" },
        { id: "vscode_runInTerminal", toolReferenceName: "runInTerminal" },
    ],
    toolSets: [
        {
            id: EDIT,
            referenceName: "edit",
            tools: ["vscode_editFile", "vscode_createFile", "vscode_deleteFile"],
        },
        {
            id: "toolset:search",
            referenceName: "search",
            tools: ["vscode_fileSearch", "vscode_textSearch"],
        },
        { id: "toolset:web", referenceName: "web", tools: ["vscode_fetch", "vscode_githubRepo"] },
        { id: "toolset:read", referenceName: "read", tools: ["vscode_readFile", "vscode_listDir"] },
        {
            id: "toolset:agent",
            referenceName: "agent",
            tools: ["vscode_runSubagent", "vscode_todo"],
        },
    ],
};

const allToolIds = catalog.tools.map((tool) => tool.id);

function resolve(options: ToolFilterOptions): ToolFilterResult & { reported: ToolFilterWarning[] } {
    const reported: ToolFilterWarning[] = [];
    const result = resolveToolFilter(catalog, options, {
        onWarning: (warning) => reported.push(warning),
    });
    return { ...result, reported };
}

function without(...ids: string[]): string[] {
    return allToolIds.filter((id) => !ids.includes(id));
}

describe("identifier resolution", () => {
    it("matches a toolset by its id and affects all its members", () => {
        const result = resolve({ includeTools: [EDIT] });
        expect(result.enabledTools).toEqual([
            "vscode_editFile",
            "vscode_createFile",
            "vscode_deleteFile",
        ]);
        expect(result.resolutions[0]?.resolution).toEqual({
            kind: "toolSet",
            matchedBy: "id",
            toolSetIds: [EDIT],
            toolIds: ["vscode_editFile", "vscode_createFile", "vscode_deleteFile"],
        });
    });

    it("matches a toolset by its referenceName and affects all its members", () => {
        const result = resolve({ includeTools: ["edit"] });
        expect(result.enabledTools).toEqual([
            "vscode_editFile",
            "vscode_createFile",
            "vscode_deleteFile",
        ]);
        expect(result.resolutions[0]?.resolution).toMatchObject({
            kind: "toolSet",
            matchedBy: "referenceName",
            toolSetIds: [EDIT],
        });
    });

    it("matches a tool by its id", () => {
        const result = resolve({ includeTools: ["vscode_editFile"] });
        expect(result.enabledTools).toEqual(["vscode_editFile"]);
        expect(result.resolutions[0]?.resolution).toEqual({
            kind: "tool",
            matchedBy: "id",
            toolIds: ["vscode_editFile"],
        });
    });

    it("matches a tool by its toolReferenceName", () => {
        const result = resolve({ includeTools: ["editFile"] });
        expect(result.enabledTools).toEqual(["vscode_editFile"]);
        expect(result.resolutions[0]?.resolution).toEqual({
            kind: "tool",
            matchedBy: "toolReferenceName",
            toolIds: ["vscode_editFile"],
        });
    });

    it("prefers a toolset referenceName over a tool id with the same name", () => {
        const result = resolveToolFilter(
            {
                tools: [{ id: "search" }, { id: "grep" }, { id: "glob" }],
                toolSets: [
                    { id: "toolset:search", referenceName: "search", tools: ["grep", "glob"] },
                ],
            },
            { includeTools: ["search"] }
        );
        expect(result.enabledTools).toEqual(["grep", "glob"]);
        expect(result.resolutions[0]?.resolution.kind).toBe("toolSet");
    });

    it("prefers a toolset id over another toolset's referenceName", () => {
        const result = resolveToolFilter(
            {
                tools: [{ id: "a" }, { id: "b" }],
                toolSets: [
                    { id: "x", referenceName: "setA", tools: ["a"] },
                    { id: "setB", referenceName: "x", tools: ["b"] },
                ],
            },
            { includeTools: ["x"] }
        );
        expect(result.enabledTools).toEqual(["a"]);
        expect(result.resolutions[0]?.resolution).toMatchObject({
            matchedBy: "id",
            toolSetIds: ["x"],
        });
    });

    it("prefers a tool id over another tool's toolReferenceName", () => {
        const result = resolveToolFilter(
            { tools: [{ id: "view" }, { id: "vscode_view", toolReferenceName: "view" }] },
            { includeTools: ["view"] }
        );
        expect(result.enabledTools).toEqual(["view"]);
    });

    it("matches identifiers exactly and case-sensitively", () => {
        const result = resolve({ includeTools: ["Edit", "editFile"] });
        expect(result.enabledTools).toEqual(["vscode_editFile"]);
        expect(result.unknownIdentifiers).toEqual([{ option: "includeTools", identifier: "Edit" }]);
    });
});

describe("behaviour matrix", () => {
    it("enables all tools when both options are omitted", () => {
        const result = resolve({});
        expect(result.mode).toBe("default");
        expect(result.enabledTools).toEqual(allToolIds);
        expect([...result.toolSetEnablement.values()].every(Boolean)).toBe(true);
    });

    it("enables only the listed tools and toolsets in whitelist mode", () => {
        const result = resolve({ includeTools: ["search", "runInTerminal"] });
        expect(result.mode).toBe("whitelist");
        expect(result.enabledTools).toEqual([
            "vscode_fileSearch",
            "vscode_textSearch",
            "vscode_runInTerminal",
        ]);
    });

    it("enables everything except the listed tools and toolsets in blacklist mode", () => {
        const result = resolve({ excludeTools: ["web", "runInTerminal"] });
        expect(result.mode).toBe("blacklist");
        expect(result.enabledTools).toEqual(
            without("vscode_fetch", "vscode_githubRepo", "vscode_runInTerminal")
        );
    });

    it("starts from includeTools and then removes excludeTools in combined mode", () => {
        const result = resolve({ includeTools: ["edit", "read"], excludeTools: ["listDir"] });
        expect(result.mode).toBe("combined");
        expect(result.enabledTools).toEqual([
            "vscode_editFile",
            "vscode_createFile",
            "vscode_deleteFile",
            "vscode_readFile",
        ]);
    });
});

describe("edge cases", () => {
    it("excludes a tool that appears in both includeTools and excludeTools", () => {
        const result = resolve({
            includeTools: ["editFile", "readFile"],
            excludeTools: ["editFile"],
        });
        expect(result.toolEnablement.get("vscode_editFile")).toBe(false);
        expect(result.enabledTools).toEqual(["vscode_readFile"]);
    });

    it("keeps the rest of an included toolset when one member is excluded", () => {
        const result = resolve({ includeTools: ["edit"], excludeTools: ["deleteFile"] });
        expect(result.enabledTools).toEqual(["vscode_editFile", "vscode_createFile"]);
        expect(result.toolSetEnablement.get(EDIT)).toBe(false);
    });

    it("includes a tool named in includeTools even when its toolset is excluded", () => {
        const result = resolve({ includeTools: ["editFile"], excludeTools: ["edit"] });
        expect(result.enabledTools).toEqual(["vscode_editFile"]);
        expect(result.toolEnablement.get("vscode_createFile")).toBe(false);
    });

    it("logs a warning for an unknown identifier and carries on", () => {
        const result = resolve({ includeTools: ["edit", "edti"] });
        expect(result.enabledTools).toHaveLength(3);
        expect(result.unknownIdentifiers).toEqual([{ option: "includeTools", identifier: "edti" }]);
        expect(result.reported).toEqual([
            expect.objectContaining({
                code: "UNKNOWN_IDENTIFIER",
                option: "includeTools",
                identifier: "edti",
            }),
        ]);
        expect(result.reported[0]?.message).toContain("'edti'");
    });

    it("throws EMPTY_INCLUDE_TOOLS for includeTools: []", () => {
        expect(() => resolve({ includeTools: [] })).toThrow(
            expect.objectContaining({
                name: "ToolFilterError",
                code: "EMPTY_INCLUDE_TOOLS",
                option: "includeTools",
            })
        );
        expect(() => resolve({ includeTools: [] })).toThrow(
            /includeTools '\[\]'.*Omit includeTools/
        );
    });

    it("treats excludeTools: [] like an omitted excludeTools", () => {
        expect(resolve({ excludeTools: [] })).toMatchObject({
            mode: "default",
            enabledTools: allToolIds,
        });
        expect(resolve({ includeTools: ["edit"], excludeTools: [] })).toMatchObject({
            mode: "whitelist",
            enabledTools: ["vscode_editFile", "vscode_createFile", "vscode_deleteFile"],
        });
    });

    it("throws NO_TOOLS_ENABLED when filtering leaves zero tools", () => {
        let caught: unknown;
        try {
            resolve({ includeTools: ["web"], excludeTools: ["fetch", "githubRepo"] });
        } catch (error) {
            caught = error;
        }
        expect(caught).toBeInstanceOf(ToolFilterError);
        expect(caught).toMatchObject({ code: "NO_TOOLS_ENABLED", option: "excludeTools" });
        expect((caught as Error).message).toMatch(/includeTools \['web'\]/);
        expect((caught as Error).message).toMatch(/remove entries from excludeTools/);
    });
});

describe("design decisions", () => {
    it("lets includeTools: ['editFile'] override excludeTools: ['edit'] (1)", () => {
        const result = resolve({ includeTools: ["editFile", "read"], excludeTools: ["edit"] });
        expect(result.toolEnablement.get("vscode_editFile")).toBe(true);
    });

    it("lets an explicit tool exclusion win over everything (1)", () => {
        const result = resolve({
            includeTools: ["vscode_editFile", "editFile", "edit", EDIT],
            excludeTools: ["editFile"],
        });
        expect(result.toolEnablement.get("vscode_editFile")).toBe(false);
        expect(result.enabledTools).toEqual(["vscode_createFile", "vscode_deleteFile"]);
    });

    it("warns about unknown identifiers instead of throwing (2)", () => {
        const result = resolve({ excludeTools: ["noSuchTool", "web"] });
        expect(result.unknownIdentifiers).toEqual([
            { option: "excludeTools", identifier: "noSuchTool" },
        ]);
        expect(result.enabledTools).toEqual(without("vscode_fetch", "vscode_githubRepo"));
    });

    it("throws when the filters leave zero enabled tools (3)", () => {
        expect(() =>
            resolve({ excludeTools: ["edit", "search", "web", "read", "agent", "runInTerminal"] })
        ).toThrow(expect.objectContaining({ code: "NO_TOOLS_ENABLED", option: "excludeTools" }));
        expect(() => resolve({ includeTools: ["nothing", "nada"] })).toThrow(
            expect.objectContaining({ code: "NO_TOOLS_ENABLED", option: "includeTools" })
        );
    });
});

describe("examples", () => {
    it("enables only the edit and search toolsets (whitelist only)", () => {
        const result = resolve({ includeTools: ["edit", "search"] });
        expect(result.enabledTools).toEqual([
            "vscode_editFile",
            "vscode_createFile",
            "vscode_deleteFile",
            "vscode_fileSearch",
            "vscode_textSearch",
        ]);
        expect(Object.fromEntries(result.toolSetEnablement)).toEqual({
            [EDIT]: true,
            "toolset:search": true,
            "toolset:web": false,
            "toolset:read": false,
            "toolset:agent": false,
        });
    });

    it("enables all tools except the web toolset (blacklist only)", () => {
        const result = resolve({ excludeTools: ["web"] });
        expect(result.enabledTools).toEqual(without("vscode_fetch", "vscode_githubRepo"));
        expect(result.toolSetEnablement.get("toolset:web")).toBe(false);
        expect(result.toolSetEnablement.get(EDIT)).toBe(true);
    });

    it("enables the edit toolset without deleteFile (combined mode)", () => {
        const result = resolve({ includeTools: ["edit"], excludeTools: ["deleteFile"] });
        expect(result.enabledTools).toEqual(["vscode_editFile", "vscode_createFile"]);
    });

    it("adds web to agent and read, then removes fetch (add to defaults then remove)", () => {
        const result = resolve({ includeTools: ["agent", "read", "web"], excludeTools: ["fetch"] });
        expect(result.enabledTools).toEqual([
            "vscode_githubRepo",
            "vscode_readFile",
            "vscode_listDir",
            "vscode_runSubagent",
            "vscode_todo",
        ]);
        expect(result.toolSetEnablement.get("toolset:web")).toBe(false);
        expect(result.toolSetEnablement.get("toolset:agent")).toBe(true);
        expect(result.reported).toEqual([]);
    });
});
