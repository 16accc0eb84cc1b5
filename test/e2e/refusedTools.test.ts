/**
 * Duplicate and invalid custom tool names against the real runtime: the patched SDK refuses
 * them before the runtime sees a session (no model request, no session state on disk); the
 * unpatched SDK lets some of them through.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { CopilotClient, SessionToolError, approveAll } from "@github/copilot-sdk";
import { CopilotClient as UnpatchedClient } from "copilot-sdk-unpatched";
import {
    CLAUDE_MODEL,
    cleanupStack,
    mockModel,
    providerFor,
    recordingTool,
    runtimeProcesses,
    sessionDirectories,
    temporaryBaseDirectory,
} from "../support/e2eHarness.js";
import { describeNoLeftovers } from "../support/noLeftovers.js";
import type { MockModel } from "../support/mockModel.js";

const handler = async (): Promise<string> => "custom result";

/** [label, tools, error code, message]. */
const REFUSALS: readonly [string, unknown[], string, RegExp][] = [
    [
        "two tools named 'lint'",
        [recordingTool("lint"), recordingTool("lint")],
        "DUPLICATE_TOOL_NAME",
        /'lint' is defined twice \(tools\[0\] and tools\[1\]\)/,
    ],
    [
        "two overrides of 'view'",
        [recordingTool("view"), recordingTool("view")],
        "DUPLICATE_TOOL_NAME",
        /'view' is defined twice/,
    ],
    [
        "'lint' and 'Lint'",
        [recordingTool("lint"), recordingTool("Lint")],
        "DUPLICATE_TOOL_NAME",
        /'lint' \(tools\[0\]\) and 'Lint' \(tools\[1\]\) differ only in case/,
    ],
    [
        "a name with a space",
        [recordingTool("my tool")],
        "INVALID_CUSTOM_TOOL",
        /'my tool' \(tools\[0\]\) has an invalid name/,
    ],
    [
        "a name of 65 characters",
        [recordingTool("x".repeat(65))],
        "INVALID_CUSTOM_TOOL",
        /1 to 64 characters\); this one has 65/,
    ],
    ["an empty name", [recordingTool("")], "INVALID_CUSTOM_TOOL", /'' \(tools\[0\]\)/],
    [
        "the name __proto__",
        [JSON.parse('{"name":"__proto__"}') as object],
        "INVALID_CUSTOM_TOOL",
        /'__proto__' \(tools\[0\]\)/,
    ],
    [
        "the name constructor",
        [{ name: "constructor", handler }],
        "INVALID_CUSTOM_TOOL",
        /'constructor' \(tools\[0\]\) uses a name that JavaScript objects inherit/,
    ],
    [
        "a string overridesBuiltInTool",
        [{ name: "view", handler, overridesBuiltInTool: "yes" }],
        "INVALID_CUSTOM_TOOL",
        /overridesBuiltInTool 'yes'/,
    ],
    [
        "a tool without a handler",
        [{ name: "lint" }],
        "INVALID_CUSTOM_TOOL",
        /'lint' \(tools\[0\]\) has no handler/,
    ],
];

/** Calls `construct` and returns what it threw (fails the test when it did not throw). */
async function refusal(construct: () => Promise<unknown>): Promise<SessionToolError> {
    const error = await construct().then(
        () => undefined,
        (e: unknown) => e
    );
    expect(error).toBeInstanceOf(SessionToolError);
    return error as SessionToolError;
}

describe("duplicate and invalid custom tool names, patched SDK (real runtime)", () => {
    describe("on a client whose runtime has not started", () => {
        const { defer, run } = cleanupStack();
        afterEach(run);
        let baseDirectory: string;
        let client: CopilotClient;
        let model: MockModel;

        beforeEach(async () => {
            baseDirectory = temporaryBaseDirectory(defer);
            model = await mockModel(defer);
            client = new CopilotClient({ baseDirectory, onToolWarning: () => {} });
            defer(() => client.stop());
        });

        it.each(REFUSALS)(
            "refuses %s in createSession and resumeSession before any session exists",
            async (_label, tools, code, message) => {
                const config = {
                    model: CLAUDE_MODEL,
                    provider: providerFor(model),
                    onPermissionRequest: approveAll,
                    tools: tools as never,
                };
                for (const construct of [
                    () => client.createSession(config),
                    () => client.resumeSession("an-earlier-session", config),
                ]) {
                    const error = await refusal(construct);
                    expect(error.code).toBe(code);
                    expect(error.message).toMatch(message);
                }
                expect(model.requests).toEqual([]);
                expect(runtimeProcesses()).toEqual([]);
                expect(sessionDirectories(baseDirectory)).toEqual([]);
            }
        );

        it("leaves the runtime, once started, without a session", async () => {
            await client.start();
            expect(await client.listSessions()).toEqual([]);
            expect(sessionDirectories(baseDirectory)).toEqual([]);
            expect(model.requests).toEqual([]);
        });
    });

    describe("on resuming a session that exists", () => {
        const { defer, run } = cleanupStack();
        afterEach(run);
        let baseDirectory: string;
        let client: CopilotClient;
        let model: MockModel;
        let sessionId: string;
        let eventsFile: string;

        beforeEach(async () => {
            baseDirectory = temporaryBaseDirectory(defer);
            model = await mockModel(defer);
            client = new CopilotClient({ baseDirectory, onToolWarning: () => {} });
            defer(() => client.stop());
            const session = await client.createSession({
                model: CLAUDE_MODEL,
                provider: providerFor(model),
                onPermissionRequest: approveAll,
            });
            await session.sendAndWait({ prompt: "Hello." });
            await session.disconnect();
            sessionId = session.sessionId;
            eventsFile = join(baseDirectory, "session-state", sessionId, "events.jsonl");
        });

        it.each(REFUSALS)(
            "refuses %s and leaves the session as it was",
            async (_label, tools, code) => {
                const requestsBefore = model.requests.length;
                const eventsBefore = readFileSync(eventsFile, "utf8");
                const error = await refusal(() =>
                    client.resumeSession(sessionId, {
                        model: CLAUDE_MODEL,
                        provider: providerFor(model),
                        onPermissionRequest: approveAll,
                        tools: tools as never,
                    })
                );
                expect(error.code).toBe(code);
                expect(model.requests).toHaveLength(requestsBefore);
                expect(readFileSync(eventsFile, "utf8")).toBe(eventsBefore);
                expect(sessionDirectories(baseDirectory)).toEqual([sessionId]);
            }
        );
    });
});

describe("duplicate and invalid custom tool names, unpatched SDK (control)", () => {
    const { defer, run } = cleanupStack();
    afterEach(run);
    let client: UnpatchedClient;
    let baseDirectory: string;

    beforeEach(() => {
        baseDirectory = temporaryBaseDirectory(defer);
        client = new UnpatchedClient({ baseDirectory });
        defer(() => client.stop());
    });

    it("accepts two tools named 'lint': the model sees one, a session is created", async () => {
        const local = cleanupStack();
        try {
            const model = await mockModel(local.defer, { toolCall: { name: "lint" } });
            const first = recordingTool("lint");
            const second = recordingTool("lint");
            const session = await client.createSession({
                model: CLAUDE_MODEL,
                provider: providerFor(model),
                onPermissionRequest: approveAll,
                tools: [first, second],
            });
            await session.sendAndWait({ prompt: "Lint." });
            expect(model.toolDefinitionsOf(0, "lint")).toHaveLength(1);
            expect(first.calls.length + second.calls.length).toBe(1);
            expect(sessionDirectories(baseDirectory)).toContain(session.sessionId);
        } finally {
            await local.run();
        }
    });

    it("sends a name with a space to the runtime, which refuses it", async () => {
        const local = cleanupStack();
        try {
            const model = await mockModel(local.defer);
            const error = await client
                .createSession({
                    model: CLAUDE_MODEL,
                    provider: providerFor(model),
                    onPermissionRequest: approveAll,
                    tools: [recordingTool("my tool")],
                })
                .catch((e: unknown) => e);
            expect(error).not.toBeInstanceOf(SessionToolError);
            expect((error as Error).message).toMatch(
                /session\.create failed .*tool name "my tool" contains invalid characters/
            );
        } finally {
            await local.run();
        }
    });
});

describeNoLeftovers();
