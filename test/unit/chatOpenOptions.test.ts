import { describe, expect, it } from "vitest";
import {
    resolveChatOpenToolEnablement,
    type ChatToolCatalog,
    type ChatToolData,
    type ChatToolSetData,
} from "../../src/chatOpenOptions.js";

// A catalog shaped like VS Code's chat tools (IToolData) and toolsets (IToolSet).
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
const fetchTool = tool("vscode_fetch", "fetch");
const githubRepo = tool("vscode_githubRepo", "githubRepo");
const readFile = tool("vscode_readFile", "readFile");

const editSet = {
    id: "toolset:GitHub.copilot-chat/edit",
    referenceName: "edit",
    tools: [editFile.id, deleteFile.id],
} satisfies ChatToolSetData;
// A VS Code ToolSet exposes its members through getTools() rather than an id list.
const webSet: ChatToolSetData & { readonly description: string } = {
    id: "toolset:web",
    referenceName: "web",
    description: "Web access",
    getTools: () => [fetchTool, githubRepo],
};

const catalog: ChatToolCatalog<ToolData, ChatToolSetData> = {
    tools: [editFile, deleteFile, fetchTool, githubRepo, readFile],
    toolSets: [editSet, webSet],
};

const silent = { onWarning: () => {} };

describe("resolveChatOpenToolEnablement", () => {
    it("builds an enablement map keyed by the catalog's tool and toolset objects", () => {
        const { enablement } = resolveChatOpenToolEnablement(
            {
                query: "Clean up unused files",
                includeTools: ["edit"],
                excludeTools: ["deleteFile"],
            },
            catalog,
            silent
        );
        expect([...enablement]).toEqual([
            [editFile, true],
            [deleteFile, false],
            [fetchTool, false],
            [githubRepo, false],
            [readFile, false],
            [editSet, false],
            [webSet, false],
        ]);
        expect(enablement.get(editFile)).toBe(true);
    });

    it("passes every other option through untouched and drops includeTools and excludeTools", () => {
        const attachment = { uri: "file:///a.ts" };
        const input = {
            query: "Research this topic",
            isPartialQuery: true,
            attachFiles: [attachment],
            includeTools: ["web", "readFile"],
            excludeTools: ["fetch"],
        };
        const { options } = resolveChatOpenToolEnablement(input, catalog, silent);
        expect(options).toEqual({
            query: "Research this topic",
            isPartialQuery: true,
            attachFiles: [attachment],
        });
        expect(options.attachFiles).toBe(input.attachFiles);
        expect(Object.isFrozen(options)).toBe(true);
        // @ts-expect-error includeTools is no longer part of the options type
        expect(options.includeTools).toBeUndefined();
        expect(input.includeTools).toEqual(["web", "readFile"]);
    });

    it("reads toolset members from getTools() when the toolset has no id list", () => {
        const { result, enablement } = resolveChatOpenToolEnablement(
            { excludeTools: ["web"] },
            catalog,
            silent
        );
        expect(result.enabledTools).toEqual([editFile.id, deleteFile.id, readFile.id]);
        expect(enablement.get(webSet)).toBe(false);
        expect(enablement.get(editSet)).toBe(true);
    });

    it("applies the filter in every chat mode", () => {
        for (const mode of ["ask", "edit", "agent", "my-custom-mode", undefined]) {
            const { options, result } = resolveChatOpenToolEnablement(
                { query: "q", mode, includeTools: ["readFile"] },
                catalog,
                silent
            );
            expect(result.mode).toBe("whitelist");
            expect(result.enabledTools).toEqual([readFile.id]);
            expect(options.mode).toBe(mode);
        }
    });

    it("enables everything when neither option is given", () => {
        const { enablement, result, options } = resolveChatOpenToolEnablement(
            { query: "hello" },
            catalog,
            silent
        );
        expect(result.mode).toBe("default");
        expect([...enablement.values()].every(Boolean)).toBe(true);
        expect(options).toEqual({ query: "hello" });
    });

    it("treats missing options as no filter", () => {
        const { options, result } = resolveChatOpenToolEnablement(undefined, catalog, silent);
        expect(options).toEqual({});
        expect(result.mode).toBe("default");
    });

    it("throws for includeTools: [], a malformed option, an empty result and a malformed catalog", () => {
        expect(() => resolveChatOpenToolEnablement({ includeTools: [] }, catalog, silent)).toThrow(
            expect.objectContaining({ code: "EMPTY_INCLUDE" })
        );
        expect(() =>
            resolveChatOpenToolEnablement(
                { includeTools: "edit" as unknown as string[] },
                catalog,
                silent
            )
        ).toThrow(
            expect.objectContaining({ code: "INVALID_FILTER_OPTION", option: "includeTools" })
        );
        expect(() =>
            resolveChatOpenToolEnablement(
                { excludeTools: ["edit", "web", "readFile"] },
                catalog,
                silent
            )
        ).toThrow(expect.objectContaining({ code: "NO_TOOLS_ENABLED" }));
        expect(() =>
            resolveChatOpenToolEnablement({}, { tools: [editFile, editFile] }, silent)
        ).toThrow(expect.objectContaining({ code: "INVALID_CATALOG" }));
        expect(() =>
            resolveChatOpenToolEnablement(
                {},
                {
                    tools: [editFile],
                    toolSets: [{ id: "s", referenceName: "s", getTools: () => [null as never] }],
                },
                silent
            )
        ).toThrow(expect.objectContaining({ code: "INVALID_CATALOG" }));
    });

    it("reports unknown identifiers through onWarning and in the result", () => {
        const messages: string[] = [];
        const { result } = resolveChatOpenToolEnablement(
            { includeTools: ["edit", "serach"] },
            catalog,
            { onWarning: (warning) => messages.push(warning.message) }
        );
        expect(result.unknownIdentifiers).toEqual([
            { option: "includeTools", identifier: "serach" },
        ]);
        expect(messages).toHaveLength(1);
    });

    it("does not modify a deeply frozen catalog or options", () => {
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
            includeTools: Object.freeze(["s"]),
            excludeTools: Object.freeze(["readFile"]),
        });
        const { enablement, result } = resolveChatOpenToolEnablement(
            frozenOptions,
            frozenCatalog,
            silent
        );
        expect(result.enabledTools).toEqual([editFile.id]);
        expect(enablement.get(frozenSet)).toBe(true);
        expect(() => (enablement as Map<unknown, boolean>).set(frozenSet, false)).toThrow(
            TypeError
        );
    });

    it("accepts VS Code's own shapes: tools from an iterable, toolset members by reference name", () => {
        function* getTools(): Generator<ToolData> {
            yield editFile;
            yield deleteFile;
            yield readFile;
        }
        // Copilot Chat's package.json lists toolset members by toolReferenceName.
        const fromPackageJson = { id: "edits", referenceName: "edits", tools: ["editFile"] };
        const { enablement } = resolveChatOpenToolEnablement(
            { includeTools: ["edits"] },
            { tools: getTools(), toolSets: new Set([fromPackageJson]) },
            silent
        );
        expect([...enablement]).toEqual([
            [editFile, true],
            [deleteFile, false],
            [readFile, false],
            [fromPackageJson, true],
        ]);
    });

    it("runs the example of its documentation as written", () => {
        const selected: ReadonlyMap<unknown, boolean>[] = [];
        const accepted: (string | undefined)[] = [];
        const languageModelToolsService = {
            getTools: () => [...catalog.tools].values(),
            toolSets: catalog.toolSets!,
        };
        const widget = {
            input: {
                selectedToolsModel: {
                    set: (map: ReadonlyMap<unknown, boolean>) => selected.push(map),
                },
            },
            acceptInput: (query: string | undefined) => accepted.push(query),
        };

        const { options, enablement } = resolveChatOpenToolEnablement(
            {
                query: "Clean up unused files",
                includeTools: ["edit"],
                excludeTools: ["deleteFile"],
            },
            {
                tools: languageModelToolsService.getTools(),
                toolSets: languageModelToolsService.toolSets,
            }
        );
        widget.input.selectedToolsModel.set(enablement);
        widget.acceptInput(options.query);

        expect(selected[0]?.get(editFile)).toBe(true);
        expect(selected[0]?.get(deleteFile)).toBe(false);
        expect(accepted).toEqual(["Clean up unused files"]);
    });
});
