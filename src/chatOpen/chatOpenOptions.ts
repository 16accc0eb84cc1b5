/**
 * The `workbench.action.chat.open` side of tool filtering: the command's `includeTools` /
 * `excludeTools` over the host's tools and toolsets, turned into the enablement map a chat widget
 * applies. Every decision is made by {@link resolveToolFilter}; this module only adapts VS Code's
 * shapes to it. It is the shared helper's second caller and is not part of the SDK.
 */

import {
    readonlyMap,
    resolveToolFilter,
    type ResolveToolFilterSettings,
    type ToolFilterResult,
    type ToolFilterToolSet,
} from "../safetyNet/toolFilter.js";

/**
 * A tool as VS Code's chat describes it (the parts of `IToolData` filtering reads); other fields
 * are allowed and ignored.
 *
 * @experimental
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
 * A toolset as VS Code's chat describes it (the parts of `IToolSet` filtering reads). Members
 * come from `getTools()` (VS Code's toolsets, nested toolsets flattened) or, without it, from
 * `tools`: tool objects, or names that are tool ids or `toolReferenceName`s (how Copilot Chat's
 * package.json lists `languageModelToolSets`).
 *
 * @experimental
 */
export interface ChatToolSetData {
    /** Unique toolset id, e.g. `"toolset:GitHub.copilot-chat/edit"`. */
    readonly id: string;
    /** Short name users write, e.g. `"edit"`. */
    readonly referenceName: string;
    /** Member tools, by id or reference name, or as tool objects. */
    readonly tools?: Iterable<string | ChatToolData>;
    /** VS Code's accessor for the member tools; preferred over `tools`. */
    getTools?(): Iterable<ChatToolData>;
}

/**
 * The tools and toolsets available to the chat widget, as arrays or any iterables (what
 * `ILanguageModelToolsService.getTools(model)` and `getToolSetsForModel(model)` return).
 *
 * @experimental
 */
export interface ChatToolCatalog<TTool extends ChatToolData, TToolSet extends ChatToolSetData> {
    readonly tools: Iterable<TTool>;
    /**
     * The toolsets as the service lists them, each `referenceName` once: VS Code merges a built-in
     * extension's toolset into the core toolset of the same name (Copilot Chat's `read`,
     * `execute`, `vscode`), so pass the merged sets, not package.json's beside the core ones.
     */
    readonly toolSets?: Iterable<TToolSet>;
}

/**
 * The options of `workbench.action.chat.open` that filtering reads; every other field passes
 * through untouched. Filtering applies in every chat mode.
 *
 * @experimental
 */
export interface ChatOpenOptions {
    /** The query to send or prefill; passed through. */
    readonly query?: string;
    /** The chat mode to open in; filtering applies whatever it is. */
    readonly mode?: string;
    /** Only these tools and toolsets are enabled (ids or reference names). */
    readonly includeTools?: readonly string[];
    /** These tools and toolsets are disabled; an explicit tool exclusion always wins. */
    readonly excludeTools?: readonly string[];
}

/**
 * What {@link resolveChatOpenToolEnablement} returns. Deeply immutable.
 *
 * @experimental
 */
export interface ChatOpenToolEnablement<TOptions, TTool, TToolSet> {
    /** The command options without `includeTools` / `excludeTools`, other fields unchanged. */
    readonly options: Readonly<Omit<TOptions, "includeTools" | "excludeTools">>;
    /**
     * Enablement of every tool and toolset, keyed by the caller's own objects (tools first, then
     * toolsets, in catalog order), as VS Code's `IToolAndToolSetEnablementMap`.
     */
    readonly enablement: ReadonlyMap<TTool | TToolSet, boolean>;
    /** The full decision, with unknown identifiers and warnings. */
    readonly result: ToolFilterResult;
}

/**
 * Where {@link resolveChatOpenToolEnablement} reports what it finds. The specification's rules
 * (`includeTools: []` and an empty result throw) are fixed.
 *
 * @experimental
 */
export type ChatOpenToolFilterSettings = Pick<ResolveToolFilterSettings, "onWarning" | "maxTools">;

/**
 * Resolves the `includeTools` / `excludeTools` of `workbench.action.chat.open` with the rules of
 * the command's specification: whitelist, blacklist or combined mode, explicit exclusions win,
 * explicit tool inclusions beat toolset exclusions, unknown identifiers warn, and
 * `includeTools: []` or a filter that leaves no tool throws.
 *
 * @param options - the command options; `null` / `undefined` means none (not modified)
 * @param catalog - the widget's tools and toolsets, arrays or any iterables (not modified)
 * @param settings - where warnings go (default: `console.warn` of each message), the tool limit
 * @returns the remaining options, the enablement map and the decision
 * @throws ToolFilterError for malformed options or catalog, `includeTools: []` and an empty result
 *
 * @example
 * ```typescript
 * const model = widget.input.selectedLanguageModel.get()?.metadata;
 * const { options, enablement } = resolveChatOpenToolEnablement(
 *     { query: "Clean up unused files", includeTools: ["edit"], excludeTools: ["deleteFile"] },
 *     {
 *         tools: languageModelToolsService.getTools(model),
 *         toolSets: languageModelToolsService.getToolSetsForModel(model),
 *     }
 * );
 * widget.input.selectedToolsModel.set(enablement, true);
 * widget.acceptInput(options.query);
 * ```
 * @experimental
 */
export function resolveChatOpenToolEnablement<
    TOptions extends ChatOpenOptions,
    TTool extends ChatToolData,
    TToolSet extends ChatToolSetData,
>(
    options: TOptions | null | undefined,
    catalog: ChatToolCatalog<TTool, TToolSet>,
    settings: ChatOpenToolFilterSettings = {}
): ChatOpenToolEnablement<TOptions, TTool, TToolSet> {
    // Read each iterable once: getTools() may return a fresh generator on every call.
    const tools = listOf(catalog?.tools);
    const toolSets = listOf(catalog?.toolSets ?? []);
    const given = options ?? ({} as TOptions);
    const result = resolveToolFilter(
        {
            tools,
            toolSets: Array.isArray(toolSets)
                ? toolSets.map(asFilterToolSet)
                : (toolSets as Iterable<ToolFilterToolSet>),
        },
        { include: given.includeTools, exclude: given.excludeTools },
        {
            onWarning: settings.onWarning ?? ((warning) => console.warn(warning.message)),
            maxTools: settings.maxTools,
            optionNames: { include: "includeTools", exclude: "excludeTools" },
            emptyInclude: "error",
            noToolsEnabled: "error",
        }
    );

    // The resolver accepted the catalog, so both lists are arrays of well-formed entries here.
    const enablement = new Map<TTool | TToolSet, boolean>();
    for (const tool of tools as TTool[]) {
        enablement.set(tool, result.toolEnablement.get(tool.id) === true);
    }
    for (const toolSet of toolSets as TToolSet[]) {
        enablement.set(toolSet, result.toolSetEnablement.get(toolSet.referenceName) === true);
    }
    const { includeTools: _include, excludeTools: _exclude, ...rest } = given;
    return Object.freeze({
        options: Object.freeze(rest),
        enablement: readonlyMap(enablement),
        result,
    });
}

/** An iterable as an array; anything else as it is, for the resolver to refuse. */
function listOf<T>(values: Iterable<T>): T[] | Iterable<T> {
    return typeof (values as Partial<Iterable<T>> | null)?.[Symbol.iterator] === "function" &&
        typeof values !== "string"
        ? [...values]
        : values;
}

/** A VS Code toolset in the resolver's shape: members from `getTools()`, else from `tools`. */
function asFilterToolSet(toolSet: ChatToolSetData): ToolFilterToolSet {
    if (toolSet === null || typeof toolSet !== "object") return toolSet;
    const members = listOf(
        typeof toolSet.getTools === "function" ? toolSet.getTools() : toolSet.tools!
    );
    return {
        id: toolSet.id,
        referenceName: toolSet.referenceName,
        // A tool object stands for its id; anything malformed stays as it is, for the resolver
        // to refuse with INVALID_CATALOG.
        tools: (Array.isArray(members)
            ? members.map((member) =>
                  typeof member === "object" && member !== null ? member.id : member
              )
            : members) as Iterable<string>,
    };
}
