/**
 * Proof while the session runs, against the real runtime and the mock model: which
 * implementation answered each tool call (`onToolAnswered`, `toolResolution.calls`), and what a
 * model switch will do to the tools (`previewModel`, the guarded `setModel`).
 */
import { describe, expect, it } from "vitest";
import {
    CopilotClient,
    SessionToolError,
    type ToolAnswer,
    type SessionToolWarning,
} from "@github/copilot-sdk";
import {
    CLAUDE_MODEL,
    GPT_MODEL,
    e2eRig,
    recordingTool,
    testCleanups,
} from "../support/e2eHarness.js";
import { turnUserText, type MockModelScript } from "../support/mockModel.js";
import { describeNoLeftovers } from "../support/noLeftovers.js";

/** A model that calls the tool named in the user's turn as `use-tool <name>`, once. */
const callsNamedTool: MockModelScript = {
    toolCall: (request) => {
        const name = /use-tool (\S+)/.exec(turnUserText(request))?.[1];
        if (name === undefined) return undefined;
        return { name, arguments: name === "view" ? { path: "/" } : { path: "/tmp/x.txt" } };
    },
};

const patchedClient = (baseDirectory: string) =>
    new CopilotClient({ baseDirectory, onToolWarning: () => {} });

describe.concurrent("onToolAnswered: who answered each call", () => {
    it("reports the handler for a custom tool, the built-in for a built-in and the MCP server for an MCP tool", async ({
        onTestFinished,
    }) => {
        const { client, model, base } = await e2eRig(testCleanups(onTestFinished), patchedClient, {
            ...callsNamedTool,
            mcpTools: ["probe"],
        });
        const lint = recordingTool("lint");
        const answers: ToolAnswer[] = [];
        const session = await client.createSession({
            ...base(CLAUDE_MODEL),
            tools: [lint],
            mcpServers: { adv: { type: "http", url: model.mcpUrl, tools: ["*"] } },
            onToolAnswered: (answer) => answers.push(answer),
        });

        await session.sendAndWait({ prompt: "use-tool lint" });
        await session.sendAndWait({ prompt: "use-tool view" });
        await session.sendAndWait({ prompt: "use-tool adv-probe" });

        expect(lint.calls).toHaveLength(1);
        expect(model.mcpCalls).toEqual(["probe"]);
        expect(
            answers.map(({ toolName, answeredBy, expected, mcpServer }) => ({
                toolName,
                answeredBy,
                expected,
                mcpServer,
            }))
        ).toEqual([
            { toolName: "lint", answeredBy: "handler", expected: "handler", mcpServer: undefined },
            {
                toolName: "view",
                answeredBy: "built-in",
                expected: "built-in",
                mcpServer: undefined,
            },
            { toolName: "adv-probe", answeredBy: "mcp", expected: "mcp", mcpServer: "adv" },
        ]);
        // The ids are the runtime's: those the model's calls carried.
        expect(answers.map((answer) => answer.toolCallId)).toEqual([
            "call_1_0_lint",
            "call_3_0_view",
            "call_5_0_adv-probe",
        ]);
        expect(session.toolResolution?.calls).toEqual(answers);
    });

    it("reports the handler for a custom tool that replaces a built-in (view)", async ({
        onTestFinished,
    }) => {
        const { client, base } = await e2eRig(
            testCleanups(onTestFinished),
            patchedClient,
            callsNamedTool
        );
        const view = recordingTool("view");
        const answers: ToolAnswer[] = [];
        const session = await client.createSession({
            ...base(CLAUDE_MODEL),
            tools: [view],
            onToolAnswered: (answer) => answers.push(answer),
        });
        await session.sendAndWait({ prompt: "use-tool view" });
        expect(view.calls).toHaveLength(1);
        expect(answers.map((a) => [a.toolName, a.answeredBy, a.expected])).toEqual([
            ["view", "handler", "handler"],
        ]);
    });

    it("fails closed when the runtime's built-in answers a custom tool's call (an unpatched-style registration)", async ({
        onTestFinished,
    }) => {
        const { client, model, base } = await e2eRig(
            testCleanups(onTestFinished),
            patchedClient,
            callsNamedTool
        );
        // read_file is a built-in the runtime hides but still runs: a registration of the name
        // without overridesBuiltInTool, as the unpatched SDK makes it, is answered by it.
        const readFile = recordingTool("read_file");
        const answers: ToolAnswer[] = [];
        const session = await client.createSession({
            ...base(CLAUDE_MODEL),
            tools: [readFile],
            onToolAnswered: (answer) => answers.push(answer),
        });
        await session.rpc.tools.set({
            tools: [
                {
                    name: readFile.name,
                    description: readFile.description,
                    parameters: { type: "object", properties: { path: { type: "string" } } },
                },
            ],
        });

        await session.sendAndWait({ prompt: "use-tool read_file" }).catch(() => {});

        expect(readFile.calls).toEqual([]);
        expect(answers).toEqual([
            expect.objectContaining({
                toolName: "read_file",
                toolCallId: "call_1_0_read_file",
                answeredBy: "built-in",
                expected: "handler",
            }),
        ]);
        const refused = await session.send({ prompt: "hello" }).then(
            () => undefined,
            (error: unknown) => error
        );
        expect(SessionToolError.isInstance(refused)).toBe(true);
        const error = refused as SessionToolError;
        expect(error.code).toBe("CALL_ANSWERED_ELSEWHERE");
        expect(error.toolNames).toEqual(["read_file"]);
        expect(error.message).toContain("'call_1_0_read_file'");
        expect(error.message).toContain("built-in");
        // Nothing after the mismatch reached the model.
        const requestsAfter = model.requests.length;
        await session.sendAndWait({ prompt: "hello again" }).catch(() => {});
        expect(model.requests.length).toBe(requestsAfter);
    });

    it("reports 'none' for a custom tool's call whose permission was denied, and the session goes on", async ({
        onTestFinished,
    }) => {
        const { client, base } = await e2eRig(
            testCleanups(onTestFinished),
            patchedClient,
            callsNamedTool
        );
        const lint = recordingTool("lint");
        const answers: ToolAnswer[] = [];
        const session = await client.createSession({
            ...base(CLAUDE_MODEL),
            onPermissionRequest: () => ({ kind: "reject" }),
            tools: [lint],
            onToolAnswered: (answer) => answers.push(answer),
        });
        await session.sendAndWait({ prompt: "use-tool lint" });
        expect(lint.calls).toEqual([]);
        expect(answers.map((a) => [a.toolName, a.answeredBy, a.expected])).toEqual([
            ["lint", "none", "handler"],
        ]);
        await expect(session.sendAndWait({ prompt: "hello" })).resolves.toBeDefined();
    });

    it("refuses an onToolAnswered that is not a function, naming it, before anything is sent", async ({
        onTestFinished,
    }) => {
        const { client, model, base } = await e2eRig(testCleanups(onTestFinished), patchedClient);
        const refused = await client
            .createSession({
                ...base(CLAUDE_MODEL),
                onToolAnswered: "log" as never,
            })
            .then(
                () => undefined,
                (error: unknown) => error as SessionToolError
            );
        expect(refused?.code).toBe("INVALID_SESSION_OPTION");
        expect(refused?.message).toContain("Invalid onToolAnswered 'log'");
        expect(model.requests).toEqual([]);
    });
});

describe.concurrent("previewModel and setModel: report 01's apply_patch, Claude to GPT", () => {
    it("previews the switch without changing the session, then switches and the custom apply_patch answers", async ({
        onTestFinished,
    }) => {
        const { client, model, base } = await e2eRig(
            testCleanups(onTestFinished),
            patchedClient,
            callsNamedTool
        );
        const applyPatch = recordingTool("apply_patch");
        const answers: ToolAnswer[] = [];
        const session = await client.createSession({
            ...base(CLAUDE_MODEL),
            tools: [applyPatch],
            onToolAnswered: (answer) => answers.push(answer),
        });
        const before = session.toolResolution;

        const preview = await session.previewModel(GPT_MODEL);

        expect(preview.currentModel).toBe(CLAUDE_MODEL);
        expect(preview.model).toBe(GPT_MODEL);
        // Measured: GPT models edit with apply_patch and search with rg; Claude models have
        // edit, create and grep instead. The session's custom apply_patch replaces the built-in:
        // not a built-in the switch adds (it is a collision, below).
        expect(preview.builtInsAdded).toEqual(expect.arrayContaining(["rg"]));
        expect(preview.builtInsAdded).not.toContain("apply_patch");
        expect(preview.builtInsRemoved).toEqual(expect.arrayContaining(["create", "edit", "grep"]));
        expect(preview.collisions).toEqual([
            { tool: "apply_patch", offered: true, replaced: true },
        ]);
        expect(preview.ignoredOverrides).toEqual([]);
        expect(preview.refusal).toBeUndefined();
        expect(preview.runtimeListed).toBe(true);
        expect(preview.resolution?.overriddenBuiltInTools).toEqual(["apply_patch"]);
        expect(preview.resolution?.enabledTools).toContain("rg");
        // Unchanged: the same resolution, and the next request still goes to Claude.
        expect(session.toolResolution).toBe(before);
        await session.sendAndWait({ prompt: "hello" });
        expect(model.requests.at(-1)?.model).toBe(CLAUDE_MODEL);

        await session.setModel(GPT_MODEL);
        await session.sendAndWait({ prompt: "use-tool apply_patch" });

        expect(model.requests.at(-1)?.model).toBe(GPT_MODEL);
        expect(applyPatch.calls).toHaveLength(1);
        expect(answers.map((a) => [a.toolName, a.answeredBy, a.expected])).toEqual([
            ["apply_patch", "handler", "handler"],
        ]);
    });

    it("never lets a custom apply_patch that keeps the built-in reach the switch: construction refuses it", async ({
        onTestFinished,
    }) => {
        const { client, model, base } = await e2eRig(testCleanups(onTestFinished), patchedClient);
        const refused = await client
            .createSession({
                ...base(CLAUDE_MODEL),
                tools: [{ ...recordingTool("apply_patch"), overridesBuiltInTool: false }],
            })
            .then(
                () => undefined,
                (error: unknown) => error as SessionToolError
            );
        expect(refused?.code).toBe("BUILT_IN_TOOL_COLLISION");
        expect(refused?.toolNames).toEqual(["apply_patch"]);
        expect(model.requests).toEqual([]);
    });
});

describe.concurrent("PROMPT_NAMES_REMOVED_TOOL", () => {
    it("warns when the systemMessage names a tool the filter removed, and the model indeed lacks it", async ({
        onTestFinished,
    }) => {
        const warnings: SessionToolWarning[] = [];
        const { client, model, base } = await e2eRig(
            testCleanups(onTestFinished),
            (baseDirectory) =>
                new CopilotClient({ baseDirectory, onToolWarning: (w) => warnings.push(w) })
        );
        const session = await client.createSession({
            ...base(CLAUDE_MODEL),
            excludedTools: ["view"],
            systemMessage: { content: "Read files with `view` before you edit them." },
        });
        expect(warnings.map((w) => [w.code, w.identifiers])).toEqual([
            ["PROMPT_NAMES_REMOVED_TOOL", ["view"]],
        ]);
        await session.sendAndWait({ prompt: "hello" });
        expect(model.toolNamesOf(0)).not.toContain("view");
    });
});

describeNoLeftovers();
