/**
 * Custom tools named like built-ins, against the real runtime and a mock model: the patched SDK
 * overrides the built-in (one definition, the custom handler runs, its result reaches the
 * model) in createSession, resumeSession, and resumeSession from a new client; the unpatched
 * SDK, with the same calls, fails on the first send.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
    BuiltInTools,
    CopilotClient,
    approveAll,
    type SessionToolWarning,
} from "@github/copilot-sdk";
import { CopilotClient as UnpatchedClient } from "copilot-sdk-unpatched";
import {
    CLAUDE_MODEL,
    cleanupStack,
    mockModel,
    providerFor,
    recordingTool,
    temporaryBaseDirectory,
    type Defer,
    type RecordingTool,
} from "../support/e2eHarness.js";
import { describeNoLeftovers } from "../support/noLeftovers.js";
import { lastUserText, type MockModel } from "../support/mockModel.js";

/** The prompt that makes the mock model call the scenario's tools; any other gets "ok". */
const CALL_PROMPT = "Use your tools now.";

interface Scenario {
    readonly label: string;
    readonly model: string;
    /** Custom tools to register, each named like a built-in; the model calls all of them. */
    readonly toolNames: readonly string[];
}

const SCENARIOS: readonly Scenario[] = [
    { label: "view", model: CLAUDE_MODEL, toolNames: ["view"] },
    { label: "edit", model: CLAUDE_MODEL, toolNames: ["edit"] },
    {
        label: "bash with read_bash, stop_bash and list_bash",
        model: CLAUDE_MODEL,
        toolNames: ["bash", "read_bash", "stop_bash", "list_bash"],
    },
];

type Construction = "createSession" | "resumeSession" | "resumeSession on a new client";
const CONSTRUCTIONS: readonly Construction[] = [
    "createSession",
    "resumeSession",
    "resumeSession on a new client",
];

/** Every scenario under every construction, as `[construction, label, scenario]`. */
const cases = (): [Construction, string, Scenario][] =>
    CONSTRUCTIONS.flatMap((construction) =>
        SCENARIOS.map((scenario): [Construction, string, Scenario] => [
            construction,
            scenario.label,
            scenario,
        ])
    );

/** The part of the patched and the unpatched client that these tests use. */
type AnyClient = CopilotClient | UnpatchedClient;
type AnySession = Awaited<ReturnType<AnyClient["createSession"]>>;

/** A mock model that calls every tool of `toolNames` (in one turn) when asked to. */
function scriptedModel(defer: Defer, toolNames: readonly string[]): Promise<MockModel> {
    return mockModel(defer, {
        toolCall: (request) =>
            lastUserText(request).includes(CALL_PROMPT)
                ? toolNames.map((name) => ({ name, arguments: { path: "/tmp/example.txt" } }))
                : undefined,
    });
}

/**
 * Constructs a session with `tools` the way `construction` says. For the resume cases a session
 * without custom tools is created first, used for one turn and disconnected, as an app would.
 */
async function constructSession(
    construction: Construction,
    client: AnyClient,
    newClient: () => AnyClient,
    model: MockModel,
    modelId: string,
    tools: readonly RecordingTool[]
): Promise<AnySession> {
    const base = { model: modelId, provider: providerFor(model), onPermissionRequest: approveAll };
    if (construction === "createSession") {
        return client.createSession({ ...base, tools: [...tools] });
    }
    const earlier = await client.createSession(base);
    await earlier.sendAndWait({ prompt: "Hello." });
    await earlier.disconnect();
    const resumer = construction === "resumeSession" ? client : newClient();
    return resumer.resumeSession(earlier.sessionId, { ...base, tools: [...tools] });
}

describe("custom tools named like built-ins, patched SDK (real runtime)", () => {
    const { defer, run } = cleanupStack();
    afterEach(run);
    let baseDirectory: string;
    let client: CopilotClient;
    let warnings: SessionToolWarning[];

    beforeEach(() => {
        warnings = [];
        baseDirectory = temporaryBaseDirectory(defer);
        client = new CopilotClient({ baseDirectory, onToolWarning: (w) => warnings.push(w) });
        defer(() => client.stop());
    });

    it.each(cases())(
        "%s: the model sees one custom %s, and its call runs the custom handler",
        async (construction, _label, { model: modelId, toolNames }) => {
            const local = cleanupStack();
            try {
                const model = await scriptedModel(local.defer, toolNames);
                const tools = toolNames.map(recordingTool);
                const newClient = (): CopilotClient => {
                    const other = new CopilotClient({ baseDirectory, onToolWarning: () => {} });
                    local.defer(() => other.stop());
                    return other;
                };
                const session = await constructSession(
                    construction,
                    client,
                    newClient,
                    model,
                    modelId,
                    tools
                );
                expect(session.toolResolution?.overriddenBuiltInTools).toEqual(toolNames);

                const first = model.requests.length;
                const reply = await session.sendAndWait({ prompt: CALL_PROMPT });

                const offered = model.toolNamesOf(first);
                expect(new Set(offered).size).toBe(offered.length);
                for (const tool of tools) {
                    const definitions = model.toolDefinitionsOf(first, tool.name);
                    expect(definitions).toHaveLength(1);
                    expect(definitions[0]?.function?.description).toBe(tool.description);
                    expect(tool.calls).toEqual([{ path: "/tmp/example.txt" }]);
                }
                const results = model.toolResultsOf(first + 1).map((result) => result.text);
                expect(results.sort()).toEqual(tools.map((tool) => tool.result).sort());
                expect(reply?.data.content).toMatch(/^tool said: custom \w+ handler ran$/);
            } finally {
                await local.run();
            }
        }
    );

    it("reports each automatic override once per client, however many sessions use it", async () => {
        const local = cleanupStack();
        try {
            const model = await mockModel(local.defer);
            const base = {
                model: CLAUDE_MODEL,
                provider: providerFor(model),
                onPermissionRequest: approveAll,
            };
            const tools = ["view", "bash"].map(recordingTool);
            const first = await client.createSession({ ...base, tools });
            await client.createSession({ ...base, tools });
            await client.resumeSession(first.sessionId, { ...base, tools });
            const reported = warnings.filter((w) => w.code === "AUTOMATIC_OVERRIDE");
            expect(reported.map((w) => w.identifiers)).toEqual([["view", "bash"]]);
        } finally {
            await local.run();
        }
    });
});

describe("custom tools named like built-ins, unpatched SDK (control)", () => {
    const { defer, run } = cleanupStack();
    afterEach(run);
    let baseDirectory: string;
    let client: UnpatchedClient;

    beforeEach(() => {
        baseDirectory = temporaryBaseDirectory(defer);
        client = new UnpatchedClient({ baseDirectory });
        defer(() => client.stop());
    });

    it.each(cases())(
        "%s accepts a custom %s, then the first send fails with a conflict",
        async (construction, _label, { model: modelId, toolNames }) => {
            const local = cleanupStack();
            try {
                const model = await scriptedModel(local.defer, toolNames);
                const tools = toolNames.map(recordingTool);
                const newClient = (): UnpatchedClient => {
                    const other = new UnpatchedClient({ baseDirectory });
                    local.defer(() => other.stop());
                    return other;
                };
                const session = await constructSession(
                    construction,
                    client,
                    newClient,
                    model,
                    modelId,
                    tools
                );

                const first = model.requests.length;
                const error = await session.sendAndWait({ prompt: CALL_PROMPT }).then(
                    () => undefined,
                    (e: unknown) => e
                );

                expect(error).toBeInstanceOf(Error);
                const conflict = /External tool "([a-z_]+)" conflicts with a built-in tool/.exec(
                    (error as Error).message
                );
                expect(conflict?.[1]).toBeOneOf([...toolNames]);
                expect(model.requests).toHaveLength(first);
                expect(tools.flatMap((tool) => tool.calls)).toEqual([]);
            } finally {
                await local.run();
            }
        }
    );
});

describe("custom tools named like built-ins in empty mode (real runtime)", () => {
    const { defer, run } = cleanupStack();
    afterEach(run);

    /** The session config of an app in `mode: "empty"`, which must list its tools. */
    async function emptyModeConfig() {
        const model = await mockModel(defer);
        return {
            model: CLAUDE_MODEL,
            provider: providerFor(model),
            onPermissionRequest: approveAll,
            includedBuiltinSkills: [],
            tools: [recordingTool("view")],
            availableTools: [...BuiltInTools.Isolated.map((name) => `builtin:${name}`), "custom:*"],
        };
    }

    it("constructs the session and answers, with the patched SDK", async () => {
        const config = await emptyModeConfig();
        const client = new CopilotClient({
            baseDirectory: temporaryBaseDirectory(defer),
            mode: "empty",
            onToolWarning: () => {},
        });
        defer(() => client.stop());
        const session = await client.createSession(config);
        expect(session.toolResolution?.overriddenBuiltInTools).toEqual(["view"]);
        expect((await session.sendAndWait({ prompt: "Hello." }))?.data.content).toBe("ok");
    });

    it("fails inside createSession, after the runtime made the session, with the unpatched SDK", async () => {
        const config = await emptyModeConfig();
        const client = new UnpatchedClient({
            baseDirectory: temporaryBaseDirectory(defer),
            mode: "empty",
        });
        defer(() => client.stop());
        await expect(client.createSession(config)).rejects.toThrow(
            /session\.options\.update failed .*External tool "view" conflicts with a built-in tool/
        );
    });
});

describeNoLeftovers();
