/**
 * Issue 27 through the real patched client against a fake runtime: one owner per name across
 * clients (a failed setTools leaves no trace; the runtime's name clash is a SessionToolError),
 * MCP names in the collision check, busy state from the runtime's turn events, and a same-name
 * redefinition refused mid-turn.
 */
import { describe, expect, it } from "vitest";
import { SessionToolError, approveAll, type CopilotSession } from "@github/copilot-sdk";
import { exchanged, fakeRuntimeClients } from "../support/fakeRuntimeClient.js";
import type { FakeRuntime } from "../support/fakeRuntime.js";

const MODEL = "claude-sonnet-4.5";
const handler = async (): Promise<string> => "custom result";
const lint = { name: "lint", description: "Lint the code", handler };
const format = { name: "format", description: "Format the code", handler };
const view = { name: "view", description: "Custom view", handler, overridesBuiltInTool: true };
const CLASH = "External tool name clash: 'format' is already registered by another connection";

const { setUp } = fakeRuntimeClients();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The handlePendingToolCall answers this client sent from request `from` on. */
function answersFrom(runtime: FakeRuntime, from: number): unknown[] {
    return runtime.requests
        .slice(from)
        .filter(({ method }) => method === "session.tools.handlePendingToolCall")
        .map(({ params }) => params.requestId);
}

function callOf(
    runtime: FakeRuntime,
    session: CopilotSession,
    requestId: string,
    toolName: string
) {
    runtime.emit(session.sessionId, {
        type: "external_tool.requested",
        data: { requestId, toolName, toolCallId: `c-${requestId}`, arguments: {} },
    });
}

describe("one owner per name, across clients", () => {
    it("leaves no trace of a setTools the runtime refused: a name it only tried to add is not answered", async () => {
        const { runtime, client } = await setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [lint],
        });
        runtime.emit(session.sessionId, { type: "assistant.turn_start", data: { turnId: "0" } });
        await exchanged(client);
        runtime.failMethod("session.tools.set", 1, CLASH);
        const error = await session.setTools({ tools: [lint, format] }).then(
            () => undefined,
            (caught: unknown) => caught
        );
        expect(error).toBeInstanceOf(SessionToolError);
        expect(error).toMatchObject({ code: "TOOL_NAME_CLASH", toolNames: ["format"] });
        expect((error as Error).message).toContain("another connection");
        // Another client's format: this client must not answer its calls.
        const from = runtime.requests.length;
        callOf(runtime, session, "r1", "format");
        await sleep(500);
        expect(answersFrom(runtime, from)).toEqual([]);
    });

    it("does not answer calls of a tool it removed while idle (another client may add it)", async () => {
        const { runtime, client } = await setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [lint, format],
        });
        await session.setTools({ tools: [lint] });
        const from = runtime.requests.length;
        callOf(runtime, session, "r1", "format");
        await sleep(500);
        expect(answersFrom(runtime, from)).toEqual([]);
    });

    it("leaves a call of a tool removed mid-turn to another client that answers it first", async () => {
        const { runtime, client } = await setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [lint, format],
        });
        runtime.emit(session.sessionId, { type: "assistant.turn_start", data: { turnId: "0" } });
        await exchanged(client);
        await session.setTools({ tools: [lint] });
        const from = runtime.requests.length;
        callOf(runtime, session, "r1", "format");
        runtime.emit(session.sessionId, {
            type: "external_tool.completed",
            data: { requestId: "r1" },
        });
        callOf(runtime, session, "r2", "format");
        await sleep(500);
        expect(answersFrom(runtime, from)).toEqual(["r2"]);
    });

    it("turns the runtime's name clash at resumeSession into a SessionToolError naming the tool", async () => {
        const { runtime, client } = await setUp();
        runtime.failMethod("session.resume", 1, CLASH);
        const error = await client
            .resumeSession("shared-session", {
                model: MODEL,
                onPermissionRequest: approveAll,
                tools: [lint, format],
            })
            .then(
                () => undefined,
                (caught: unknown) => caught
            );
        expect(error).toBeInstanceOf(SessionToolError);
        expect(error).toMatchObject({ code: "TOOL_NAME_CLASH", toolNames: ["format"] });
    });
});

describe("MCP names in the collision check", () => {
    const adv = { type: "http" as const, url: "http://127.0.0.1:9/mcp", tools: ["*"] };

    it("refuses a custom tool an MCP tool would shadow, in createSession, resumeSession and setTools", async () => {
        const { runtime, client } = await setUp();
        const advLint = { name: "adv-lint", description: "Custom lint", handler };
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [lint],
            mcpServers: { adv },
        });
        const from = runtime.requests.length;
        for (const attempt of [
            () =>
                client.createSession({
                    model: MODEL,
                    onPermissionRequest: approveAll,
                    tools: [advLint],
                    mcpServers: { adv },
                }),
            () =>
                client.resumeSession("other", {
                    model: MODEL,
                    onPermissionRequest: approveAll,
                    tools: [advLint],
                    mcpServers: { adv: { ...adv, tools: ["lint"] } },
                }),
            () => session.setTools({ tools: [lint, advLint] }),
        ]) {
            await expect(attempt()).rejects.toMatchObject({
                name: "SessionToolError",
                code: "MCP_TOOL_COLLISION",
                toolNames: ["adv-lint"],
                message: expect.stringContaining("'adv-lint' (MCP server 'adv')"),
            });
        }
        expect(runtime.requests.length).toBe(from);
        expect(session.toolResolution!.enabledTools).not.toContain("adv-lint");
    });

    it("accepts a name under the server's prefix that its tools list leaves out", async () => {
        const { client } = await setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [{ name: "adv-format", description: "Custom format", handler }],
            mcpServers: { adv: { ...adv, tools: ["lint"] } },
        });
        expect(session.toolResolution!.enabledTools).toContain("adv-format");
    });
});

describe("a same-name redefinition while a turn runs", () => {
    it("is refused as SESSION_BUSY before anything is sent, and applied once idle", async () => {
        const { runtime, client } = await setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [view, lint],
        });
        runtime.emit(session.sessionId, {
            type: "assistant.turn_start",
            data: { turnId: "0", interactionId: "i1" },
        });
        await exchanged(client);
        const from = runtime.requests.length;
        for (const tools of [
            [{ ...view, description: "Custom view, second form" }, lint],
            [view, { ...lint, description: "Lint, second form" }],
        ]) {
            await expect(session.setTools({ tools })).rejects.toMatchObject({
                code: "SESSION_BUSY",
                toolNames: [tools[0]!.description === view.description ? "lint" : "view"],
            });
        }
        expect(runtime.requests.length).toBe(from);
        // Other changes go on: a new handler for the same definition, a tool added.
        await session.setTools({ tools: [{ ...view, handler: async () => "other" }, lint] });
        await session.setTools({ tools: [view, lint, format] });
        runtime.emit(session.sessionId, { type: "assistant.turn_end", data: { turnId: "0" } });
        runtime.emit(session.sessionId, { type: "session.idle", data: {} });
        await exchanged(client);
        await session.setTools({ tools: [{ ...view, description: "Custom view, second form" }] });
    });

    it("counts a turn started by another client (no send through this object) as busy", async () => {
        const { runtime, client } = await setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [lint],
        });
        runtime.emit(session.sessionId, {
            type: "user.message",
            data: { content: "from elsewhere", messageId: "x1", interactionId: "i9" },
        });
        await exchanged(client);
        await expect(session.setTools({ tools: [lint, view] })).rejects.toMatchObject({
            code: "SESSION_BUSY",
        });
        // A late idle while its turn is open ends nothing.
        runtime.emit(session.sessionId, {
            type: "assistant.turn_start",
            data: { turnId: "0", interactionId: "i9" },
        });
        runtime.emit(session.sessionId, { type: "session.idle", data: {} });
        await exchanged(client);
        await expect(session.setTools({ tools: [lint, view] })).rejects.toMatchObject({
            code: "SESSION_BUSY",
        });
        runtime.emit(session.sessionId, { type: "assistant.turn_end", data: { turnId: "0" } });
        runtime.emit(session.sessionId, { type: "session.idle", data: {} });
        await exchanged(client);
        await expect(session.setTools({ tools: [lint, view] })).resolves.toBeDefined();
    });

    it("counts a running sub-agent as busy until it completes or fails, even after a session.idle", async () => {
        const { runtime, client } = await setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [lint],
        });
        const emit = (type: string, data: object, agentId?: string) =>
            runtime.emit(session.sessionId, { type, data, ...(agentId ? { agentId } : {}) });
        const busy = () =>
            session.setTools({ tools: [lint, view] }).then(
                (resolution) => {
                    // Applied: put the session back for the next question.
                    void resolution;
                    return session.setTools({ tools: [lint] }).then(() => false);
                },
                (error: { code?: string }) => {
                    if (error.code !== "SESSION_BUSY") throw error;
                    return true;
                }
            );
        for (const end of ["subagent.completed", "subagent.failed"]) {
            // A background task: the main turn ends while the sub-agent runs; an idle arrives
            // before the sub-agent's first turn (runtime 1.0.85 holds it back; another may not).
            emit("assistant.turn_start", { turnId: "0", interactionId: "i1" });
            emit("subagent.started", { toolCallId: "t1", agentName: "general-purpose" }, "a1");
            emit("assistant.turn_end", { turnId: "0" });
            emit("session.idle", {});
            await exchanged(client);
            expect(await busy()).toBe(true);
            emit("user.message", { content: "SUBTASK", messageId: "m-sub" }, "a1");
            emit("assistant.turn_start", { turnId: "0", interactionId: "i-sub" }, "a1");
            emit("assistant.turn_end", { turnId: "0" }, "a1");
            await exchanged(client);
            expect(await busy()).toBe(true);
            emit(end, { toolCallId: "t1", agentName: "general-purpose" }, "a1");
            await exchanged(client);
            expect(await busy()).toBe(false);
        }
    });

    it("keys a sub-agent's turns by its agentId: the main agent's turn end (turn ids alike) leaves the sub-agent's open, and its failure ends them", async () => {
        const { runtime, client } = await setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [lint],
        });
        const emit = (type: string, data: object, agentId?: string) =>
            runtime.emit(session.sessionId, { type, data, ...(agentId ? { agentId } : {}) });
        emit("subagent.started", { toolCallId: "t1", agentName: "explore" }, "a1");
        emit("assistant.turn_start", { turnId: "0", interactionId: "i-sub" }, "a1");
        emit("assistant.turn_start", { turnId: "0", interactionId: "i1" });
        emit("assistant.turn_end", { turnId: "0" });
        // A late idle while the sub-agent's turn is open ends nothing.
        emit("session.idle", {});
        await exchanged(client);
        await expect(session.setTools({ tools: [lint, view] })).rejects.toMatchObject({
            code: "SESSION_BUSY",
        });
        // The sub-agent fails mid-turn (no turn_end of its own): its turn ends with it.
        emit("subagent.failed", { toolCallId: "t1", agentName: "explore" }, "a1");
        emit("session.idle", {});
        await exchanged(client);
        await expect(session.setTools({ tools: [lint, view] })).resolves.toBeDefined();
    });
});
