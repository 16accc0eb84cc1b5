import type { ResumeSessionConfig, SessionConfig, Tool } from "@github/copilot-sdk";
import { validateSessionTools } from "./customToolChecks.js";
import { quoteValue } from "./formatting.js";
import { SessionToolError } from "./sessionToolError.js";
import {
    prepareSessionTools,
    type NormalizedToolFilters,
    type PreparedSessionTools,
    type SessionToolHost,
    type SessionToolResolution,
} from "./sessionToolSetup.js";

/**
 * What `session.setTools` changes. An option left out (or `undefined`) stays as it is; `null`
 * removes it: no custom tools, no `availableTools` (every tool allowed), no `excludedTools`, no
 * `customToolSets`.
 *
 * @experimental
 */
export interface SessionToolUpdate {
    /** The custom tools, replacing the current ones (their handlers too). */
    tools?: SessionConfig["tools"] | null;
    /** The allowlist, as at construction (tool names, `toolset:<name>`, patterns, a ToolSet). */
    availableTools?: SessionConfig["availableTools"] | null;
    /** The denylist, as at construction. */
    excludedTools?: SessionConfig["excludedTools"] | null;
    /** Named groups for `toolset:<name>`, as at construction. */
    customToolSets?: SessionConfig["customToolSets"] | null;
}

/** A session's config, as construction read it. */
type SessionToolSource = SessionConfig | ResumeSessionConfig;

/** The keys of {@link SessionToolUpdate}. */
const UPDATE_KEYS = ["tools", "availableTools", "excludedTools", "customToolSets"] as const;
type UpdateKey = (typeof UPDATE_KEYS)[number];

/** The part of `CopilotClient` that `setTools` uses besides the session step. */
export interface SessionToolUpdateHost extends SessionToolHost {
    /** The SDK's own normalisation of the filter lists (`ToolSet` to array, `'*'` refused). */
    resolveToolFilterOptions(config: SessionToolSource): NormalizedToolFilters;
    /** The sessions the client holds, by id (the SDK's own registry). */
    readonly sessions?: ReadonlyMap<string, unknown>;
}

/** The part of `CopilotSession` that `setTools` uses. */
export interface UpdatableSession {
    readonly sessionId: string;
    /** Set by the SDK once the session is disconnected. */
    readonly disconnected?: boolean;
    readonly rpc: {
        readonly options: { update(params: Record<string, unknown>): Promise<unknown> };
        readonly tools: {
            set(params: { tools: object[] }): Promise<unknown>;
            initializeAndValidate(): Promise<unknown>;
        };
    };
    registerTools(tools: Tool[] | undefined): void;
}

/** What a session's tools are now: the options they came from, and their resolution. */
interface SessionTools {
    /** The session's config as the step last read it: the four tool options and the rest. */
    config: SessionToolSource;
    /** The tools whose handlers are registered and whose definitions the runtime has. */
    sent: Tool[];
    resolution: SessionToolResolution;
    /** The last `setTools` in line; the next one waits for it. */
    queue: Promise<unknown>;
}

const sessionTools = new WeakMap<object, SessionTools>();

/**
 * Gives a constructed session its read-only `toolResolution` and its `setTools` method.
 *
 * @param session - the session `createSession` / `resumeSession` constructed
 * @param prepared - the session step's outcome for it
 * @param client - the client that constructed it
 * @returns the same session
 */
export function attachSessionTools<S extends object>(
    session: S,
    prepared: PreparedSessionTools<SessionToolSource>,
    client: SessionToolUpdateHost
): S {
    prepared.deliverWarnings();
    sessionTools.set(session, {
        config: prepared.source,
        sent: sentToolsOf(prepared.config),
        resolution: prepared.resolution,
        queue: Promise.resolve(),
    });
    Object.defineProperty(session, "toolResolution", {
        get: () => sessionTools.get(session)!.resolution,
        enumerable: true,
        configurable: false,
    });
    Object.defineProperty(session, "setTools", {
        value: (update: unknown) =>
            setSessionTools(client, session as S & UpdatableSession, update),
        enumerable: false,
        writable: false,
        configurable: false,
    });
    return session;
}

/**
 * Changes a running session's custom tools and filter, with the checks of construction: the
 * update is read and checked as `createSession` would, and refused with the same
 * `SessionToolError` before anything is sent, leaving the session as it was. Accepted, the
 * runtime gets the new tool definitions (`session.tools.set`) and filter
 * (`session.options.update`), and the session's handlers switch in the same step; the model sees
 * the new set from its next request on, also in the middle of a turn. Calls in flight finish with
 * the handler they started with. Calls on one session apply in call order.
 *
 * @param client - the client that constructed the session
 * @param session - the session
 * @param update - what to change (see {@link SessionToolUpdate})
 * @returns the session's new `toolResolution`
 * @throws SessionToolError for a malformed update or anything construction refuses
 */
export function setSessionTools(
    client: SessionToolUpdateHost,
    session: UpdatableSession,
    update: unknown
): Promise<SessionToolResolution> {
    const current = sessionTools.get(session);
    if (current === undefined) {
        return Promise.reject(
            new SessionToolError(
                "INVALID_TOOL_UPDATE",
                "This session was not constructed by the patched createSession or resumeSession, so its tools cannot be changed: construct it again."
            )
        );
    }
    let read: Pick<SessionToolSource, UpdateKey>;
    try {
        // Read now, at the call: what the caller changes afterwards does not count.
        read = readUpdate(update);
        assertLive(client, session);
    } catch (error) {
        return Promise.reject(error);
    }
    const applied = current.queue.then(() => {
        assertLive(client, session);
        return applyUpdate(client, session, current, read);
    });
    current.queue = applied.catch(() => {});
    return applied;
}

/**
 * A session its client no longer holds (disconnected, or replaced by a `resumeSession` of the
 * same id) must not change the tools: `session.tools.set` replaces the whole tool list of the
 * connection, which the live session object would no longer match.
 */
function assertLive(client: SessionToolUpdateHost, session: UpdatableSession): void {
    const held =
        client.sessions === undefined || client.sessions.get(session.sessionId) === session;
    if (held && session.disconnected !== true) return;
    throw new SessionToolError(
        "INVALID_TOOL_UPDATE",
        `Session '${session.sessionId}' is disconnected or was resumed as another object: call setTools on the session that resumeSession returned.`
    );
}

async function applyUpdate(
    client: SessionToolUpdateHost,
    session: UpdatableSession,
    current: SessionTools,
    update: Pick<SessionToolSource, UpdateKey>
): Promise<SessionToolResolution> {
    const config: SessionToolSource = { ...current.config, ...update };
    // The same pipeline as construction: the SDK's own checks, then the session step.
    const prepared = await prepareSessionTools(
        client,
        config,
        client.resolveToolFilterOptions(config)
    );
    const sent = sentToolsOf(prepared.config);
    try {
        await session.rpc.tools.set({ tools: sent.map(toolDefinition) });
        session.registerTools(sent);
        await sendFilter(session, prepared.resolution.wire);
        // As at construction, with validateTools: the runtime checks the new tools now.
        await validateSessionTools(session, prepared.config, async () => {});
    } catch (error) {
        throw await restore(session, current, error);
    }
    prepared.deliverWarnings();
    current.config = prepared.source;
    current.sent = sent;
    current.resolution = prepared.resolution;
    return prepared.resolution;
}

/**
 * Sends a filter as the session's: no `availableTools` is `null` (every tool allowed), no
 * `excludedTools` an empty list, which the runtime takes as removing them.
 */
async function sendFilter(
    session: UpdatableSession,
    wire: SessionToolResolution["wire"]
): Promise<void> {
    await session.rpc.options.update({
        availableTools: wire.availableTools === undefined ? null : [...wire.availableTools],
        excludedTools: [...(wire.excludedTools ?? [])],
    });
}

/**
 * Puts the previous tools, filter and handlers back after the runtime refused part of an update.
 *
 * @returns the error to throw: what the runtime refused, and whether the session is as before
 */
async function restore(
    session: UpdatableSession,
    current: SessionTools,
    refusal: unknown
): Promise<Error> {
    const reason = refusal instanceof Error ? refusal.message : String(refusal);
    try {
        await session.rpc.tools.set({ tools: current.sent.map(toolDefinition) });
        await sendFilter(session, current.resolution.wire);
    } catch (failure) {
        session.registerTools(current.sent);
        const why = failure instanceof Error ? failure.message : String(failure);
        return new Error(
            `setTools failed (${reason}), and putting the previous tools back failed too (${why}): the session's tools are unknown; call setTools again or resume the session.`,
            { cause: refusal }
        );
    }
    session.registerTools(current.sent);
    return new Error(
        `setTools failed: ${reason}. The session keeps its previous tools and filter.`,
        { cause: refusal }
    );
}

/**
 * The update's options, read once, `null` turned into "not set". Their values are checked by the
 * session step, as at construction.
 */
function readUpdate(update: unknown): Pick<SessionToolSource, UpdateKey> {
    if (update === null || typeof update !== "object" || Array.isArray(update)) {
        throw new SessionToolError(
            "INVALID_TOOL_UPDATE",
            `Invalid setTools argument ${quoteValue(update)}: pass an object with any of ${UPDATE_KEYS.map((key) => `'${key}'`).join(", ")}, e.g. session.setTools({ tools: [lint] }).`
        );
    }
    const unknown = Object.keys(update).filter(
        (key) => !(UPDATE_KEYS as readonly string[]).includes(key)
    );
    if (unknown.length > 0) {
        throw new SessionToolError(
            "INVALID_TOOL_UPDATE",
            `setTools does not change ${unknown.map((key) => quoteValue(key)).join(", ")}: it takes ${UPDATE_KEYS.map((key) => `'${key}'`).join(", ")}. Other options need a new session or resumeSession.`,
            unknown
        );
    }
    const read: Partial<Record<UpdateKey, unknown>> = {};
    for (const key of UPDATE_KEYS) {
        const value = (update as Partial<Record<UpdateKey, unknown>>)[key];
        if (value === null) read[key] = undefined;
        // A copy by the array prototype's own slice: holes stay holes, for the checks to name.
        else if (Array.isArray(value)) read[key] = Array.prototype.slice.call(value);
        else if (value !== undefined) read[key] = value;
    }
    return read as Pick<SessionToolSource, UpdateKey>;
}

function sentToolsOf(config: SessionToolSource): Tool[] {
    return config.tools ?? [];
}

/** A tool as `session.create` sends it (the SDK's own mapping, field for field). */
function toolDefinition(tool: Tool): object {
    const {
        name,
        description,
        parameters,
        overridesBuiltInTool,
        skipPermission,
        defer,
        metadata,
        isTerminal,
    } = tool;
    return {
        name,
        description,
        parameters: jsonSchemaOf(parameters),
        overridesBuiltInTool,
        skipPermission,
        defer,
        metadata,
        isTerminal,
    };
}

/** Zod schemas become JSON Schema, as the SDK sends them; anything else goes as it is. */
function jsonSchemaOf(parameters: unknown): unknown {
    if (!parameters) return undefined;
    const { toJSONSchema } = parameters as { toJSONSchema?: unknown };
    return typeof toJSONSchema === "function" ? toJSONSchema.call(parameters) : parameters;
}
