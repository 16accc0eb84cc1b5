/*---------------------------------------------------------------------------------------------
 *  The `workbench.action.chat.open` side of tool filtering: turn the command's options and the
 *  host's tools and toolsets into the enablement map a chat widget applies (step 5 of the
 *  resolution algorithm). All decisions are made by resolveToolFilter; this is only an adapter.
 *--------------------------------------------------------------------------------------------*/

import {
    ReadonlyMapView,
    resolveToolFilter,
    type ResolveToolFilterSettings,
    type ToolCatalogToolSet,
    type ToolFilterOptions,
    type ToolFilterResult,
} from "./toolFilter.js";
import type { ToolFilterError } from "./toolFilterError.js";

/**
 * A tool as VS Code's chat describes it (the parts of `IToolData` filtering needs). Other
 * fields (`source`, `modelDescription`, `icon`, ...) are allowed and ignored.
 */
export interface ChatToolData {
    /** Unique tool id, e.g. `"vscode_editFile"`. */
    readonly id: string;
    /** Short name users write, e.g. `"editFile"`. */
    readonly toolReferenceName?: string;
    /** Name shown in the tool picker; not used for matching. */
    readonly displayName?: string;
}

/**
 * A toolset as VS Code's chat describes it (the parts of `IToolSet` filtering needs). Members
 * come from `tools` (tool ids) when present, otherwise from VS Code's `getTools()`.
 */
export interface ChatToolSetData {
    /** Unique toolset id, e.g. `"toolset:GitHub.copilot-chat/edit"`. */
    readonly id: string;
    /** Short name users write, e.g. `"edit"`. */
    readonly referenceName: string;
    /** Ids of the member tools. */
    readonly tools?: readonly string[];
    /** VS Code's accessor for the member tools; used when `tools` is absent. */
    getTools?(): Iterable<Pick<ChatToolData, "id">>;
}

/**
 * The tools and toolsets available to the chat widget. The objects themselves become the keys
 * of {@link ChatOpenToolEnablement.enablement}, as in VS Code's `IToolAndToolSetEnablementMap`.
 */
export interface ChatToolCatalog<
    TTool extends ChatToolData = ChatToolData,
    TToolSet extends ChatToolSetData = ChatToolSetData,
> {
    /** All available tools. */
    readonly tools: readonly TTool[];
    /** Named toolsets; omitted means none. */
    readonly toolSets?: readonly TToolSet[];
}

/**
 * The options of `workbench.action.chat.open` that matter here. Any other field (`query`,
 * `mode`, `isPartialQuery`, ...) is passed through untouched. `mode` does not affect filtering:
 * the filter applies in every chat mode, not just Agent mode.
 */
export interface ChatOpenOptions {
    /** The query to send or prefill. */
    readonly query?: string;
    /** The chat mode to open in; filtering applies whatever it is. */
    readonly mode?: string;
    /** See {@link ToolFilterOptions.includeTools}. */
    readonly includeTools?: readonly string[];
    /** See {@link ToolFilterOptions.excludeTools}. */
    readonly excludeTools?: readonly string[];
}

/** The result of {@link resolveChatOpenToolEnablement}. Deeply immutable. */
export interface ChatOpenToolEnablement<
    TOptions extends ChatOpenOptions,
    TTool extends ChatToolData,
    TToolSet extends ChatToolSetData,
> {
    /**
     * The command options without `includeTools` / `excludeTools`, every other field unchanged
     * (same values, same references), ready to be handled as before filtering existed.
     */
    readonly options: Readonly<Omit<TOptions, "includeTools" | "excludeTools">>;
    /**
     * Enablement of every catalog tool and toolset, keyed by the catalog objects: tools first,
     * then toolsets, each in catalog order. When {@link ToolFilterResult.mode} is `"default"`
     * everything is enabled, and a widget that keeps the user's own tool selection may skip
     * applying it.
     */
    readonly enablement: ReadonlyMap<TTool | TToolSet, boolean>;
    /** The full filter result, with unknown identifiers, warnings and resolutions. */
    readonly result: ToolFilterResult;
}

/**
 * Resolves the `includeTools` / `excludeTools` of `workbench.action.chat.open` options into
 * the enablement map the chat widget applies, using {@link resolveToolFilter} for every decision
 * (modes, precedence, warnings, errors).
 *
 * @param options - The command options; `null` / `undefined` means none. Not modified.
 * @param catalog - The widget's tools and toolsets. Not modified.
 * @param settings - Where warnings go; defaults to `console.warn`.
 * @returns The remaining options, the enablement map and the filter result.
 * @throws {@link ToolFilterError} exactly as {@link resolveToolFilter} does.
 *
 * @example
 * ```typescript
 * const { options, enablement } = resolveChatOpenToolEnablement(
 *     { query: "Clean up unused files", includeTools: ["edit"], excludeTools: ["deleteFile"] },
 *     { tools: languageModelToolsService.getTools(), toolSets: languageModelToolsService.toolSets }
 * );
 * widget.input.selectedToolsModel.set(enablement);
 * widget.acceptInput(options.query);
 * ```
 */
export function resolveChatOpenToolEnablement<
    TOptions extends ChatOpenOptions,
    TTool extends ChatToolData,
    TToolSet extends ChatToolSetData,
>(
    options: TOptions | null | undefined,
    catalog: ChatToolCatalog<TTool, TToolSet>,
    settings?: ResolveToolFilterSettings
): ChatOpenToolEnablement<TOptions, TTool, TToolSet> {
    const toolSets = catalog?.toolSets;
    const result = resolveToolFilter(
        {
            tools: catalog?.tools,
            // Anything but an array is passed on for resolveToolFilter to accept (undefined, null)
            // or reject (INVALID_CATALOG).
            toolSets: Array.isArray(toolSets)
                ? toolSets.map(toToolCatalogToolSet)
                : (toolSets as readonly ToolCatalogToolSet[] | undefined),
        },
        options ?? {},
        settings
    );

    // resolveToolFilter has validated the catalog (unique ids), so every lookup below succeeds.
    const enablement = new Map<TTool | TToolSet, boolean>();
    for (const tool of catalog.tools) {
        enablement.set(tool, result.toolEnablement.get(tool.id) === true);
    }
    for (const toolSet of toolSets ?? []) {
        enablement.set(toolSet, result.toolSetEnablement.get(toolSet.id) === true);
    }

    // Rest destructuring copies the caller's other fields into a new object, so nothing of
    // theirs is modified; resolveToolFilter has already rejected non-object options.
    const { includeTools: _includeTools, excludeTools: _excludeTools, ...rest } = options ?? {};
    return Object.freeze({
        options: Object.freeze(rest) as Readonly<Omit<TOptions, "includeTools" | "excludeTools">>,
        enablement: new ReadonlyMapView(enablement),
        result,
    });
}

/**
 * Presents a VS Code toolset in the shape resolveToolFilter expects, reusing the object when it
 * already lists member ids. Anything malformed is passed on unchanged for resolveToolFilter to
 * reject with `INVALID_CATALOG`.
 */
function toToolCatalogToolSet(toolSet: ChatToolSetData): ToolCatalogToolSet {
    if (
        typeof toolSet !== "object" ||
        toolSet === null ||
        toolSet.tools !== undefined ||
        typeof toolSet.getTools !== "function"
    ) {
        return toolSet as ToolCatalogToolSet;
    }
    const tools: unknown[] = [];
    for (const tool of toolSet.getTools()) {
        // A malformed member becomes a non-string id, which resolveToolFilter reports.
        tools.push(typeof tool === "object" && tool !== null ? tool.id : tool);
    }
    return { id: toolSet.id, referenceName: toolSet.referenceName, tools: tools as string[] };
}
