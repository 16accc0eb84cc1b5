import {
    clientCatalog,
    modeBuiltIns,
    modelFacingBuiltIns,
    type BuiltInToolCatalog,
    type ModelListingHost,
} from "../catalog/builtInToolCatalog.js";
import type { BuiltInToolOverrides } from "./overrides.js";
import type { PromptAgreementMode, SessionToolResolution, ToolAnswer } from "../api/publicTypes.js";
import { promptToolWarnings } from "../prompt/appPromptCheck.js";
import {
    agreeingSystemMessage,
    NOTHING_OUTSIDE,
    type PromptAgreement,
    type PromptTools,
} from "../prompt/promptAgreement.js";
import type { CustomToolSnapshot } from "../input/customTools.js";
import { readSessionInput, type SessionInput } from "../input/sessionInput.js";
import { promptToolsOf } from "../prompt/promptTools.js";
import { hooksWithTaskNote } from "../prompt/taskPromptNote.js";
import { TASK_PROMPT_NOTE_RUNTIMES } from "../catalog/measuredTaskPrompt.js";
import {
    defaultPromptAgreement,
    namesOutsideAgreement,
    sectionsToAgree,
} from "../prompt/promptSections.js";
import { refuseRemovedOptions } from "../input/removedOptions.js";
import {
    droppedCustomToolWarnings,
    familyWarnings,
    overrideWarnings,
    refuseStrictWarnings,
    tooManySessionTools,
} from "./warnings.js";
import { refuseMcpShadows } from "../input/mcpToolNames.js";
import type { AgentsInput } from "../input/agents.js";
import { agentPromptNames, resolveAgents } from "./agents.js";
import { refuseAgentModelCollisions } from "./agentModels.js";
import {
    resolveSessionToolFilter,
    type SessionToolFilter,
    type SessionToolFilterOptions,
} from "./filter.js";
import type { SessionToolWarning } from "../api/sessionToolWarning.js";
import { MAX_TOOLS_PER_REQUEST, readonlyMap } from "../../toolFilter/toolFilter.js";
import {
    enablementOf,
    enablementOptions,
    overridesOf,
    type SessionToolEnablement,
} from "./enablement.js";
import { sessionToolStateOf, type SessionToolHost, type SessionToolState } from "./clientState.js";
import type { NormalizedToolFilters, ToolSessionConfig } from "../api/sessionConfig.js";

/** A session config after the tool setup. */
export interface PreparedSessionTools<C> {
    /** A new config: checked tool snapshots and the wire filter lists; the caller's is untouched. */
    readonly config: C;
    /**
     * The config as the step read it, for a later `session.setTools` to start from: the custom
     * tools as snapshots (before any override flag), the filter lists and `customToolSets` as
     * copies, the other options as given.
     */
    readonly source: C;
    /**
     * Sends the session's warnings to `onToolWarning` and marks its automatic overrides as
     * reported; the caller calls it once the runtime took the session (or the update), so that a
     * session that fails later reports no warning. Calling it again does nothing.
     */
    readonly deliverWarnings: () => void;
    /** What to expose as `session.toolResolution`. */
    readonly resolution: SessionToolResolution;
    /** By built-in, the other names whose exclusion also removes it (the runtime's aliases). */
    readonly excludedWith: ReadonlyMap<string, readonly string[]>;
    /** The session's tools as the rewrite of the runtime's instructions needs them. */
    readonly promptTools: PromptTools;
    /** For createSession / resumeSession: the session's `promptAgreement`, unless off. */
    readonly agreement?: PromptAgreement;
    /**
     * For a resume: the number `resumeSession` gave this object (see `SessionToolState.resumes`);
     * an object with an older number was replaced.
     */
    readonly generation?: number;
}

/** `calls` of a resolution no session answered a call of yet. */
const NO_CALLS: readonly ToolAnswer[] = Object.freeze([]);

/**
 * {@link prepareSession} for a config as a caller passes it: reads its input once
 * (`readSessionInput`), then prepares it.
 *
 * @param client - the `CopilotClient`
 * @param config - the session config (not modified)
 * @param normalise - the SDK's own normalisation of the filter lists
 * @param resumedSessionId - the id `resumeSession` resumes; undefined for `createSession`
 * @throws SessionToolError for every tool problem, before anything is sent
 */
export function prepareSessionConfig<C extends ToolSessionConfig>(
    client: SessionToolHost,
    config: C,
    normalise: (config: C) => NormalizedToolFilters,
    resumedSessionId?: string
): Promise<PreparedSessionTools<C>> {
    return prepareSession(client, readSessionInput(config), normalise, resumedSessionId);
}

/**
 * What `createSession` and `resumeSession` call, given the session's input as read once (before
 * the SDK's own checks see it, so a malformed value is a `SessionToolError`, not a `TypeError`):
 * runs the SDK's normalisation on what was read, then {@link prepareSessionTools}. For a resume,
 * it first retires the session objects that held the id and waits for their `setTools` calls
 * (each bounded by its timeout), so the resumed session's tools and filter are its own.
 *
 * @param client - the `CopilotClient`
 * @param input - the session's input as read once (`readSessionInput`); the SDK merges its mode
 *   defaults later, inside its own method, and none of them switches a built-in on
 * @param normalise - the SDK's own normalisation of the filter lists
 * @param resumedSessionId - the id `resumeSession` resumes; undefined for `createSession`
 * @returns the config to send and the resolution to expose
 * @throws SessionToolError for every tool problem, before anything is sent
 */
export async function prepareSession<C extends ToolSessionConfig>(
    client: SessionToolHost,
    input: SessionInput<C>,
    normalise: (config: C) => NormalizedToolFilters,
    resumedSessionId?: string
): Promise<PreparedSessionTools<C>> {
    const state = sessionToolStateOf(client);
    const { config: read, promptAgreement: agreement } = input;
    if (resumedSessionId === undefined) {
        const prepared = await prepareSessionTools(client, read, normalise(read));
        return withAgreement(prepared, agreement, state);
    }
    const { resumes, updates } = state;
    const generation = (resumes.get(resumedSessionId) ?? 0) + 1;
    resumes.set(resumedSessionId, generation);
    try {
        await updates.get(resumedSessionId)?.catch(() => {});
        const prepared = await prepareSessionTools(client, read, normalise(read));
        return extended(withAgreement(prepared, agreement, state), { generation });
    } catch (error) {
        // Refused before anything was sent: the objects that held the id keep it.
        if (resumes.get(resumedSessionId) === generation)
            resumes.set(resumedSessionId, generation - 1);
        throw error;
    }
}

/**
 * The prepared config with the `systemMessage` that makes the runtime's instructions agree with
 * the session's tools (see promptAgreement.ts), in rewrite mode the `hooks` that add its note to
 * each `task` call's prompt (taskPromptNote.ts), and the agreement the session's record keeps.
 */
function withAgreement<C extends ToolSessionConfig>(
    prepared: PreparedSessionTools<C>,
    setting: PromptAgreementMode | undefined,
    state: SessionToolState
): PreparedSessionTools<C> {
    const { config } = prepared;
    // Unset: "rewrite" where the runtime's labelled corpus shows no false removal, else "warn"
    // with the note (promptSections.ts).
    const mode = setting ?? defaultPromptAgreement(prepared.resolution.runtime);
    const runtime = mode === "off" ? undefined : prepared.resolution.runtime;
    const agreed =
        runtime === undefined
            ? undefined
            : sectionsToAgree(runtime, config.model, prepared.promptTools);
    // The closures below outlive the session's construction (the SDK keeps a disconnected
    // session's transforms and hooks): they capture the names they read, never `prepared`,
    // whose config holds the tools' handlers.
    const { promptTools } = prepared;
    const { systemMessage, agreement } = agreeingSystemMessage(
        config.systemMessage,
        mode,
        () => promptTools,
        state.onWarning,
        state.promptRewrites,
        agreed,
        (tools, model) =>
            runtime === undefined
                ? NOTHING_OUTSIDE
                : namesOutsideAgreement(agreed, runtime, model, tools),
        setting === undefined
    );
    if (agreement === undefined) return prepared;
    const sent = { ...config, systemMessage: systemMessage as C["systemMessage"] };
    // The built-in sub-agents' half: the note goes into each task call's prompt (taskPromptNote.ts),
    // on the runtimes where that is measured to work (elsewhere it can break the task call). With
    // the stand-in catalog the version is the stand-in's, not the runtime's: no hook.
    if (
        agreement.mode === "rewrite" &&
        runtime?.catalog === "measured" &&
        TASK_PROMPT_NOTE_RUNTIMES.has(runtime.version)
    ) {
        const hooks = hooksWithTaskNote(config.hooks, () => agreement.tools());
        if (hooks !== config.hooks) sent.hooks = hooks as C["hooks"];
    }
    return extended(prepared, { config: sent, agreement });
}

/**
 * The prepared session with `fields` added or replaced; its resolution and prompt tools stay
 * built on first read (an object spread would build them).
 */
function extended<C extends ToolSessionConfig>(
    prepared: PreparedSessionTools<C>,
    fields: Pick<Partial<PreparedSessionTools<C>>, "config" | "agreement" | "generation">
): PreparedSessionTools<C> {
    return {
        config: fields.config ?? prepared.config,
        source: prepared.source,
        deliverWarnings: prepared.deliverWarnings,
        excludedWith: prepared.excludedWith,
        agreement: fields.agreement ?? prepared.agreement,
        generation: fields.generation ?? prepared.generation,
        get resolution() {
            return prepared.resolution;
        },
        get promptTools() {
            return prepared.promptTools;
        },
    };
}

/**
 * The session-construction step of `createSession`, `resumeSession` and `session.setTools`, run
 * before anything is sent: a pipeline of named steps, each a function with its own input and
 * output, called in this one place.
 *
 * 1. {@link readSessionTools}: the options as read once (custom tool snapshots, filter lists),
 *    and `refuseMcpShadows`: no custom tool that a tool of the session's MCP servers shadows;
 * 2. `clientCatalog`: the built-ins of the client's runtime, cached per client;
 * 3. `overridesOf` (enablement.ts): which custom tools replace which built-ins;
 * 4. `resolveSessionToolFilter`: the filter's decision and the wire lists;
 * 5. `enablementOf` (enablement.ts): enablement, the tools sent, tool search;
 * 6. {@link sessionToolWarnings}: the warnings (with the prompt's, `promptToolWarnings`), refused
 *    under `strictToolFilters`;
 * 7. {@link sessionToolResolution}: the config to send and `session.toolResolution`.
 *
 * @param client - the `CopilotClient`
 * @param config - the session config, its custom tools already read into snapshots (not modified)
 * @param toolFilters - the SDK's normalised `availableTools` / `excludedTools`
 * @returns the config to send and the resolution to expose
 * @throws SessionToolError for every tool problem, before any session exists on the runtime
 */
export async function prepareSessionTools<C extends ToolSessionConfig>(
    client: SessionToolHost,
    config: C,
    toolFilters: NormalizedToolFilters
): Promise<PreparedSessionTools<C>> {
    const state = sessionToolStateOf(client);
    const input = readSessionTools(config, toolFilters);
    refuseMcpShadows(
        input.customTools.map((tool) => tool.name),
        (config as { mcpServers?: unknown }).mcpServers
    );
    const catalog = await clientCatalog(client, state, input.asksRuntime);
    const overrides = overridesOf(input.customTools, catalog, state.policy);
    const filterWarnings: SessionToolWarning[] = [];
    const filter = resolveSessionToolFilter(
        input.filterOptions,
        {
            builtIns: modelFacingBuiltIns(catalog),
            custom: input.customTools.map((tool) => tool.name),
            overridden: new Set(overrides.overridden),
            excludedWith: catalog.excludedWith,
        },
        (warning) => filterWarnings.push(warning)
    );
    const enabled = enablementOf(enablementOptions(input.source), catalog, overrides, filter);
    // A session without a systemMessage has no text of the app's to check.
    if (input.source.systemMessage !== undefined) {
        filterWarnings.push(
            ...promptToolWarnings(
                input.source.systemMessage,
                enabled.toolEnablement,
                enabled.overriddenBuiltIns,
                promptNames(catalog, input.customTools)
            )
        );
    }
    filterWarnings.push(...enablementWarnings(enabled, filter));
    const agents = resolveAgents(
        input.source as AgentsInput,
        {
            toolSets: filter.toolSets,
            builtIns: modelFacingBuiltIns(catalog),
            custom: enabled.customToolNames,
            isEnabled: enabled.isEnabled,
            mcpServers: Object.keys(input.source.mcpServers ?? {}),
            promptNames: alikeOutcomes(enabled, catalog).agentPromptNames,
        },
        (warning) => filterWarnings.push(warning)
    );
    const warnings = sessionToolWarnings(state, overrides, filter, enabled, filterWarnings);
    const prepared = sessionToolResolution(input, catalog, filter, enabled, warnings);
    await refuseAgentModelCollisions(
        client as unknown as ModelListingHost,
        catalog,
        input.source.model,
        prepared.config.tools ?? [],
        agents.customAgents
    );
    return extended(prepared, { config: { ...prepared.config, ...agents } });
}

/**
 * The warnings about what the filter and the overrides leave (custom tools the filter drops,
 * built-in companions of a replaced built-in): a function of the enablement, which is decided
 * once for sessions built alike (enablement.ts) and implies the filter outcome and the
 * custom tools; so are these, each frozen.
 */
function enablementWarnings(
    enabled: SessionToolEnablement,
    filter: SessionToolFilter
): readonly SessionToolWarning[] {
    let warnings = warningsByEnablement.get(enabled);
    if (warnings === undefined) {
        warnings = Object.freeze(
            [
                ...droppedCustomToolWarnings(
                    enabled.customToolNames,
                    new Set(enabled.sentTools.map((tool) => tool.name)),
                    { ...filter.given, toolSets: filter.toolSets }
                ),
                ...familyWarnings(enabled.overriddenBuiltIns, new Set(enabled.enabledTools)),
            ].map((warning) => Object.freeze(warning))
        );
        warningsByEnablement.set(enabled, warnings);
    }
    return warnings;
}

const warningsByEnablement = new WeakMap<SessionToolEnablement, readonly SessionToolWarning[]>();

/** Step 1's output: the session's tool options, read once. */
interface SessionToolInput<C extends ToolSessionConfig> {
    /** The config as given (its custom tools already snapshots). */
    readonly source: C;
    /** The custom tools, as snapshots. */
    readonly customTools: readonly CustomToolSnapshot[];
    /** The filter options for step 4. */
    readonly filterOptions: SessionToolFilterOptions;
    /** Whether anything needs checking against the runtime (custom tools, or a filter). */
    readonly asksRuntime: boolean;
}

/** Step 1: the options the session step reads, refusing those 0.2.0 removed. */
function readSessionTools<C extends ToolSessionConfig>(
    source: C,
    toolFilters: NormalizedToolFilters
): SessionToolInput<C> {
    refuseRemovedOptions(source);
    const customTools = (source.tools ?? []) as readonly CustomToolSnapshot[];
    const filterOptions: SessionToolFilterOptions = {
        ...toolFilters,
        customToolSets: source.customToolSets,
    };
    // A session with nothing to check never waits for the runtime to describe itself.
    const asksRuntime =
        customTools.length > 0 ||
        [toolFilters.availableTools, toolFilters.excludedTools, source.customToolSets].some(
            (option) => option !== undefined && option !== null
        );
    return { source, customTools, filterOptions, asksRuntime };
}

/** Step 6's output: the session's warnings, delivered once the runtime took the session. */
interface SessionToolWarnings {
    readonly warnings: readonly SessionToolWarning[];
    readonly deliverWarnings: () => void;
}

/**
 * Step 6: the filter's warnings, the overrides' (each automatic override reported once per
 * client) and too many tools; under `strictToolFilters`, the first that names nothing refuses.
 * Collected, not told: a refused session reports only its error.
 */
function sessionToolWarnings(
    state: SessionToolState,
    overrides: BuiltInToolOverrides,
    filter: SessionToolFilter,
    enabled: SessionToolEnablement,
    filterWarnings: readonly SessionToolWarning[]
): SessionToolWarnings {
    const sent = new Set(enabled.sentTools.map((tool) => tool.name));
    const newlyAutomatic = overrides.automatic.filter(
        (name) => sent.has(name) && !state.reportedOverrides.has(name)
    );
    const warnings = [
        ...filterWarnings,
        ...overrideWarnings(
            newlyAutomatic,
            overrides.caseOnlyMatches.filter((match) => sent.has(match.tool))
        ),
        ...(enabled.enabledTools.length > MAX_TOOLS_PER_REQUEST
            ? [tooManySessionTools(enabled.enabledTools.length, filter.result.mode)]
            : []),
    ].map((warning) => Object.freeze({ ...warning }));
    if (state.strictToolFilters) refuseStrictWarnings(warnings);
    let delivered = false;
    return {
        warnings,
        deliverWarnings: () => {
            if (delivered) return;
            delivered = true;
            newlyAutomatic.forEach((name) => state.reportedOverrides.add(name));
            warnings.forEach((warning) => state.onWarning(warning));
        },
    };
}

/** Step 7: the config to send, what a later `setTools` starts from, and the resolution. */
function sessionToolResolution<C extends ToolSessionConfig>(
    input: SessionToolInput<C>,
    catalog: BuiltInToolCatalog,
    filter: SessionToolFilter,
    enabled: SessionToolEnablement,
    { warnings, deliverWarnings }: SessionToolWarnings
): PreparedSessionTools<C> {
    const { source, customTools } = input;
    const { result, given } = filter;
    const { isEnabled, sentTools, excludedTools, toolEnablement } = enabled;
    const modes = modeBuiltIns(catalog);
    const noTools = source.tools === undefined || source.tools === null;
    // The lists below are frozen arrays: nothing downstream writes to them.
    const prepared: C = {
        ...source,
        tools: noTools ? source.tools : sentTools,
        availableTools: filter.availableTools as string[] | undefined,
        excludedTools: excludedTools as string[] | undefined,
    };
    // What a later setTools starts from: the options as this step read and checked them.
    const read: C = {
        ...source,
        tools: noTools ? undefined : customTools,
        availableTools: given.availableTools as string[] | undefined,
        excludedTools: given.excludedTools as string[] | undefined,
        customToolSets: given.customToolSets as Record<string, string[]> | undefined,
    };
    const toldWarnings = Object.freeze([...warnings]);
    // The resolution and the prompt's view of the tools are built on first read, not before the
    // session is sent: most sessions read neither until later (or never), and both are pure
    // functions of what this step read and froze, so they are the same whenever they are built.
    let resolution: SessionToolResolution | undefined;
    let promptTools: PromptTools | undefined;
    return {
        config: prepared,
        get promptTools() {
            return (promptTools ??= alikeOutcomes(enabled, catalog).promptTools);
        },
        excludedWith: catalog.excludedWith,
        deliverWarnings,
        source: Object.freeze(read),
        get resolution() {
            return (resolution ??= Object.freeze({
                mode: result.mode,
                // The enablement's lists are frozen already (enablement.ts); its map is
                // copied, as a read-only map can still be written through Map.prototype.
                enabledTools: enabled.enabledTools,
                toolEnablement: readonlyMap(new Map(toolEnablement)),
                toolSetEnablement: result.toolSetEnablement,
                toolSets: readonlyMap(new Map(filter.toolSets)),
                modeTools: Object.freeze({
                    plan: Object.freeze(modes.plan.filter(isEnabled)),
                    autopilot: Object.freeze(modes.autopilot.filter(isEnabled)),
                }),
                overriddenBuiltInTools: enabled.overriddenBuiltIns,
                uncertainBuiltIns: enabled.uncertainBuiltIns,
                unknownIdentifiers: Object.freeze([
                    ...filter.unknownMembers,
                    ...result.unknownIdentifiers,
                ]),
                warnings: toldWarnings,
                calls: NO_CALLS,
                runtime: Object.freeze({
                    version: catalog.measured.runtimeVersion,
                    catalog: catalog.source,
                }),
                wire: Object.freeze({
                    tools: Object.freeze(sentTools.map((tool) => tool.name)),
                    availableTools: filter.availableTools,
                    excludedTools,
                }),
            }));
        },
    };
}

/** What sessions built alike share besides their enablement, made on first use. */
interface AlikeOutcomes {
    /** The session's tools as the rewrite of the runtime's instructions needs them. */
    readonly promptTools: PromptTools;
    /** The tools a custom agent's prompt names (`agentPromptNames`). */
    readonly agentPromptNames: (prompt: string) => readonly string[];
}

/**
 * The outcomes that are pure functions of a session's enablement and catalog, made once for the
 * sessions built alike (enablement.ts hands them one frozen enablement, which implies the custom
 * tools' names): the prompt's view of the tools (`promptToolsOf`; one object, so the client's
 * rewriter finds its remembered answers by it without keying it again), and the names agents'
 * prompts name. Held weakly by the enablement, as enablement.ts holds it.
 */
function alikeOutcomes(enabled: SessionToolEnablement, catalog: BuiltInToolCatalog): AlikeOutcomes {
    let outcomes = outcomesByEnablement.get(enabled);
    if (outcomes === undefined || outcomes.catalog !== catalog) {
        let promptTools: PromptTools | undefined;
        let promptNames: AlikeOutcomes["agentPromptNames"] | undefined;
        const made = {
            catalog,
            get promptTools() {
                return (promptTools ??= promptToolsOf({
                    catalog,
                    customTools: enabled.customToolNames,
                    enabledTools: enabled.enabledTools,
                    toolEnablement: enabled.toolEnablement,
                    uncertainBuiltIns: enabled.uncertainBuiltIns,
                    replaced: enabled.overriddenBuiltIns,
                    isEnabled: enabled.isEnabled,
                }));
            },
            get agentPromptNames() {
                return (promptNames ??= agentPromptNames(
                    modelFacingBuiltIns(catalog),
                    enabled.customToolNames
                ));
            },
        };
        outcomes = made;
        outcomesByEnablement.set(enabled, made);
    }
    return outcomes;
}

const outcomesByEnablement = new WeakMap<
    SessionToolEnablement,
    AlikeOutcomes & { readonly catalog: BuiltInToolCatalog }
>();

/** The names the prompt rule looks for: every built-in the runtime knows, and the custom tools. */
function promptNames(
    catalog: BuiltInToolCatalog,
    customTools: readonly CustomToolSnapshot[]
): ReadonlySet<string> {
    return new Set([...catalog.builtIns, ...customTools.map((tool) => tool.name)]);
}
