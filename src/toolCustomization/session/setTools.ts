// `session.setTools`: the public method, its checks, and the queue every change of a running
// session's tools goes through (one change at a time, in call order; `resumeSession` of the id
// waits for them).

import type { SessionConfig } from "@github/copilot-sdk";
import { readToolUpdate, type UpdateKey } from "../input/toolUpdate.js";
import { formatList, quoteValue } from "../../shared/formatting.js";
import { isDisconnected, isHeld, isRoutedTo, normaliseToolFilters } from "../../sdk/internals.js";
import { SessionToolError } from "../api/sessionToolError.js";
import { prepareSessionTools } from "../construction/pipeline.js";
import { sessionToolStateOf, type ClientRelease } from "../construction/clientState.js";
import type { ToolSessionConfig } from "../api/sessionConfig.js";
import type { SessionToolResolution } from "../api/publicTypes.js";
import { recordOf, type RunningSession, type SessionRecord } from "./record.js";
import { configOf, runToolChange } from "./toolChange.js";
import { refuseAgentToolChange } from "./agentTools.js";

/**
 * How long `session.setTools` waits for each runtime request by default, in milliseconds. A
 * request that takes longer counts as failed: the previous tools are put back.
 */
export const DEFAULT_TOOL_UPDATE_TIMEOUT = 30_000;

/** The keys of `SessionToolUpdate`. */

/** What a change sets in the session's config: tool options, or the model. */
export type ConfigChange = Pick<ToolSessionConfig, UpdateKey> | { model: SessionConfig["model"] };

/**
 * `session.setTools(update, timeout)`: changes a running session's custom tools and filter, with
 * the checks of construction. The update is read and checked as `createSession` would, and
 * refused with the same `SessionToolError` before anything is sent, leaving the session as it
 * was. Accepted, the change goes to the runtime in steps that are each safe on their own
 * (toolChange.ts); the model sees the new set from its next request on, also in the middle of a
 * turn. Calls on one session apply in call order; each runtime request waits at most `timeout`
 * milliseconds.
 *
 * @returns the session's new `toolResolution`
 * @throws SessionToolError for a malformed update, anything construction refuses, a session that
 *   is not this package's or no longer its client's, and a change the runtime refused
 */
export function setTools(
    this: unknown,
    update: unknown,
    timeout: number = DEFAULT_TOOL_UPDATE_TIMEOUT
): Promise<SessionToolResolution> {
    try {
        const session = sessionOf(this, "setTools");
        const record = liveRecordOf(session, "setTools");
        assertSupported(session, sessionToolStateOf(record.client).release);
        if (typeof timeout !== "number" || !(timeout > 0) || timeout > 2_147_483_647) {
            throw new SessionToolError(
                "INVALID_TOOL_UPDATE",
                `Invalid setTools timeout ${quoteValue(timeout)}: ` +
                    `pass a number of milliseconds above 0 (default ${DEFAULT_TOOL_UPDATE_TIMEOUT}), or leave it out.`
            );
        }
        // Read now, at the call: what the caller changes afterwards does not count.
        const read = readToolUpdate(update);
        assertLive(session, record);
        return changeConfig(session, record, read, timeout);
    } catch (error) {
        return Promise.reject(error);
    }
}

/**
 * The session a method was called on, or a `SessionToolError` saying how to call it.
 *
 * @param receiver - `this` of the call
 * @param method - the method's name, for the message
 */
export function sessionOf(receiver: unknown, method: string): RunningSession {
    if (receiver === null || typeof receiver !== "object") {
        throw new SessionToolError(
            "INVALID_TOOL_UPDATE",
            `${method} was called without its session: call it as session.${method}(...), ` +
                `or bind it (session.${method}.bind(session)).`
        );
    }
    return receiver as RunningSession;
}

/** The session's record, or a `SessionToolError` for a session without one. */
export function liveRecordOf(session: RunningSession, method: string): SessionRecord {
    const record = recordOf(session);
    if (record !== undefined) return record;
    throw new SessionToolError(
        "INVALID_TOOL_UPDATE",
        isDisconnected(session)
            ? `Session '${String(session.sessionId)}' is disconnected, so ${method} cannot change it: ` +
                  `resume it with client.resumeSession('${String(session.sessionId)}', { tools, ... }) ` +
                  `and call ${method} on the session that returns.`
            : `This session was not constructed by this package's createSession or resumeSession (or was released), ` +
                  `so ${method} cannot change it: construct it again with this package's CopilotClient.`
    );
}

/**
 * Puts a change of the session's config in the session's queue: after the changes before it,
 * the session step runs again on the changed config (the same pipeline as construction), and
 * the change runner carries it out.
 *
 * @returns the session's new `toolResolution`
 */
function changeConfig(
    session: RunningSession,
    record: SessionRecord,
    change: ConfigChange,
    timeout: number = DEFAULT_TOOL_UPDATE_TIMEOUT
): Promise<SessionToolResolution> {
    const sends = record.sends;
    return enqueue(session, record, async () => {
        const { client } = record;
        const config: ToolSessionConfig = { ...record.config, ...change } as ToolSessionConfig;
        const prepared = await prepareSessionTools(
            client,
            config,
            normaliseToolFilters(client, config)
        );
        // The session may have been disconnected or replaced while the step waited.
        assertLive(session, record);
        refuseAgentToolChange(record.current, configOf(prepared));
        const resolution = await runToolChange({
            session,
            record,
            prepared,
            timeout,
            sends,
            assertLive: () => assertLive(session, record),
        });
        prepared.deliverWarnings();
        record.config = prepared.source;
        return resolution;
    });
}

/** Runs `step` after the session's earlier changes; `resumeSession` of the id waits for it. */
export function enqueue<T>(
    session: RunningSession,
    record: SessionRecord,
    step: () => Promise<T>
): Promise<T> {
    const { updates } = sessionToolStateOf(record.client);
    const applied = record.queue.then(() => {
        assertLive(session, record);
        return step();
    });
    const settled = applied.catch(() => {});
    record.queue = settled;
    updates.set(session.sessionId, settled);
    void settled.then(() => {
        if (updates.get(session.sessionId) === settled) updates.delete(session.sessionId);
    });
    return applied;
}

/** The runtime requests `setTools` sends, as the SDK's session RPC names them. */
const UPDATE_REQUESTS = [
    ["tools", "set", "session.tools.set"],
    ["options", "update", "session.options.update"],
] as const;

/**
 * An SDK release that lacks a request `setTools` needs (releases before 1.0.13-preview.4 have no
 * `session.tools.set`) gets a refusal naming the release and the request, before anything is
 * attempted: the release's capabilities are read at run time, and the session's RPC is asked too.
 */
function assertSupported(session: RunningSession, release: ClientRelease): void {
    const rpc = session.rpc as unknown as Record<string, Record<string, unknown> | undefined>;
    const missing = UPDATE_REQUESTS.filter(
        ([group, method, request]) =>
            typeof rpc[group]?.[method] !== "function" ||
            (request === "session.tools.set" && !release.capabilities.setTools)
    ).map(([, , request]) => request);
    if (missing.length === 0) return;
    throw new SessionToolError(
        "UNSUPPORTED_BY_RELEASE",
        `session.setTools needs the runtime ${missing.length === 1 ? "request" : "requests"} ${formatList(missing)}, ` +
            `which @github/copilot-sdk ${release.version} does not have, ` +
            `so it cannot change a running session's tools: resume the session with the new tools instead, ` +
            `client.resumeSession('${session.sessionId}', { tools, ... }), or move to an SDK release that has it (1.0.13 or later).`,
        missing
    );
}

/**
 * A session must not change the tools once its client no longer routes its id to it
 * (disconnected, or replaced by a `resumeSession` of the same id, also one still starting):
 * `session.tools.set` and `session.options.update` act on the id, so they would change the
 * tools of the session that holds it now.
 */
export function assertLive(session: RunningSession, record: SessionRecord): void {
    const { client } = record;
    const { resumes } = sessionToolStateOf(client);
    if (isDisconnected(session) || record.disconnected.signal.aborted) {
        throw new SessionToolError(
            "INVALID_TOOL_UPDATE",
            `Session '${session.sessionId}' is disconnected, so setTools cannot change it: ` +
                `resume it with client.resumeSession('${session.sessionId}', { tools, ... }) ` +
                `and call setTools on the session that returns.`
        );
    }
    if (!isHeld(client, session.sessionId)) {
        throw new SessionToolError(
            "INVALID_TOOL_UPDATE",
            `Session '${session.sessionId}' is no longer held by its client (a resumeSession of it failed, ` +
                `or it was deleted), so setTools cannot change it: ` +
                `resume it with client.resumeSession('${session.sessionId}', { tools, ... }) ` +
                `and call setTools on the session that returns.`
        );
    }
    if (
        !isRoutedTo(client, session.sessionId, session) ||
        (resumes.get(session.sessionId) ?? 0) !== record.generation
    ) {
        throw new SessionToolError(
            "INVALID_TOOL_UPDATE",
            `Session '${session.sessionId}' was resumed as another object: call setTools on the session that resumeSession returned.`
        );
    }
}
