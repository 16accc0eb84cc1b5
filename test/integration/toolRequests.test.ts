/**
 * One run of a custom tool's handler per tool request, through the real patched client against a
 * fake runtime: runtime 1.0.85 sends each call a sub-agent makes of a custom tool as two
 * `external_tool.requested` events with one request id (measured: `npm run repro --
 * subagent-duplicate-tool-request`); the second must not run the app's handler again, and only a
 * request that is provably the same (request id, tool and call id) is held back.
 */
import { describe, expect, it } from "vitest";
import { approveAll, type CopilotSession } from "@github/copilot-sdk";
import { exchanged, fakeRuntimeClients } from "../support/fakeRuntimeClient.js";
import type { FakeRuntime } from "../support/fakeRuntime.js";

const MODEL = "claude-sonnet-4.5";
const { setUp } = fakeRuntimeClients();

/** The request ids of the handlePendingToolCall answers the client sent. */
const answers = (runtime: FakeRuntime): unknown[] =>
    runtime.requests
        .filter(({ method }) => method === "session.tools.handlePendingToolCall")
        .map(({ params }) => params.requestId);

function request(
    runtime: FakeRuntime,
    session: CopilotSession,
    requestId: string,
    toolCallId: string,
    toolName = "lint"
): void {
    runtime.emit(session.sessionId, {
        type: "external_tool.requested",
        data: { requestId, toolName, toolCallId, arguments: {} },
    });
}

async function lintSession() {
    const { runtime, client } = await setUp();
    const runs: string[] = [];
    let release: () => void = () => {};
    let gate: Promise<void> = Promise.resolve();
    const session = await client.createSession({
        model: MODEL,
        onPermissionRequest: approveAll,
        tools: [
            {
                name: "lint",
                description: "Lint the code",
                handler: async (_args: unknown, invocation: { toolCallId: string }) => {
                    runs.push(invocation.toolCallId);
                    await gate;
                    return "linted";
                },
            },
        ],
    });
    const hold = () => {
        gate = new Promise<void>((resolve) => (release = resolve));
        return () => release();
    };
    return { runtime, client, session, runs, hold };
}

describe("a custom tool's handler runs once per tool request", () => {
    it("does not run the handler again for a request the runtime sends twice under one id, after the first was answered", async () => {
        const { runtime, client, session, runs } = await lintSession();
        request(runtime, session, "r1", "call-1");
        await exchanged(client);
        expect(answers(runtime)).toEqual(["r1"]);
        request(runtime, session, "r1", "call-1");
        await exchanged(client);
        expect(runs).toEqual(["call-1"]);
        expect(answers(runtime)).toEqual(["r1"]);
    });

    // The pinned SDK skips such a copy on its own too; SDK 1.0.0 has no such check.
    it("does not run it twice when the second copy comes while the first runs", async () => {
        const { runtime, client, session, runs, hold } = await lintSession();
        const release = hold();
        request(runtime, session, "r1", "call-1");
        request(runtime, session, "r1", "call-1");
        await exchanged(client);
        release();
        await exchanged(client);
        expect(runs).toEqual(["call-1"]);
        expect(answers(runtime)).toEqual(["r1"]);
    });

    it("runs it for every other request: a new request id for the same call, and a known id for another call or tool", async () => {
        const { runtime, client, session, runs } = await lintSession();
        request(runtime, session, "r1", "call-1");
        await exchanged(client);
        request(runtime, session, "r2", "call-1");
        await exchanged(client);
        request(runtime, session, "r1", "call-2");
        await exchanged(client);
        expect(runs).toEqual(["call-1", "call-1", "call-2"]);
        expect(answers(runtime)).toEqual(["r1", "r2", "r1"]);
    });
});
