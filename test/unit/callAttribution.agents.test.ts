/**
 * The call attribution names the agent of each call, from the runtime's own events as runtime
 * 1.0.85 sends them (measured with the mock model driving `task` with `mode: "sync"`): a
 * sub-agent's `subagent.started` carries the id of the `task` call and the sub-agent's instance id
 * (`agentId`), and each of its calls carries both (`parentToolCallId`, `agentId`). A custom tool's
 * call inside a sub-agent that a built-in or an MCP server answered closes the session as in the
 * main agent.
 */
import { describe, expect, it } from "vitest";
import { followCallEvent, newCallRecord } from "../../src/toolCustomization/session/attribution.js";
import { failureOf } from "../../src/toolCustomization/session/record.js";
import type { ToolAnswer } from "../../src/toolCustomization/api/publicTypes.js";

function fakeSession(customAgents: readonly string[] = ["runner"], selected?: string) {
    const answers: ToolAnswer[] = [];
    let aborts = 0;
    const session = {
        sessionId: "s1",
        abort: async () => {
            aborts++;
        },
    };
    const calls = newCallRecord((answer) => answers.push(answer), ["m"], customAgents, selected);
    const custom = new Set(["lint", "m-view"]);
    return {
        answers,
        aborts: () => aborts,
        failed: () => failureOf(session),
        emit: (type: string, data: Record<string, unknown>, agentId?: string) =>
            followCallEvent(
                calls,
                (name) => (custom.has(name) ? "handler" : "built-in"),
                session,
                agentId === undefined ? { type, data } : { type, data, agentId }
            ),
    };
}

/** The events of one call made inside the sub-agent of `task` (or the main agent). */
function callEvents(
    emit: ReturnType<typeof fakeSession>["emit"],
    call: {
        id: string;
        tool: string;
        task?: string;
        agentId?: string;
        by: "handler" | "built-in" | "mcp";
    }
): void {
    const parent = call.task === undefined ? {} : { parentToolCallId: call.task };
    emit(
        "tool.execution_start",
        {
            toolCallId: call.id,
            toolName: call.tool,
            ...parent,
            ...(call.by === "mcp" ? { mcpServerName: "m" } : {}),
        },
        call.agentId
    );
    if (call.by === "handler") {
        emit("external_tool.requested", { toolCallId: call.id, toolName: call.tool });
    }
    emit(
        "tool.execution_complete",
        { toolCallId: call.id, success: true, ...parent },
        call.agentId
    );
}

describe("call attribution: the agent of each call", () => {
    it("names the main agent, a custom agent and a built-in sub-agent with the task call that started it", () => {
        const { emit, answers } = fakeSession();
        callEvents(emit, { id: "c1", tool: "lint", by: "handler" });
        emit("tool.execution_start", { toolCallId: "t1", toolName: "task" });
        emit(
            "subagent.started",
            { toolCallId: "t1", agentName: "runner", agentType: "runner" },
            "a1"
        );
        emit("subagent.selected", { agentName: "runner", tools: ["lint"] }, "a1");
        callEvents(emit, { id: "c2", tool: "lint", task: "t1", agentId: "a1", by: "handler" });
        emit("tool.execution_complete", { toolCallId: "t1", success: true });
        emit(
            "subagent.started",
            { toolCallId: "t2", agentName: "explore", agentType: "explore" },
            "a2"
        );
        callEvents(emit, { id: "c3", tool: "bash", task: "t2", agentId: "a2", by: "built-in" });
        // The sub-agent's own selection event did not make it the main agent.
        callEvents(emit, { id: "c4", tool: "lint", by: "handler" });
        expect(answers.map((answer) => [answer.toolCallId, answer.agent])).toEqual([
            ["c1", { kind: "main" }],
            ["c2", { kind: "custom", name: "runner", taskCallId: "t1" }],
            ["t1", { kind: "main" }],
            ["c3", { kind: "built-in", name: "explore", taskCallId: "t2" }],
            ["c4", { kind: "main" }],
        ]);
    });

    it("finds the sub-agent by its instance id when a call lacks parentToolCallId", () => {
        const { emit, answers } = fakeSession();
        emit("subagent.started", { toolCallId: "t1", agentName: "explore" }, "a1");
        callEvents(emit, { id: "c1", tool: "view", agentId: "a1", by: "built-in" });
        expect(answers[0]!.agent).toEqual({ kind: "built-in", name: "explore", taskCallId: "t1" });
    });

    it("says unknown for a sub-agent whose start it did not see", () => {
        const { emit, answers } = fakeSession();
        callEvents(emit, { id: "c1", tool: "view", task: "t0", agentId: "a0", by: "built-in" });
        expect(answers[0]!.agent).toEqual({ kind: "unknown", taskCallId: "t0" });
    });

    it("names the selected custom agent as the main agent until it is deselected", () => {
        const { emit, answers } = fakeSession(["runner"], "runner");
        callEvents(emit, { id: "c1", tool: "lint", by: "handler" });
        emit("subagent.deselected", {});
        callEvents(emit, { id: "c2", tool: "lint", by: "handler" });
        emit("subagent.selected", { agentName: "runner", tools: null });
        callEvents(emit, { id: "c3", tool: "lint", by: "handler" });
        expect(answers.map((answer) => answer.agent)).toEqual([
            { kind: "custom", name: "runner" },
            { kind: "main" },
            { kind: "custom", name: "runner" },
        ]);
    });

    it("closes the session when an MCP server answers a custom tool's call inside a sub-agent, naming the agent", () => {
        const { emit, answers, aborts, failed } = fakeSession();
        emit("subagent.started", { toolCallId: "t1", agentName: "runner" }, "a1");
        callEvents(emit, { id: "c1", tool: "m-view", task: "t1", agentId: "a1", by: "mcp" });
        expect(answers[0]).toMatchObject({ answeredBy: "mcp", expected: "handler" });
        expect(aborts()).toBe(1);
        expect(failed()).toMatchObject({ code: "CALL_ANSWERED_ELSEWHERE", toolNames: ["m-view"] });
        expect(failed()!.message).toContain("(made by custom agent 'runner')");
    });

    it("closes the session when a built-in answers a custom tool's call inside a built-in sub-agent", () => {
        const { emit, aborts, failed } = fakeSession();
        emit("subagent.started", { toolCallId: "t1", agentName: "general-purpose" }, "a1");
        callEvents(emit, { id: "c1", tool: "lint", task: "t1", agentId: "a1", by: "built-in" });
        expect(aborts()).toBe(1);
        expect(failed()!.message).toContain("(made by built-in agent 'general-purpose')");
    });
});
