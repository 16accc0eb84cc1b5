/**
 * The `workbench.action.chat.open` side of tool filtering: the command's `toolsInclude` /
 * `toolsExclude` (VS Code 1.109 and later; the design's `includeTools` / `excludeTools` are read as
 * the same options) over the host's tools and toolsets, turned into the enablement map a chat
 * widget applies. Every filtering decision is made by {@link resolveToolFilter}; this module only
 * adapts VS Code's shapes and names to it. It is the shared helper's second caller and is not part
 * of the SDK.
 */

import { quoteValue } from "../shared/formatting.js";
import {
    readonlyMap,
    resolveToolFilter,
    ToolFilterError,
    type ResolveToolFilterSettings,
    type ToolFilterOptionKey,
    type ToolFilterResult,
    type ToolFilterToolSet,
    type ToolFilterWarning,
    type ToolFilterWarningCode,
} from "../toolFilter/toolFilter.js";

/**
 * A tool as VS Code's chat describes it (the parts of `IToolData` filtering reads); other fields
 * are allowed and ignored.
 *
 * @beta
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
 * @beta
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
 * @beta
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
 * through untouched. Filtering applies in every chat mode. `toolsInclude` / `toolsExclude` are
 * VS Code's names (`IChatViewOpenOptions`, VS Code 1.109 and later); the design's
 * `includeTools` / `excludeTools` mean the same and are accepted with a `DESIGN_OPTION_NAME`
 * warning, since VS Code ignores them. Giving both names of one option is an error.
 *
 * @beta
 */
export interface ChatOpenOptions {
    /** The query to send or prefill; passed through. */
    readonly query?: string;
    /** The chat mode to open in; filtering applies whatever it is. */
    readonly mode?: string;
    /**
     * A list of tool identifiers to include. When specified alone, only these tools will be
     * enabled. Identifiers can be tool IDs, tool reference names (`toolReferenceName`), toolset
     * IDs, or toolset reference names (`referenceName`). When a toolset identifier matches, all
     * tools in that toolset are included. Can be combined with `toolsExclude` for fine-grained
     * control.
     */
    readonly toolsInclude?: readonly string[];
    /**
     * A list of tool identifiers to exclude. When specified alone, all tools except these will be
     * enabled. Identifiers are matched as in `toolsInclude`; when a toolset identifier matches, all
     * tools in that toolset are excluded. Exclusions are applied after inclusions: explicit tool
     * references in `toolsInclude` override toolset exclusions, but explicit tool exclusions
     * always win.
     */
    readonly toolsExclude?: readonly string[];
    /**
     * The design's name for {@link ChatOpenOptions.toolsInclude}, read as the same option.
     *
     * @deprecated VS Code's `workbench.action.chat.open` ignores `includeTools`; use `toolsInclude`.
     */
    readonly includeTools?: readonly string[];
    /**
     * The design's name for {@link ChatOpenOptions.toolsExclude}, read as the same option.
     *
     * @deprecated VS Code's `workbench.action.chat.open` ignores `excludeTools`; use `toolsExclude`.
     */
    readonly excludeTools?: readonly string[];
}

/** The option names {@link resolveChatOpenToolEnablement} reads and removes from the options. */
type ChatOpenFilterOptionName = "toolsInclude" | "toolsExclude" | "includeTools" | "excludeTools";

/**
 * Codes of {@link ChatOpenWarning}: the shared helper's codes, and
 * - `DESIGN_OPTION_NAME`: the design's `includeTools` / `excludeTools` were given, which VS Code's
 *   command ignores;
 * - `AMBIGUOUS_IDENTIFIER`: an identifier names a toolset and a tool; it is read as the toolset
 *   (the design's matching order), where VS Code's chat.open (measured on 1.109 to 1.138) applies it to both.
 *
 * @beta
 */
export type ChatOpenWarningCode =
    ToolFilterWarningCode | "DESIGN_OPTION_NAME" | "AMBIGUOUS_IDENTIFIER";

/**
 * Something the adapter could honour but that is probably not what the caller meant.
 *
 * @beta
 */
export interface ChatOpenWarning extends Omit<ToolFilterWarning, "code"> {
    /** Machine-readable reason. */
    readonly code: ChatOpenWarningCode;
}

/**
 * What {@link resolveChatOpenToolEnablement} returns. Deeply immutable.
 *
 * @beta
 */
export interface ChatOpenToolEnablement<TOptions, TTool, TToolSet> {
    /** The command options without the four filter options, other fields unchanged. */
    readonly options: Readonly<Omit<TOptions, ChatOpenFilterOptionName>>;
    /**
     * Enablement of every tool and toolset, keyed by the caller's own objects (tools first, then
     * toolsets, in catalog order), as VS Code's `IToolAndToolSetEnablementMap`.
     */
    readonly enablement: ReadonlyMap<TTool | TToolSet, boolean>;
    /**
     * What a tool or toolset missing from {@link ChatOpenToolEnablement.enablement} (registered
     * after this call, such as an MCP server that starts later) is: `false` once `toolsInclude`
     * is given, so an include list holds; `true` otherwise. VS Code's tool picker treats every
     * unlisted tool as enabled, whatever the filter was.
     */
    readonly unlistedEnabled: boolean;
    /** The shared helper's decision, with unknown identifiers and its warnings. */
    readonly result: ToolFilterResult;
    /** Every warning reported: the adapter's and the helper's, in the order they were found. */
    readonly warnings: readonly ChatOpenWarning[];
}

/**
 * Where {@link resolveChatOpenToolEnablement} reports what it finds. The specification's rules
 * (`toolsInclude: []` and an empty result throw) are fixed.
 *
 * @beta
 */
export interface ChatOpenToolFilterSettings extends Pick<ResolveToolFilterSettings, "maxTools"> {
    /** Receives each warning as it is found; all of them are also in the result. */
    readonly onWarning?: (warning: ChatOpenWarning) => void;
}

/**
 * Resolves the `toolsInclude` / `toolsExclude` of `workbench.action.chat.open` with the rules of
 * the command's specification: include, exclude or combined mode, explicit exclusions win,
 * explicit tool inclusions beat toolset exclusions, unknown identifiers warn, and
 * `toolsInclude: []` or a filter that leaves no tool throws. An identifier that names a toolset
 * and a tool is read as the toolset, with an `AMBIGUOUS_IDENTIFIER` warning.
 *
 * @param options - the command options; `null` / `undefined` means none (not modified)
 * @param catalog - the widget's tools and toolsets, arrays or any iterables (not modified)
 * @param settings - where warnings go (default: `console.warn` of each message), the tool limit
 * @returns the remaining options, the enablement map and the decision
 * @throws ToolFilterError for malformed options or catalog, both names of one option,
 *   `toolsInclude: []` and an empty result
 *
 * @example
 * ```typescript
 * const model = widget.input.selectedLanguageModel.get()?.metadata;
 * const { options, enablement } = resolveChatOpenToolEnablement(
 *     { query: "Clean up unused files", toolsInclude: ["edit"], toolsExclude: ["deleteFile"] },
 *     {
 *         tools: languageModelToolsService.getTools(model),
 *         toolSets: languageModelToolsService.getToolSetsForModel(model),
 *     }
 * );
 * widget.input.selectedToolsModel.set(enablement, true);
 * widget.acceptInput(options.query);
 * ```
 * @beta
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
    const onWarning = settings.onWarning ?? ((warning) => console.warn(warning.message));
    const warnings: ChatOpenWarning[] = [];
    const warn = (warning: ChatOpenWarning) => {
        const frozen = Object.freeze(warning);
        warnings.push(frozen);
        onWarning(frozen);
    };
    const given = options ?? ({} as TOptions);
    const include = filterOption(given, "include", warn);
    const exclude = filterOption(given, "exclude", warn);

    // Read each iterable once: getTools() may return a fresh generator on every call.
    const tools = listOf(catalog?.tools);
    const toolSets = listOf(catalog?.toolSets ?? []);
    const filterToolSets = Array.isArray(toolSets)
        ? toolSets.map(asFilterToolSet)
        : (toolSets as Iterable<ToolFilterToolSet>);
    const result = resolveToolFilter(
        { tools, toolSets: filterToolSets },
        { include: include.value, exclude: exclude.value },
        {
            onWarning: warn,
            maxTools: settings.maxTools,
            optionNames: { include: include.name, exclude: exclude.name },
            emptyInclude: "error",
            noToolsEnabled: "error",
        }
    );

    // The resolver accepted the catalog, so both lists are arrays of well-formed entries here.
    for (const option of [include, exclude]) {
        for (const identifier of new Set(option.value ?? [])) {
            const ambiguity = ambiguousIdentifier(
                option.name,
                identifier,
                tools as readonly ChatToolData[],
                filterToolSets as readonly ToolFilterToolSet[]
            );
            if (ambiguity !== undefined) warn(ambiguity);
        }
    }

    const enablement = new Map<TTool | TToolSet, boolean>();
    for (const tool of tools as TTool[]) {
        enablement.set(tool, result.toolEnablement.get(tool.id) === true);
    }
    for (const toolSet of toolSets as TToolSet[]) {
        enablement.set(toolSet, result.toolSetEnablement.get(toolSet.referenceName) === true);
    }
    const {
        toolsInclude: _toolsInclude,
        toolsExclude: _toolsExclude,
        includeTools: _includeTools,
        excludeTools: _excludeTools,
        ...rest
    } = given;
    return Object.freeze({
        options: Object.freeze(rest),
        enablement: readonlyMap(enablement),
        unlistedEnabled: include.value === undefined,
        result,
        warnings: Object.freeze(warnings),
    });
}

/** VS Code's name and the design's name of each filter option. */
const OPTION_NAMES = {
    include: { vscode: "toolsInclude", design: "includeTools" },
    exclude: { vscode: "toolsExclude", design: "excludeTools" },
} as const satisfies Record<
    ToolFilterOptionKey,
    Record<"vscode" | "design", ChatOpenFilterOptionName>
>;

/**
 * One filter option under whichever name the caller used; VS Code's name when neither is given.
 * Both names at once is an error, the design's name alone a warning.
 */
function filterOption(
    options: ChatOpenOptions,
    key: ToolFilterOptionKey,
    warn: (warning: ChatOpenWarning) => void
): { readonly name: string; readonly value: readonly string[] | undefined } {
    const { vscode, design } = OPTION_NAMES[key];
    const ours = options[vscode];
    const theirs = options[design];
    if (theirs === undefined) return { name: vscode, value: ours };
    if (ours !== undefined) {
        throw new ToolFilterError(
            "INVALID_FILTER_OPTION",
            `Both ${vscode} ${quoteOption(ours)} and ${design} ${quoteOption(theirs)} are given: ` +
                `they are one option under two names. Keep ${vscode}, VS Code's name, and remove ${design}.`,
            design
        );
    }
    warn({
        code: "DESIGN_OPTION_NAME",
        option: design,
        message:
            `${design} is the design's name for ${vscode}; it is read as ${vscode} here, ` +
            `but VS Code's workbench.action.chat.open (1.109 and later) ignores ${design}. Rename it to ${vscode}.`,
    });
    return { name: design, value: theirs };
}

/** An option's value for a message: a list as `['a', 'b']`, anything else quoted. */
function quoteOption(value: unknown): string {
    return Array.isArray(value) ? `[${value.map(quoteValue).join(", ")}]` : quoteValue(value);
}

/**
 * The warning for an identifier that names a toolset (by id or referenceName) and also a tool
 * (by id or toolReferenceName), or `undefined` when it names only one kind.
 */
function ambiguousIdentifier(
    option: string,
    identifier: string,
    tools: readonly ChatToolData[],
    toolSets: readonly ToolFilterToolSet[]
): ChatOpenWarning | undefined {
    const toolSet =
        toolSets.find((candidate) => candidate.id === identifier) ??
        toolSets.find((candidate) => candidate.referenceName === identifier);
    if (toolSet === undefined) return undefined;
    const named = tools.filter(
        (tool) => tool.id === identifier || tool.toolReferenceName === identifier
    );
    if (named.length === 0) return undefined;
    const toolIds = named.map((tool) => quoteValue(tool.id)).join(", ");
    const toolSetName = toolSet.id === identifier ? "" : ` (id ${quoteValue(toolSet.id)})`;
    const otherIds = named.filter((tool) => tool.id !== identifier).map((tool) => tool.id);
    const advice =
        otherIds.length > 0
            ? `To mean the tool, write ${quoteValue(otherIds[0])}; to mean both, list it as well.`
            : "No other identifier tells them apart: rename the toolset or the tool.";
    return {
        code: "AMBIGUOUS_IDENTIFIER",
        option,
        identifiers: Object.freeze([identifier]),
        message:
            `${option} entry ${quoteValue(identifier)} names the toolset ` +
            `${quoteValue(toolSet.referenceName)}${toolSetName} and the tool ${toolIds}: ` +
            `it is read as the toolset only, while VS Code's chat.open (measured on 1.109 to 1.138) applies it to both. ${advice}`,
    };
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
