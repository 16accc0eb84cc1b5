/**
 * What session construction refuses, against the real runtime: duplicate and invalid tool names,
 * a sparse tools array, `overridesBuiltInTool: false` on a built-in's name, a built-in's name on
 * a client that refuses collisions, malformed filters and toolsets. The patched SDK throws a
 * SessionToolError before the runtime hears of a session: no model request, no session listed,
 * no session state on disk (where the runtime puts a session as soon as it makes it, before
 * listSessions shows it), and a resumed session stays as it was. Tools without a handler are
 * not refused: they are declarations the model sees. The unpatched SDK, as a control, lets some
 * of the same tools through.
 */
import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
    CopilotClient,
    SessionToolError,
    type CopilotClientOptions,
    type SessionToolErrorCode,
} from "@github/copilot-sdk";
import { CopilotClient as UnpatchedClient } from "copilot-sdk-unpatched";
import {
    CLAUDE_MODEL,
    e2eRig,
    recordingTool,
    sessionDirectories,
    stoppedAtEnd,
    testCleanups,
} from "../support/e2eHarness.js";
import { descriptionOf } from "../support/mockModel.js";
import { describeNoLeftovers } from "../support/noLeftovers.js";

const handler = async (): Promise<string> => "custom result";

interface Refusal {
    readonly label: string;
    readonly config: Record<string, unknown>;
    readonly code: SessionToolErrorCode;
    readonly message: RegExp;
    readonly clientOptions?: CopilotClientOptions;
}

const REFUSALS: readonly Refusal[] = [
    {
        label: "two tools named 'lint'",
        config: { tools: [recordingTool("lint"), recordingTool("lint")] },
        code: "DUPLICATE_TOOL_NAME",
        message: /these repeat: 'lint', 'lint'/,
    },
    {
        label: "two overrides of 'view'",
        config: { tools: [recordingTool("view"), recordingTool("view")] },
        code: "DUPLICATE_TOOL_NAME",
        message: /these repeat: 'view', 'view'/,
    },
    {
        label: "'lint' and 'Lint'",
        config: { tools: [recordingTool("lint"), recordingTool("Lint")] },
        code: "DUPLICATE_TOOL_NAME",
        message: /these repeat: 'lint', 'Lint'/,
    },
    {
        label: "a name with a space",
        config: { tools: [recordingTool("my tool")] },
        code: "INVALID_CUSTOM_TOOL",
        message: /Invalid tool name 'my tool' at tools\[0\]/,
    },
    {
        label: "a name of 65 characters",
        config: { tools: [recordingTool("x".repeat(65))] },
        code: "INVALID_CUSTOM_TOOL",
        message: /use 1 to 64 letters, digits/,
    },
    {
        label: "an empty name",
        config: { tools: [recordingTool("")] },
        code: "INVALID_CUSTOM_TOOL",
        message: /Invalid tool name '' at tools\[0\]/,
    },
    {
        label: "a sparse tools array",
        // eslint-disable-next-line no-sparse-arrays
        config: { tools: [recordingTool("lint"), , recordingTool("fmt")] },
        code: "INVALID_CUSTOM_TOOL",
        message: /tools\[1\] is an empty slot of a sparse array/,
    },
    {
        label: "a string overridesBuiltInTool",
        config: { tools: [{ name: "view", handler, overridesBuiltInTool: "yes" }] },
        code: "INVALID_CUSTOM_TOOL",
        message: /overridesBuiltInTool 'yes'/,
    },
    {
        label: "overridesBuiltInTool: false on the built-in name 'view'",
        config: { tools: [{ name: "view", handler, overridesBuiltInTool: false }] },
        code: "BUILT_IN_TOOL_COLLISION",
        message:
            /^Custom tool 'view' sets overridesBuiltInTool: false, but the runtime has a built-in tool of that name/,
    },
    {
        label: "a built-in name without the flag, on a client with builtInToolCollisions 'error'",
        config: { tools: [recordingTool("view")] },
        clientOptions: { builtInToolCollisions: "error" },
        code: "BUILT_IN_TOOL_COLLISION",
        message:
            /^Custom tool 'view' has the name of a built-in tool. Set overridesBuiltInTool: true on it/,
    },
    {
        label: "a toolset entry without a name",
        config: { availableTools: ["toolset:"] },
        code: "INVALID_TOOL_FILTER",
        message: /Invalid availableTools entry 'toolset:'/,
    },
    {
        label: "a customToolSets member that is a toolset entry",
        config: { customToolSets: { quality: ["toolset:edit"] } },
        code: "INVALID_TOOL_SET",
        message: /Invalid member 'toolset:edit' of customToolSets.quality/,
    },
];

/** The error a construction threw (undefined when it did not throw). */
function errorOf(construct: () => Promise<unknown>): Promise<SessionToolError | undefined> {
    return construct().then(
        () => undefined,
        (error: unknown) => error as SessionToolError
    );
}

/** Patched client options that keep the tests quiet. */
const quiet = (options: CopilotClientOptions = {}): CopilotClientOptions => ({
    onToolWarning: () => {},
    ...options,
});

describe.concurrent("session construction, patched SDK", () => {
    it.for(REFUSALS.map((r) => [r.label, r] as const))(
        "refuses %s in createSession and resumeSession, and no session exists afterwards",
        async ([, { config, code, message, clientOptions }], { onTestFinished }) => {
            const { client, model, base, baseDirectory } = await e2eRig(
                testCleanups(onTestFinished),
                (baseDirectory) => new CopilotClient({ baseDirectory, ...quiet(clientOptions) })
            );
            const sessionConfig = { ...base(CLAUDE_MODEL), ...config } as never;
            for (const construct of [
                () => client.createSession(sessionConfig),
                () => client.resumeSession("an-earlier-session", sessionConfig),
            ]) {
                const error = await errorOf(construct);
                expect(error).toBeInstanceOf(SessionToolError);
                expect(error?.code).toBe(code);
                expect(error?.message).toMatch(message);
            }
            expect(await client.listSessions()).toEqual([]);
            expect(sessionDirectories(baseDirectory)).toEqual([]);
            expect(model.requests).toEqual([]);
        }
    );

    it("refuses each of them on resuming a session that exists, and leaves the session as it was", async ({
        onTestFinished,
    }) => {
        const defer = testCleanups(onTestFinished);
        const { client, model, base, baseDirectory } = await e2eRig(
            defer,
            (baseDirectory) => new CopilotClient({ baseDirectory, ...quiet() })
        );
        const earlier = await client.createSession(base(CLAUDE_MODEL));
        await earlier.sendAndWait({ prompt: "Hello." });
        await earlier.disconnect();
        const { sessionId } = earlier;
        const eventsFile = join(baseDirectory, "session-state", sessionId, "events.jsonl");
        const eventsBefore = readFileSync(eventsFile, "utf8");
        const requestsBefore = model.requests.length;

        for (const { label, config, code, clientOptions } of REFUSALS) {
            const resumer =
                clientOptions === undefined
                    ? client
                    : stoppedAtEnd(
                          defer,
                          new CopilotClient({ baseDirectory, ...quiet(clientOptions) })
                      );
            const error = await errorOf(() =>
                resumer.resumeSession(sessionId, { ...base(CLAUDE_MODEL), ...config } as never)
            );
            expect(error?.code, label).toBe(code);
        }
        expect(model.requests).toHaveLength(requestsBefore);
        expect(readFileSync(eventsFile, "utf8")).toBe(eventsBefore);
        expect(sessionDirectories(baseDirectory)).toEqual([sessionId]);
        expect((await client.listSessions()).map((s) => s.sessionId)).toEqual([sessionId]);
    });

    it("accepts tools without a handler, as declarations the model sees, and names of Object.prototype members", async ({
        onTestFinished,
    }) => {
        const { client, model, base } = await e2eRig(
            testCleanups(onTestFinished),
            (baseDirectory) => new CopilotClient({ baseDirectory, ...quiet() })
        );
        const session = await client.createSession({
            ...base(CLAUDE_MODEL),
            tools: [
                { name: "lookup", description: "Answered by the app itself." },
                { name: "constructor", description: "A tool like any other.", handler },
            ],
        });
        await session.sendAndWait({ prompt: "Hello." });

        expect(model.toolDefinitionsOf(0, "lookup").map(descriptionOf)).toEqual([
            "Answered by the app itself.",
        ]);
        expect(model.toolDefinitionsOf(0, "constructor").map(descriptionOf)).toEqual([
            "A tool like any other.",
        ]);
        expect(session.toolResolution?.enabledTools).toEqual(
            expect.arrayContaining(["lookup", "constructor"])
        );
    });
});

describe.concurrent("where a session the runtime made shows (control of the checks above)", () => {
    it("is in session-state as soon as it is made, while listSessions lists it only after a turn", async ({
        onTestFinished,
    }) => {
        const { client, base, baseDirectory } = await e2eRig(
            testCleanups(onTestFinished),
            (baseDirectory) => new CopilotClient({ baseDirectory, ...quiet() })
        );
        const session = await client.createSession(base(CLAUDE_MODEL));
        expect(sessionDirectories(baseDirectory)).toEqual([session.sessionId]);
        expect(await client.listSessions()).toEqual([]);

        await session.sendAndWait({ prompt: "Hello." });
        expect((await client.listSessions()).map((s) => s.sessionId)).toEqual([session.sessionId]);
    });
});

describe.concurrent("session construction, unpatched SDK (control)", () => {
    it("accepts two tools named 'lint': the runtime makes the session, and the model sees one", async ({
        onTestFinished,
    }) => {
        const { client, model, base, baseDirectory } = await e2eRig(
            testCleanups(onTestFinished),
            (baseDirectory) => new UnpatchedClient({ baseDirectory }),
            { toolCall: { name: "lint" } }
        );
        const first = recordingTool("lint");
        const second = recordingTool("lint");
        const session = await client.createSession({
            ...base(CLAUDE_MODEL),
            tools: [first, second],
        });
        await session.sendAndWait({ prompt: "Lint." });

        expect(model.toolDefinitionsOf(0, "lint")).toHaveLength(1);
        expect(first.calls.length + second.calls.length).toBe(1);
        expect(sessionDirectories(baseDirectory)).toEqual([session.sessionId]);
        expect((await client.listSessions()).map((s) => s.sessionId)).toEqual([session.sessionId]);
    });

    it("sends a name with a space to the runtime, which refuses it in session.create", async ({
        onTestFinished,
    }) => {
        const { client, base } = await e2eRig(
            testCleanups(onTestFinished),
            (baseDirectory) => new UnpatchedClient({ baseDirectory })
        );
        await expect(
            client.createSession({ ...base(CLAUDE_MODEL), tools: [recordingTool("my tool")] })
        ).rejects.toThrow(
            /session\.create failed .*tool name "my tool" contains invalid characters/
        );
    });
});

describeNoLeftovers();
