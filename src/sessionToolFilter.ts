import {
    BUILT_IN_TOOL_SET_NAME,
    CUSTOM_TOOL_SET_NAME,
    DEFAULT_TOOL_SETS,
    type SessionToolSetDefinition,
} from "./defaultToolSets.js";
import { SessionToolError, quoteValue } from "./sessionToolError.js";
import {
    resolveToolFilter,
    type ToolCatalog,
    type ToolCatalogToolSet,
    type ToolFilterResult,
} from "./toolFilter.js";
import type { SessionToolWarning } from "./sessionToolWarning.js";

/**
 * Session options that choose the session's tools by name, with the semantics of
 * `workbench.action.chat.open` in VS Code (see {@link resolveToolFilter}).
 */
export interface SessionToolConfig {
    /**
     * Tools to enable; when given, only these (and the members of the toolsets named here) are
     * enabled. Each entry names a toolset (its name, or `toolset:<name>`), a tool by name, or a
     * source-qualified tool (`builtin:<name>`, `custom:<name>`, `mcp:<name>`, or `<source>:*`).
     * Source-qualified names of tools the session cannot know at construction (MCP tools, tools
     * of custom agents) are passed on to the runtime's filter.
     */
    includeTools?: readonly string[];
    /**
     * Tools to disable, named like in {@link includeTools}. An explicit tool exclusion always
     * wins; a tool named directly in `includeTools` stays enabled when only a toolset that
     * contains it is excluded.
     */
    excludeTools?: readonly string[];
    /**
     * Named toolsets for this session, in addition to the defaults (`read`, `edit`, `search`,
     * `execute`, `web`, `agent`, `custom`, `builtin`); one with a default's name replaces it,
     * except `custom` and `builtin`, which are always computed.
     */
    toolSets?: readonly SessionToolSetDefinition[];
}

/** Prefix of the toolset ids in a session's tool catalog (`toolset:edit`, ...). */
export const TOOL_SET_ID_PREFIX = "toolset:";

/** What a session's tool filter needs to know about its tools. */
export interface SessionToolInventory {
    /** Built-in tools the runtime offers the session's model, in the runtime's order. */
    readonly builtIns: readonly string[];
    /** Custom tools of the session, in config order (overrides included). */
    readonly custom: readonly string[];
    /** Built-in names that custom tools replace. */
    readonly overridden: ReadonlySet<string>;
}

/** The filters a session sends to the runtime, in the runtime's own vocabulary. */
export interface WireToolFilters {
    /** `availableTools` to send, or undefined to send none. */
    readonly availableTools: readonly string[] | undefined;
    /** `excludedTools` to send, or undefined to send none. */
    readonly excludedTools: readonly string[] | undefined;
    /** Custom tools that stay enabled: only these are sent and registered. */
    readonly enabledCustomTools: ReadonlySet<string>;
}

/** The outcome of {@link resolveSessionToolFilter}. */
export interface SessionToolFilterResolution {
    /** The resolution by the shared tool-filter helper, over the session's catalog. */
    readonly filter: ToolFilterResult;
    /** The catalog it resolved against. */
    readonly catalog: ToolCatalog;
    /** Source-qualified identifiers passed on to the runtime because nothing here knows them. */
    readonly passThrough: readonly string[];
    /** What to send. */
    readonly wire: WireToolFilters;
}

const SOURCE_PATTERN = /^(builtin|custom|mcp):(.+)$/;
const RESERVED_TOOL_SET_NAMES: ReadonlySet<string> = new Set([
    CUSTOM_TOOL_SET_NAME,
    BUILT_IN_TOOL_SET_NAME,
]);

/**
 * Checks the `toolSets` option and returns its entries; a toolset must have a unique, non-empty
 * name without ':' (which source-qualified identifiers use) and a `tools` array of tool names.
 *
 * @param toolSets - the option as the caller passed it
 * @returns the toolsets (the caller's objects, unchanged)
 * @throws SessionToolError `INVALID_TOOL_SET`
 */
export function validateToolSets(toolSets: unknown): readonly SessionToolSetDefinition[] {
    if (toolSets === undefined || toolSets === null) return [];
    if (!Array.isArray(toolSets)) {
        throw new SessionToolError(
            "INVALID_TOOL_SET",
            `Invalid toolSets option ${quoteValue(toolSets)}: pass an array such as [{ name: "quality", tools: ["lint", "format"] }].`
        );
    }
    const seen = new Set<string>();
    toolSets.forEach((toolSet: unknown, index: number) => {
        const where = `toolSets[${index}]`;
        if (toolSet === null || typeof toolSet !== "object") {
            throw new SessionToolError(
                "INVALID_TOOL_SET",
                `Invalid ${where} ${quoteValue(toolSet)}: a toolset is an object { name, tools }.`
            );
        }
        const { name, tools } = toolSet as Record<string, unknown>;
        if (typeof name !== "string" || name.trim() === "" || name.includes(":")) {
            throw new SessionToolError(
                "INVALID_TOOL_SET",
                `Invalid ${where}.name ${quoteValue(name)}: use a non-empty name without ':' (for example 'quality').`
            );
        }
        if (RESERVED_TOOL_SET_NAMES.has(name)) {
            throw new SessionToolError(
                "INVALID_TOOL_SET",
                `Invalid ${where}.name ${quoteValue(name)}: the '${name}' toolset is computed by the SDK and cannot be redefined; choose another name.`,
                [name]
            );
        }
        if (seen.has(name)) {
            throw new SessionToolError(
                "INVALID_TOOL_SET",
                `Duplicate toolset name ${quoteValue(name)} in toolSets: give each toolset its own name.`,
                [name]
            );
        }
        seen.add(name);
        if (
            !Array.isArray(tools) ||
            tools.some((tool) => typeof tool !== "string" || tool === "")
        ) {
            throw new SessionToolError(
                "INVALID_TOOL_SET",
                `Invalid ${where}.tools ${quoteValue(tools)} of toolset ${quoteValue(name)}: list member tool names as non-empty strings.`,
                [name]
            );
        }
    });
    return toolSets as SessionToolSetDefinition[];
}

/**
 * Resolves `includeTools`/`excludeTools` for a session with the shared helper
 * {@link resolveToolFilter} and translates the outcome into the runtime's filters.
 *
 * The catalog holds the built-ins the runtime offers the model (minus those that custom tools
 * replace), the custom tools, the toolsets, and a placeholder per source-qualified identifier
 * that names no known tool, so that such identifiers follow the same precedence rules and reach
 * the runtime's own filter.
 *
 * @param inventory - the session's tools
 * @param config - the caller's filter options
 * @param onWarning - receives the helper's warnings and the SDK's own
 * @returns the resolution and the wire filters
 */
export function resolveSessionToolFilter(
    inventory: SessionToolInventory,
    config: SessionToolConfig,
    onWarning: (warning: SessionToolWarning) => void
): SessionToolFilterResolution {
    const toolSets = validateToolSets(config.toolSets);
    const builtIns = inventory.builtIns.filter((name) => !inventory.overridden.has(name));
    const builtInSet = new Set(builtIns);
    const customSet = new Set(inventory.custom);

    const passThrough: string[] = [];
    const mapIdentifier = (
        option: "includeTools" | "excludeTools",
        identifier: unknown
    ): unknown => {
        if (typeof identifier !== "string") return identifier;
        const match = SOURCE_PATTERN.exec(identifier);
        if (match === null) return identifier;
        const [, source, name] = match as unknown as [string, string, string];
        if (name === "*" && source !== "mcp") {
            return (
                TOOL_SET_ID_PREFIX +
                (source === "custom" ? CUSTOM_TOOL_SET_NAME : BUILT_IN_TOOL_SET_NAME)
            );
        }
        if (source === "builtin" && inventory.overridden.has(name)) {
            onWarning({
                code: "OVERRIDDEN_BUILT_IN_IDENTIFIER",
                toolName: name,
                option,
                identifier,
                message:
                    option === "includeTools"
                        ? `includeTools entry '${identifier}' names a built-in that your custom tool '${name}' overrides; the custom '${name}' is included. Write '${name}' to name it directly.`
                        : `excludeTools entry '${identifier}' names a built-in that your custom tool '${name}' already replaces; the custom '${name}' stays. Write '${name}' to exclude it as well.`,
            });
            return option === "includeTools" ? name : undefined;
        }
        if (
            (source === "builtin" && builtInSet.has(name)) ||
            (source === "custom" && customSet.has(name))
        ) {
            return name;
        }
        if (!passThrough.includes(identifier)) passThrough.push(identifier);
        return identifier;
    };
    const mapList = (option: "includeTools" | "excludeTools"): unknown => {
        const list = config[option];
        if (!Array.isArray(list)) return list;
        return list
            .map((identifier) => mapIdentifier(option, identifier))
            .filter((v) => v !== undefined);
    };
    const includeTools = mapList("includeTools");
    const excludeTools = mapList("excludeTools");

    const catalog = buildSessionToolCatalog(builtIns, inventory.custom, toolSets, passThrough);
    const filter = resolveToolFilter(
        catalog,
        { includeTools, excludeTools } as { includeTools?: string[]; excludeTools?: string[] },
        { onWarning }
    );
    return Object.freeze({
        filter,
        catalog,
        passThrough: Object.freeze(passThrough),
        wire: toWireFilters(filter, builtInSet, customSet, inventory.overridden, passThrough),
    });
}

/**
 * Builds a session's tool catalog for the shared helper: the built-ins the model is offered
 * (those that custom tools replace already removed), the custom tools, a placeholder tool per
 * pass-through identifier, and the toolsets (defaults, replaced or extended by the caller's).
 * Tool ids are the tool names; toolset ids are `toolset:<name>` with the name as reference name.
 *
 * @param builtIns - built-in tool names, overridden ones removed
 * @param custom - custom tool names
 * @param userToolSets - validated `toolSets`
 * @param passThrough - source-qualified identifiers no known tool answers to
 * @returns the catalog
 */
export function buildSessionToolCatalog(
    builtIns: readonly string[],
    custom: readonly string[],
    userToolSets: readonly SessionToolSetDefinition[],
    passThrough: readonly string[]
): ToolCatalog {
    const present = new Set([...builtIns, ...custom]);
    const userByName = new Map(userToolSets.map((toolSet) => [toolSet.name, toolSet]));
    const toolSets: ToolCatalogToolSet[] = [];
    const add = (name: string, tools: readonly string[]): void => {
        toolSets.push({ id: TOOL_SET_ID_PREFIX + name, referenceName: name, tools: [...tools] });
    };
    for (const defaults of DEFAULT_TOOL_SETS) {
        const user = userByName.get(defaults.name);
        if (user !== undefined) {
            add(user.name, user.tools);
            userByName.delete(user.name);
        } else if (defaults.name === CUSTOM_TOOL_SET_NAME) {
            add(defaults.name, custom);
        } else if (defaults.name === BUILT_IN_TOOL_SET_NAME) {
            add(defaults.name, builtIns);
        } else {
            add(
                defaults.name,
                defaults.tools.filter((tool) => present.has(tool))
            );
        }
    }
    for (const toolSet of userByName.values()) add(toolSet.name, toolSet.tools);
    return {
        tools: [...builtIns, ...custom, ...passThrough].map((id) => ({ id })),
        toolSets,
    };
}

function toWireFilters(
    filter: ToolFilterResult,
    builtIns: ReadonlySet<string>,
    custom: ReadonlySet<string>,
    overridden: ReadonlySet<string>,
    passThrough: readonly string[]
): WireToolFilters {
    const enabledCustomTools = new Set(
        [...custom].filter((name) => filter.toolEnablement.get(name))
    );
    if (filter.mode === "default") {
        return Object.freeze({
            availableTools: undefined,
            excludedTools: undefined,
            enabledCustomTools,
        });
    }
    const qualify = (name: string): string =>
        builtIns.has(name) ? `builtin:${name}` : custom.has(name) ? `custom:${name}` : name;
    const disabledPassThrough = passThrough.filter((id) => filter.toolEnablement.get(id) === false);
    if (filter.mode === "blacklist") {
        const excluded = [...builtIns]
            .filter((name) => filter.toolEnablement.get(name) === false)
            .map(qualify);
        // A custom tool that replaces a built-in and is excluded is not sent, so nothing
        // overrides the built-in any more: exclude it too, or the model would get it back.
        for (const name of overridden) {
            if (!enabledCustomTools.has(name)) excluded.push(`builtin:${name}`);
        }
        return Object.freeze({
            availableTools: undefined,
            excludedTools: Object.freeze([...excluded, ...disabledPassThrough]),
            enabledCustomTools,
        });
    }
    return Object.freeze({
        availableTools: Object.freeze(filter.enabledTools.map(qualify)),
        excludedTools:
            disabledPassThrough.length > 0 ? Object.freeze(disabledPassThrough) : undefined,
        enabledCustomTools,
    });
}
