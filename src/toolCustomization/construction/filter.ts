import { formatList, quoteValue, suggestionSentence } from "../../shared/formatting.js";
import { closestName } from "../../toolFilter/nameSuggestions.js";
import { SessionToolError } from "../api/sessionToolError.js";
import type { SessionToolWarning } from "../api/sessionToolWarning.js";
import {
    resolveToolFilter,
    type ToolFilterResult,
    type ToolFilterTool,
    type UnknownToolIdentifier,
} from "../../toolFilter/toolFilter.js";
import { TOOL_SET_NAME_PATTERN, TOOL_SET_PREFIX } from "../catalog/defaultToolSets.js";
import { unhandledFilterEntry, type FilterEntry } from "../input/filterEntry.js";
import { builtInToolGroups } from "../catalog/builtInToolGroups.js";
import { MEASURED_BUILT_IN_TOOLS } from "../catalog/generated/measuredBuiltInTools.generated.js";
import {
    readEntries,
    sessionToolSets,
    textsOf,
    type FilterOption,
    type SessionToolFilterOptions,
} from "../input/filterOptions.js";

export type { SessionToolFilterOptions };

/** The tools a session's filter chooses from. */
export interface SessionToolInventory {
    /** Built-ins of every model family and option (what toolsets may contain). */
    readonly builtIns: readonly string[];
    /** Names of the custom tools. */
    readonly custom: readonly string[];
    /** Built-ins that custom tools of the same name replace. */
    readonly overridden: ReadonlySet<string>;
    /** By built-in, the other names whose exclusion also removes it (measured). */
    readonly excludedWith: ReadonlyMap<string, readonly string[]>;
}

/** What the filter decided and what the runtime must be sent for it. */
export interface SessionToolFilter {
    /** The helper's decision over the inventory. */
    readonly result: ToolFilterResult;
    /** The session's toolsets: the defaults, and `customToolSets` (which may replace them). */
    readonly toolSets: ReadonlyMap<string, readonly string[]>;
    /** `availableTools` for the runtime: the entries given, toolsets expanded. */
    readonly availableTools: readonly string[] | undefined;
    /** `excludedTools` for the runtime: the entries given, toolsets expanded. */
    readonly excludedTools: readonly string[] | undefined;
    /** `customToolSets` members that name no known tool (option `customToolSets.<name>`). */
    readonly unknownMembers: readonly UnknownToolIdentifier[];
    /** The options as read, once, into frozen copies: what was checked. */
    readonly given: {
        readonly availableTools: readonly string[] | undefined;
        readonly excludedTools: readonly string[] | undefined;
        readonly customToolSets: Readonly<Record<string, readonly string[]>> | undefined;
    };
}

/**
 * Every built-in name of every measured runtime, and of the `BuiltInTools` groups: names the
 * package knows, although a given runtime may lack some.
 */
const MEASURED_BUILT_IN_NAMES: ReadonlySet<string> = new Set([
    ...MEASURED_BUILT_IN_TOOLS.flatMap((entry) => entry.builtIns),
    ...Object.values(builtInToolGroups).flat(),
]);

/** Source prefixes the filter resolves itself; `mcp:` entries go to the runtime as they are. */
const RESOLVED_SOURCES = new Set(["builtin", "custom"]);

/** Every prefix an entry may have: the SDK's sources and `toolset`, in the order suggested. */
const KNOWN_PREFIXES: readonly string[] = [
    "builtin",
    "custom",
    "mcp",
    TOOL_SET_PREFIX.slice(0, -1),
];

/**
 * Resolves `availableTools` / `excludedTools` (with `toolset:<name>` entries) and
 * `customToolSets` through {@link resolveToolFilter}, and translates the outcome for the runtime.
 * Entries the runtime understands reach it unchanged; a toolset entry becomes its members, except
 * that members named explicitly in `availableTools` are not excluded by an excluded toolset (the
 * runtime lets an exclusion win, as the helper does for tools named explicitly).
 *
 * @param options - the session's filter options
 * @param inventory - the tools to choose from
 * @param onWarning - receives the helper's warnings
 * @returns the decision and the wire lists
 * @throws SessionToolError `INVALID_TOOL_FILTER` or `INVALID_TOOL_SET`
 */
export function resolveSessionToolFilter(
    options: SessionToolFilterOptions,
    inventory: SessionToolInventory,
    onWarning: (warning: SessionToolWarning) => void
): SessionToolFilter {
    const available = readEntries(options.availableTools, "availableTools");
    const excluded = readEntries(options.excludedTools, "excludedTools");
    const sets = sessionToolSets(options.customToolSets);
    // The outcome is a function of what was read and of the inventory: sessions built alike
    // (the common case: one app, one set of options) share it, with its warnings.
    const key = JSON.stringify([
        available?.map((entry) => entry.text) ?? null,
        excluded?.map((entry) => entry.text) ?? null,
        sets.customToolSets ?? null,
        inventory.custom,
        [...inventory.overridden],
    ]);
    let outcomes = filterOutcomes.get(inventory.builtIns);
    if (outcomes === undefined) filterOutcomes.set(inventory.builtIns, (outcomes = new Map()));
    const earlier = outcomes.get(key);
    if (earlier !== undefined && earlier.excludedWith === inventory.excludedWith) {
        for (const warning of earlier.warnings) onWarning(warning);
        return earlier.filter;
    }
    const warnings: SessionToolWarning[] = [];
    const filter = filterOf(available, excluded, sets, inventory, (warning) => {
        warnings.push(Object.freeze(warning));
        onWarning(warning);
    });
    if (outcomes.size >= MAX_FILTER_OUTCOMES) outcomes.clear();
    outcomes.set(key, { excludedWith: inventory.excludedWith, filter, warnings });
    return filter;
}

/** How many filter outcomes are kept per built-in inventory (a runtime's catalog). */
const MAX_FILTER_OUTCOMES = 64;

/**
 * By built-in inventory (one per catalog, see `modelFacingBuiltIns`), the filter outcomes of
 * earlier sessions, keyed by what the filter read and the custom tools. Each outcome is frozen
 * (lists) or read-only (maps) and is handed to every session built alike.
 */
const filterOutcomes = new WeakMap<
    readonly string[],
    Map<
        string,
        {
            readonly excludedWith: SessionToolInventory["excludedWith"];
            readonly filter: SessionToolFilter;
            readonly warnings: readonly SessionToolWarning[];
        }
    >
>();

/** {@link resolveSessionToolFilter} for lists already read. */
function filterOf(
    available: readonly FilterEntry[] | undefined,
    excluded: readonly FilterEntry[] | undefined,
    { toolSets, customToolSets }: ReturnType<typeof sessionToolSets>,
    inventory: SessionToolInventory,
    onWarning: (warning: SessionToolWarning) => void
): SessionToolFilter {
    checkEntryPrefixes("availableTools", available);
    checkEntryPrefixes("excludedTools", excluded);
    checkToolSetEntries("availableTools", available, toolSets);
    checkToolSetEntries("excludedTools", excluded, toolSets);
    // Before the filter's own warnings: a mistyped member is why a toolset enables nothing.
    const unknownMembers = checkCustomToolSetMembers(customToolSets, inventory, onWarning);

    const resolvedTexts = (entries: readonly FilterEntry[] | undefined) =>
        entries?.filter(isResolved).map((entry) => entry.text);
    // Excluding a built-in that another measured runtime has and this one lacks (`write_bash` on
    // 1.0.85, a member of the documented families and of BuiltInTools.Execute) excludes nothing
    // here: a known name, neither warned about nor refused under strictToolFilters.
    const offered = new Set([...inventory.builtIns, ...inventory.custom]);
    const excludesKnownAbsent = (entry: FilterEntry) =>
        (entry.kind === "tool" || entry.kind === "builtin") &&
        !offered.has(entry.name) &&
        MEASURED_BUILT_IN_NAMES.has(entry.name);
    // The entries were checked above, so the helper refuses nothing here (a ToolFilterError from
    // it would be a bug of these checks, and is left to surface as it is).
    const result: ToolFilterResult = resolveToolFilter(
        {
            tools: inventoryTools(inventory),
            sources: RESOLVED_SOURCES,
            toolSets: [...toolSets].map(([name, tools]) => ({
                id: `${TOOL_SET_PREFIX}${name}`,
                referenceName: name,
                tools,
            })),
        },
        {
            include: resolvedTexts(available),
            exclude: resolvedTexts(excluded?.filter((entry) => !excludesKnownAbsent(entry))),
        },
        {
            optionNames: { include: "availableTools", exclude: "excludedTools" },
            matchToolSetReferenceNames: false,
            emptyInclude: "allow",
            // MCP and other pass-through entries may still enable tools the helper cannot see.
            noToolsEnabled: available?.some((entry) => !isResolved(entry)) ? "allow" : "warn",
            maxTools: Number.POSITIVE_INFINITY,
            onWarning,
        }
    );

    // Entries reach the runtime as given; a toolset entry becomes its members.
    const namedExplicitly = new Set(available?.map(namedTool).filter((name) => name !== undefined));
    // Excluding a toolset must not take a named tool with it through a runtime alias (the
    // runtime removes grep with rg).
    const removesNamed = (member: string) =>
        [...namedExplicitly].some(
            (name) => inventory.excludedWith.get(name)?.includes(member) === true
        );
    const wireEntries = (entry: FilterEntry, option: FilterOption): readonly string[] => {
        switch (entry.kind) {
            case "toolSet": {
                const members = toolSets.get(entry.name) ?? [];
                return option === "availableTools"
                    ? members
                    : members.filter(
                          (member) => !namedExplicitly.has(member) && !removesNamed(member)
                      );
            }
            case "tool":
            case "builtin":
            case "custom":
            case "mcp":
            case "otherPrefix":
                return [entry.text];
            default:
                return unhandledFilterEntry(entry);
        }
    };
    const wireAvailable =
        available &&
        unique([
            ...available.flatMap((entry) => wireEntries(entry, "availableTools")),
            ...overridesKeptByBuiltInPatterns(available, inventory.overridden),
        ]);
    const wireExcluded =
        excluded && unique(excluded.flatMap((entry) => wireEntries(entry, "excludedTools")));
    return {
        result,
        toolSets,
        availableTools: wireAvailable,
        excludedTools: wireExcluded,
        unknownMembers,
        given: Object.freeze({
            availableTools: textsOf(available),
            excludedTools: textsOf(excluded),
            customToolSets,
        }),
    };
}

function inventoryTools(inventory: SessionToolInventory): ToolFilterTool[] {
    const custom = new Set(inventory.custom);
    const tools: ToolFilterTool[] = inventory.builtIns
        .filter((name) => !custom.has(name))
        .map((id) => ({ id, sources: ["builtin"] }));
    for (const id of inventory.custom) {
        // An override answers to both sources, so `builtin:view` still names the tool called view.
        tools.push({
            id,
            sources: inventory.overridden.has(id) ? ["custom", "builtin"] : ["custom"],
        });
    }
    return tools;
}

/**
 * The runtime matches `builtin:` patterns against built-ins only, and an override is a custom
 * tool: without help, `availableTools: ["builtin:view"]` would drop the custom `view` and leave no
 * `view` at all. Each such pattern also allows the overriding custom tool.
 */
function overridesKeptByBuiltInPatterns(
    available: readonly FilterEntry[],
    overridden: ReadonlySet<string>
): string[] {
    const patterns = new Set(
        available.filter((entry) => entry.kind === "builtin").map((entry) => entry.name)
    );
    return [...overridden]
        .filter((name) => patterns.has("*") || patterns.has(name))
        .map((name) => `custom:${name}`);
}

/** The tool an entry names explicitly (a bare name, `builtin:<name>`, `custom:<name>`). */
function namedTool(entry: FilterEntry): string | undefined {
    switch (entry.kind) {
        case "tool":
            return entry.name;
        case "builtin":
        case "custom":
            return entry.name === "*" ? undefined : entry.name;
        case "toolSet":
        case "mcp":
        case "otherPrefix":
            return undefined;
        default:
            return unhandledFilterEntry(entry);
    }
}

/** Entries the helper resolves: bare names, toolsets, and `builtin:` / `custom:` patterns. */
function isResolved(entry: FilterEntry): boolean {
    switch (entry.kind) {
        case "tool":
        case "toolSet":
        case "builtin":
        case "custom":
            return true;
        case "mcp":
        case "otherPrefix":
            return false;
        default:
            return unhandledFilterEntry(entry);
    }
}

/**
 * Every `<prefix>:` must be one the runtime or the filter knows: the runtime matches any other
 * prefix against nothing, so `Builtin:view` or `mpc:github-x` would silently remove a tool from
 * the session (or leave it without tools).
 */
export function checkEntryPrefixes(
    option: string,
    entries: readonly FilterEntry[] | undefined
): void {
    for (const entry of entries ?? []) {
        switch (entry.kind) {
            case "tool":
            case "toolSet": // the name after 'toolset:' has its own check
                continue;
            case "builtin":
            case "custom":
            case "mcp":
                if (entry.name.length > 0) continue;
                throw new SessionToolError(
                    "INVALID_TOOL_FILTER",
                    `Invalid ${option} entry ${quoteValue(entry.text)}: ` +
                        `a tool name or '*' must follow '${entry.kind}:', e.g. '${entry.kind}:*'.`,
                    [entry.text]
                );
            case "otherPrefix": {
                const suggestion = closestName(entry.prefix, KNOWN_PREFIXES);
                throw new SessionToolError(
                    "INVALID_TOOL_FILTER",
                    `Invalid ${option} entry ${quoteValue(entry.text)}: ` +
                        `${quoteValue(entry.prefix)} is not a tool source, so the entry would match no tool.` +
                        (suggestion === undefined
                            ? ""
                            : ` Did you mean ${quoteValue(`${suggestion}:${entry.name}`)}?`) +
                        ` Write a bare tool name, or prefix it with 'builtin:', 'custom:', 'mcp:' or 'toolset:'.`,
                    [entry.text]
                );
            }
            default:
                unhandledFilterEntry(entry);
        }
    }
}

/**
 * Members of `customToolSets` that name no tool the session knows (a built-in of any model
 * family, or a custom tool) get one `UNKNOWN_IDENTIFIERS` warning per toolset, with suggestions;
 * an empty toolset gets `EMPTY_TOOL_SET`. Like unknown filter entries, unknown members still reach
 * the runtime, which may know them (an MCP tool's bare name).
 */
function checkCustomToolSetMembers(
    customToolSets: Readonly<Record<string, readonly string[]>> | undefined,
    inventory: SessionToolInventory,
    onWarning: (warning: SessionToolWarning) => void
): readonly UnknownToolIdentifier[] {
    if (customToolSets === undefined) return Object.freeze([]);
    const known = new Set([...inventory.custom, ...inventory.builtIns]);
    const unknown: UnknownToolIdentifier[] = [];
    for (const [name, members] of Object.entries(customToolSets)) {
        const option = `customToolSets.${name}`;
        if (members.length === 0) {
            onWarning({
                code: "EMPTY_TOOL_SET",
                option,
                identifiers: Object.freeze([`${TOOL_SET_PREFIX}${name}`]),
                message:
                    `${option} has no members, so ${quoteValue(`${TOOL_SET_PREFIX}${name}`)} names no tool. ` +
                    `List its tools, e.g. ${name}: ["lint", "format"], or leave it out.`,
            });
            continue;
        }
        const ofToolSet: UnknownToolIdentifier[] = [];
        for (const member of members) {
            if (known.has(member)) continue;
            const suggestion = closestName(member, known);
            ofToolSet.push(
                Object.freeze(
                    suggestion === undefined
                        ? { option, identifier: member }
                        : { option, identifier: member, suggestion }
                )
            );
        }
        if (ofToolSet.length === 0) continue;
        unknown.push(...ofToolSet);
        const plural = ofToolSet.length === 1 ? "member names" : "members name";
        onWarning({
            code: "UNKNOWN_IDENTIFIERS",
            option,
            identifiers: Object.freeze(ofToolSet.map((entry) => entry.identifier)),
            message:
                `${ofToolSet.length} ${option} ${plural} no known tool: ${formatList(ofToolSet.map((entry) => entry.identifier))}.` +
                suggestionSentence(ofToolSet) +
                (ofToolSet.length === 1
                    ? " It still reaches the runtime, which may know it (an MCP tool)."
                    : " They still reach the runtime, which may know them (MCP tools)."),
        });
    }
    return Object.freeze(unknown);
}

/**
 * Toolset entries must be well formed and name a toolset of the session: the package knows every
 * toolset (the defaults and `customToolSets`), so an unknown name is a mistake, refused with the
 * closest name, never passed on (an excluded toolset that names nothing would exclude nothing).
 */
export function checkToolSetEntries(
    option: string,
    entries: readonly FilterEntry[] | undefined,
    toolSets: ReadonlyMap<string, readonly string[]>
): void {
    for (const entry of entries ?? []) {
        if (entry.kind !== "toolSet") continue;
        if (!TOOL_SET_NAME_PATTERN.test(entry.name)) {
            throw new SessionToolError(
                "INVALID_TOOL_FILTER",
                `Invalid ${option} entry ${quoteValue(entry.text)}: ` +
                    "write 'toolset:' followed by a toolset name (letters, digits, '_' or '-'), " +
                    "e.g. 'toolset:edit'.",
                [entry.text]
            );
        }
        if (toolSets.has(entry.name)) continue;
        const suggestion = closestName(entry.name, [...toolSets.keys()]);
        throw new SessionToolError(
            "INVALID_TOOL_FILTER",
            `Invalid ${option} entry ${quoteValue(entry.text)}: the session has no toolset ` +
                `${quoteValue(entry.name)}, so the entry would name no tool.` +
                (suggestion === undefined
                    ? ""
                    : ` Did you mean ${quoteValue(`${TOOL_SET_PREFIX}${suggestion}`)}?`) +
                ` Toolsets: ${formatList([...toolSets.keys()])}; ` +
                "define others with customToolSets.",
            [entry.text]
        );
    }
}

function unique(entries: readonly string[]): readonly string[] {
    return Object.freeze([...new Set(entries)]);
}
