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
        /these repeat: 'lint', 'lint'/,
    ],
    [
        "two overrides of 'view'",
        [recordingTool("view"), recordingTool("view")],
        "DUPLICATE_TOOL_NAME",
        /these repeat: 'view', 'view'/,
    ],
    [
        "'lint' and 'Lint'",
        [recordingTool("lint"), recordingTool("Lint")],
        "DUPLICATE_TOOL_NAME",
        /these repeat: 'lint', 'Lint'/,
    ],
    [
        "a name with a space",
        [recordingTool("my tool")],
        "INVALID_CUSTOM_TOOL",
        /Invalid tool name 'my tool' at tools\[0\]/,
    ],
    [
        "a name of 65 characters",
        [recordingTool("x".repeat(65))],
        "INVALID_CUSTOM_TOOL",
        /use 1 to 64 letters, digits/,
    ],
    [
        "an empty name",
        [recordingTool("")],
        "INVALID_CUSTOM_TOOL",
        /Invalid tool name '' at tools\[0\]/,
    ],
    [
        "a sparse tools array",
        // eslint-disable-next-line no-sparse-arrays
        [recordingTool("lint"), , recordingTool("fmt")],
        "INVALID_CUSTOM_TOOL",
        /tools\[1\] is an empty slot of a sparse array/,
    ],
    [
        "a string overridesBuiltInTool",
        [{ name: "view", handler, overridesBuiltInTool: "yes" }],
        "INVALID_CUSTOM_TOOL",
        /overridesBuiltInTool 'yes'/,
    ],
    [
        "overridesBuiltInTool: false on the built-in 'view'",
        [{ name: "view", handler, overridesBuiltInTool: false }],
        "BUILT_IN_TOOL_COLLISION",
        /'view' set overridesBuiltInTool: false, but the runtime has built-in tools of these names/,
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
    describe("on a new client", () => {
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
                expect(await client.listSessions()).toEqual([]);
                expect(sessionDirectories(baseDirectory)).toEqual([]);
            }
        );

        it("accepts tools without a handler and names of Object.prototype members", async () => {
            const session = await client.createSession({
                model: CLAUDE_MODEL,
                provider: providerFor(model),
                onPermissionRequest: approveAll,
                tools: [
                    { name: "lookup", description: "answered by the app" },
                    { name: "constructor", handler },
                ],
            });
            await session.sendAndWait({ prompt: "Hello." });
            expect(model.toolDefinitionsOf(0, "lookup")).toHaveLength(1);
            expect(model.toolDefinitionsOf(0, "constructor")).toHaveLength(1);
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
            expect((error as Error).message).toMatch(
                /session\.create failed .*tool name "my tool" contains invalid characters/
            );
        } finally {
            await local.run();
        }
    });
});

describeNoLeftovers();
