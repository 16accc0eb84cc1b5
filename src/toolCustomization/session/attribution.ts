// Which tool answered each call of a running session, from the runtime's events, kept in the
// session's record: `toolResolution.calls`, `onToolAnswered`, and the session's failure
// (`CALL_ANSWERED_ELSEWHERE`) when a built-in or an MCP server answered a custom tool's call.

import { quoteValue } from "../../shared/formatting.js";
import { SessionToolError } from "../api/sessionToolError.js";
import type {
    CallAttributionConfig,
    ToolAnswer,
    ToolAnswerer,
    ToolCallAgent,
} from "../api/publicTypes.js";
import { recordFailure, type CallRecord, type SessionEventLike } from "./record.js";

/** How many calls `toolResolution.calls` keeps: the latest, oldest dropped first. */
export const MAX_RECORDED_CALLS = 100;

/** Calls started and not completed that a session tracks at most (a runaway runtime). */
const MAX_OPEN_CALLS = 1_000;

/** The session, as the attribution reaches it. */
export interface AttributedSession {
    readonly sessionId: string;
    abort?: () => Promise<unknown>;
}

/**
 * A new session's part of the record for the attribution.
 *
 * @param onToolAnswered - the session option
 * @param mcpServers - the names of the session's MCP servers
 * @param customAgents - the names of the session's custom agents
 * @param selected - the custom agent the session starts with (option `agent`), if any
 */
export function newCallRecord(
    onToolAnswered: CallAttributionConfig["onToolAnswered"],
    mcpServers: readonly string[],
    customAgents: readonly string[] = [],
    selected?: string
): CallRecord {
    return {
        onToolAnswered,
        mcpServers,
        requested: new Set(),
        denied: new Set(),
        started: new Map(),
        answers: Object.freeze([]),
        completedRequests: new Set(),
        customAgents: new Set(customAgents),
        subAgents: new Map(),
        subAgentIds: new Map(),
        selected,
    };
}

const MAIN_AGENT: ToolCallAgent = Object.freeze({ kind: "main" });

/** Adds to a bounded map, dropping its oldest entry when full. */
function keep<V>(map: Map<string, V>, key: string, value: V): void {
    if (!map.has(key) && map.size >= MAX_OPEN_CALLS) {
        map.delete(map.keys().next().value as string);
    }
    map.set(key, value);
}

/**
 * The agent that made a call, from its `tool.execution_start`: a call of a sub-agent carries the
 * id of the `task` call that started it (`parentToolCallId`, measured on runtime 1.0.85) and the
 * sub-agent's instance id (the event's `agentId`); a call without either is the main agent's,
 * which is the selected custom agent while one is selected.
 */
function agentOf(
    calls: CallRecord,
    event: SessionEventLike,
    data: Record<string, unknown>
): ToolCallAgent {
    const { parentToolCallId } = data;
    const { agentId } = event;
    if (typeof parentToolCallId === "string") {
        return (
            calls.subAgents.get(parentToolCallId) ??
            (typeof agentId === "string" ? calls.subAgentIds.get(agentId) : undefined) ??
            Object.freeze({ kind: "unknown", taskCallId: parentToolCallId })
        );
    }
    if (typeof agentId === "string") {
        const known = calls.subAgentIds.get(agentId);
        if (known !== undefined) return known;
    }
    return calls.selected === undefined
        ? MAIN_AGENT
        : Object.freeze({ kind: "custom", name: calls.selected });
}

/** Follows the runtime's events about agents: sub-agents started, the main agent selected. */
function followAgentEvent(calls: CallRecord, event: SessionEventLike): void {
    const data = (event.data ?? undefined) as Record<string, unknown> | undefined;
    const { agentId } = event;
    switch (event.type) {
        case "subagent.started": {
            const { toolCallId, agentName, agentType } = data ?? {};
            const name =
                typeof agentName === "string"
                    ? agentName
                    : typeof agentType === "string"
                      ? agentType
                      : undefined;
            if (typeof toolCallId !== "string" || name === undefined) return;
            const agent: ToolCallAgent = Object.freeze(
                calls.customAgents.has(name)
                    ? { kind: "custom", name, taskCallId: toolCallId }
                    : { kind: "built-in", name, taskCallId: toolCallId }
            );
            keep(calls.subAgents, toolCallId, agent);
            if (typeof agentId === "string") keep(calls.subAgentIds, agentId, agent);
            return;
        }
        case "subagent.selected": {
            // A sub-agent's own selection (it carries the sub-agent's id) changes no main agent.
            if (agentId !== undefined) return;
            const name = data?.agentName;
            if (typeof name === "string") calls.selected = name;
            return;
        }
        case "subagent.deselected":
            if (agentId === undefined) calls.selected = undefined;
            return;
    }
}

function remember(ids: Set<string>, id: unknown): void {
    if (typeof id !== "string") return;
    if (ids.size >= MAX_OPEN_CALLS) ids.delete(ids.values().next().value as string);
    ids.add(id);
}

/**
 * Follows one session event of a call. Who should answer a call is decided when it starts, from
 * the session's tools then (`expectedOf`); what answered, when it completes, from its events:
 * `tool.execution_start` (`mcpServerName` for an MCP tool), `external_tool.requested` (the
 * runtime handed the call to a client, whose handler answers it), `permission.completed` (a
 * denied call: nothing ran) and `tool.execution_complete`. A call the runtime refused before
 * anything ran (a pre-tool hook denied it, its arguments were not JSON, the runtime had no tool
 * of its name) was answered by nothing (`"none"`), not by a built-in. The handlers are not
 * wrapped: the SDK keeps the app's own functions.
 *
 * @param calls - the session record's part for the attribution
 * @param expectedOf - what should answer a call of a name, from the session's tools now
 * @param session - the session, aborted when a custom tool's call was answered elsewhere
 * @param event - the session event
 */
export function followCallEvent(
    calls: CallRecord,
    expectedOf: (toolName: string) => ToolAnswerer,
    session: AttributedSession,
    event: SessionEventLike
): void {
    const data = (event.data ?? undefined) as Record<string, unknown> | undefined;
    switch (event.type) {
        case "subagent.started":
        case "subagent.selected":
        case "subagent.deselected":
            followAgentEvent(calls, event);
            return;
        case "external_tool.requested":
            remember(calls.requested, data?.toolCallId);
            return;
        case "permission.completed": {
            const kind = (data?.result as { kind?: unknown } | undefined)?.kind;
            if (typeof kind === "string" && !kind.startsWith("approved")) {
                remember(calls.denied, data?.toolCallId);
            }
            return;
        }
        case "tool.execution_start": {
            const { toolCallId, toolName, mcpServerName } = data ?? {};
            if (typeof toolCallId !== "string" || typeof toolName !== "string") return;
            if (calls.started.size >= MAX_OPEN_CALLS) {
                calls.started.delete(calls.started.keys().next().value as string);
            }
            calls.started.set(toolCallId, {
                toolName,
                mcpServer: typeof mcpServerName === "string" ? mcpServerName : undefined,
                expected: expectedOf(toolName),
                agent: agentOf(calls, event, data ?? {}),
            });
            return;
        }
        case "tool.execution_complete":
            completeCall(calls, session, data);
            return;
    }
}

function completeCall(
    calls: CallRecord,
    session: AttributedSession,
    data: Record<string, unknown> | undefined
): void {
    const toolCallId = data?.toolCallId;
    if (typeof toolCallId !== "string") return;
    const call = calls.started.get(toolCallId);
    // A call whose start this session did not see (it began before a resume) has no name to
    // attribute.
    if (call === undefined) return;
    calls.started.delete(toolCallId);
    const byClient = calls.requested.delete(toolCallId);
    const refused = calls.denied.delete(toolCallId) || refusedByRuntime(call.toolName, data);
    const answer: ToolAnswer = Object.freeze({
        toolName: call.toolName,
        toolCallId,
        answeredBy:
            call.mcpServer !== undefined
                ? "mcp"
                : byClient
                  ? "handler"
                  : refused
                    ? "none"
                    : "built-in",
        ...(call.mcpServer === undefined ? {} : { mcpServer: call.mcpServer }),
        expected: call.expected,
        success: data?.success === true,
        agent: call.agent,
    });
    calls.answers = Object.freeze([...calls.answers.slice(-(MAX_RECORDED_CALLS - 1)), answer]);
    if (
        answer.expected === "handler" &&
        answer.answeredBy !== "handler" &&
        answer.answeredBy !== "none"
    ) {
        recordFailure(session, answeredElsewhere(session.sessionId, answer));
        session.abort?.().catch(() => {});
    }
    tell(calls.onToolAnswered, answer);
}

/**
 * Whether the runtime refused the call before anything ran, as its completion says (measured on
 * runtime 1.0.85): `error.code` `"denied"` (a pre-tool hook or a permission denied it), arguments
 * that were not JSON (`toolTelemetry.properties.wasSyntaxError`), or no tool of the name at all
 * (the runtime's message "Tool '<name>' does not exist.", which carries no code of its own).
 */
function refusedByRuntime(toolName: string, data: Record<string, unknown> | undefined): boolean {
    if (data?.success === true) return false;
    const error = data?.error as { code?: unknown; message?: unknown } | undefined;
    if (error?.code === "denied") return true;
    const telemetry = data?.toolTelemetry as
        { properties?: { wasSyntaxError?: unknown } } | undefined;
    if (telemetry?.properties?.wasSyntaxError === "true") return true;
    return error?.message === `Tool '${toolName}' does not exist.`;
}

/** Tells `onToolAnswered`; what it throws or rejects with is reported and changes nothing. */
function tell(onToolAnswered: CallRecord["onToolAnswered"], answer: ToolAnswer): void {
    if (onToolAnswered === undefined) return;
    const report = (error: unknown) =>
        console.error(
            `onToolAnswered threw for the call '${answer.toolCallId}' of '${answer.toolName}':`,
            error
        );
    try {
        const result: unknown = onToolAnswered(answer);
        if (result !== null && typeof result === "object" && "then" in result) {
            Promise.resolve(result as PromiseLike<unknown>).catch(report);
        }
    } catch (error) {
        report(error);
    }
}

function answeredElsewhere(sessionId: string, answer: ToolAnswer): SessionToolError {
    const what =
        answer.answeredBy === "mcp"
            ? `the MCP server ${quoteValue(answer.mcpServer)}`
            : "the runtime's built-in of that name";
    const { agent } = answer;
    const by =
        agent.kind === "main"
            ? ""
            : agent.kind === "unknown"
              ? ` (made by the sub-agent of the task call ${quoteValue(agent.taskCallId)})`
              : ` (made by ${agent.kind} agent ${quoteValue(agent.name)})`;
    return new SessionToolError(
        "CALL_ANSWERED_ELSEWHERE",
        `The call ${quoteValue(answer.toolCallId)}${by} to the custom tool ${quoteValue(answer.toolName)} ` +
            `was answered by ${what}, ` +
            `not by the app's handler, so session '${sessionId}' aborted its turn and takes no more messages. ` +
            `Something registered the name on the runtime without overridesBuiltInTool (another client of the session, ` +
            `or session.rpc.tools.set), or an MCP server took it: ` +
            `find it in onToolAnswered / toolResolution.calls, ` +
            `then disconnect this session and create or resume one whose tools only this package sets.`,
        [answer.toolName]
    );
}
