import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
    resolveChatOpenToolEnablement,
    type ChatToolCatalog,
    type ChatToolData,
    type ChatToolSetData,
    type ChatOpenWarning,
} from "../../src/chatOpen/chatOpenOptions.js";

// A catalog shaped like VS Code's chat tools (IToolData) and toolsets (IToolSet), with the fields
// filtering does not read.
interface ToolData extends ChatToolData {
    readonly source: { readonly type: "internal" | "extension" };
    readonly modelDescription: string;
}

const tool = (id: string, toolReferenceName: string): ToolData => ({
    id,
    toolReferenceName,
    displayName: toolReferenceName,
    source: { type: "internal" },
    modelDescription: `The ${toolReferenceName} tool`,
});

const editFile = tool("vscode_editFile", "editFile");
const deleteFile = tool("vscode_deleteFile", "deleteFile");
const fetchTool = tool("copilot_fetchWebPage", "fetch");
const githubRepo = tool("copilot_githubRepo", "githubRepo");
const readFile = tool("copilot_readFile", "readFile");
const tools = [editFile, deleteFile, fetchTool, githubRepo, readFile];

// Copilot Chat's package.json lists members by toolReferenceName (or id).
const editSet: ChatToolSetData = {
    id: "toolset:GitHub.copilot-chat/edit",
    referenceName: "edit",
    tools: ["editFile", "vscode_deleteFile"],
};
// A VS Code ToolSet exposes its members through getTools(), a fresh iterable on each call.
const webSet: ChatToolSetData & { readonly description: string } = {
    id: "toolset:GitHub.copilot-chat/web",
    referenceName: "web",
    description: "Web access",
    getTools: () => new Set([fetchTool, githubRepo]).values(),
};
const readSet: ChatToolSetData = { id: "read", referenceName: "read", getTools: () => [readFile] };

const catalog: ChatToolCatalog<ToolData, ChatToolSetData> = {
    tools,
    toolSets: [editSet, webSet, readSet],
};

const silent = { onWarning: () => {} };

afterEach(() => {
    vi.restoreAllMocks();
});

describe("resolveChatOpenToolEnablement", () => {
    it("keys the enablement map by the caller's tools, then its toolsets, in catalog order", () => {
        const { enablement } = resolveChatOpenToolEnablement(
            { toolsInclude: ["web", "readFile"], toolsExclude: ["githubRepo"] },
            catalog,
            silent
        );
        expect([...enablement]).toEqual([
            [editFile, false],
            [deleteFile, false],
            [fetchTool, true],
            [githubRepo, false],
            [readFile, true],
            [editSet, false],
            [webSet, false],
            [readSet, true],
        ]);
        expect(enablement.get(fetchTool)).toBe(true);
    });

    it("passes every other option through and drops toolsInclude and toolsExclude", () => {
        const attachment = { uri: "file:///a.ts" };
        const input = {
            query: "Research this topic",
            isPartialQuery: true,
            attachFiles: [attachment],
            toolsInclude: ["web", "read"],
            toolsExclude: ["fetch"],
        };
        const { options } = resolveChatOpenToolEnablement(input, catalog, silent);
        expect(options).toEqual({
            query: "Research this topic",
            isPartialQuery: true,
            attachFiles: [attachment],
        });
        expect(options.attachFiles).toBe(input.attachFiles);
        // @ts-expect-error toolsInclude is no longer part of the options type
        expect(options.toolsInclude).toBeUndefined();
        expect(input.toolsInclude).toEqual(["web", "read"]);
    });

    it("enables every tool and toolset when neither option is given, or no options at all", () => {
        for (const options of [{ query: "hello" }, undefined, null]) {
            const { enablement, result } = resolveChatOpenToolEnablement(options, catalog, silent);
            expect(result.mode).toBe("default");
            expect(enablement.size).toBe(8);
            expect([...enablement.values()].every(Boolean)).toBe(true);
        }
    });

    it("applies the filter in every chat mode, not just agent mode", () => {
        for (const mode of ["ask", "edit", "agent", "my-custom-mode", undefined]) {
            const { options, result } = resolveChatOpenToolEnablement(
                { query: "q", mode, toolsExclude: ["web", "edit"] },
                catalog,
                silent
            );
            expect(result.enabledTools).toEqual([readFile.id]);
            expect(options.mode).toBe(mode);
        }
    });
});

describe("VS Code's shapes", () => {
    it("reads tools from the iterable getTools() returns and toolsets from a Set", () => {
        function* getTools(): Generator<ToolData> {
            yield* tools;
        }
        const { result, enablement } = resolveChatOpenToolEnablement(
            { toolsInclude: ["edit"] },
            { tools: getTools(), toolSets: new Set([editSet, webSet]) },
            silent
        );
        expect(result.enabledTools).toEqual([editFile.id, deleteFile.id]);
        expect(enablement.get(editSet)).toBe(true);
        expect(enablement.size).toBe(7);
    });

    it("reads toolset members from getTools() before a tools field", () => {
        // Older VS Code ToolSets had a public `tools` set beside getTools(); getTools() applies
        // `when` clauses and flattens nested toolsets, so it is the one to trust.
        const legacy = {
            id: "search",
            referenceName: "search",
            tools: new Set([readFile, fetchTool]),
            getTools: () => [readFile],
        };
        const { result, enablement } = resolveChatOpenToolEnablement(
            { toolsExclude: ["search"] },
            { tools, toolSets: [legacy] },
            silent
        );
        expect(result.enabledTools).toEqual([
            editFile.id,
            deleteFile.id,
            fetchTool.id,
            githubRepo.id,
        ]);
        expect(enablement.get(legacy)).toBe(false);
    });

    it("accepts tool objects as well as names in a toolset's tools", () => {
        const mixed = { id: "mixed", referenceName: "mixed", tools: [fetchTool, "readFile"] };
        const { result } = resolveChatOpenToolEnablement(
            { toolsInclude: ["mixed"] },
            { tools, toolSets: [mixed] },
            silent
        );
        expect(result.enabledTools).toEqual([fetchTool.id, readFile.id]);
    });

    it("reads a getTools() that returns a fresh generator exactly once", () => {
        let calls = 0;
        const counted: ChatToolSetData = {
            id: "web2",
            referenceName: "web2",
            *getTools() {
                calls++;
                yield fetchTool;
            },
        };
        resolveChatOpenToolEnablement(
            { toolsInclude: ["web2"] },
            { tools, toolSets: [counted] },
            silent
        );
        expect(calls).toBe(1);
    });
});

describe("the specification's fixed rules", () => {
    it("throws for toolsInclude: [] even when settings ask otherwise", () => {
        const loose = { ...silent, emptyInclude: "allow" } as never;
        expect(() => resolveChatOpenToolEnablement({ toolsInclude: [] }, catalog, loose)).toThrow(
            expect.objectContaining({
                name: "ToolFilterError",
                code: "EMPTY_INCLUDE",
                option: "toolsInclude",
            })
        );
    });

    it("throws when the filter leaves no tool, even when settings ask otherwise", () => {
        const loose = { ...silent, noToolsEnabled: "allow" } as never;
        expect(() =>
            resolveChatOpenToolEnablement({ toolsExclude: ["edit", "web", "read"] }, catalog, loose)
        ).toThrow(expect.objectContaining({ code: "NO_TOOLS_ENABLED" }));
    });

    it("refuses a malformed option with the option's name", () => {
        expect(() =>
            resolveChatOpenToolEnablement({ toolsExclude: "web" as never }, catalog, silent)
        ).toThrow(
            "Invalid toolsExclude 'web': pass an array of tool or toolset names, e.g. ['web']."
        );
    });

    it("refuses a malformed catalog with INVALID_CATALOG, not a TypeError", () => {
        const malformed: unknown[] = [
            null,
            { tools: 3 },
            { tools: [editFile, editFile] },
            { tools, toolSets: 7 },
            { tools, toolSets: [null] },
            { tools, toolSets: [{ id: "s", referenceName: "s" }] },
            { tools, toolSets: [{ id: "s", referenceName: "s", getTools: () => [null] }] },
        ];
        for (const bad of malformed) {
            expect(() =>
                resolveChatOpenToolEnablement(
                    {},
                    bad as ChatToolCatalog<ToolData, ChatToolSetData>,
                    silent
                )
            ).toThrow(expect.objectContaining({ code: "INVALID_CATALOG" }));
        }
    });
});

describe("warnings", () => {
    it("sends each warning to settings.onWarning and keeps it in the result", () => {
        const warnings: ChatOpenWarning[] = [];
        const outcome = resolveChatOpenToolEnablement(
            { toolsInclude: ["edit", "serach"], toolsExclude: ["webb"] },
            catalog,
            { onWarning: (warning) => warnings.push(warning) }
        );
        const { result } = outcome;
        expect(warnings.map((w) => [w.option, w.identifiers])).toEqual([
            ["toolsInclude", ["serach"]],
            ["toolsExclude", ["webb"]],
        ]);
        expect(result.warnings).toEqual(warnings);
        expect(outcome.warnings).toEqual(warnings);
        expect(result.unknownIdentifiers[1]).toEqual({
            option: "toolsExclude",
            identifier: "webb",
            suggestion: "web",
        });
    });

    it("logs warnings with console.warn by default", () => {
        const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
        resolveChatOpenToolEnablement({ toolsExclude: ["nope"] }, catalog);
        expect(warn).toHaveBeenCalledTimes(1);
        expect(warn.mock.calls[0]![0]).toMatch(/^1 toolsExclude entry names no known tool/);
    });
});

describe("immutability", () => {
    it("leaves a deeply frozen catalog and options alone and returns a frozen result", () => {
        const frozenSet = Object.freeze({
            id: "set",
            referenceName: "s",
            tools: Object.freeze([editFile.id]),
        });
        const frozenCatalog = Object.freeze({
            tools: Object.freeze([Object.freeze({ ...editFile }), Object.freeze({ ...readFile })]),
            toolSets: Object.freeze([frozenSet]),
        });
        const frozenOptions = Object.freeze({
            query: "q",
            toolsInclude: Object.freeze(["s"]),
            toolsExclude: Object.freeze(["readFile"]),
        });
        const outcome = resolveChatOpenToolEnablement(frozenOptions, frozenCatalog, silent);
        expect(outcome.result.enabledTools).toEqual([editFile.id]);
        expect(outcome.enablement.get(frozenSet)).toBe(true);
        expect(Object.isFrozen(outcome)).toBe(true);
        expect(Object.isFrozen(outcome.options)).toBe(true);
        expect(() => (outcome.enablement as Map<unknown, boolean>).set(frozenSet, false)).toThrow(
            TypeError
        );
    });
});

describe("the documentation example", () => {
    // Small fakes of VS Code's ILanguageModelToolsService (getTools(model) and
    // getToolSetsForModel(model) return iterables) and of the chat widget (the selected model's
    // metadata, selectedToolsModel.set(map, ephemeral)), as VS Code's chat.open handler uses them.
    function fakes() {
        const selected: [ReadonlyMap<unknown, boolean>, boolean][] = [];
        const accepted: (string | undefined)[] = [];
        const models: unknown[] = [];
        const metadata = { id: "gpt-test", family: "gpt-test" };
        const languageModelToolsService = {
            getTools: (model: typeof metadata | undefined) => {
                models.push(model);
                return new Set(tools).values();
            },
            getToolSetsForModel: (model: typeof metadata | undefined) => {
                models.push(model);
                return [editSet, webSet, readSet].values();
            },
        };
        const widget = {
            input: {
                selectedLanguageModel: { get: () => ({ metadata }) },
                selectedToolsModel: {
                    set: (map: ReadonlyMap<unknown, boolean>, ephemeral: boolean) =>
                        void selected.push([map, ephemeral]),
                },
            },
            acceptInput: (query: string | undefined) => void accepted.push(query),
        };
        return { languageModelToolsService, widget, selected, accepted, models, metadata };
    }

    function expectExampleOutcome(f: ReturnType<typeof fakes>) {
        expect(f.models).toEqual([f.metadata, f.metadata]);
        expect(f.selected).toHaveLength(1);
        const [map, ephemeral] = f.selected[0]!;
        expect([...map].filter(([, on]) => on)).toEqual([[editFile, true]]);
        expect(map.get(deleteFile)).toBe(false);
        expect(map.get(editSet)).toBe(false);
        expect(ephemeral).toBe(true);
        expect(f.accepted).toEqual(["Clean up unused files"]);
    }

    // The example's code from the TSDoc, and the copy below that the compiler checks.
    function exampleCode(): string {
        const source = readFileSync(
            new URL("../../src/chatOpen/chatOpenOptions.ts", import.meta.url),
            "utf8"
        );
        const example = /@example\n \* ```typescript\n([\s\S]*?)\n \* ```/.exec(source)![1]!;
        return example.replace(/^ \* ?/gm, "");
    }

    function typeCheckedCopy(): string {
        const source = readFileSync(new URL(import.meta.url), "utf8");
        const copy = /\/\/ example:start\n([\s\S]*?)\n\s*\/\/ example:end/.exec(source)![1]!;
        return copy.replace(/^ {8}/gm, "");
    }

    // Prettier wraps the copy at another width; compare the code, not its line breaks.
    const tokens = (code: string) => code.replace(/,(\s*[)}\]])/g, "$1").replace(/\s+/g, "");

    it("runs as written in the TSDoc of resolveChatOpenToolEnablement", () => {
        const code = exampleCode();
        expect(code).toContain("resolveChatOpenToolEnablement(");
        const f = fakes();
        new Function("resolveChatOpenToolEnablement", "languageModelToolsService", "widget", code)(
            resolveChatOpenToolEnablement,
            f.languageModelToolsService,
            f.widget
        );
        expectExampleOutcome(f);
    });

    it("type-checks as written against the fakes", () => {
        const { languageModelToolsService, widget, ...f } = fakes();

        // example:start
        const model = widget.input.selectedLanguageModel.get()?.metadata;
        const { options, enablement } = resolveChatOpenToolEnablement(
            {
                query: "Clean up unused files",
                toolsInclude: ["edit"],
                toolsExclude: ["deleteFile"],
            },
            {
                tools: languageModelToolsService.getTools(model),
                toolSets: languageModelToolsService.getToolSetsForModel(model),
            }
        );
        widget.input.selectedToolsModel.set(enablement, true);
        widget.acceptInput(options.query);
        // example:end

        expectExampleOutcome({ languageModelToolsService, widget, ...f });
        expect(tokens(typeCheckedCopy())).toBe(tokens(exampleCode()));
    });
});

describe("option names", () => {
    const recorded = () => {
        const warnings: ChatOpenWarning[] = [];
        return { warnings, settings: { onWarning: (w: ChatOpenWarning) => void warnings.push(w) } };
    };

    it("reads toolsInclude and toolsExclude, VS Code's names, without a warning", () => {
        const { warnings, settings } = recorded();
        const { result } = resolveChatOpenToolEnablement(
            { toolsInclude: ["edit"], toolsExclude: ["deleteFile"] },
            catalog,
            settings
        );
        expect(result.enabledTools).toEqual([editFile.id]);
        expect(result.mode).toBe("combined");
        expect(warnings).toEqual([]);
    });

    it("reads the design's includeTools and excludeTools as the same options, with a note each", () => {
        const { warnings, settings } = recorded();
        const { result, enablement } = resolveChatOpenToolEnablement(
            { includeTools: ["edit"], excludeTools: ["deleteFile"] },
            catalog,
            settings
        );
        expect(result.enabledTools).toEqual([editFile.id]);
        expect([...enablement].filter(([, on]) => on)).toEqual([[editFile, true]]);
        expect(warnings).toEqual([
            {
                code: "DESIGN_OPTION_NAME",
                option: "includeTools",
                message:
                    "includeTools is the design's name for toolsInclude; it is read as toolsInclude here, but VS Code's workbench.action.chat.open (1.109 and later) ignores includeTools. Rename it to toolsInclude.",
            },
            {
                code: "DESIGN_OPTION_NAME",
                option: "excludeTools",
                message:
                    "excludeTools is the design's name for toolsExclude; it is read as toolsExclude here, but VS Code's workbench.action.chat.open (1.109 and later) ignores excludeTools. Rename it to toolsExclude.",
            },
        ]);
    });

    it("takes one option under each name", () => {
        const { warnings, settings } = recorded();
        const { result } = resolveChatOpenToolEnablement(
            { toolsInclude: ["web"], excludeTools: ["githubRepo"] },
            catalog,
            settings
        );
        expect(result.enabledTools).toEqual([fetchTool.id]);
        expect(warnings.map((w) => w.option)).toEqual(["excludeTools"]);
    });

    it("refuses both names of one option, quoting both values", () => {
        expect(() =>
            resolveChatOpenToolEnablement(
                { toolsInclude: ["edit"], includeTools: ["web"] },
                catalog,
                silent
            )
        ).toThrow(
            expect.objectContaining({
                name: "ToolFilterError",
                code: "INVALID_FILTER_OPTION",
                option: "includeTools",
                message:
                    "Both toolsInclude ['edit'] and includeTools ['web'] are given: they are one option under two names. Keep toolsInclude, VS Code's name, and remove includeTools.",
            })
        );
        expect(() =>
            resolveChatOpenToolEnablement({ toolsExclude: [], excludeTools: [] }, catalog, silent)
        ).toThrow(/^Both toolsExclude \[\] and excludeTools \[\] are given/);
    });

    it("names the option as the caller spelled it in errors and warnings", () => {
        for (const name of ["toolsInclude", "includeTools"] as const) {
            expect(() => resolveChatOpenToolEnablement({ [name]: [] }, catalog, silent)).toThrow(
                expect.objectContaining({ code: "EMPTY_INCLUDE", option: name })
            );
        }
        const { result } = resolveChatOpenToolEnablement(
            { excludeTools: ["webb"] },
            catalog,
            silent
        );
        expect(result.unknownIdentifiers).toEqual([
            { option: "excludeTools", identifier: "webb", suggestion: "web" },
        ]);
    });

    it("removes all four names from the options it passes on", () => {
        const { options } = resolveChatOpenToolEnablement(
            { query: "q", toolsInclude: ["edit"], excludeTools: ["deleteFile"] },
            catalog,
            silent
        );
        expect(options).toEqual({ query: "q" });
        const both = resolveChatOpenToolEnablement(
            { query: "q", includeTools: ["edit"], toolsExclude: ["deleteFile"] },
            catalog,
            silent
        );
        expect(both.options).toEqual({ query: "q" });
    });
});

describe("where VS Code's chat.open decides otherwise", () => {
    // An MCP server whose toolset is labelled "fetch", beside the built-in tool whose
    // toolReferenceName is "fetch" (CONFORMANCE-chat-open.md, "names a toolset and a tool").
    const mcpFetch = tool("mcp_fetch_fetch", "fetch_url");
    const mcpSet: ChatToolSetData = {
        id: "mcp.config.usrlocalmcp.fetch",
        referenceName: "fetch",
        getTools: () => [mcpFetch],
    };
    const withMcp = { tools: [...tools, mcpFetch], toolSets: [editSet, webSet, readSet, mcpSet] };
    const ambiguityMessage = (option: string) =>
        `${option} entry 'fetch' names the toolset 'fetch' (id 'mcp.config.usrlocalmcp.fetch') and the tool 'copilot_fetchWebPage': it is read as the toolset only, while VS Code's chat.open (measured on 1.109 to 1.138) applies it to both. To mean the tool, write 'copilot_fetchWebPage'; to mean both, list it as well.`;

    it("reads an included identifier that names a toolset and a tool as the toolset, and warns", () => {
        const { result, warnings } = resolveChatOpenToolEnablement(
            { toolsInclude: ["fetch"] },
            withMcp,
            silent
        );
        // The design's matching order: toolset referenceName before tool toolReferenceName.
        expect(result.enabledTools).toEqual([mcpFetch.id]);
        expect(warnings).toEqual([
            {
                code: "AMBIGUOUS_IDENTIFIER",
                option: "toolsInclude",
                identifiers: ["fetch"],
                message: ambiguityMessage("toolsInclude"),
            },
        ]);
    });

    it("reads an excluded identifier that names a toolset and a tool as the toolset, and warns", () => {
        const { result, warnings } = resolveChatOpenToolEnablement(
            { toolsExclude: ["fetch"] },
            withMcp,
            silent
        );
        expect(result.enabledTools).toEqual(tools.map((t) => t.id));
        expect(warnings.map((w) => [w.code, w.message])).toEqual([
            ["AMBIGUOUS_IDENTIFIER", ambiguityMessage("toolsExclude")],
        ]);
    });

    it("enables both when the caller lists the tool's id beside the toolset", () => {
        const { result } = resolveChatOpenToolEnablement(
            { toolsInclude: ["fetch", "copilot_fetchWebPage"] },
            withMcp,
            silent
        );
        expect(result.enabledTools).toEqual([fetchTool.id, mcpFetch.id]);
    });

    it("says no other identifier tells them apart when the identifier is the tool's id", () => {
        const todo = tool("todo", "manageTodos");
        const todoSet: ChatToolSetData = { id: "todo", referenceName: "todo", tools: [editFile] };
        const { warnings } = resolveChatOpenToolEnablement(
            { toolsInclude: ["todo"] },
            { tools: [editFile, todo], toolSets: [todoSet] },
            silent
        );
        expect(warnings.map((w) => w.message)).toEqual([
            "toolsInclude entry 'todo' names the toolset 'todo' and the tool 'todo': it is read as the toolset only, while VS Code's chat.open (measured on 1.109 to 1.138) applies it to both. No other identifier tells them apart: rename the toolset or the tool.",
        ]);
    });

    it("does not warn about identifiers that name only a toolset or only a tool", () => {
        const { warnings } = resolveChatOpenToolEnablement(
            { toolsInclude: ["web", "editFile", "mcp.config.usrlocalmcp.fetch"] },
            withMcp,
            silent
        );
        expect(warnings).toEqual([]);
    });

    it("says tools registered later are disabled once toolsInclude is given", () => {
        // VS Code's picker treats every tool missing from the map as enabled, so an include list
        // does not hold for an MCP server that starts after the command; the adapter says what to do.
        const cases: [object, boolean][] = [
            [{ toolsInclude: ["edit"] }, false],
            [{ includeTools: ["edit"], toolsExclude: ["deleteFile"] }, false],
            [{ toolsExclude: ["web"] }, true],
            [{ toolsExclude: [] }, true],
            [{}, true],
        ];
        for (const [options, unlisted] of cases) {
            expect(resolveChatOpenToolEnablement(options, catalog, silent).unlistedEnabled).toBe(
                unlisted
            );
        }
    });

    it("never enables a toolset without members, and refuses one as the only inclusion", () => {
        const empty: ChatToolSetData = { id: "empty", referenceName: "empty", tools: [] };
        const { enablement } = resolveChatOpenToolEnablement(
            { toolsExclude: ["web"] },
            { tools, toolSets: [editSet, empty] },
            silent
        );
        expect(enablement.get(empty)).toBe(false);
        expect(() =>
            resolveChatOpenToolEnablement(
                { toolsInclude: ["empty"] },
                { tools, toolSets: [empty] },
                silent
            )
        ).toThrow(expect.objectContaining({ code: "NO_TOOLS_ENABLED" }));
    });

    it("refuses any filter over a catalog with no tools", () => {
        for (const options of [{ toolsExclude: ["web"] }, { toolsInclude: ["web"] }]) {
            expect(() =>
                resolveChatOpenToolEnablement(options, { tools: [], toolSets: [webSet] }, silent)
            ).toThrow(expect.objectContaining({ code: "NO_TOOLS_ENABLED" }));
        }
    });

    it("disables a tool of two toolsets when one of them is excluded", () => {
        const github: ChatToolSetData = {
            id: "mcp.github",
            referenceName: "github",
            getTools: () => [githubRepo],
        };
        const { result, enablement } = resolveChatOpenToolEnablement(
            { toolsInclude: ["web", "github"], toolsExclude: ["github"] },
            { tools, toolSets: [webSet, github] },
            silent
        );
        expect(result.enabledTools).toEqual([fetchTool.id]);
        expect(enablement.get(webSet)).toBe(false);
        expect(enablement.get(github)).toBe(false);
    });
});
