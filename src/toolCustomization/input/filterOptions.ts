// The filter options of a session config or a `setTools` update as the caller passed them
// (`availableTools`, `excludedTools`, `customToolSets`), read once into frozen copies before
// anything else looks at them; the session filter (construction/filter.ts) decides on what these
// readers return.

import { describeValue, readList, readOrRefuse, readRecord } from "./callerInput.js";
import { quoteValue } from "../../shared/formatting.js";
import { SessionToolError } from "../api/sessionToolError.js";
import { DEFAULT_TOOL_SETS, TOOL_SET_NAME_PATTERN } from "../catalog/defaultToolSets.js";
import { parseFilterEntry, type FilterEntry } from "./filterEntry.js";

/** The session's filter options after the SDK's own normalisation (`ToolSet` to array). */
export interface SessionToolFilterOptions {
    availableTools?: unknown;
    excludedTools?: unknown;
    customToolSets?: unknown;
}

/** The two filter lists. */
export type FilterOption = "availableTools" | "excludedTools";

/** The entries' text, as given, in a frozen list. */
export function textsOf(
    entries: readonly FilterEntry[] | undefined
): readonly string[] | undefined {
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
            `Invalid ${option}: it cannot be read (${reason}); pass an array of tool names, ` +
            `'toolset:<name>' entries and 'builtin:'/'custom:'/'mcp:' patterns, or a ToolSet.`
    );
}

/**
 * Reads a filter list once, by index, into a frozen copy of parsed entries: what is checked is
 * what is sent, even if the caller's array has methods of its own.
 */
export function readEntries(
    value: unknown,
    option: FilterOption
): readonly FilterEntry[] | undefined {
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
                    `Invalid ${option}[${position}] ${present ? describeValue(entry) : "(empty slot)"}: ` +
                        `every entry must be a tool name, 'toolset:<name>', or a 'builtin:'/'custom:'/'mcp:' pattern.`
                );
            }
            if (entry === "*") {
                // The SDK's own check throws a plain Error for this; the session step refuses it
                // first, as every other filter mistake.
                throw new SessionToolError(
                    "INVALID_TOOL_FILTER",
                    `Invalid ${option} entry '*': there is no bare wildcard. Use 'builtin:*', ` +
                        `'custom:*' or 'mcp:*' to name the tools of one source.`,
                    [entry]
                );
            }
            return parseFilterEntry(entry);
        }
    );
}

/**
 * The session's toolsets: {@link DEFAULT_TOOL_SETS}, then `customToolSets`, whose entries replace
 * a default toolset of the same name; and `customToolSets` as read.
 */
export function sessionToolSets(customToolSets: unknown): {
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
            `Invalid customToolSets: it cannot be read (${reason}); ` +
            `pass an object of toolset names to tool names, e.g. { quality: ["lint", "format"] }.`
    );
    if (isBuilder) {
        throw new SessionToolError(
            "INVALID_TOOL_SET",
            "customToolSets got a ToolSet builder. A ToolSet is a filter list: " +
                'pass it as availableTools or excludedTools. customToolSets defines named groups: { quality: ["lint", "format"] }.'
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
                    `Invalid member ${present ? describeValue(member) : "(empty slot)"} of customToolSets.${name}: ` +
                        `list tool names, e.g. ${example}; to combine toolsets, list their members.`,
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
