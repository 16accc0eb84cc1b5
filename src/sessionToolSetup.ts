import {
    loadBuiltInToolCatalog,
    offeredBuiltInTools,
    type BuiltInToolCatalog,
    type BuiltInToolCatalogCache,
    type ToolListingHost,
} from "./builtInToolCatalog.js";
import {
    resolveBuiltInToolOverrides,
    type BuiltInToolCollisionPolicy,
} from "./builtInToolOverrides.js";
import { validateCustomTools, type CustomToolLike } from "./customToolValidation.js";
import { evaluateRuntimeToolFilter } from "./runtimeToolFilter.js";
import { SessionToolError, quoteValue } from "./sessionToolError.js";
import {
    buildSessionToolCatalog,
    resolveSessionToolFilter,
    validateToolSets,
    type SessionToolConfig,
    type SessionToolFilterResolution,
} from "./sessionToolFilter.js";
import type { SessionToolWarning } from "./sessionToolWarning.js";
import { ReadonlyMapView, type ToolCatalogToolSet, type ToolFilterMode } from "./toolFilter.js";

export type { BuiltInToolCollisionPolicy } from "./builtInToolOverrides.js";
export type { CustomToolDeclarationOptions } from "./customToolValidation.js";
export type { SessionToolConfig } from "./sessionToolFilter.js";

/** Client options that this patch adds to the SDK's `CopilotClientOptions`. */
export interface SessionToolClientOptions {
    /**
     * What happens when a custom tool has the name of a built-in tool: `"override"` (default)
     * replaces the built-in, `"error"` refuses the session unless the tool sets
     * `overridesBuiltInTool: true`. See {@link BuiltInToolCollisionPolicy}.
     */
    builtInToolCollisions?: BuiltInToolCollisionPolicy;
    /**
     * Receives the warnings of session construction (automatic overrides, unknown filter
     * identifiers, ...). Defaults to `console.warn` of each warning's message.
     */
    onToolWarning?: (warning: SessionToolWarning) => void;
}

/**
 * How a session's tools were resolved at construction; read it from `session.toolResolution`
 * to show which tools and toolsets are on. Deeply immutable.
 */
export interface SessionToolResolution {
    /**
     * Which rule chose the tools: a mode of the tool filter (`"default"`, `"whitelist"`,
     * `"blacklist"`, `"combined"`) for `includeTools`/`excludeTools`, or `"runtime"` when the
     * caller used the runtime's `availableTools`/`excludedTools` patterns.
     */
    readonly mode: ToolFilterMode | "runtime";
    /** Names of the enabled tools known at construction, built-ins first, in catalog order. */
    readonly enabledTools: readonly string[];
    /** Enablement of every known tool, keyed by tool name. */
    readonly toolEnablement: ReadonlyMap<string, boolean>;
    /** Enablement of every toolset, keyed by toolset name (`edit`, `custom`, ...). */
    readonly toolSetEnablement: ReadonlyMap<string, boolean>;
    /** The toolsets of this session with their members present in the catalog. */
    readonly toolSets: readonly { readonly name: string; readonly tools: readonly string[] }[];
    /** Built-in tools that custom tools of the same name replace. */
    readonly overriddenBuiltInTools: readonly string[];
    /** Source-qualified identifiers passed on to the runtime's filter (MCP tools, ...). */
    readonly passThroughIdentifiers: readonly string[];
    /** Filter identifiers that matched nothing. */
    readonly unknownIdentifiers: readonly {
        readonly option: string;
        readonly identifier: string;
    }[];
    /** Warnings reported while constructing the session. */
    readonly warnings: readonly SessionToolWarning[];
    /** Where the built-in tool names came from: the runtime's listing or the pinned list. */
    readonly builtInCatalogSource: BuiltInToolCatalog["source"];
    /** What was sent to the runtime. */
    readonly wire: {
        readonly tools: readonly string[];
        readonly availableTools: readonly string[] | undefined;
        readonly excludedTools: readonly string[] | undefined;
    };
}

/** Per-client state of the tool setup, created by the patched `CopilotClient` constructor. */
export interface SessionToolState {
    /** The client's `builtInToolCollisions`, defaulted. */
    readonly policy: BuiltInToolCollisionPolicy;
    /** The client's `onToolWarning`, defaulted to `console.warn` of the message. */
    readonly onWarning: (warning: SessionToolWarning) => void;
    /** Tool names whose automatic override this client has reported already. */
    readonly reportedOverrides: Set<string>;
    /** Built-in catalogs by model, each listed at most once per client. */
    readonly catalogs: BuiltInToolCatalogCache;
}

/** The part of `CopilotClient` that the tool setup uses. */
export interface SessionToolHost extends ToolListingHost {
    sessionToolState?: SessionToolState;
}

/** A session config after the tool setup, with what to expose on the session. */
export interface PreparedSessionTools<C> {
    /** The config to construct the session with: a new object, the caller's is untouched. */
    readonly config: C;
    /** The resolution to expose as `session.toolResolution`. */
    readonly resolution: SessionToolResolution | undefined;
}

const COLLISION_POLICIES: ReadonlySet<unknown> = new Set(["override", "error"]);

/**
 * Reads and checks the client options of the tool setup; called by the `CopilotClient`
 * constructor, so a bad option fails there.
 *
 * @param options - the client options as the caller passed them
 * @returns the state the client keeps
 * @throws SessionToolError `INVALID_OPTION`
 */
export function createSessionToolState(options: unknown): SessionToolState {
    const { builtInToolCollisions, onToolWarning } = (options ?? {}) as SessionToolClientOptions;
    if (builtInToolCollisions !== undefined && !COLLISION_POLICIES.has(builtInToolCollisions)) {
        throw new SessionToolError(
            "INVALID_OPTION",
            `Invalid builtInToolCollisions ${quoteValue(builtInToolCollisions)}: use 'override' (custom tools replace built-ins of the same name) or 'error' (refuse such sessions).`
        );
    }
    if (onToolWarning !== undefined && typeof onToolWarning !== "function") {
        throw new SessionToolError(
            "INVALID_OPTION",
            `Invalid onToolWarning ${quoteValue(onToolWarning)}: pass a function that receives each warning, or leave it out to log with console.warn.`
        );
    }
    return {
        policy: builtInToolCollisions ?? "override",
        onWarning: onToolWarning ?? ((warning) => console.warn(warning.message)),
        reportedOverrides: new Set(),
        catalogs: new Map(),
    };
}

/**
 * The session-construction step: run by `createSession` and `resumeSession` before anything is
 * sent. It checks the custom tools, lets custom tools override built-ins of the same name,
 * resolves `includeTools`/`excludeTools`/`toolSets`, and returns the config to send, in which
 * every tool name has exactly one definition and only enabled custom tools appear.
 *
 * @param client - the `CopilotClient`
 * @param config - the caller's session config (never modified)
 * @param operation - which method runs the step, for messages
 * @returns the config to use and the resolution to expose on the session
 * @throws SessionToolError or ToolFilterError before any session exists on the runtime
 */
export async function prepareSessionTools<C>(
    client: SessionToolHost,
    config: C,
    operation: "createSession" | "resumeSession"
): Promise<PreparedSessionTools<C>> {
    if (config === null || typeof config !== "object") return { config, resolution: undefined };
    const source = config as C & SessionToolConfig & Record<string, unknown>;
    const state = (client.sessionToolState ??= createSessionToolState(undefined));

    const customTools = validateCustomTools(source.tools);
    const filterOptions = (["includeTools", "excludeTools", "toolSets"] as const).filter(
        (key) => source[key] !== undefined
    );
    const runtimeOptions = (["availableTools", "excludedTools"] as const).filter(
        (key) => source[key] !== undefined
    );
    if (filterOptions.length > 0 && runtimeOptions.length > 0) {
        throw new SessionToolError(
            "CONFLICTING_TOOL_FILTERS",
            `${operation} got ${filterOptions.join(" and ")} together with ${runtimeOptions.join(" and ")}. ` +
                "Use one vocabulary: includeTools/excludeTools (tool and toolset names, with 'builtin:', 'custom:' and 'mcp:' names passed through), " +
                "or the runtime's availableTools/excludedTools patterns, not both."
        );
    }
    validateToolSets(source.toolSets);

    const catalog = await loadBuiltInToolCatalog(client, state.catalogs, source.model, (w) =>
        state.onWarning(w)
    );
    const warnings: SessionToolWarning[] = [];
    const warn = (warning: SessionToolWarning): void => {
        const frozen = Object.freeze({ ...warning });
        warnings.push(frozen);
        state.onWarning(frozen);
    };

    const overrides = resolveBuiltInToolOverrides(customTools, catalog, state.policy);
    for (const name of overrides.automatic) {
        if (state.reportedOverrides.has(name)) continue;
        state.reportedOverrides.add(name);
        warn({
            code: "AUTOMATIC_OVERRIDE",
            toolName: name,
            message: `Custom tool '${name}' replaces the built-in tool '${name}'. Set overridesBuiltInTool: true on it to make this explicit and silence this warning, or rename it to keep both.`,
        });
    }
    for (const { tool, builtIn } of overrides.caseOnlyMatches) {
        warn({
            code: "CASE_ONLY_MATCH",
            toolName: tool,
            message: `Custom tool '${tool}' differs from the built-in tool '${builtIn}' only in case; tool names are case-sensitive, so both are offered. Name it '${builtIn}' to replace the built-in, or choose a clearly different name.`,
        });
    }
    for (const name of overrides.needlessFlags) {
        warn({
            code: "NEEDLESS_OVERRIDE_FLAG",
            toolName: name,
            message: `Custom tool '${name}' sets overridesBuiltInTool: true, but this runtime has no built-in tool '${name}' for the session's model; the flag has no effect.`,
        });
    }

    const overridden = new Set(overrides.overridden);
    const customNames = overrides.tools.map((tool) => tool.name);
    const offered = offeredBuiltInTools(catalog, source);
    const builtInNames = offered.filter((name) => !overridden.has(name));
    let resolution: Omit<SessionToolResolution, "warnings" | "wire" | "builtInCatalogSource">;
    let sentTools: readonly CustomToolLike[] = overrides.tools;
    let availableTools: readonly string[] | undefined;
    let excludedTools: readonly string[] | undefined;

    if (runtimeOptions.length > 0) {
        availableTools = keepOverridesAvailable(
            toPatternList(source.availableTools),
            overrides.overridden,
            warn
        );
        excludedTools = toPatternList(source.excludedTools);
        const toolEnablement = evaluateRuntimeToolFilter(
            [
                ...builtInNames.map((name) => ({ name, source: "builtin" as const })),
                ...customNames.map((name) => ({ name, source: "custom" as const })),
            ],
            availableTools,
            excludedTools
        );
        // The runtime applies availableTools to built-ins only, although the SDK documents it
        // for custom tools too ('custom:*'); so custom tools the patterns leave out are not sent.
        // An override that is not sent no longer replaces its built-in: exclude that as well.
        sentTools = overrides.tools.filter((tool) => toolEnablement.get(tool.name) === true);
        const dropped = overrides.overridden.filter((name) => !toolEnablement.get(name));
        if (dropped.length > 0) {
            excludedTools = [...(excludedTools ?? []), ...dropped.map((name) => `builtin:${name}`)];
        }
        // toolSets cannot accompany availableTools/excludedTools (refused above): defaults only.
        const toolSets = buildSessionToolCatalog(builtInNames, customNames, [], [])
            .toolSets as readonly ToolCatalogToolSet[];
        resolution = {
            mode: "runtime",
            enabledTools: [...toolEnablement].filter(([, on]) => on).map(([name]) => name),
            toolEnablement,
            toolSetEnablement: toolSetEnablementOf(toolSets, toolEnablement),
            toolSets: toolSets.map(({ referenceName, tools }) => ({ name: referenceName, tools })),
            overriddenBuiltInTools: overrides.overridden,
            passThroughIdentifiers: [],
            unknownIdentifiers: [],
        };
    } else {
        const filtered: SessionToolFilterResolution = resolveSessionToolFilter(
            { builtIns: offered, custom: customNames, overridden },
            source,
            warn
        );
        const { filter, wire } = filtered;
        sentTools = overrides.tools.filter((tool) => wire.enabledCustomTools.has(tool.name));
        availableTools = wire.availableTools;
        excludedTools = wire.excludedTools;
        const passThrough = new Set(filtered.passThrough);
        const toolSetEnablement = new Map<string, boolean>();
        for (const toolSet of filtered.catalog.toolSets ?? []) {
            toolSetEnablement.set(
                toolSet.referenceName,
                filter.toolSetEnablement.get(toolSet.id) ?? false
            );
        }
        resolution = {
            mode: filter.mode,
            // The helper's outputs are immutable already; copy only to drop the placeholders.
            enabledTools:
                passThrough.size === 0
                    ? filter.enabledTools
                    : filter.enabledTools.filter((id) => !passThrough.has(id)),
            toolEnablement:
                passThrough.size === 0
                    ? filter.toolEnablement
                    : new Map([...filter.toolEnablement].filter(([id]) => !passThrough.has(id))),
            toolSetEnablement,
            toolSets: (filtered.catalog.toolSets ?? []).map(({ referenceName, tools }) => ({
                name: referenceName,
                tools,
            })),
            overriddenBuiltInTools: overrides.overridden,
            passThroughIdentifiers: filtered.passThrough,
            unknownIdentifiers: filter.unknownIdentifiers,
        };
    }

    const prepared: Record<string, unknown> = { ...source };
    if (source.tools !== undefined || sentTools.length > 0) prepared.tools = [...sentTools];
    if (availableTools !== undefined) prepared.availableTools = [...availableTools];
    if (excludedTools !== undefined) prepared.excludedTools = [...excludedTools];

    return {
        config: prepared as C,
        resolution: freezeResolution({
            ...resolution,
            warnings,
            builtInCatalogSource: catalog.source,
            wire: {
                tools: sentTools.map((tool) => tool.name),
                availableTools,
                excludedTools,
            },
        }),
    };
}

/**
 * Exposes the resolution on the constructed session as the read-only `toolResolution`.
 *
 * @param session - the session `createSession`/`resumeSession` constructed
 * @param prepared - the step's outcome for that session
 * @returns the same session
 */
export function attachSessionToolResolution<S extends object>(
    session: S,
    prepared: PreparedSessionTools<unknown>
): S {
    Object.defineProperty(session, "toolResolution", {
        value: prepared.resolution,
        enumerable: true,
        writable: false,
        configurable: false,
    });
    return session;
}

/**
 * An override is a custom tool, so the runtime's `builtin:` patterns no longer match it: an
 * allowlist written as `builtin:view` or `builtin:*` would drop the custom `view` and leave no
 * `view` at all. Each such pattern also allows the overriding custom tool.
 */
function keepOverridesAvailable(
    patterns: readonly string[] | undefined,
    overridden: readonly string[],
    warn: (warning: SessionToolWarning) => void
): readonly string[] | undefined {
    if (patterns === undefined || overridden.length === 0) return patterns;
    const result = [...patterns];
    for (const name of overridden) {
        const named = patterns.includes(`builtin:${name}`);
        if (!named && !patterns.includes("builtin:*")) continue;
        if (!result.includes(`custom:${name}`)) result.push(`custom:${name}`);
        if (named) {
            warn({
                code: "OVERRIDDEN_BUILT_IN_IDENTIFIER",
                toolName: name,
                identifier: `builtin:${name}`,
                message: `availableTools entry 'builtin:${name}' names a built-in that your custom tool '${name}' overrides; 'custom:${name}' is allowed as well, so the model keeps a '${name}'.`,
            });
        }
    }
    return result;
}

function toPatternList(value: unknown): readonly string[] | undefined {
    if (value === undefined || value === null) return undefined;
    const toArray = (value as { toArray?: unknown }).toArray;
    if (typeof toArray === "function") return (toArray as () => string[]).call(value);
    return Array.isArray(value) ? [...(value as string[])] : undefined;
}

function toolSetEnablementOf(
    toolSets: readonly ToolCatalogToolSet[],
    toolEnablement: ReadonlyMap<string, boolean>
): Map<string, boolean> {
    const enablement = new Map<string, boolean>();
    for (const { referenceName, tools } of toolSets) {
        const members = tools.filter((tool) => toolEnablement.has(tool));
        enablement.set(
            referenceName,
            members.length > 0 && members.every((tool) => toolEnablement.get(tool) === true)
        );
    }
    return enablement;
}

/**
 * Makes the resolution deeply immutable, reusing the parts that already are (the filter
 * helper's frozen arrays and read-only maps), since this runs for every session.
 */
function freezeResolution(resolution: SessionToolResolution): SessionToolResolution {
    return Object.freeze({
        ...resolution,
        enabledTools: frozenArray(resolution.enabledTools),
        toolEnablement: readonlyMap(resolution.toolEnablement),
        toolSetEnablement: readonlyMap(resolution.toolSetEnablement),
        toolSets: Object.freeze(
            resolution.toolSets.map((toolSet) =>
                Object.freeze({ name: toolSet.name, tools: frozenArray(toolSet.tools) })
            )
        ),
        overriddenBuiltInTools: frozenArray(resolution.overriddenBuiltInTools),
        passThroughIdentifiers: frozenArray(resolution.passThroughIdentifiers),
        unknownIdentifiers: Object.freeze(
            resolution.unknownIdentifiers.map((unknown) =>
                Object.isFrozen(unknown) ? unknown : Object.freeze({ ...unknown })
            )
        ),
        warnings: Object.freeze([...resolution.warnings]),
        wire: Object.freeze({
            tools: Object.freeze([...resolution.wire.tools]),
            availableTools:
                resolution.wire.availableTools && frozenArray(resolution.wire.availableTools),
            excludedTools:
                resolution.wire.excludedTools && frozenArray(resolution.wire.excludedTools),
        }),
    });
}

function frozenArray<T>(values: readonly T[]): readonly T[] {
    return Object.isFrozen(values) ? values : Object.freeze([...values]);
}

function readonlyMap<K, V>(map: ReadonlyMap<K, V>): ReadonlyMap<K, V> {
    return map instanceof ReadonlyMapView ? map : new ReadonlyMapView(new Map(map));
}
