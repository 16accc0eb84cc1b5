import { describe, expect, it } from "vitest";
import {
    resolveToolFilter,
    ToolFilterError,
    type ResolveToolFilterSettings,
    type ToolFilterCatalog,
    type ToolFilterOptions,
    type ToolFilterResult,
    type ToolFilterWarning,
} from "../../src/toolFilter/toolFilter.js";

// The rules of the workbench.action.chat.open tool-filtering proposal (the rules docs/chat-open.md and toolFilter.ts state), one test
// each, on a catalog shaped like VS Code's: Copilot Chat's toolsets (ids
// "toolset:GitHub.copilot-chat/<name>") beside core ones (id = reference name). Expected values are
// written by hand from the rule.
const catalog: ToolFilterCatalog = {
    tools: [
        { id: "vscode_editFile", toolReferenceName: "editFile" },
        { id: "vscode_deleteFile", toolReferenceName: "deleteFile" },
        { id: "copilot_readFile", toolReferenceName: "readFile" },
        { id: "copilot_searchCodebase", toolReferenceName: "codebase" },
        { id: "copilot_findFiles", toolReferenceName: "fileSearch" },
        { id: "copilot_fetchWebPage", toolReferenceName: "fetch" },
        { id: "copilot_githubRepo", toolReferenceName: "githubRepo" },
        { id: "runSubagent", toolReferenceName: "runSubagent" },
        { id: "run_in_terminal", toolReferenceName: "runInTerminal" },
    ],
    toolSets: [
        {
            id: "toolset:GitHub.copilot-chat/edit",
            referenceName: "edit",
            tools: ["editFile", "deleteFile"],
        },
        { id: "read", referenceName: "read", tools: ["readFile"] },
        {
            id: "toolset:GitHub.copilot-chat/search",
            referenceName: "search",
            tools: ["codebase", "fileSearch"],
        },
        {
            id: "toolset:GitHub.copilot-chat/web",
            referenceName: "web",
            tools: ["fetch", "githubRepo"],
        },
        { id: "agent", referenceName: "agent", tools: ["runSubagent"] },
        { id: "execute", referenceName: "execute", tools: ["runInTerminal"] },
    ],
};
const ALL = [
    "vscode_editFile",
    "vscode_deleteFile",
    "copilot_readFile",
    "copilot_searchCodebase",
    "copilot_findFiles",
    "copilot_fetchWebPage",
    "copilot_githubRepo",
    "runSubagent",
    "run_in_terminal",
] as const;

function resolve(options: ToolFilterOptions, settings: ResolveToolFilterSettings = {}) {
    const warnings: ToolFilterWarning[] = [];
    const result = resolveToolFilter(catalog, options, {
        onWarning: (warning) => warnings.push(warning),
        ...settings,
    });
    return { result, warnings };
}

function enabled(options: ToolFilterOptions): readonly string[] {
    return resolve(options).result.enabledTools;
}

function toolSets(result: ToolFilterResult): Record<string, boolean> {
    return Object.fromEntries(result.toolSetEnablement);
}

describe("identifier resolution", () => {
    it("matches a toolset by its id and affects all its members", () => {
        expect(enabled({ include: ["toolset:GitHub.copilot-chat/search"] })).toEqual([
            "copilot_searchCodebase",
            "copilot_findFiles",
        ]);
    });

    it("matches a toolset by its referenceName", () => {
        expect(enabled({ exclude: ["search"] })).toEqual(
            ALL.filter((id) => id !== "copilot_searchCodebase" && id !== "copilot_findFiles")
        );
    });

    it("matches a tool by its id", () => {
        expect(enabled({ include: ["copilot_githubRepo"] })).toEqual(["copilot_githubRepo"]);
    });

    it("matches a tool by its toolReferenceName", () => {
        expect(enabled({ include: ["runInTerminal"] })).toEqual(["run_in_terminal"]);
    });

    it("tries a toolset before a tool when one identifier could name both", () => {
        const shadowed: ToolFilterCatalog = {
            tools: [{ id: "todo_list", toolReferenceName: "todo" }, { id: "todo_write" }],
            toolSets: [{ id: "todo", referenceName: "todo", tools: ["todo_write"] }],
        };
        expect(resolveToolFilter(shadowed, { include: ["todo"] }).enabledTools).toEqual([
            "todo_write",
        ]);
    });

    it("tries a toolset id before another toolset's referenceName", () => {
        const crossed: ToolFilterCatalog = {
            tools: [{ id: "a" }, { id: "b" }],
            toolSets: [
                { id: "toolset:x", referenceName: "y", tools: ["a"] },
                { id: "y", referenceName: "z", tools: ["b"] },
            ],
        };
        expect(resolveToolFilter(crossed, { include: ["y"] }).enabledTools).toEqual(["b"]);
    });

    it("tries a tool id before another tool's toolReferenceName", () => {
        const ambiguous: ToolFilterCatalog = {
            tools: [{ id: "a", toolReferenceName: "b" }, { id: "b" }],
        };
        expect(resolveToolFilter(ambiguous, { include: ["b"] }).enabledTools).toEqual(["b"]);
    });
});

describe("behaviour matrix", () => {
    it("enables every tool when includeTools and excludeTools are omitted (default)", () => {
        const { result } = resolve({});
        expect(result.mode).toBe("default");
        expect(result.enabledTools).toEqual(ALL);
    });

    it("enables only the named tools and toolsets when only includeTools is given (include mode)", () => {
        const { result } = resolve({ include: ["web", "readFile"] });
        expect(result.mode).toBe("include");
        expect(result.enabledTools).toEqual([
            "copilot_readFile",
            "copilot_fetchWebPage",
            "copilot_githubRepo",
        ]);
    });

    it("enables all tools but the named ones when only excludeTools is given (exclude mode)", () => {
        const { result } = resolve({ exclude: ["agent", "runInTerminal"] });
        expect(result.mode).toBe("exclude");
        expect(result.enabledTools).toEqual(ALL.slice(0, 7));
    });

    it("starts with includeTools and removes excludeTools when both are given (combined)", () => {
        const { result } = resolve({ include: ["search", "read"], exclude: ["fileSearch"] });
        expect(result.mode).toBe("combined");
        expect(result.enabledTools).toEqual(["copilot_readFile", "copilot_searchCodebase"]);
    });
});

describe("resolution algorithm", () => {
    it("expands each toolset identifier to its member tools (step 1)", () => {
        const { result } = resolve({ include: ["edit", "toolset:GitHub.copilot-chat/web"] });
        expect(result.namedToolSets.include).toEqual([
            "toolset:GitHub.copilot-chat/edit",
            "toolset:GitHub.copilot-chat/web",
        ]);
        expect(result.enabledTools).toEqual([
            "vscode_editFile",
            "vscode_deleteFile",
            "copilot_fetchWebPage",
            "copilot_githubRepo",
        ]);
    });

    it("starts from an empty set with includeTools and from all tools without it (step 2)", () => {
        const included = resolve({ include: ["fetch"] }).result.toolEnablement;
        const excluded = resolve({ exclude: ["fetch"] }).result.toolEnablement;
        for (const id of ALL) {
            expect(included.get(id)).toBe(id === "copilot_fetchWebPage");
            expect(excluded.get(id)).toBe(id !== "copilot_fetchWebPage");
        }
    });

    it("removes the tools excludeTools names after adding the included ones (step 3)", () => {
        expect(enabled({ include: ["edit", "web"], exclude: ["web"] })).toEqual([
            "vscode_editFile",
            "vscode_deleteFile",
        ]);
    });

    it("enables a toolset only when all of its member tools are enabled (step 4)", () => {
        const { result } = resolve({ include: ["read", "fetch", "codebase", "fileSearch"] });
        expect(toolSets(result)).toEqual({
            edit: false,
            read: true,
            search: true,
            web: false,
            agent: false,
            execute: false,
        });
    });

    it("returns one enablement map entry for every tool and every toolset (step 5)", () => {
        const { result } = resolve({ include: ["edit"] });
        expect([...result.toolEnablement.keys()]).toEqual(ALL);
        expect([...result.toolSetEnablement.keys()]).toEqual([
            "edit",
            "read",
            "search",
            "web",
            "agent",
            "execute",
        ]);
    });
});

describe("edge cases", () => {
    it("excludes a tool that appears in both includeTools and excludeTools", () => {
        expect(enabled({ include: ["readFile", "githubRepo"], exclude: ["githubRepo"] })).toEqual([
            "copilot_readFile",
        ]);
    });

    it("includes a toolset without the member tool excludeTools names", () => {
        const { result } = resolve({ include: ["edit"], exclude: ["vscode_deleteFile"] });
        expect(result.enabledTools).toEqual(["vscode_editFile"]);
        expect(result.toolSetEnablement.get("edit")).toBe(false);
    });

    it("includes a tool named in includeTools although its toolset is in excludeTools", () => {
        expect(enabled({ include: ["codebase", "read"], exclude: ["search"] })).toEqual([
            "copilot_readFile",
            "copilot_searchCodebase",
        ]);
    });

    it("logs a warning for an unknown identifier and applies the others", () => {
        const { result, warnings } = resolve({ include: ["read", "notATool"] });
        expect(result.enabledTools).toEqual(["copilot_readFile"]);
        expect(warnings).toHaveLength(1);
        expect(warnings[0]).toMatchObject({
            code: "UNKNOWN_IDENTIFIERS",
            option: "includeTools",
            identifiers: ["notATool"],
        });
    });

    it("throws for includeTools: [] because at least one tool must be enabled", () => {
        expect(() => resolve({ include: [] })).toThrow(
            new ToolFilterError(
                "EMPTY_INCLUDE",
                "includeTools is empty, so no tool would be enabled. Name at least one tool or toolset, or leave includeTools out to keep every tool.",
                "includeTools"
            )
        );
    });

    it("treats excludeTools: [] exactly like an omitted excludeTools", () => {
        expect(resolve({ exclude: [] }).result).toEqual(resolve({}).result);
        expect(resolve({ include: ["read"], exclude: [] }).result).toEqual(
            resolve({ include: ["read"] }).result
        );
    });

    it("throws when includeTools and excludeTools together leave zero tools", () => {
        expect(() => resolve({ include: ["web"], exclude: ["fetch", "githubRepo"] })).toThrow(
            expect.objectContaining({
                name: "ToolFilterError",
                code: "NO_TOOLS_ENABLED",
                message:
                    "includeTools with excludeTools leaves no tool enabled. Check the names against the available tools and toolsets, or widen the filter.",
            })
        );
    });
});

describe("design decisions", () => {
    it("lets includeTools: ['editFile'] override excludeTools: ['edit'], but not an explicit tool exclusion", () => {
        expect(enabled({ include: ["editFile", "read"], exclude: ["edit"] })).toEqual([
            "vscode_editFile",
            "copilot_readFile",
        ]);
        expect(() =>
            resolve({ include: ["editFile", "edit"], exclude: ["edit", "vscode_editFile"] })
        ).toThrow(expect.objectContaining({ code: "NO_TOOLS_ENABLED" }));
    });

    it("never throws for unknown identifiers, even when every excludeTools entry is unknown", () => {
        const { result, warnings } = resolve({ exclude: ["gpt5OnlyTool", "claudeOnlyTool"] });
        expect(result.enabledTools).toEqual(ALL);
        expect(warnings.map((warning) => warning.code)).toEqual(["UNKNOWN_IDENTIFIERS"]);
    });

    it("throws when excludeTools alone removes every tool", () => {
        expect(() =>
            resolve({ exclude: ["edit", "read", "search", "web", "agent", "execute"] })
        ).toThrow(expect.objectContaining({ code: "NO_TOOLS_ENABLED" }));
    });
});

describe("the specification's examples", () => {
    it("enables only the edit and search toolsets (include only)", () => {
        const { result } = resolve({ include: ["edit", "search"] });
        expect(result.enabledTools).toEqual([
            "vscode_editFile",
            "vscode_deleteFile",
            "copilot_searchCodebase",
            "copilot_findFiles",
        ]);
        expect(toolSets(result)).toMatchObject({ edit: true, search: true, web: false });
    });

    it("enables all tools except the web toolset (exclude only)", () => {
        const { result } = resolve({ exclude: ["web"] });
        expect(result.enabledTools).toEqual(
            ALL.filter((id) => id !== "copilot_fetchWebPage" && id !== "copilot_githubRepo")
        );
        expect(toolSets(result)).toMatchObject({ web: false, edit: true, execute: true });
    });

    it("enables the edit toolset without the dangerous deleteFile (combined)", () => {
        const { result } = resolve({ include: ["edit"], exclude: ["deleteFile"] });
        expect(result.enabledTools).toEqual(["vscode_editFile"]);
        expect(result.warnings).toEqual([]);
    });

    it("starts with agent and read, adds web, and removes fetch", () => {
        const { result } = resolve({ include: ["agent", "read", "web"], exclude: ["fetch"] });
        expect(result.enabledTools).toEqual([
            "copilot_readFile",
            "copilot_githubRepo",
            "runSubagent",
        ]);
        expect(toolSets(result)).toMatchObject({ agent: true, read: true, web: false });
    });
});
