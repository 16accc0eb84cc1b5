import type { SessionConfig } from "@github/copilot-sdk";
import { quoteValue } from "../../shared/formatting.js";
import { readListByIndex } from "../../shared/listReader.js";
import { MEASURED_BUILT_IN_TOOLS } from "./generated/measuredBuiltInTools.generated.js";
import type {
    BuiltInToolCondition,
    MeasuredBuiltInTools,
    RuntimeDelivery,
} from "./measuredBuiltInTools.js";

/** The session options that decide which built-ins the runtime offers. */
export type BuiltInToolOptions = Pick<
    SessionConfig,
    | "model"
    | "onUserInputRequest"
    | "manageScheduleEnabled"
    | "enableSessionStore"
    | "skillDirectories"
    | "toolSearch"
>;

/** The part of `CopilotClient` the catalog needs for a runtime it has no measurements of. */
export interface RuntimeToolHost {
    getStatus(): Promise<unknown>;
    readonly rpc: {
        readonly tools: {
            list(params: Record<string, never>): Promise<unknown>;
        };
    };
}

/** What the session step knows about the built-in tools of the runtime a client talks to. */
export interface BuiltInToolCatalog {
    /** The measurements used: of this runtime's version, or the newest as a stand-in. */
    readonly measured: MeasuredBuiltInTools;
    /**
     * `"measured"` when the runtime's own version was measured on the delivery the client runs
     * (the SDK's bundled runtime, or the `@github/copilot` CLI); `"fallback"` otherwise, where the
     * names of every measured version count (built-ins, and names a custom tool may not replace).
     */
    readonly source: "measured" | "fallback";
    /** Every name with a built-in implementation (measured, plus what `tools.list` showed). */
    readonly builtIns: ReadonlySet<string>;
    /** Names a custom tool may not replace. */
    readonly unsupportedOverrides: ReadonlySet<string>;
    /** Names a custom tool may replace only while tool search is active. */
    readonly keptOnlyWithToolSearch: ReadonlySet<string>;
    /** The built-ins offered by model id (`"*"`: a model id the runtime does not know). */
    readonly offeredByModel: ReadonlyMap<string, readonly string[]>;
    /** By offered built-in, the names whose exclusion also removes it (measured). */
    readonly excludedWith: ReadonlyMap<string, readonly string[]>;
    /** By offered built-in, the names whose presence in `availableTools` also allows it. */
    readonly includedWith: ReadonlyMap<string, readonly string[]>;
    /**
     * True when the runtime gave no usable answer (an error, a timeout, a reply of another
     * shape): the catalog is a stand-in for this session only, and a later session asks again.
     */
    readonly askAgain: boolean;
}

/**
 * The catalog a session uses when it has nothing to check (no custom tools, no filter) and the
 * client's runtime is not known yet: the runtime's own measurements when its version is known,
 * else the newest ones, without asking the runtime anything.
 *
 * @param bundledVersion - the bundled runtime's version, when the client runs it
 * @param delivery - the delivery the client talks to (see {@link CatalogCache.runtimeDelivery})
 * @returns a catalog for `session.toolResolution` only
 */
export function catalogWithoutAsking(
    bundledVersion: string | undefined,
    delivery: RuntimeDelivery = deliveryOf(bundledVersion)
): BuiltInToolCatalog {
    const known = bundledVersion === undefined ? undefined : measuredFor(bundledVersion, delivery);
    return known !== undefined
        ? catalogOf(known, "measured", [])
        : catalogOf(MEASURED_BUILT_IN_TOOLS[MEASURED_BUILT_IN_TOOLS.length - 1]!, "fallback", []);
}

/** What a client keeps of its runtime's catalog (part of its session-tool state). */
export interface CatalogCache {
    /** The runtime's catalog, kept once the runtime answered usefully (see `askAgain`). */
    catalog?: Promise<BuiltInToolCatalog>;
    /** The version of the runtime the SDK bundles, when this client runs it. */
    readonly bundledRuntimeVersion: string | undefined;
    /**
     * Which delivery of its runtime the client talks to: `"bundled"` when it runs the SDK's
     * bundled runtime, else `"cli"` (a `cliPath`, a connection, a release's `@github/copilot`
     * dependency). A measurement counts for the client only when it was taken on this delivery.
     */
    readonly runtimeDelivery: RuntimeDelivery;
    /**
     * Whether the client starts its runtime itself (not a server at a URL) without knowing its
     * version (a release whose runtime is the `@github/copilot` dependency, or a `cliPath`): then
     * even a session with nothing to check asks it, so that `toolResolution` describes it.
     */
    readonly asksLocalRuntime: boolean;
    /** Receives the warning that the catalog is a stand-in. */
    readonly onWarning: (warning: { code: "CATALOG_FALLBACK"; message: string }) => void;
}

/**
 * The client's built-in catalog, for one session. Asked of the runtime once per client (a failed
 * answer is not kept: the next session asks again); a session with nothing to check uses what
 * the client knows without asking, unless the client started a runtime whose version it does
 * not know.
 *
 * @param host - the client
 * @param cache - the client's cache
 * @param asksRuntime - whether the session has anything to check (custom tools, a filter)
 */
export async function clientCatalog(
    host: RuntimeToolHost,
    cache: CatalogCache,
    asksRuntime: boolean
): Promise<BuiltInToolCatalog> {
    if (!asksRuntime && !cache.asksLocalRuntime) {
        return cache.catalog
            ? await cache.catalog
            : catalogWithoutAsking(cache.bundledRuntimeVersion, cache.runtimeDelivery);
    }
    const pending = (cache.catalog ??= loadBuiltInToolCatalog(
        host,
        cache.bundledRuntimeVersion,
        // The catalog's fallback is about the client: it is told at once.
        (reason) =>
            cache.onWarning(
                Object.freeze({
                    code: "CATALOG_FALLBACK",
                    message: `Custom tools are checked against a stand-in list of built-ins: ${reason}.`,
                })
            ),
        cache.runtimeDelivery
    ));
    const catalog = await pending;
    if (catalog.askAgain && cache.catalog === pending) cache.catalog = undefined;
    return catalog;
}

/** How long an unmeasured runtime gets to say its version and list its tools. */
export const RUNTIME_LISTING_TIMEOUT_MS = 3000;

/**
 * Finds the built-in catalog of the client's runtime. A bundled runtime of a measured version
 * costs no request; for any other runtime the version is asked (`status.get`). A measurement
 * counts only for the delivery it was taken on: the bundled runtime when `bundledVersion` is
 * given, else the `@github/copilot` CLI (a `cliPath`, a connection, a release's dependency), since
 * one version's two deliveries may offer different built-ins. When the version was not measured
 * on the client's delivery, its `tools.list` is added to the newest measurements. A runtime that fails,
 * does not answer within {@link RUNTIME_LISTING_TIMEOUT_MS}, or answers something other than a
 * version and a list of named tools gets the newest measurements, `onFallback` says why (once
 * per call), and the catalog is marked {@link BuiltInToolCatalog.askAgain}. Nothing the runtime
 * answers makes this throw.
 *
 * @param host - the client
 * @param bundledVersion - the version of the runtime the SDK bundles, when the client uses it
 * @param onFallback - told why the catalog is a stand-in
 * @param delivery - the delivery the client talks to (see {@link CatalogCache.runtimeDelivery})
 * @returns the catalog
 */
export async function loadBuiltInToolCatalog(
    host: RuntimeToolHost,
    bundledVersion: string | undefined,
    onFallback: (reason: string) => void,
    delivery: RuntimeDelivery = deliveryOf(bundledVersion)
): Promise<BuiltInToolCatalog> {
    const known = bundledVersion === undefined ? undefined : measuredFor(bundledVersion, delivery);
    if (known !== undefined) return catalogOf(known, "measured", []);
    const newest = MEASURED_BUILT_IN_TOOLS[MEASURED_BUILT_IN_TOOLS.length - 1]!;
    const standIn = (reason: string): BuiltInToolCatalog => {
        onFallback(`${reason}; using the names measured on runtime ${newest.runtimeVersion}`);
        return catalogOf(newest, "fallback", [], true);
    };

    let version = bundledVersion;
    if (version === undefined) {
        let status: unknown;
        try {
            status = await withTimeout(host.getStatus(), "status.get");
        } catch (error) {
            return standIn(`the runtime did not tell its version (${reasonOf(error)})`);
        }
        version = versionOf(status);
        if (version === undefined) {
            return standIn(
                `the runtime's status.get answer ${quoteValue(status)} holds no version`
            );
        }
    }
    const measured = measuredFor(version, delivery);
    if (measured !== undefined) return catalogOf(measured, "measured", []);
    const unmeasured = notMeasured(version, delivery);

    let listing: unknown;
    try {
        listing = await withTimeout(host.rpc.tools.list({}), "tools.list");
    } catch (error) {
        return standIn(`${unmeasured} and did not list its tools (${reasonOf(error)})`);
    }
    const listed = namesOf(listing);
    if (listed === undefined) {
        return standIn(`${unmeasured} and its tools.list answer is not a list of named tools`);
    }
    onFallback(
        `${unmeasured}; using its tools.list and the names measured on runtime ${newest.runtimeVersion}`
    );
    return catalogOf(newest, "fallback", listed);
}

/**
 * The delivery of a client's runtime: the bundled one when the client runs it, else the CLI.
 *
 * @param bundledVersion - the bundled runtime's version, when the client runs it
 */
export function deliveryOf(bundledVersion: string | undefined): RuntimeDelivery {
    return bundledVersion === undefined ? "cli" : "bundled";
}

/** How a fallback message names each delivery. */
const DELIVERY_NAMES: Readonly<Record<RuntimeDelivery, string>> = {
    bundled: "the runtime an SDK release bundles",
    cli: "the @github/copilot CLI",
};

/**
 * Why `version` has no measurement for the client's delivery: none at all, or only one taken on
 * the other delivery (same version, possibly other built-ins).
 */
function notMeasured(version: string, delivery: RuntimeDelivery): string {
    const other: RuntimeDelivery = delivery === "bundled" ? "cli" : "bundled";
    if (measuredFor(version, other) === undefined) return `runtime ${version} was not measured`;
    return (
        `runtime ${version} was measured only as ${DELIVERY_NAMES[other]}, ` +
        `which may offer other built-ins than ${DELIVERY_NAMES[delivery]} this client runs`
    );
}

/** A client that can list the runtime's tools for one model. */
export interface ModelListingHost {
    readonly rpc: {
        readonly tools: { list(params: { model?: string }): Promise<unknown> };
    };
}

/**
 * The runtime's tool names for `model` (`tools.list({ model })`), or undefined when it gives no
 * list of named tools within {@link RUNTIME_LISTING_TIMEOUT_MS} (then the measurements decide).
 *
 * @param host - the client
 * @param model - a model id
 */
export async function runtimeListingFor(
    host: ModelListingHost,
    model: string
): Promise<readonly string[] | undefined> {
    try {
        return namesOf(await withTimeout(host.rpc.tools.list({ model }), "tools.list"));
    } catch {
        return undefined;
    }
}

/** The version in a `status.get` answer, when it holds one. */
function versionOf(status: unknown): string | undefined {
    if (status === null || typeof status !== "object") return undefined;
    const { version } = status as { version?: unknown };
    return typeof version === "string" && version.length > 0 ? version : undefined;
}

/**
 * The names of a `tools.list` answer, or undefined unless every tool has a non-empty name: an
 * answer of another shape is not refused with a message, as a caller's list is, but makes the
 * session fall back to a stand-in catalog.
 */
function namesOf(listing: unknown): readonly string[] | undefined {
    if (listing === null || typeof listing !== "object") return undefined;
    const { tools } = listing as { tools?: unknown };
    const unusable = () => new Error("not a list of named tools");
    try {
        return readListByIndex(tools, {
            what: "tools.list",
            expected: "named tools",
            fail: unusable,
            notAList: unusable,
            readItem: (tool) => {
                const name =
                    tool !== null && typeof tool === "object"
                        ? (tool as { name?: unknown }).name
                        : undefined;
                if (typeof name !== "string" || name.length === 0) throw unusable();
                return name;
            },
        });
    } catch {
        return undefined;
    }
}

function reasonOf(error: unknown): string {
    return error instanceof Error ? error.message : quoteValue(error);
}

/**
 * The built-ins a session offers the model at construction: the measured set of its model (the
 * runtime's set for unknown model ids otherwise) and those its options switch on.
 *
 * @param catalog - the runtime's catalog
 * @param config - the session config
 * @param toolSearchDefers - whether tool search defers tools in this session (see
 *   {@link toolSearchDefers}), which adds the tool-search tool
 * @returns built-in names, sorted
 */
export function offeredBuiltIns(
    catalog: BuiltInToolCatalog,
    config: Readonly<BuiltInToolOptions>,
    toolSearchDefers = false
): readonly string[] {
    const { offeredByCondition } = catalog.measured;
    const model = typeof config.model === "string" ? config.model : "";
    const names = new Set(
        catalog.offeredByModel.get(model) ?? catalog.offeredByModel.get("*") ?? []
    );
    for (const condition of conditionsOf(config, toolSearchDefers)) {
        for (const name of offeredByCondition[condition] ?? []) names.add(name);
    }
    return [...names].sort();
}

/**
 * The built-ins whose offer to `model` the measurements cannot tell: none for a model id the
 * runtime's version was measured with; for any other id, the names some measured model is offered
 * and another is not. The runtime gives each model id one family of tools (for example `create`,
 * `edit` and `grep`, or `apply_patch` and `rg` instead) by rules of its own that an id the
 * measurements lack does not show, so `offeredBuiltIns` assumes the runtime's set for ids it does
 * not know, and these names may be offered or not.
 *
 * @param catalog - the runtime's catalog
 * @param model - the session's model id (none: the runtime's default model, which the
 *   measurements cannot name either)
 * @returns built-in names, sorted
 */
export function unmeasuredBuiltIns(catalog: BuiltInToolCatalog, model: unknown): readonly string[] {
    if (typeof model === "string" && catalog.offeredByModel.has(model)) return NONE;
    let names = familyVariants.get(catalog);
    if (names === undefined) {
        const sets = [...catalog.offeredByModel.values()];
        const all = new Set(sets.flat());
        names = Object.freeze(
            [...all].filter((name) => !sets.every((set) => set.includes(name))).sort()
        );
        familyVariants.set(catalog, names);
    }
    return names;
}

const NONE: readonly string[] = Object.freeze([]);

/** {@link unmeasuredBuiltIns} by catalog, computed once per catalog. */
const familyVariants = new WeakMap<BuiltInToolCatalog, readonly string[]>();

/**
 * The built-ins the runtime adds when the session switches to plan or autopilot mode.
 *
 * @param catalog - the runtime's catalog
 * @returns built-in names by mode
 */
export function modeBuiltIns(
    catalog: BuiltInToolCatalog
): Readonly<Record<"plan" | "autopilot", readonly string[]>> {
    const { offeredByCondition } = catalog.measured;
    return {
        plan: offeredByCondition.planMode ?? [],
        autopilot: offeredByCondition.autopilotMode ?? [],
    };
}

/**
 * Every built-in any measured model family is offered, with those options switch on: what a
 * toolset may contain, so that a filter still means the same after `setModel`.
 *
 * @param catalog - the runtime's catalog
 * @returns built-in names, sorted
 */
export function modelFacingBuiltIns(catalog: BuiltInToolCatalog): readonly string[] {
    let names = modelFacing.get(catalog);
    if (names === undefined) {
        const { offeredByCondition } = catalog.measured;
        names = Object.freeze(
            [
                ...new Set([
                    ...[...catalog.offeredByModel.values()].flat(),
                    ...Object.values(offeredByCondition).flat(),
                ]),
            ].sort()
        );
        modelFacing.set(catalog, names);
    }
    return names;
}

/** {@link modelFacingBuiltIns} by catalog: a catalog is immutable, and kept per client. */
const modelFacing = new WeakMap<BuiltInToolCatalog, readonly string[]>();

function conditionsOf(
    config: Readonly<BuiltInToolOptions>,
    toolSearchDefers: boolean
): BuiltInToolCondition[] {
    const conditions: BuiltInToolCondition[] = [];
    if (typeof config.onUserInputRequest === "function") conditions.push("onUserInputRequest");
    if (config.manageScheduleEnabled === true) conditions.push("manageScheduleEnabled");
    if (config.enableSessionStore === true) conditions.push("enableSessionStore");
    if (Array.isArray(config.skillDirectories) && config.skillDirectories.length > 0) {
        conditions.push("skillDirectories");
    }
    if (toolSearchDefers) conditions.push("toolSearch");
    return conditions;
}

/**
 * Whether tool search defers tools in a session, the only case in which the runtime offers its
 * tool-search tool and keeps a custom one of that name: `toolSearch.enabled`, a custom tool the
 * runtime may defer, and more tools than `toolSearch.deferThreshold`. Without an explicit
 * threshold the answer is no: the runtime's default is not something the SDK can show.
 *
 * @param config - the session config
 * @param toolCount - how many tools the model is offered (built-ins and custom tools)
 * @param deferrable - the sent custom tools the runtime may defer (see {@link isDeferrable})
 * @returns true when tool search is known to defer tools
 */
export function toolSearchDefers(
    config: Readonly<BuiltInToolOptions>,
    toolCount: number,
    deferrable: readonly { name: string }[]
): boolean {
    const { toolSearch } = config;
    return (
        toolSearch?.enabled === true &&
        typeof toolSearch.deferThreshold === "number" &&
        deferrable.length > 0 &&
        toolCount > toolSearch.deferThreshold
    );
}

/**
 * Whether the runtime may defer a custom tool to tool search, as measured: `defer: "auto"`, or no
 * `defer` on a tool without `overridesBuiltInTool: true` (the runtime pre-loads such overrides).
 *
 * @param tool - a custom tool as sent
 * @returns true when the tool may be deferred
 */
export function isDeferrable(tool: { defer?: unknown; overridesBuiltInTool?: unknown }): boolean {
    return (
        tool.defer === "auto" || (tool.defer === undefined && tool.overridesBuiltInTool !== true)
    );
}

function measuredFor(
    runtimeVersion: string,
    delivery: RuntimeDelivery
): MeasuredBuiltInTools | undefined {
    return MEASURED_BUILT_IN_TOOLS.find(
        (entry) => entry.runtimeVersion === runtimeVersion && entry.delivery === delivery
    );
}

/**
 * Catalogs without a runtime listing, by measurements, source and `askAgain`: built once, since
 * sessions with nothing to check look one up every time.
 */
const standingCatalogs = new Map<string, BuiltInToolCatalog>();

function catalogOf(
    measured: MeasuredBuiltInTools,
    source: BuiltInToolCatalog["source"],
    listed: readonly string[],
    askAgain = false
): BuiltInToolCatalog {
    if (listed.length > 0) return buildCatalog(measured, source, listed, askAgain);
    const key = `${measured.runtimeVersion}\0${measured.delivery}\0${source}\0${askAgain}`;
    let catalog = standingCatalogs.get(key);
    if (catalog === undefined) {
        catalog = buildCatalog(measured, source, listed, askAgain);
        standingCatalogs.set(key, catalog);
    }
    return catalog;
}

function buildCatalog(
    measured: MeasuredBuiltInTools,
    source: BuiltInToolCatalog["source"],
    listed: readonly string[],
    askAgain: boolean
): BuiltInToolCatalog {
    // Maps, so that a caller's string such as a model id 'constructor' is just another key.
    // A runtime that was not measured may behave like any measured one: a name some measured
    // runtime would not let a custom tool answer is refused there too (fail closed).
    const judged = source === "measured" ? [measured] : MEASURED_BUILT_IN_TOOLS;
    return {
        measured,
        source,
        builtIns: new Set([...judged.flatMap((entry) => entry.builtIns), ...listed]),
        unsupportedOverrides: new Set(judged.flatMap((entry) => entry.unsupportedOverrides)),
        keptOnlyWithToolSearch: new Set(judged.flatMap((entry) => entry.keptOnlyWithToolSearch)),
        offeredByModel: new Map(Object.entries(measured.offeredByModel)),
        excludedWith: new Map(Object.entries(measured.filterAliases?.excludedWith ?? {})),
        includedWith: new Map(Object.entries(measured.filterAliases?.includedWith ?? {})),
        askAgain,
    };
}

function withTimeout<T>(pending: Promise<T>, what: string): Promise<T> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
            () => reject(new Error(`${what} did not answer in ${RUNTIME_LISTING_TIMEOUT_MS} ms`)),
            RUNTIME_LISTING_TIMEOUT_MS
        );
        timer.unref?.();
    });
    return Promise.race([pending, timeout]).finally(() => clearTimeout(timer));
}
