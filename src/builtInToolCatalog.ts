import {
    ALL_BUILT_IN_TOOL_NAMES,
    CONDITIONAL_BUILT_IN_TOOL_NAMES,
    DEFAULT_MODEL_TOOL_NAMES_BY_MODEL,
    FORBIDDEN_CUSTOM_TOOL_NAMES,
    RUNTIME_TOOL_NAMES_VERSION,
    UNHONOURED_OVERRIDE_TOOL_NAMES,
} from "./builtInToolNames.generated.js";
import type { SessionToolWarning } from "./sessionToolWarning.js";

/** The part of `CopilotClient` that lists the runtime's built-in tools. */
export interface ToolListingHost {
    start(): Promise<void>;
    readonly rpc: {
        readonly tools: {
            list(params: { model?: string }): Promise<{ tools: readonly { name: string }[] }>;
        };
    };
}

/** The built-in tools of the runtime for one model. */
export interface BuiltInToolCatalog {
    /** The model it was listed for (undefined: the runtime's default). */
    readonly model: string | undefined;
    /**
     * Built-in tools the runtime offers the model in a session without optional handlers or
     * modes; {@link offeredBuiltInTools} adds those that session options switch on.
     */
    readonly offered: readonly string[];
    /** Every name a custom tool collides with for this model. */
    readonly reserved: ReadonlySet<string>;
    /** Reserved names whose override the runtime ignores or refuses. */
    readonly unhonoured: ReadonlySet<string>;
    /** `"runtime"` when listed by `tools.list`, `"pinned"` when the pinned list stood in. */
    readonly source: "runtime" | "pinned";
}

/** Catalogs by model key, shared by all sessions of one client. */
export type BuiltInToolCatalogCache = Map<string, Promise<BuiltInToolCatalog>>;

/**
 * Returns the built-in tool catalog for a model, asking the runtime (`tools.list`) at most once
 * per client and model. The listing is completed with the names the pinned list knows the runtime
 * reserves without listing them. When the runtime cannot list its tools, the pinned list alone
 * is used and a `CATALOG_FALLBACK` warning says so.
 *
 * @param client - the `CopilotClient` (started here when needed)
 * @param cache - the client's catalog cache
 * @param model - the session's model, if given
 * @param onWarning - receives a `CATALOG_FALLBACK` warning
 * @returns the catalog
 */
export function loadBuiltInToolCatalog(
    client: ToolListingHost,
    cache: BuiltInToolCatalogCache,
    model: unknown,
    onWarning: (warning: SessionToolWarning) => void
): Promise<BuiltInToolCatalog> {
    const modelName = typeof model === "string" && model !== "" ? model : undefined;
    const key = modelName ?? "";
    const cached = cache.get(key);
    if (cached !== undefined) return cached;
    const pending = listBuiltInTools(client, modelName).then(
        (listed) => composeBuiltInToolCatalog(listed, modelName, "runtime"),
        (error: unknown) => {
            // A runtime that lacks tools.list will not grow it: keep the fallback. Any other
            // failure may pass, so the next session asks again.
            if (!isMethodNotFound(error)) cache.delete(key);
            onWarning({
                code: "CATALOG_FALLBACK",
                message: `The runtime could not list its built-in tools (${errorText(error)}); using the names pinned for runtime ${RUNTIME_TOOL_NAMES_VERSION}.`,
            });
            return composeBuiltInToolCatalog(undefined, modelName, "pinned");
        }
    );
    cache.set(key, pending);
    return pending;
}

async function listBuiltInTools(
    client: ToolListingHost,
    model: string | undefined
): Promise<readonly string[]> {
    await client.start();
    const listing = await client.rpc.tools.list(model === undefined ? {} : { model });
    if (!Array.isArray(listing?.tools)) {
        throw new Error("tools.list answered without a tools array");
    }
    return listing.tools
        .map((tool) => tool?.name)
        .filter((name): name is string => typeof name === "string");
}

/**
 * Combines the runtime's listing with the pinned names into a catalog.
 *
 * `tools.list` is the same for every model and is not what the model is offered: it shows
 * `skill` (offered only with skill directories) and `create`/`edit`/`grep` to models that get
 * `apply_patch`/`rg` instead, and never `sql`. So the offered set is the pinned, measured default
 * set of the model (or of the runtime's fallback for unknown ids), plus any listed name the
 * pinned lists do not know at all (a built-in newer than the measurement).
 *
 * Collisions are decided against every built-in name the runtime has for any model or mode
 * (the pinned {@link ALL_BUILT_IN_TOOL_NAMES}, which holds the built-ins `tools.list` does not
 * show) together with the listing, so that a custom tool keeps its override when the session
 * later switches model or mode, and never silently runs a hidden built-in.
 *
 * @param listed - names from `tools.list`, or undefined when unavailable
 * @param model - the model the catalog is for
 * @param source - where `listed` came from
 * @returns the catalog
 */
export function composeBuiltInToolCatalog(
    listed: readonly string[] | undefined,
    model: string | undefined,
    source: "runtime" | "pinned"
): BuiltInToolCatalog {
    const known = new Set(ALL_BUILT_IN_TOOL_NAMES);
    const unknownListed = (listed ?? []).filter((name) => !known.has(name));
    const offered = [...new Set([...pinnedDefaultToolNames(model), ...unknownListed])];
    return Object.freeze({
        model,
        offered: Object.freeze(offered),
        reserved: new Set([...ALL_BUILT_IN_TOOL_NAMES, ...(listed ?? [])]),
        unhonoured: new Set([...UNHONOURED_OVERRIDE_TOOL_NAMES, ...FORBIDDEN_CUSTOM_TOOL_NAMES]),
        source,
    });
}

/**
 * Session options that make the runtime offer extra built-ins, keyed like
 * {@link CONDITIONAL_BUILT_IN_TOOL_NAMES}. Modes (plan, autopilot) are chosen after construction
 * and cannot be foreseen here.
 */
const CONDITIONAL_OPTIONS: readonly [string, (config: Record<string, unknown>) => boolean][] = [
    ["onUserInputRequest", (config) => typeof config.onUserInputRequest === "function"],
    ["manageScheduleEnabled", (config) => config.manageScheduleEnabled === true],
    ["enableSessionStore", (config) => config.enableSessionStore === true],
    [
        "skillDirectories",
        (config) => Array.isArray(config.skillDirectories) && config.skillDirectories.length > 0,
    ],
];

/**
 * The built-ins the runtime offers a session: the catalog's default set for the model plus the
 * tools that the session's options switch on, in a stable order.
 *
 * @param catalog - the model's catalog
 * @param config - the session config
 * @returns built-in tool names
 */
export function offeredBuiltInTools(
    catalog: BuiltInToolCatalog,
    config: Record<string, unknown>
): readonly string[] {
    const extra: string[] = [];
    for (const [option, applies] of CONDITIONAL_OPTIONS) {
        if (applies(config)) extra.push(...(CONDITIONAL_BUILT_IN_TOOL_NAMES[option] ?? []));
    }
    if (extra.length === 0) return catalog.offered;
    return [...new Set([...catalog.offered, ...extra])];
}

/** The pinned default set of the model, or the runtime's fallback set for unknown models. */
function pinnedDefaultToolNames(model: string | undefined): readonly string[] {
    return (
        (model !== undefined ? DEFAULT_MODEL_TOOL_NAMES_BY_MODEL[model] : undefined) ??
        DEFAULT_MODEL_TOOL_NAMES_BY_MODEL["*"] ??
        DEFAULT_MODEL_TOOL_NAMES_BY_MODEL["claude-sonnet-4.5"] ??
        []
    );
}

function isMethodNotFound(error: unknown): boolean {
    const code = (error as { code?: unknown } | null)?.code;
    return code === -32601 || /Unhandled method|method not found/i.test(errorText(error));
}

function errorText(error: unknown): string {
    return error instanceof Error ? error.message : String(error);
}
