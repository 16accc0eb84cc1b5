import { describeValue, readList, readOrRefuse, readRecord } from "../input/callerInput.js";
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
import {
    DEFAULT_TOOL_SETS,
    TOOL_SET_NAME_PATTERN,
    TOOL_SET_PREFIX,
} from "../catalog/defaultToolSets.js";
import { parseFilterEntry, unhandledFilterEntry, type FilterEntry } from "../input/filterEntry.js";

/** The session's filter options after the SDK's own normalisation (`ToolSet` to array). */
export interface SessionToolFilterOptions {
    availableTools?: unknown;
    excludedTools?: unknown;
    customToolSets?: unknown;
}

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

type FilterOption = "availableTools" | "excludedTools";

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
    checkToolSetEntries("availableTools", available);
    checkToolSetEntries("excludedTools", excluded);
    // Before the filter's own warnings: a mistyped member is why a toolset enables nothing.
    const unknownMembers = checkCustomToolSetMembers(customToolSets, inventory, onWarning);

    const resolvedTexts = (entries: readonly FilterEntry[] | undefined) =>
        entries?.filter(isResolved).map((entry) => entry.text);
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
        { include: resolvedTexts(available), exclude: resolvedTexts(excluded) },
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

/** The entries' text, as given, in a frozen list. */
function textsOf(entries: readonly FilterEntry[] | undefined): readonly string[] | undefined {
    if (entries === undefined) return undefined;
    return Object.freeze(entries.map((entry) => entry.text));
}

/**
 * Reads the filter options of a session config (or `setTools` update) once, before anything else
 * looks at them, including the SDK's own checks: a `ToolSet` becomes its entries, each list a
 * frozen copy read by index, `customToolSets` a frozen copy of its own entries. Malformed values
 * are refused here with a `SessionToolError`, never a `TypeError` from a later read.
 *
 * @param options - the options as the caller passed them (not modified)
 * @returns the same options, read
 * @throws SessionToolError `INVALID_TOOL_FILTER` or `INVALID_TOOL_SET`
 */
export function readFilterOptions(options: SessionToolFilterOptions): SessionToolFilterOptions {
    const { customToolSets } = sessionToolSets(options.customToolSets);
    return {
        availableTools: textsOf(
            readEntries(filterListOf(options.availableTools, "availableTools"), "availableTools")
        ),
        excludedTools: textsOf(
            readEntries(filterListOf(options.excludedTools, "excludedTools"), "excludedTools")
        ),
        customToolSets,
    };
}

/** A `ToolSet` builder's entries (its public `toArray`), anything else as it is. */
function filterListOf(value: unknown, option: FilterOption): unknown {
    if (value === undefined || value === null || typeof value !== "object") return value;
    return readOrRefuse(
        () => {
            if (Array.isArray(value)) return value;
            const { toArray } = value as { toArray?: unknown };
            return typeof toArray === "function" ? (toArray.call(value) as unknown) : value;
        },
        "INVALID_TOOL_FILTER",
        (reason) =>
            `Invalid ${option}: it cannot be read (${reason}); pass an array of tool names, 'toolset:<name>' entries and 'builtin:'/'custom:'/'mcp:' patterns, or a ToolSet.`
    );
}

/**
 * Reads a filter list once, by index, into a frozen copy of parsed entries: what is checked is
 * what is sent, even if the caller's array has methods of its own.
 */
function readEntries(value: unknown, option: FilterOption): readonly FilterEntry[] | undefined {
    if (value === undefined || value === null) return undefined;
    return readList(
        value,
        option,
        "INVALID_TOOL_FILTER",
        "an array of tool names, 'toolset:<name>' entries and 'builtin:'/'custom:'/'mcp:' patterns, or a ToolSet",
        (entry, position, present) => {
            if (typeof entry !== "string" || entry.length === 0) {
                throw new SessionToolError(
                    "INVALID_TOOL_FILTER",
                    `Invalid ${option}[${position}] ${present ? describeValue(entry) : "(empty slot)"}: every entry must be a tool name, 'toolset:<name>', or a 'builtin:'/'custom:'/'mcp:' pattern.`
                );
            }
            if (entry === "*") {
                // The SDK's own check throws a plain Error for this; the session step refuses it
                // first, as every other filter mistake.
                throw new SessionToolError(
                    "INVALID_TOOL_FILTER",
                    `Invalid ${option} entry '*': there is no bare wildcard. Use 'builtin:*', 'custom:*' or 'mcp:*' to name the tools of one source.`,
                    [entry]
                );
            }
            return parseFilterEntry(entry);
        }
    );
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
                    `Invalid ${option} entry ${quoteValue(entry.text)}: a tool name or '*' must follow '${entry.kind}:', e.g. '${entry.kind}:*'.`,
                    [entry.text]
                );
            case "otherPrefix": {
                const suggestion = closestName(entry.prefix, KNOWN_PREFIXES);
                throw new SessionToolError(
                    "INVALID_TOOL_FILTER",
                    `Invalid ${option} entry ${quoteValue(entry.text)}: ${quoteValue(entry.prefix)} is not a tool source, so the entry would match no tool.` +
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
                message: `${option} has no members, so ${quoteValue(`${TOOL_SET_PREFIX}${name}`)} names no tool. List its tools, e.g. ${name}: ["lint", "format"], or leave it out.`,
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

/** Toolset entries must be well formed; an unknown toolset name only warns (with suggestions). */
export function checkToolSetEntries(
    option: string,
    entries: readonly FilterEntry[] | undefined
): void {
    for (const entry of entries ?? []) {
        if (entry.kind !== "toolSet" || TOOL_SET_NAME_PATTERN.test(entry.name)) continue;
        throw new SessionToolError(
            "INVALID_TOOL_FILTER",
            `Invalid ${option} entry ${quoteValue(entry.text)}: write 'toolset:' followed by a toolset name (letters, digits, '_' or '-'), e.g. 'toolset:edit'.`,
            [entry.text]
        );
    }
}

/**
 * The session's toolsets: {@link DEFAULT_TOOL_SETS}, then `customToolSets`, whose entries replace
 * a default toolset of the same name; and `customToolSets` as read.
 */
function sessionToolSets(customToolSets: unknown): {
    toolSets: ReadonlyMap<string, readonly string[]>;
    customToolSets: Readonly<Record<string, readonly string[]>> | undefined;
} {
    const toolSets = new Map(Object.entries(DEFAULT_TOOL_SETS));
    if (customToolSets === undefined || customToolSets === null) {
        return { toolSets, customToolSets: undefined };
    }
    const isBuilder = readOrRefuse(
        () => typeof (customToolSets as { toArray?: unknown }).toArray === "function",
        "INVALID_TOOL_SET",
        (reason) =>
            `Invalid customToolSets: it cannot be read (${reason}); pass an object of toolset names to tool names, e.g. { quality: ["lint", "format"] }.`
    );
    if (isBuilder) {
        throw new SessionToolError(
            "INVALID_TOOL_SET",
            'customToolSets got a ToolSet builder. A ToolSet is a filter list: pass it as availableTools or excludedTools. customToolSets defines named groups: { quality: ["lint", "format"] }.'
        );
    }
    const read: [string, readonly string[]][] = [];
    const definitions = readRecord(
        customToolSets,
        "customToolSets",
        "INVALID_TOOL_SET",
        'an object of toolset names to tool names, e.g. { quality: ["lint", "format"] }'
    );
    for (const [name, members] of definitions) {
        if (!TOOL_SET_NAME_PATTERN.test(name)) {
            throw new SessionToolError(
                "INVALID_TOOL_SET",
                `Invalid customToolSets name ${quoteValue(name)}: use letters, digits, '_' or '-'.`,
                [name]
            );
        }
        const toolSet = Object.freeze([...new Set(readMembers(name, members))]);
        toolSets.set(name, toolSet);
        read.push([name, toolSet]);
    }
    return { toolSets, customToolSets: Object.freeze(Object.fromEntries(read)) };
}

/** Reads one toolset's members once, by index, and checks each is a tool name. */
function readMembers(name: string, members: unknown): readonly string[] {
    const example = `${name}: ["lint", "format"]`;
    return readList(
        members,
        `customToolSets.${name}`,
        "INVALID_TOOL_SET",
        `a list of tool names, e.g. ${example}`,
        (member, _position, present) => {
            if (typeof member !== "string" || member === "" || member.includes(":")) {
                throw new SessionToolError(
                    "INVALID_TOOL_SET",
                    `Invalid member ${present ? describeValue(member) : "(empty slot)"} of customToolSets.${name}: list tool names, e.g. ${example}; to combine toolsets, list their members.`,
                    [name]
                );
            }
            return member;
        },
        (value) =>
            new SessionToolError(
                "INVALID_TOOL_SET",
                `Invalid customToolSets.${name} ${describeValue(value)}: it must be a list of tool names, e.g. ${example}.`,
                [name]
            )
    );
}

function unique(entries: readonly string[]): readonly string[] {
    return Object.freeze([...new Set(entries)]);
}
