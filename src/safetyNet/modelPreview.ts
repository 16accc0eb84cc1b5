import {
    clientCatalog,
    offeredBuiltIns,
    RUNTIME_LISTING_TIMEOUT_MS,
} from "./builtInToolCatalog.js";
import { formatList, quoteValue } from "../toolFilter/formatting.js";
import { normaliseToolFilters } from "../sdkSeam/sdkSeam.js";
import { SessionToolError } from "./sessionToolError.js";
import {
    prepareSessionTools,
    sessionToolStateOf,
    type SessionToolHost,
    type SessionToolResolution,
    type ToolSessionConfig,
} from "./sessionToolSetup.js";
import { sessionToolClient, sessionToolSource } from "./sessionToolUpdate.js";

/**
 * A custom tool of the session that has a built-in's name on the model previewed.
 *
 * @experimental
 */
export interface ModelToolCollision {
    /** The custom tool's name (the built-in's). */
    readonly tool: string;
    /** Whether the model is offered the built-in (else it is one the runtime hides but runs). */
    readonly offered: boolean;
    /**
     * Whether the custom tool replaces the built-in there: it is sent with
     * `overridesBuiltInTool: true` and the runtime honours that override for the name.
     */
    readonly replaced: boolean;
}

/**
 * What `session.setModel(model)` would leave, from `session.previewModel(model)`. Nothing is
 * changed to find it out.
 *
 * @experimental
 */
export interface ModelPreview {
    /** The model previewed. */
    readonly model: string;
    /** The session's model now (undefined: the runtime's default). */
    readonly currentModel: string | undefined;
    /** The session's `toolResolution` after the switch; undefined when it would be refused. */
    readonly resolution: SessionToolResolution | undefined;
    /** Built-ins the new model is offered that the current one is not. */
    readonly builtInsAdded: readonly string[];
    /** Built-ins the current model is offered that the new one is not. */
    readonly builtInsRemoved: readonly string[];
    /** The session's custom tools that have a built-in's name on the new model. */
    readonly collisions: readonly ModelToolCollision[];
    /**
     * Custom tools whose calls a built-in could answer after the switch: a collision the custom
     * tool does not replace (sent with `overridesBuiltInTool: false`, or an override the runtime
     * does not honour for the name).
     */
    readonly ignoredOverrides: readonly string[];
    /** Whether the runtime listed its built-ins for the new model (`tools.list({ model })`). */
    readonly runtimeListed: boolean;
    /** What `setModel(model)` would throw (`MODEL_SWITCH_REFUSED`), when it would refuse. */
    readonly refusal: SessionToolError | undefined;
}

/** The part of `CopilotSession` the preview uses. */
interface PreviewedSession {
    readonly sessionId: string;
    setModel?: (model: string, ...rest: unknown[]) => Promise<unknown>;
}

/** The part of `CopilotClient` the preview uses. */
type PreviewHost = SessionToolHost & {
    readonly rpc: { readonly tools: { list(params: { model?: string }): Promise<unknown> } };
};

/**
 * What `setModel(model)` would leave the session with: the session step run again for the new
 * model (its catalog, the session's tools and filter as last read), the built-ins that appear and
 * go, and the custom tools that collide with the new model's built-ins, as the measurements and
 * the runtime's own `tools.list({ model })` say. Sends nothing that changes the session.
 *
 * @param client - the client that constructed the session
 * @param session - the session
 * @param model - the model id to preview
 * @returns the preview
 * @throws SessionToolError `INVALID_SESSION_OPTION` for a model that is not a non-empty string,
 *   `INVALID_TOOL_UPDATE` for a session the patched SDK did not construct (or released)
 */
export async function previewModel(
    client: PreviewHost,
    session: PreviewedSession,
    model: unknown
): Promise<ModelPreview> {
    if (typeof model !== "string" || model.length === 0) {
        throw new SessionToolError(
            "INVALID_SESSION_OPTION",
            `Invalid model ${quoteValue(model)}: pass the model id to switch to, e.g. 'gpt-4o'.`
        );
    }
    const source = sessionToolSource(session);
    if (source === undefined) {
        throw new SessionToolError(
            "INVALID_TOOL_UPDATE",
            `Session '${session.sessionId}' was not constructed by the patched createSession or resumeSession, or is disconnected, so its model switch cannot be previewed: construct or resume it again.`
        );
    }
    const next: ToolSessionConfig = { ...source, model };
    const catalog = await clientCatalog(client, sessionToolStateOf(client), true);
    const before = offeredBuiltIns(catalog, source);
    const after = offeredBuiltIns(catalog, next);
    const listed = await listedFor(client, model);

    let resolution: SessionToolResolution | undefined;
    let sent: readonly { name: string; overridesBuiltInTool?: boolean }[] = [];
    let refusal: SessionToolError | undefined;
    try {
        const prepared = await prepareSessionTools(
            client,
            next,
            normaliseToolFilters(client, next)
        );
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
            `session.setModel(${quoteValue(model)}) is refused: on that model the runtime has built-in ${formatList(ignoredOverrides)}, which would answer calls of the session's custom ${ignoredOverrides.length === 1 ? "tool" : "tools"} of that name (sent without overridesBuiltInTool: true, or an override the runtime does not honour). Rename ${ignoredOverrides.length === 1 ? "it" : "them"} or set overridesBuiltInTool: true with session.setTools first, or stay on the current model.`,
            ignoredOverrides
        );
    }
    const afterSet = new Set(after);
    const beforeSet = new Set(before);
    return Object.freeze({
        model,
        currentModel: typeof source.model === "string" ? source.model : undefined,
        resolution,
        builtInsAdded: Object.freeze(after.filter((name) => !beforeSet.has(name))),
        builtInsRemoved: Object.freeze(before.filter((name) => !afterSet.has(name))),
        collisions: Object.freeze(collisions),
        ignoredOverrides: Object.freeze(ignoredOverrides),
        runtimeListed: listed !== undefined,
        refusal,
    });
}

/** Session classes whose `previewModel` and guarded `setModel` {@link guardModelSwitches} installed. */
const guardedClasses = new WeakSet<object>();

/**
 * Gives the session `previewModel`, and makes its `setModel` refuse (before anything is sent) a
 * switch the preview refuses. Both live on the session class, installed once: a session object
 * gets no own property, and the client comes from the session's tool state, which is dropped at
 * disconnect (a disconnected session keeps nothing of this; bench/sessionMemory.bench.ts).
 *
 * @param session - the session, after `attachSessionTools`
 */
export function guardModelSwitches(session: object): void {
    const prototype = Object.getPrototypeOf(session) as {
        setModel?: (model: string, ...rest: unknown[]) => Promise<unknown>;
    } | null;
    if (prototype === null || prototype === Object.prototype) return;
    if (guardedClasses.has(prototype)) return;
    guardedClasses.add(prototype);
    Object.defineProperty(prototype, "previewModel", {
        value: function previewModel_(this: PreviewedSession, model: unknown) {
            return previewModel(sessionToolClient(this) as PreviewHost, this, model);
        },
        enumerable: false,
        writable: false,
        configurable: false,
    });
    const setModel = prototype.setModel;
    if (typeof setModel !== "function") return;
    Object.defineProperty(prototype, "setModel", {
        value: async function setModel_(this: PreviewedSession, model: string, ...rest: unknown[]) {
            // A model id the SDK itself refuses, and a session without tool state (released,
            // or not constructed by the patch), get the SDK's own answer.
            const client = sessionToolClient(this);
            if (typeof model === "string" && model.length > 0 && client !== undefined) {
                const { refusal } = await previewModel(client as PreviewHost, this, model);
                if (refusal !== undefined) throw refusal;
            }
            return setModel.call(this, model, ...rest);
        },
        enumerable: false,
        writable: true,
        configurable: true,
    });
}

/** The runtime's tool names for `model`, or undefined when it gives none in time. */
async function listedFor(client: PreviewHost, model: string): Promise<string[] | undefined> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    try {
        const listing = await Promise.race([
            client.rpc.tools.list({ model }),
            new Promise<never>((_, reject) => {
                timer = setTimeout(
                    () => reject(new Error("tools.list did not answer")),
                    RUNTIME_LISTING_TIMEOUT_MS
                );
                timer.unref?.();
            }),
        ]);
        const tools = (listing as { tools?: unknown } | null)?.tools;
        if (!Array.isArray(tools)) return undefined;
        return tools
            .map((tool: unknown) => (tool as { name?: unknown } | null)?.name)
            .filter((name): name is string => typeof name === "string" && name.length > 0);
    } catch {
        // A runtime that cannot list for a model leaves the measurements to decide.
        return undefined;
    } finally {
        clearTimeout(timer);
    }
}
