import { formatList, quoteValue, suggestionSentence } from "../shared/formatting.js";
import { readListByIndex } from "../shared/listReader.js";
import { closestName } from "./nameSuggestions.js";

/**
 * A tool the filter can enable or disable.
 *
 * @beta
 */
export interface ToolFilterTool {
    /** Unique id, e.g. `"vscode_editFile"` or `"view"`. */
    readonly id: string;
    /** Short name users may write instead of the id, e.g. `"editFile"`. */
    readonly toolReferenceName?: string;
    /**
     * Where the tool comes from (`"builtin"`, `"custom"`, ...). An identifier `<source>:<id>`
     * names the tool, and `<source>:*` names every tool of that source, like a toolset.
     */
    readonly sources?: readonly string[];
}

/**
 * A named group of tools.
 *
 * @beta
 */
export interface ToolFilterToolSet {
    /** Unique id, e.g. `"toolset:GitHub.copilot-chat/edit"`. */
    readonly id: string;
    /** Short name users write, e.g. `"edit"`; the key of {@link ToolFilterResult.toolSetEnablement}. */
    readonly referenceName: string;
    /** Members, each a tool's id or `toolReferenceName`; names of no known tool are ignored. */
    readonly tools: Iterable<string>;
}

/**
 * The tools and toolsets a filter chooses from.
 *
 * @beta
 */
export interface ToolFilterCatalog {
    /** Every available tool; ids must be unique. */
    readonly tools: Iterable<ToolFilterTool>;
    /** Named toolsets; omitted means none. */
    readonly toolSets?: Iterable<ToolFilterToolSet>;
    /** Sources whose `<source>:*` group exists even when no tool has that source yet. */
    readonly sources?: Iterable<string>;
}

/**
 * Which tools to keep. Identifiers name a toolset (by id, or by `referenceName` where the caller
 * allows it) or a tool (by id, `toolReferenceName` or `<source>:<id>`).
 *
 * @beta
 */
export interface ToolFilterOptions {
    /** When given, only the tools these identifiers name are enabled. */
    readonly include?: readonly string[];
    /** Tools these identifiers name are disabled, after `include` was applied. */
    readonly exclude?: readonly string[];
}

/**
 * Which of {@link ToolFilterOptions} a warning or error is about.
 *
 * @beta
 */
export type ToolFilterOptionKey = keyof ToolFilterOptions;

/**
 * How a caller of {@link resolveToolFilter} wants edge cases handled.
 *
 * @beta
 */
export interface ResolveToolFilterSettings {
    /** How the caller's users spell the two options, for messages. Default `includeTools`/`excludeTools`. */
    readonly optionNames?: Readonly<Record<ToolFilterOptionKey, string>>;
    /** Whether a bare `referenceName` names a toolset (VS Code) or only its id does. Default true. */
    readonly matchToolSetReferenceNames?: boolean;
    /** `include: []`: an error (default), or a deliberate choice of no tools. */
    readonly emptyInclude?: "error" | "allow";
    /** A filter that leaves no tool: an error (default), a warning, or a deliberate choice. */
    readonly noToolsEnabled?: "error" | "warn" | "allow";
    /** Warn when a filter leaves more tools than this. Default 128, the per-request limit of models. */
    readonly maxTools?: number;
    /** Receives each warning as it is found; all of them are also in the result. */
    readonly onWarning?: (warning: ToolFilterWarning) => void;
}

/**
 * Which rule chose the tools, named after the options given: `"default"` (neither, every tool),
 * `"include"` (`include` only: just the tools it names), `"exclude"` (`exclude` only: every tool
 * but those it names) or `"combined"` (both: those included minus those excluded).
 *
 * @public
 */
export type ToolFilterMode = "default" | "include" | "exclude" | "combined";

/**
 * Codes of {@link ToolFilterWarning}:
 * - `UNKNOWN_IDENTIFIERS`: identifiers of one option that name no tool or toolset;
 * - `NO_TOOLS_ENABLED`: the filter leaves no tool (where the caller allows it);
 * - `TOO_MANY_TOOLS`: the filter leaves more tools than models accept in one request.
 *
 * @public
 */
export type ToolFilterWarningCode = "UNKNOWN_IDENTIFIERS" | "NO_TOOLS_ENABLED" | "TOO_MANY_TOOLS";

/**
 * Something the filter could honour but that is probably not what the caller meant.
 *
 * @beta
 */
export interface ToolFilterWarning {
    /** Machine-readable reason. */
    readonly code: ToolFilterWarningCode;
    /** What happened and what to do about it. */
    readonly message: string;
    /** The option concerned, as the caller spells it. */
    readonly option?: string;
    /** The identifiers concerned, all of them (the message may list only the first). */
    readonly identifiers?: readonly string[];
}

/**
 * An identifier that named nothing, with the known name it was probably meant to be.
 *
 * @public
 */
export interface UnknownToolIdentifier {
    /** The option it came from, as the caller spells it. */
    readonly option: string;
    /** The identifier as given. */
    readonly identifier: string;
    /** A known identifier within two edits (or differing in case), when there is one. */
    readonly suggestion?: string;
}

/**
 * What {@link resolveToolFilter} decided. Deeply immutable.
 *
 * @beta
 */
export interface ToolFilterResult {
    /** Which options were given. */
    readonly mode: ToolFilterMode;
    /** Ids of the enabled tools, in catalog order. */
    readonly enabledTools: readonly string[];
    /** Enablement of every catalog tool, keyed by tool id. */
    readonly toolEnablement: ReadonlyMap<string, boolean>;
    /**
     * Enablement of every toolset, keyed by `referenceName`: enabled when it has members in the
     * catalog and all of them are enabled.
     */
    readonly toolSetEnablement: ReadonlyMap<string, boolean>;
    /** Ids of the toolsets (and `<source>:*` groups) each option named, in the order given. */
    readonly namedToolSets: Readonly<Record<ToolFilterOptionKey, readonly string[]>>;
    /** Identifiers that named nothing. */
    readonly unknownIdentifiers: readonly UnknownToolIdentifier[];
    /** Every warning reported. */
    readonly warnings: readonly ToolFilterWarning[];
}

/**
 * Codes of {@link ToolFilterError}:
 * - `INVALID_FILTER_OPTION`: an option is not an array of non-empty strings;
 * - `INVALID_CATALOG`: the catalog is malformed (a tool without an id, two tools with one id, ...);
 * - `EMPTY_INCLUDE`: `include: []`, where the caller does not allow it;
 * - `NO_TOOLS_ENABLED`: the filter leaves no tool, where the caller does not allow it.
 *
 * @beta
 */
export type ToolFilterErrorCode =
    "INVALID_FILTER_OPTION" | "INVALID_CATALOG" | "EMPTY_INCLUDE" | "NO_TOOLS_ENABLED";

/**
 * Thrown by {@link resolveToolFilter} for input it cannot honour. Unknown identifiers are never
 * an error: they are warnings.
 *
 * @beta
 */
export class ToolFilterError extends Error {
    /** Machine-readable reason. */
    readonly code: ToolFilterErrorCode;
    /** The option concerned, as the caller spells it, when there is one. */
    readonly option: string | undefined;

    /**
     * @param code - machine-readable reason
     * @param message - what is wrong, quoting the value, and what to do instead
     * @param option - the option concerned
     */
    constructor(code: ToolFilterErrorCode, message: string, option?: string) {
        super(message);
        this.name = "ToolFilterError";
        this.code = code;
        this.option = option;
    }
}

/** The number of tools a model accepts in one request (OpenAI's and VS Code's limit). */
export const MAX_TOOLS_PER_REQUEST = 128;

/** How many unknown identifiers per option get a "did you mean" search. */
const SUGGESTED_UNKNOWNS = 10;

const INCLUDED_BY_NAME = 1;
const INCLUDED_BY_GROUP = 2;
const EXCLUDED_BY_NAME = 4;
const EXCLUDED_BY_GROUP = 8;

/** What one identifier named: tools directly, or a group of them. */
interface Match {
    readonly group: string | undefined;
    readonly tools: readonly number[];
}

/**
 * Resolves include/exclude identifiers against a catalog of tools and toolsets:
 *
 * - neither option: every tool; `include` only: just the tools it names; `exclude` only: all but
 *   those it names; both: those included minus those excluded;
 * - a toolset identifier affects all its members;
 * - precedence, strongest first: excluded by name, included by name, member of an excluded
 *   toolset, member of an included toolset;
 * - unknown identifiers give one warning per option, with suggestions.
 *
 * @param catalog - the available tools and toolsets (not modified)
 * @param options - the identifiers to include and exclude (not modified)
 * @param settings - how the caller spells the options and handles edge cases
 * @returns the enablement of every tool and toolset
 * @throws {@link ToolFilterError} for malformed options or catalog, and for an empty result
 *   where the caller does not allow one
 *
 * @example
 * ```typescript
 * const { enabledTools } = resolveToolFilter(
 *     {
 *         tools: [{ id: "view" }, { id: "edit" }, { id: "bash" }],
 *         toolSets: [{ id: "toolset:edit", referenceName: "edit", tools: ["edit"] }],
 *     },
 *     { include: ["edit", "view"] }
 * );
 * // enabledTools: ["view", "edit"]
 * ```
 * @beta
 */
export function resolveToolFilter(
    catalog: ToolFilterCatalog,
    options: ToolFilterOptions,
    settings: ResolveToolFilterSettings = {}
): ToolFilterResult {
    const names = settings.optionNames ?? { include: "includeTools", exclude: "excludeTools" };
    const include = readIdentifiers(options, "include", names.include);
    const excludeGiven = readIdentifiers(options, "exclude", names.exclude);
    // `exclude: []` is the same as leaving exclude out: same mode, same warnings.
    const exclude = excludeGiven?.length === 0 ? undefined : excludeGiven;
    if (include?.length === 0 && (settings.emptyInclude ?? "error") === "error") {
        throw new ToolFilterError(
            "EMPTY_INCLUDE",
            `${names.include} is empty, so no tool would be enabled. Name at least one tool or toolset, ` +
                `or leave ${names.include} out to keep every tool.`,
            names.include
        );
    }
    const index = new CatalogIndex(catalog, settings.matchToolSetReferenceNames ?? true);

    const marks = new Uint8Array(index.tools.length);
    const unknown: UnknownToolIdentifier[] = [];
    const namedToolSets: Record<ToolFilterOptionKey, string[]> = { include: [], exclude: [] };
    const apply = (key: ToolFilterOptionKey, identifiers: readonly string[] | undefined) => {
        const [byName, byGroup] =
            key === "include"
                ? [INCLUDED_BY_NAME, INCLUDED_BY_GROUP]
                : [EXCLUDED_BY_NAME, EXCLUDED_BY_GROUP];
        let suggested = 0;
        for (const identifier of identifiers ?? []) {
            const match = index.match(identifier);
            if (match === undefined) {
                const suggestion =
                    suggested++ < SUGGESTED_UNKNOWNS ? index.suggest(identifier) : undefined;
                unknown.push(
                    suggestion === undefined
                        ? { option: names[key], identifier }
                        : { option: names[key], identifier, suggestion }
                );
                continue;
            }
            if (match.group !== undefined) namedToolSets[key].push(match.group);
            const mark = match.group === undefined ? byName : byGroup;
            for (const tool of match.tools) marks[tool]! |= mark;
        }
    };
    apply("include", include);
    apply("exclude", exclude);

    const toolEnablement = new Map<string, boolean>();
    const enabledTools: string[] = [];
    index.tools.forEach((tool, position) => {
        const on = isEnabled(marks[position]!, include !== undefined);
        toolEnablement.set(tool.id, on);
        if (on) enabledTools.push(tool.id);
    });
    const toolSetEnablement = new Map<string, boolean>();
    for (const toolSet of index.toolSets.values()) {
        toolSetEnablement.set(
            toolSet.referenceName,
            toolSet.members.length > 0 &&
                toolSet.members.every((member) => toolEnablement.get(index.tools[member]!.id))
        );
    }

    const mode: ToolFilterMode =
        include === undefined
            ? exclude === undefined
                ? "default"
                : "exclude"
            : exclude === undefined
              ? "include"
              : "combined";
    const warnings: ToolFilterWarning[] = [];
    const warn = (warning: ToolFilterWarning) => {
        const frozen = Object.freeze(warning);
        warnings.push(frozen);
        settings.onWarning?.(frozen);
    };
    for (const option of [names.include, names.exclude]) {
        const ofOption = unknown.filter((entry) => entry.option === option);
        if (ofOption.length > 0) warn(unknownIdentifiersWarning(option, ofOption, index));
    }
    if (mode !== "default" && enabledTools.length === 0 && include?.length !== 0) {
        const message =
            `${describeFilter(mode, names)} leaves no tool enabled. ` +
            `Check the names against the available tools and toolsets, or widen the filter.`;
        const handling = settings.noToolsEnabled ?? "error";
        if (handling === "error") throw new ToolFilterError("NO_TOOLS_ENABLED", message);
        if (handling === "warn") warn({ code: "NO_TOOLS_ENABLED", message });
    }
    const maxTools = settings.maxTools ?? MAX_TOOLS_PER_REQUEST;
    if (mode !== "default" && enabledTools.length > maxTools) {
        warn(tooManyToolsWarning(enabledTools.length, maxTools));
    }

    return Object.freeze({
        mode,
        enabledTools: Object.freeze(enabledTools),
        toolEnablement: readonlyMap(toolEnablement),
        toolSetEnablement: readonlyMap(toolSetEnablement),
        namedToolSets: Object.freeze({
            include: Object.freeze(namedToolSets.include),
            exclude: Object.freeze(namedToolSets.exclude),
        }),
        unknownIdentifiers: Object.freeze(unknown.map((entry) => Object.freeze(entry))),
        warnings: Object.freeze(warnings),
    });
}

/**
 * The warning for a tool list longer than models accept in one request.
 *
 * @param count - how many tools the model would get
 * @param limit - how many it accepts
 * @returns a `TOO_MANY_TOOLS` warning
 */
export function tooManyToolsWarning(
    count: number,
    limit = MAX_TOOLS_PER_REQUEST
): ToolFilterWarning {
    return {
        code: "TOO_MANY_TOOLS",
        message:
            `The filter leaves ${count} tools, more than the ${limit} a model accepts in one request; ` +
            `requests may be refused or tools dropped. Exclude the toolsets you do not need.`,
    };
}

/**
 * Makes a map that cannot be changed through its own methods, for results that must stay as
 * they were decided.
 *
 * @param map - the map to seal; it must not be used afterwards
 * @returns the same entries, read-only
 */
export function readonlyMap<K, V>(map: Map<K, V>): ReadonlyMap<K, V> {
    const refuse = (): never => {
        throw new TypeError("This map is read-only.");
    };
    return Object.freeze(Object.assign(map, { set: refuse, delete: refuse, clear: refuse }));
}

function isEnabled(marks: number, includeGiven: boolean): boolean {
    if (marks & EXCLUDED_BY_NAME) return false;
    if (marks & INCLUDED_BY_NAME) return true;
    if (marks & EXCLUDED_BY_GROUP) return false;
    if (marks & INCLUDED_BY_GROUP) return true;
    return !includeGiven;
}

function describeFilter(mode: ToolFilterMode, names: Record<ToolFilterOptionKey, string>): string {
    if (mode === "include") return names.include;
    if (mode === "exclude") return names.exclude;
    return `${names.include} with ${names.exclude}`;
}

function unknownIdentifiersWarning(
    option: string,
    unknown: readonly UnknownToolIdentifier[],
    index: CatalogIndex
): ToolFilterWarning {
    const toolSets = index.toolSetNames();
    const plural = unknown.length === 1 ? "entry names" : "entries name";
    return {
        code: "UNKNOWN_IDENTIFIERS",
        option,
        identifiers: Object.freeze(unknown.map((entry) => entry.identifier)),
        message:
            `${unknown.length} ${option} ${plural} no known tool or toolset: ` +
            `${formatList(unknown.map((entry) => entry.identifier))}.` +
            suggestionSentence(unknown) +
            (toolSets.length > 0 ? ` Toolsets: ${formatList(toolSets, 160)}.` : ""),
    };
}

function readIdentifiers(
    options: ToolFilterOptions,
    key: ToolFilterOptionKey,
    option: string
): readonly string[] | undefined {
    if (options === null || typeof options !== "object") {
        throw new ToolFilterError(
            "INVALID_FILTER_OPTION",
            `Invalid tool filter options ${quoteValue(options)}: pass an object with ${option}.`,
            option
        );
    }
    const value: unknown = options[key];
    if (value === undefined) return undefined;
    const fail = (message: string) => new ToolFilterError("INVALID_FILTER_OPTION", message, option);
    return readListByIndex(value, {
        what: option,
        expected: "an array of tool or toolset names",
        fail,
        notAList: (list) =>
            fail(
                `Invalid ${option} ${quoteValue(list)}: pass an array of tool or toolset names, e.g. [${quoteValue(String(list))}].`
            ),
        readItem: (entry, position, present) => {
            if (typeof entry !== "string" || entry.length === 0) {
                throw fail(
                    `Invalid ${option}[${position}] ${present ? quoteValue(entry) : "(empty slot)"}: ` +
                        `every entry must be a non-empty tool or toolset name.`
                );
            }
            return entry;
        },
    });
}

/** Lookups from every kind of identifier to the catalog positions it names. */
class CatalogIndex {
    readonly tools: ToolFilterTool[] = [];
    readonly toolSets = new Map<string, { referenceName: string; members: number[] }>();
    readonly #byId = new Map<string, number>();
    readonly #byReferenceName = new Map<string, number[]>();
    readonly #byQualifiedId = new Map<string, number>();
    readonly #bySourceGroup = new Map<string, number[]>();
    readonly #toolSetByReferenceName = new Map<string, string>();
    readonly #matchReferenceNames: boolean;

    constructor(catalog: ToolFilterCatalog, matchReferenceNames: boolean) {
        this.#matchReferenceNames = matchReferenceNames;
        if (catalog === null || typeof catalog !== "object") {
            throw invalidCatalog(
                `Invalid tool catalog ${quoteValue(catalog)}: pass { tools, toolSets }.`
            );
        }
        for (const source of iterate(catalog.sources ?? [], "sources")) {
            this.#bySourceGroup.set(`${checkedSource(source)}:*`, []);
        }
        for (const tool of iterate(catalog.tools, "tools")) this.#addTool(tool);
        if (catalog.toolSets !== undefined && catalog.toolSets !== null) {
            for (const toolSet of iterate(catalog.toolSets, "toolSets")) this.#addToolSet(toolSet);
        }
    }

    match(identifier: string): Match | undefined {
        const toolSet =
            this.toolSets.get(identifier) ??
            (this.#matchReferenceNames
                ? this.toolSets.get(this.#toolSetByReferenceName.get(identifier) ?? "")
                : undefined);
        if (toolSet !== undefined) {
            const id = this.toolSets.has(identifier)
                ? identifier
                : this.#toolSetByReferenceName.get(identifier)!;
            return { group: id, tools: toolSet.members };
        }
        const sourceGroup = this.#bySourceGroup.get(identifier);
        if (sourceGroup !== undefined) return { group: identifier, tools: sourceGroup };
        const byId = this.#byId.get(identifier) ?? this.#byQualifiedId.get(identifier);
        if (byId !== undefined) return { group: undefined, tools: [byId] };
        const byReference = this.#byReferenceName.get(identifier);
        return byReference === undefined ? undefined : { group: undefined, tools: byReference };
    }

    /** Toolset names as users of this caller write them. */
    toolSetNames(): string[] {
        return [...this.toolSets].map(([id, toolSet]) =>
            this.#matchReferenceNames ? toolSet.referenceName : id
        );
    }

    suggest(identifier: string): string | undefined {
        // A toolset's bare name where only its id names it: the id is what was meant.
        const toolSetId = this.#toolSetByReferenceName.get(identifier);
        if (toolSetId !== undefined) return toolSetId;
        return closestName(identifier, this.#knownIdentifiers());
    }

    *#knownIdentifiers(): Generator<string> {
        for (const [id, toolSet] of this.toolSets) {
            yield id;
            if (this.#matchReferenceNames) yield toolSet.referenceName;
        }
        yield* this.#byId.keys();
        yield* this.#byReferenceName.keys();
        yield* this.#byQualifiedId.keys();
    }

    #addTool(tool: ToolFilterTool): void {
        const position = this.tools.length;
        if (tool === null || typeof tool !== "object" || !isName(tool.id)) {
            throw invalidCatalog(
                `Invalid tool at position ${position}: ${quoteValue(tool)} has no non-empty string id.`
            );
        }
        if (this.#byId.has(tool.id)) {
            throw invalidCatalog(
                `Two tools have the id ${quoteValue(tool.id)}: tool ids must be unique.`
            );
        }
        this.tools.push(tool);
        this.#byId.set(tool.id, position);
        if (isName(tool.toolReferenceName)) {
            const same = this.#byReferenceName.get(tool.toolReferenceName);
            if (same === undefined) this.#byReferenceName.set(tool.toolReferenceName, [position]);
            else same.push(position);
        }
        const sources = iterate(tool.sources ?? [], () => `sources of tool ${quoteValue(tool.id)}`);
        for (const source of sources) {
            this.#byQualifiedId.set(`${checkedSource(source)}:${tool.id}`, position);
            const sourceGroup = this.#bySourceGroup.get(`${source}:*`);
            if (sourceGroup === undefined) this.#bySourceGroup.set(`${source}:*`, [position]);
            else sourceGroup.push(position);
        }
    }

    #addToolSet(toolSet: ToolFilterToolSet): void {
        if (
            toolSet === null ||
            typeof toolSet !== "object" ||
            !isName(toolSet.id) ||
            !isName(toolSet.referenceName)
        ) {
            throw invalidCatalog(
                `Invalid toolset ${quoteValue(toolSet)}: a toolset needs a non-empty string id and referenceName.`
            );
        }
        if (
            this.toolSets.has(toolSet.id) ||
            this.#toolSetByReferenceName.has(toolSet.referenceName)
        ) {
            throw invalidCatalog(
                `Two toolsets are called ${quoteValue(toolSet.referenceName)} (id ${quoteValue(toolSet.id)}): ` +
                    `toolset ids and names must be unique.`
            );
        }
        const members = new Set<number>();
        for (const member of iterate(toolSet.tools, `toolset '${toolSet.referenceName}' tools`)) {
            if (!isName(member)) {
                throw invalidCatalog(
                    `Invalid member ${quoteValue(member)} of toolset ${quoteValue(toolSet.referenceName)}: ` +
                        `members are tool ids or reference names.`
                );
            }
            const position = this.#byId.get(member);
            if (position !== undefined) members.add(position);
            else for (const named of this.#byReferenceName.get(member) ?? []) members.add(named);
        }
        this.toolSets.set(toolSet.id, {
            referenceName: toolSet.referenceName,
            members: [...members].sort((a, b) => a - b),
        });
        this.#toolSetByReferenceName.set(toolSet.referenceName, toolSet.id);
    }
}

/** `values` as an iterable, or an error naming `what` (a function: built only for the message). */
function iterate<T>(values: Iterable<T> | undefined, what: string | (() => string)): Iterable<T> {
    if (values === null || typeof values !== "object" || !(Symbol.iterator in values)) {
        const named = typeof what === "string" ? what : what();
        throw invalidCatalog(
            `Invalid catalog ${named} ${quoteValue(values)}: pass an array or other iterable.`
        );
    }
    return values;
}

function checkedSource(source: unknown): string {
    if (!isName(source)) {
        throw invalidCatalog(
            `Invalid source ${quoteValue(source)}: a source is a non-empty string such as 'builtin'.`
        );
    }
    return source;
}

function isName(value: unknown): value is string {
    return typeof value === "string" && value.length > 0;
}

function invalidCatalog(message: string): ToolFilterError {
    return new ToolFilterError("INVALID_CATALOG", message);
}
