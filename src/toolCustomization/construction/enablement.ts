// Steps 3 and 5 of the session step (pipeline.ts): which custom tools replace which
// built-ins, and which tools the runtime offers under the filter's wire lists. Sessions built
// alike get the outcomes decided for an earlier one: the custom tools are the same snapshots,
// the filter the same outcome, and the options step 5 reads the same.

import { readonlyMap } from "../../toolFilter/toolFilter.js";
import {
    offeredBuiltIns,
    unmeasuredBuiltIns,
    toolSearchDefers,
    isDeferrable,
    type BuiltInToolCatalog,
    type BuiltInToolOptions,
} from "../catalog/builtInToolCatalog.js";
import { resolveBuiltInToolOverrides, type BuiltInToolOverrides } from "./overrides.js";
import type { BuiltInToolCollisionPolicy } from "../api/publicTypes.js";
import type { CustomToolSnapshot } from "../input/customTools.js";
import type { SessionToolFilter } from "./filter.js";
import type { ToolSessionConfig } from "../api/sessionConfig.js";

/** Step 5's output: what the runtime offers and what is sent. */
export interface SessionToolEnablement {
    /** The filter's decision for a name (names outside its inventory per its mode). */
    readonly isEnabled: (name: string) => boolean;
    /** The custom tools sent: those the filter keeps. */
    readonly sentTools: readonly CustomToolSnapshot[];
    /** The built-ins that sent custom tools replace. */
    readonly overriddenBuiltIns: readonly string[];
    /** `excludedTools` for the runtime, with the built-ins of overrides the filter left out. */
    readonly excludedTools: readonly string[] | undefined;
    /** Enablement of every offered built-in and custom tool, tool search included. */
    readonly toolEnablement: ReadonlyMap<string, boolean>;
    /** The names enabled, in {@link toolEnablement}'s order. */
    readonly enabledTools: readonly string[];
    /**
     * Built-ins that the filter keeps and no sent custom tool replaces, whose offer to the
     * session's model the measurements cannot tell (see `unmeasuredBuiltIns`).
     */
    readonly uncertainBuiltIns: readonly string[];
    /** The names of all the session's custom tools, sent or not, in the order given. */
    readonly customToolNames: readonly string[];
}

/**
 * Step 3 for custom tools read alike: the snapshots of a tool that reads as before are the same
 * objects (customTools.ts), so the overrides of a list of the same snapshots, under the same
 * catalog and policy, are those decided before (frozen). A refusal is decided again each time.
 */
export function overridesOf(
    customTools: readonly CustomToolSnapshot[],
    catalog: BuiltInToolCatalog,
    policy: BuiltInToolCollisionPolicy
): BuiltInToolOverrides {
    // Kept by the first snapshot, held weakly: once the app lets go of its tool object (and so of
    // the snapshot), the outcome and the handlers it holds go too.
    const holder: object = customTools[0] ?? catalog;
    let earlier = overrideOutcomes.get(holder);
    const known = earlier?.find(
        (outcome) =>
            outcome.catalog === catalog &&
            outcome.policy === policy &&
            sameItems(outcome.customTools, customTools)
    );
    if (known !== undefined) return known.overrides;
    const decided = resolveBuiltInToolOverrides(customTools, catalog, policy);
    const overrides: BuiltInToolOverrides = Object.freeze({
        tools: Object.freeze(decided.tools),
        overridden: Object.freeze(decided.overridden),
        automatic: Object.freeze(decided.automatic),
        caseOnlyMatches: Object.freeze(
            decided.caseOnlyMatches.map((match) => Object.freeze(match))
        ),
    });
    if (earlier === undefined) overrideOutcomes.set(holder, (earlier = []));
    if (earlier.length >= MAX_KEPT_OUTCOMES) earlier.shift();
    earlier.push({ catalog, policy, customTools, overrides });
    return overrides;
}

/** Outcomes of steps 3 and 5 kept per first snapshot (or per overrides), the newest last. */
const MAX_KEPT_OUTCOMES = 16;

/** By the first custom tool's snapshot (the catalog for a session without custom tools). */
const overrideOutcomes = new WeakMap<
    object,
    {
        readonly catalog: BuiltInToolCatalog;
        readonly policy: BuiltInToolCollisionPolicy;
        readonly customTools: readonly CustomToolSnapshot[];
        readonly overrides: BuiltInToolOverrides;
    }[]
>();

function sameItems<T>(a: readonly T[], b: readonly T[]): boolean {
    return a.length === b.length && a.every((item, index) => item === b[index]);
}

/**
 * The session options step 5 reads, and only those: the model id and what switches built-ins on
 * (see `offeredBuiltIns`), and tool search. Step 5 is given this projection, never the config,
 * so its key says everything its outcome depends on besides the catalog, overrides and filter.
 */
export interface EnablementOptions extends Readonly<BuiltInToolOptions> {
    readonly key: string;
}

export function enablementOptions(source: ToolSessionConfig): EnablementOptions {
    const { model, onUserInputRequest, manageScheduleEnabled, enableSessionStore } = source;
    const { skillDirectories, toolSearch } = source;
    const options: BuiltInToolOptions = {
        model: typeof model === "string" ? model : undefined,
        onUserInputRequest:
            typeof onUserInputRequest === "function" ? onUserInputRequest : undefined,
        manageScheduleEnabled: manageScheduleEnabled === true ? true : undefined,
        enableSessionStore: enableSessionStore === true ? true : undefined,
        skillDirectories:
            Array.isArray(skillDirectories) && skillDirectories.length > 0
                ? ["(given)"]
                : undefined,
        toolSearch:
            toolSearch?.enabled === true && typeof toolSearch.deferThreshold === "number"
                ? { enabled: true, deferThreshold: toolSearch.deferThreshold }
                : undefined,
    };
    return {
        ...options,
        key: JSON.stringify([
            options.model ?? null,
            options.onUserInputRequest !== undefined,
            options.manageScheduleEnabled ?? false,
            options.enableSessionStore ?? false,
            options.skillDirectories !== undefined,
            options.toolSearch?.deferThreshold ?? null,
        ]),
    };
}

/**
 * Step 5 for sessions alike: by overrides (kept while the app holds its tool objects, see
 * {@link overridesOf}), the enablements decided for the same catalog, filter outcome and options.
 */
export function enablementOf(
    options: EnablementOptions,
    catalog: BuiltInToolCatalog,
    overrides: BuiltInToolOverrides,
    filter: SessionToolFilter
): SessionToolEnablement {
    let earlier = enablementOutcomes.get(overrides);
    const known = earlier?.find(
        (outcome) =>
            outcome.catalog === catalog && outcome.filter === filter && outcome.key === options.key
    );
    if (known !== undefined) return known.enabled;
    const decided = enableSessionTools(options, catalog, overrides, filter);
    const enabled: SessionToolEnablement = Object.freeze({
        ...decided,
        sentTools: Object.freeze(decided.sentTools),
        overriddenBuiltIns: Object.freeze(decided.overriddenBuiltIns),
        // A map enableSessionTools made for this outcome alone: made read-only, not copied.
        toolEnablement: readonlyMap(decided.toolEnablement as Map<string, boolean>),
        enabledTools: Object.freeze(decided.enabledTools),
        uncertainBuiltIns: Object.freeze(decided.uncertainBuiltIns),
        customToolNames: Object.freeze(decided.customToolNames),
    });
    if (earlier === undefined) enablementOutcomes.set(overrides, (earlier = []));
    if (earlier.length >= MAX_KEPT_OUTCOMES) earlier.shift();
    earlier.push({ catalog, filter, key: options.key, enabled });
    return enabled;
}

const enablementOutcomes = new WeakMap<
    BuiltInToolOverrides,
    {
        readonly catalog: BuiltInToolCatalog;
        readonly filter: SessionToolFilter;
        readonly key: string;
        readonly enabled: SessionToolEnablement;
    }[]
>();

/**
 * Step 5: which tools the runtime offers under the wire lists (its aliases included) and which
 * custom tools are sent; with tool search, the enablement again with the tool-search tool.
 */
function enableSessionTools(
    source: Readonly<BuiltInToolOptions>,
    catalog: BuiltInToolCatalog,
    overrides: BuiltInToolOverrides,
    filter: SessionToolFilter
): SessionToolEnablement {
    const { result } = filter;
    const overridden = new Set(overrides.overridden);
    // Names outside the helper's inventory are kept unless availableTools lists what to keep.
    const isEnabled = (name: string) =>
        result.toolEnablement.get(name) ?? (result.mode === "default" || result.mode === "exclude");
    const isOfferedBuiltInEnabled = builtInEnablement(
        isEnabled,
        filter.availableTools,
        filter.excludedTools,
        catalog
    );
    const sentTools = overrides.tools.filter((tool) => isEnabled(tool.name));
    // Only a tool that is sent replaces anything.
    const sent = new Set(sentTools.map((tool) => tool.name));
    const enablementWith = (toolSearch: boolean) => {
        const enablement = new Map<string, boolean>();
        for (const name of offeredBuiltIns(catalog, source, toolSearch)) {
            if (!overridden.has(name)) enablement.set(name, isOfferedBuiltInEnabled(name));
        }
        for (const tool of overrides.tools) enablement.set(tool.name, isEnabled(tool.name));
        return enablement;
    };
    const countEnabled = (enablement: Map<string, boolean>) =>
        [...enablement.values()].filter(Boolean).length;
    let toolEnablement = enablementWith(false);
    const defers = toolSearchDefers(
        source,
        countEnabled(toolEnablement),
        sentTools.filter(
            (tool) => isDeferrable(tool) && !catalog.keptOnlyWithToolSearch.has(tool.name)
        )
    );
    if (defers) toolEnablement = enablementWith(true);
    return {
        isEnabled,
        sentTools,
        overriddenBuiltIns: overrides.overridden.filter((name) => sent.has(name)),
        excludedTools: excludeUnsentOverrides(
            filter.excludedTools,
            overrides.tools,
            sentTools,
            overridden
        ),
        toolEnablement,
        enabledTools: [...toolEnablement].filter(([, on]) => on).map(([name]) => name),
        uncertainBuiltIns: unmeasuredBuiltIns(catalog, source.model).filter(
            (name) => !sent.has(name) && isOfferedBuiltInEnabled(name)
        ),
        customToolNames: overrides.tools.map((tool) => tool.name),
    };
}

/**
 * Whether the runtime offers a built-in under the wire lists: the filter's decision, adjusted for
 * the names the runtime's own filter treats as one tool (excluding `rg` removes `grep`;
 * allowing `rg` allows `grep`), as measured.
 */
function builtInEnablement(
    isEnabled: (name: string) => boolean,
    availableTools: readonly string[] | undefined,
    excludedTools: readonly string[] | undefined,
    aliases: Pick<BuiltInToolCatalog, "excludedWith" | "includedWith">
): (name: string) => boolean {
    const excluded = new Set(excludedTools);
    const available = new Set(availableTools);
    return (name) => {
        if (aliases.excludedWith.get(name)?.some((alias) => excluded.has(alias))) return false;
        if (isEnabled(name)) return true;
        return (
            availableTools !== undefined &&
            !excluded.has(name) &&
            aliases.includedWith.get(name)?.some((alias) => available.has(alias)) === true
        );
    };
}

/**
 * An override the filter leaves out is not sent, so it no longer replaces its built-in; the
 * built-in goes too, so that the name the filter removed is gone entirely.
 */
function excludeUnsentOverrides(
    excludedTools: readonly string[] | undefined,
    tools: readonly CustomToolSnapshot[],
    sentTools: readonly CustomToolSnapshot[],
    overridden: ReadonlySet<string>
): readonly string[] | undefined {
    const sent = new Set(sentTools.map((tool) => tool.name));
    const dropped = tools
        .filter((tool) => overridden.has(tool.name) && !sent.has(tool.name))
        .map((tool) => `builtin:${tool.name}`);
    if (dropped.length === 0) return excludedTools;
    return Object.freeze([...new Set([...(excludedTools ?? []), ...dropped])]);
}
