import {
    ALL_BUILT_IN_TOOL_NAMES,
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
    /** Built-in tools the runtime offers the model, in the runtime's order. */
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
 * Collisions are decided against every name the runtime reserves for any model (the pinned
 * {@link ALL_BUILT_IN_TOOL_NAMES}, which also holds the built-ins that `tools.list` does not show)
 * together with what the runtime lists now, so a custom tool keeps its override when the session
 * later switches to a model family with other built-ins. The names offered to the model are the
 * listing for the session's model; without a listing, the pinned default set of the nearest
 * measured model stands in.
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
    const offered = [...new Set(listed ?? pinnedDefaultToolNames(model))];
    return Object.freeze({
        model,
        offered: Object.freeze(offered),
        reserved: new Set([...ALL_BUILT_IN_TOOL_NAMES, ...offered]),
        unhonoured: new Set([...UNHONOURED_OVERRIDE_TOOL_NAMES, ...FORBIDDEN_CUSTOM_TOOL_NAMES]),
        source,
    });
}

/**
 * The runtime offers model families different built-ins (GPT models get `apply_patch` and `rg`,
 * Claude models `edit`, `create` and `grep`); pick the measured model of the same family.
 */
function pinnedDefaultToolNames(model: string | undefined): readonly string[] {
    const measured = Object.keys(DEFAULT_MODEL_TOOL_NAMES_BY_MODEL);
    const family = (name: string): string => /^[a-z]+/i.exec(name)?.[0]?.toLowerCase() ?? "";
    const match =
        (model !== undefined && measured.find((name) => name === model)) ||
        (model !== undefined && measured.find((name) => family(name) === family(model))) ||
        measured.find((name) => family(name) === "claude") ||
        measured[0];
    return match === undefined ? [] : (DEFAULT_MODEL_TOOL_NAMES_BY_MODEL[match] ?? []);
}

function isMethodNotFound(error: unknown): boolean {
    const code = (error as { code?: unknown } | null)?.code;
    return code === -32601 || /Unhandled method|method not found/i.test(errorText(error));
}

function errorText(error: unknown): string {
    return error instanceof Error ? error.message : String(error);
}
