// Model switches of a running session: `session.previewModel(model)` says what
// `session.setModel(model)` would leave, and `setModel` refuses (before anything is sent) a switch
// after which a built-in could answer a custom tool's call; an accepted switch is followed by the
// session's resolution for the new model, in the session's queue of tool changes.

import {
    clientCatalog,
    offeredBuiltIns,
    runtimeListingFor,
    unmeasuredBuiltIns,
} from "../catalog/builtInToolCatalog.js";
import { formatList, quoteValue } from "../../shared/formatting.js";
import { normaliseToolFilters } from "../../sdk/internals.js";
import { SessionToolError } from "../api/sessionToolError.js";
import { prepareSessionTools, type PreparedSessionTools } from "../construction/pipeline.js";
import { sessionToolStateOf, type SessionToolHost } from "../construction/clientState.js";
import type { ToolSessionConfig } from "../api/sessionConfig.js";
import type {
    ModelPreview,
    ModelToolCollision,
    SessionToolResolution,
} from "../api/publicTypes.js";
import type { RunningSession, SessionRecord } from "./record.js";
import {
    assertLive,
    DEFAULT_TOOL_UPDATE_TIMEOUT,
    enqueue,
    liveRecordOf,
    sessionOf,
} from "./setTools.js";
import { runToolChange } from "./toolChange.js";

/** The part of `CopilotClient` the preview uses. */
type PreviewHost = SessionToolHost & {
    readonly rpc: { readonly tools: { list(params: { model?: string }): Promise<unknown> } };
};

/**
 * The model id as the runtime receives it: the SDK sends the value as JSON, so a `String` object
 * is its string. Undefined for anything else, or an empty id (the SDK's own answer stands).
 */
function modelIdOf(model: unknown): string | undefined {
    const id = model instanceof String ? model.valueOf() : model;
    return typeof id === "string" && id.length > 0 ? id : undefined;
}

/** `session.previewModel(model)`. */
export function previewModelMember(this: unknown, model: unknown): Promise<ModelPreview> {
    try {
        const session = sessionOf(this, "previewModel");
        const id = modelIdOf(model);
        if (id === undefined) {
            throw new SessionToolError(
                "INVALID_SESSION_OPTION",
                `Invalid model ${quoteValue(model)}: pass the model id to switch to, e.g. 'gpt-4o'.`
            );
        }
        const record = liveRecordOf(session, "previewModel");
        return previewModel(record, id).then(({ preview }) => preview);
    } catch (error) {
        return Promise.reject(error);
    }
}

/**
 * `session.setModel(model, ...)` of a session with a record, in the session's queue: the switch
 * is previewed, refused with `MODEL_SWITCH_REFUSED` before anything is sent when the preview
 * refuses it, else made by the SDK, and the session's tools follow the new model (a resolution
 * that cannot follow keeps the old one: the model changed).
 */
export function switchModel(
    session: RunningSession,
    record: SessionRecord,
    setModel: (...args: unknown[]) => Promise<unknown>,
    args: unknown[]
): Promise<unknown> {
    const id = modelIdOf(args[0]);
    // A model id the SDK itself refuses gets the SDK's own answer.
    if (id === undefined) return setModel.apply(session, args);
    const sends = record.sends;
    return enqueue(session, record, async () => {
        const { preview, prepared } = await previewModel(record, id);
        if (preview.refusal !== undefined) throw preview.refusal;
        const result = await setModel.apply(session, args);
        if (prepared !== undefined && !record.disconnected.signal.aborted) {
            await runToolChange({
                session,
                record,
                prepared,
                timeout: DEFAULT_TOOL_UPDATE_TIMEOUT,
                sends,
                assertLive: () => assertLive(session, record),
            }).then(
                () => {
                    prepared.deliverWarnings();
                    record.config = prepared.source;
                },
                () => {
                    // The model changed; a resolution that could not follow keeps the old.
                }
            );
        }
        return result;
    });
}

/**
 * What `setModel(model)` would leave the session with: the session step run again for the new
 * model (its catalog, the session's tools and filter as last read), the built-ins that appear and
 * go, and the custom tools that collide with the new model's built-ins, as the measurements and
 * the runtime's own `tools.list({ model })` say. Sends nothing that changes the session.
 *
 * @returns the preview, and what the session step prepared for the switch (undefined when it
 *   refused)
 */
async function previewModel(
    record: SessionRecord,
    model: string
): Promise<{
    preview: ModelPreview;
    prepared: PreparedSessionTools<ToolSessionConfig> | undefined;
}> {
    const client = record.client as PreviewHost;
    const source = record.config;
    const next: ToolSessionConfig = { ...source, model };
    const catalog = await clientCatalog(client, sessionToolStateOf(client), true);
    const before = offeredBuiltIns(catalog, source);
    const after = offeredBuiltIns(catalog, next);
    const listed = await runtimeListingFor(client, model);

    let resolution: SessionToolResolution | undefined;
    let sent: readonly { name: string; overridesBuiltInTool?: boolean }[] = [];
    let refusal: SessionToolError | undefined;
    let prepared: PreparedSessionTools<ToolSessionConfig> | undefined;
    try {
        prepared = await prepareSessionTools(client, next, normaliseToolFilters(client, next));
        resolution = prepared.resolution;
        sent = (prepared.config.tools ?? []) as typeof sent;
    } catch (error) {
        if (!SessionToolError.isInstance(error)) throw error;
        refusal = new SessionToolError(
            "MODEL_SWITCH_REFUSED",
            `session.setModel(${quoteValue(model)}) would leave tools the session step refuses: ${error.message}`,
            error.toolNames,
            { cause: error }
        );
    }
    const offeredAfter = new Set([...after, ...(listed ?? [])]);
    const collisions: ModelToolCollision[] = sent
        .filter(({ name }) => offeredAfter.has(name) || catalog.builtIns.has(name))
        .map(({ name, overridesBuiltInTool }) =>
            Object.freeze({
                tool: name,
                offered: offeredAfter.has(name),
                replaced:
                    overridesBuiltInTool === true &&
                    !catalog.unsupportedOverrides.has(name) &&
                    !catalog.keptOnlyWithToolSearch.has(name),
            })
        );
    const ignoredOverrides = collisions.filter((c) => !c.replaced).map((c) => c.tool);
    if (refusal === undefined && ignoredOverrides.length > 0) {
        refusal = new SessionToolError(
            "MODEL_SWITCH_REFUSED",
            `session.setModel(${quoteValue(model)}) is refused: ` +
                `on that model the runtime has built-in ${formatList(ignoredOverrides)}, ` +
                (`which would answer calls of the session's custom ` +
                    `${ignoredOverrides.length === 1 ? "tool" : "tools"} of that name (sent without overridesBuiltInTool: `) +
                `true, or an override the runtime does not honour). ` +
                `Rename ${ignoredOverrides.length === 1 ? "it" : "them"} or set overridesBuiltInTool: ` +
                `true with session.setTools first, or stay on the current model.`,
            ignoredOverrides
        );
    }
    // A built-in a custom tool replaces is the custom tool's name on both models: not a change.
    // A name whose offer either model's measurements cannot tell is neither added nor removed.
    const custom = new Set(sent.map(({ name }) => name));
    const uncertain = new Set([
        ...unmeasuredBuiltIns(catalog, source.model),
        ...unmeasuredBuiltIns(catalog, model),
    ]);
    const changes = (from: readonly string[], to: readonly string[]) => {
        const kept = new Set(to);
        return Object.freeze(
            from.filter((name) => !kept.has(name) && !custom.has(name) && !uncertain.has(name))
        );
    };
    const preview: ModelPreview = Object.freeze({
        model,
        currentModel: typeof source.model === "string" ? source.model : undefined,
        resolution,
        builtInsAdded: changes(after, before),
        builtInsRemoved: changes(before, after),
        builtInsUncertain: Object.freeze([...uncertain].filter((name) => !custom.has(name)).sort()),
        collisions: Object.freeze(collisions),
        ignoredOverrides: Object.freeze(ignoredOverrides),
        runtimeListed: listed !== undefined,
        refusal,
    });
    return { preview, prepared };
}
