/**
 * `session.setTools` when the runtime misbehaves or the session changes hands, through the real
 * patched client against a fake runtime on 127.0.0.1: a request that never answers, a runtime
 * that dies, a disconnect or `client.stop()` in the middle, `resumeSession` racing an old
 * object's update, a call to a tool that was removed, and a change of a built-in's owner while a
 * turn runs. Each test asserts the exact requests and how every promise settled.
 */
import { describe, expect, it } from "vitest";
import { CopilotClient, approveAll, type CopilotSession } from "@github/copilot-sdk";
import type { FakeRuntime } from "../support/fakeRuntime.js";
import { fakeRuntimeClients } from "../support/fakeRuntimeClient.js";

const MODEL = "claude-sonnet-4.5";
const handler = async (): Promise<string> => "custom result";
const lint = { name: "lint", description: "Lint the code", handler };
const format = { name: "format", description: "Format the code", handler };
const view = { name: "view", description: "Custom view", handler, overridesBuiltInTool: true };

const { setUp } = fakeRuntimeClients();

async function sessionWith(client: CopilotClient, tools: object[]): Promise<CopilotSession> {
    return client.createSession({ model: MODEL, onPermissionRequest: approveAll, tools } as never);
}

/** The methods and tool names / excluded lists of the requests from `from` on. */
function requestsFrom(runtime: FakeRuntime, from: number): [string, unknown][] {
    return runtime.requests
        .slice(from)
        .map(({ method, params }) => [
            method,
            method === "session.tools.set"
                ? (params.tools as { name: string }[]).map((tool) => tool.name)
                : method === "session.options.update"
                  ? params.excludedTools
                  : undefined,
        ]);
}

function handlerOf(session: CopilotSession, name: string): unknown {
    return (session as unknown as { getToolHandler(name: string): unknown }).getToolHandler(name);
}

/** How a promise settled: its value, or the error's code and message. */
function outcome(promise: Promise<unknown>): Promise<unknown> {
    return promise.then(
        () => "resolved",
        (error: { code?: string; message: string }) => ({
            code: error.code,
            message: error.message,
        })
    );
}

const settleWithin = (ms: number) =>
    new Promise((resolve) => setTimeout(() => resolve("pending"), ms));

describe("session.setTools: bounded waits", () => {
    it("fails a request that never answers after the timeout and puts the previous tools back", async () => {
        const { runtime, client } = await setUp();
        const session = await sessionWith(client, [lint]);
        runtime.hangMethod("session.tools.set", 1);
        const from = runtime.requests.length;
        const started = Date.now();
        await expect(session.setTools({ tools: [format] }, 200)).rejects.toThrow(
            "setTools failed: the runtime did not answer session.tools.set within 200 ms. The session keeps its previous tools and filter."
        );
        expect(Date.now() - started).toBeLessThan(2_000);
        expect(requestsFrom(runtime, from)).toEqual([
            ["session.tools.set", ["format"]],
            ["session.options.update", []],
            ["session.tools.set", ["lint"]],
            ["session.options.update", []],
        ]);
        expect(handlerOf(session, "lint")).toBe(handler);
        expect(handlerOf(session, "format")).toBeUndefined();
    });

    it("refuses a timeout that is not a positive number of milliseconds", async () => {
        const { runtime, client } = await setUp();
        const session = await sessionWith(client, [lint]);
        const from = runtime.requests.length;
        for (const timeout of [0, -1, Number.NaN, "100"]) {
            await expect(
                session.setTools({ tools: [format] }, timeout as number)
            ).rejects.toMatchObject({ name: "SessionToolError", code: "INVALID_TOOL_UPDATE" });
        }
        expect(runtime.requests.length).toBe(from);
    });
});

describe("session.setTools: settles when the session goes away", () => {
    for (const [how, end] of [
        ["session.disconnect()", (session: CopilotSession) => session.disconnect()],
        ["client.stop()", (_: CopilotSession, client: CopilotClient) => client.stop()],
        [
            "the runtime dying",
            (_: CopilotSession, __: CopilotClient, runtime: FakeRuntime) =>
                runtime.dropConnections(),
        ],
    ] as const) {
        it(`settles the call in progress and the queued ones at ${how}, and puts no handler back`, async () => {
            const { runtime, client } = await setUp();
            const session = await sessionWith(client, [lint]);
            runtime.hangMethod("session.tools.set");
            const inProgress = outcome(session.setTools({ tools: [format] }));
            const queued = outcome(session.setTools({ tools: [lint, format] }));
            // Wait until the update's request is on its way (it never answers).
            for (let waited = 0; waited < 5_000; waited += 10) {
                if (runtime.methods().includes("session.tools.set")) break;
                await new Promise((resolve) => setTimeout(resolve, 10));
            }
            const from = runtime.requests.length;
            void Promise.resolve(end(session, client, runtime)).catch(() => {});
            const settled = await Promise.race([
                Promise.all([inProgress, queued]),
                settleWithin(2_000),
            ]);
            expect(settled).toEqual([
                {
                    code: "INVALID_TOOL_UPDATE",
                    message: `Session '${session.sessionId}' was disconnected while setTools was changing its tools; nothing more was sent. To change its tools, resume it with client.resumeSession('${session.sessionId}', { tools, ... }).`,
                },
                {
                    code: "INVALID_TOOL_UPDATE",
                    message: `Session '${session.sessionId}' is disconnected, so setTools cannot change it: resume it with client.resumeSession('${session.sessionId}', { tools, ... }) and call setTools on the session that returns.`,
                },
            ]);
            expect(
                requestsFrom(runtime, from).filter(([method]) => method.startsWith("session.t"))
            ).toEqual([]);
            expect(handlerOf(session, "lint")).toBeUndefined();
            expect(handlerOf(session, "format")).toBeUndefined();
        });
    }
});

describe("session.setTools: what the SDK release can do", () => {
    it("refuses with the release and the missing request named when the session RPC has no session.tools.set", async () => {
        const { runtime, client } = await setUp();
        const session = await sessionWith(client, [lint]);
        // An SDK release without the request (1.0.11 and older): the session's RPC lacks it.
        const { tools, ...rest } = session.rpc as unknown as Record<string, object>;
        const { set: _, ...otherTools } = tools as Record<string, unknown>;
        (session as unknown as { _rpc: unknown })._rpc = { ...rest, tools: otherTools };
        const from = runtime.requests.length;
        await expect(session.setTools({ tools: [format] })).rejects.toMatchObject({
            name: "SessionToolError",
            code: "UNSUPPORTED_BY_RELEASE",
            toolNames: ["session.tools.set"],
            message: `session.setTools needs the runtime request 'session.tools.set', which @github/copilot-sdk 1.0.14 does not have, so it cannot change a running session's tools: resume the session with the new tools instead, client.resumeSession('${session.sessionId}', { tools, ... }), or move to an SDK release that has it (1.0.13 or later).`,
        });
        expect(runtime.requests.length).toBe(from);
        expect(handlerOf(session, "lint")).toBe(handler);
    });
});

describe("session.setTools: one owner per session id", () => {
    for (const delay of [0, 1, 5]) {
        it(`lets nothing of an old object's update reach the runtime after resumeSession (resume ${delay} ms after setTools)`, async () => {
            const { runtime, client } = await setUp();
            const old = await client.createSession({
                model: MODEL,
                onPermissionRequest: approveAll,
                tools: [view],
                excludedTools: ["bash"],
            });
            const from = runtime.requests.length;
            // The old object's update drops the exclusion; resumeSession keeps it.
            const update = outcome(old.setTools({ tools: [lint], excludedTools: null }));
            await new Promise((resolve) => setTimeout(resolve, delay));
            const resumed = await client.resumeSession(old.sessionId, {
                model: MODEL,
                onPermissionRequest: approveAll,
                tools: [view],
                excludedTools: ["bash"],
            });
            const late = outcome(old.setTools({ tools: [format] }));
            // The update either finished before the resume or was refused; it never hangs.
            expect(["resolved", "INVALID_TOOL_UPDATE"]).toContain(
                await update.then((o) => (o === "resolved" ? o : (o as { code: string }).code))
            );
            expect(await late).toEqual({
                code: "INVALID_TOOL_UPDATE",
                message: `Session '${old.sessionId}' was resumed as another object: call setTools on the session that resumeSession returned.`,
            });
            const methods = runtime.requests.slice(from).map((r) => r.method);
            const resumeAt = methods.indexOf("session.resume");
            expect(resumeAt).toBeGreaterThanOrEqual(0);
            expect(methods.slice(resumeAt).filter((m) => m === "session.tools.set")).toEqual([]);
            expect(runtime.paramsOf("session.resume").at(-1)!.excludedTools).toEqual(["bash"]);
            expect(resumed.toolResolution!.wire.excludedTools).toEqual(["bash"]);
        });
    }
});

describe("session.setTools: every tool call gets an answer", () => {
    it("answers a call to a removed tool with an error naming it, and leaves declared tools to the app", async () => {
        const { runtime, client } = await setUp();
        const declared = { name: "approve", description: "Answered by the app" };
        const session = await sessionWith(client, [lint, format, declared]);
        // Removed while a turn runs: a call of it may be on its way.
        runtime.emit(session.sessionId, { type: "assistant.turn_start", data: { turnId: "0" } });
        await new Promise((resolve) => setTimeout(resolve, 100));
        await session.setTools({ tools: [lint, declared] });
        const from = runtime.requests.length;
        for (const [requestId, toolName] of [
            ["r1", "format"],
            ["r2", "approve"],
        ]) {
            runtime.emit(session.sessionId, {
                type: "external_tool.requested",
                data: { requestId, toolName, toolCallId: `c-${requestId}`, arguments: {} },
            });
        }
        await new Promise((resolve) => setTimeout(resolve, 600));
        const answers = runtime.requests
            .slice(from)
            .filter(({ method }) => method === "session.tools.handlePendingToolCall")
            .map(({ params }) => [params.requestId, params.error]);
        expect(answers).toEqual([
            [
                "r1",
                "Tool 'format' was removed from this session (session.setTools) before this call ran, so it is not available; use the tools offered now.",
            ],
        ]);
    });
});

describe("session.setTools: a built-in's owner changes only while the session is idle", () => {
    it("refuses such a change while a turn runs, before anything is sent; other changes go on", async () => {
        const { runtime, client } = await setUp();
        const session = await sessionWith(client, [lint]);
        runtime.emit(session.sessionId, { type: "assistant.turn_start", data: { turnId: "t1" } });
        await new Promise((resolve) => setTimeout(resolve, 100));
        const from = runtime.requests.length;
        await expect(session.setTools({ tools: [lint, view] })).rejects.toMatchObject({
            name: "SessionToolError",
            code: "SESSION_BUSY",
            toolNames: ["view"],
        });
        expect(runtime.requests.length).toBe(from);
        // Adding a tool that replaces no built-in is fine mid-turn.
        await session.setTools({ tools: [lint, format] });
        expect(requestsFrom(runtime, from)).toEqual([["session.tools.set", ["lint", "format"]]]);
        runtime.emit(session.sessionId, { type: "assistant.turn_end", data: { turnId: "t1" } });
        runtime.emit(session.sessionId, { type: "session.idle", data: {} });
        await new Promise((resolve) => setTimeout(resolve, 100));
        await expect(session.setTools({ tools: [lint, view] })).resolves.toMatchObject({
            overriddenBuiltInTools: ["view"],
        });
    });

    it("counts a message sent as busy until an idle that comes after the runtime took it", async () => {
        const { runtime, client } = await setUp();
        const session = await sessionWith(client, [lint]);
        const messageId = await session.send({ prompt: "hello" });
        await expect(session.setTools({ tools: [view] })).rejects.toMatchObject({
            code: "SESSION_BUSY",
        });
        // The idle of the run before this message (a stale idle) does not end it.
        runtime.emit(session.sessionId, { type: "session.idle", data: {} });
        await new Promise((resolve) => setTimeout(resolve, 100));
        await expect(session.setTools({ tools: [view] })).rejects.toMatchObject({
            code: "SESSION_BUSY",
        });
        runtime.emit(session.sessionId, {
            type: "user.message",
            data: { content: "hello", messageId, interactionId: "i2" },
        });
        runtime.emit(session.sessionId, {
            type: "assistant.turn_start",
            data: { turnId: "0", interactionId: "i2" },
        });
        runtime.emit(session.sessionId, { type: "assistant.turn_end", data: { turnId: "0" } });
        runtime.emit(session.sessionId, { type: "session.idle", data: {} });
        await new Promise((resolve) => setTimeout(resolve, 100));
        await expect(session.setTools({ tools: [view] })).resolves.toBeDefined();
    });

    it("holds a message sent during such a change until the change is done", async () => {
        const { runtime, client } = await setUp();
        const session = await sessionWith(client, [lint]);
        const from = runtime.requests.length;
        const change = session.setTools({ tools: [lint, view] });
        const sent = session.send({ prompt: "hello" });
        await Promise.all([change, sent]);
        expect(
            runtime
                .methods()
                .slice(from - 1)
                .filter((m) => m.startsWith("session."))
        ).toEqual(["session.options.update", "session.tools.set", "session.send"]);
    });
});

describe("session.toolResolution after setModel", () => {
    it("describes the new model's built-ins", async () => {
        const { client } = await setUp();
        const session = await sessionWith(client, [lint]);
        expect(session.toolResolution!.enabledTools).toContain("create");
        await session.setModel("gpt-4o");
        // GPT models edit files with apply_patch and are not offered create (measured).
        expect(session.toolResolution!.enabledTools).toContain("apply_patch");
        expect(session.toolResolution!.enabledTools).not.toContain("create");
    });
});

describe("session.setTools: found in review", () => {
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

    it("does not answer a call to a tool this session never had (another client's tool)", async () => {
        const { runtime, client } = await setUp();
        const session = await sessionWith(client, [lint]);
        const from = runtime.requests.length;
        runtime.emit(session.sessionId, {
            type: "external_tool.requested",
            data: { requestId: "r1", toolName: "ext_deploy", toolCallId: "c1", arguments: {} },
        });
        await sleep(200);
        expect(
            runtime.requests
                .slice(from)
                .filter(({ method }) => method === "session.tools.handlePendingToolCall")
        ).toEqual([]);
    });

    it("refuses a mid-turn change of a built-in's owner while the runtime's tools are unknown", async () => {
        const { runtime, client } = await setUp();
        const session = await sessionWith(client, [lint]);
        runtime.hangMethod("session.tools.set", 2);
        await expect(session.setTools({ tools: [lint, view] }, 200)).rejects.toThrow(
            /putting the previous tools back failed too/
        );
        runtime.hangMethod(undefined);
        runtime.emit(session.sessionId, { type: "assistant.turn_start", data: { turnId: "t1" } });
        await sleep(100);
        const from = runtime.requests.length;
        // Every name the runtime may hold counts as changing.
        await expect(session.setTools({ tools: [lint] })).rejects.toMatchObject({
            code: "SESSION_BUSY",
            toolNames: ["view", "lint"],
        });
        expect(runtime.requests.length).toBe(from);
    });

    it("stays busy after an autopilot session.idle (the runtime goes on by itself)", async () => {
        const { runtime, client } = await setUp();
        const session = await sessionWith(client, [lint]);
        await session.send({ prompt: "hello", agentMode: "autopilot" } as never);
        runtime.emit(session.sessionId, { type: "assistant.turn_start", data: { turnId: "t1" } });
        runtime.emit(session.sessionId, { type: "assistant.turn_end", data: { turnId: "t1" } });
        runtime.emit(session.sessionId, { type: "session.idle", data: { mode: "autopilot" } });
        await sleep(100);
        await expect(session.setTools({ tools: [lint, view] })).rejects.toMatchObject({
            code: "SESSION_BUSY",
        });
    });

    it("keeps setTools working on the object a resume made when a later resume of the id is refused", async () => {
        const { runtime, client } = await setUp(
            { status: { kind: "never" } },
            { strictToolFilters: true }
        );
        const created = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
        });
        const id = created.sessionId;
        const first = client.resumeSession(id, { model: MODEL, onPermissionRequest: approveAll });
        const second = client
            .resumeSession(id, {
                model: MODEL,
                onPermissionRequest: approveAll,
                tools: [lint],
                availableTools: ["no_such_tool", "lint"],
            })
            .then(
                () => "resumed",
                (error: { code?: string }) => error.code
            );
        const resumed = await first;
        expect(await second).toBe("UNKNOWN_IDENTIFIERS");
        expect(runtime.paramsOf("session.resume").length).toBe(1);
        await expect(resumed.setTools({ excludedTools: ["bash"] }, 5_000)).resolves.toBeDefined();
    }, 20_000);

    it("rejects a setTools whose session was disconnected while the update was being prepared", async () => {
        const { client } = await setUp({ status: { kind: "never" } });
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            excludedTools: ["bash"],
        });
        const update = session.setTools({ excludedTools: ["bash"] });
        await sleep(200);
        await session.disconnect();
        await expect(update).rejects.toMatchObject({
            name: "SessionToolError",
            code: "INVALID_TOOL_UPDATE",
        });
    }, 20_000);

    it("tells an old object the truth when the resume of its id failed", async () => {
        const { runtime, client } = await setUp();
        const old = await sessionWith(client, [lint]);
        runtime.failMethod("session.resume", 1);
        await expect(
            client.resumeSession(old.sessionId, { model: MODEL, onPermissionRequest: approveAll })
        ).rejects.toThrow();
        await expect(old.setTools({ tools: [] })).rejects.toMatchObject({
            code: "INVALID_TOOL_UPDATE",
            message: `Session '${old.sessionId}' is no longer held by its client (a resumeSession of it failed, or it was deleted), so setTools cannot change it: resume it with client.resumeSession('${old.sessionId}', { tools, ... }) and call setTools on the session that returns.`,
        });
    });
});
