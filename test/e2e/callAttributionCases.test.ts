/**
 * Calls the runtime refused before anything ran are answered by nothing, not by a built-in: the
 * app's own pre-tool hook denying its custom tool, arguments that are not JSON, and a tool that
 * another tool's handler adds while the model's call of it is on its way. None of them closes the
 * session; the real runtime against the mock model. Run on the pinned release by `vitest`, and on
 * the oldest and the newest served release by `npm run test:release -- <version>`.
 */
import { describe, expect, it } from "vitest";
import { CopilotClient, TOOL_CUSTOMIZATION_PATCH, type ToolAnswer } from "@github/copilot-sdk";
import { CLAUDE_MODEL, e2eRig, recordingTool, testCleanups } from "../support/e2eHarness.js";
import { turnUserText, type MockModelScript } from "../support/mockModel.js";
import { describeNoLeftovers } from "../support/noLeftovers.js";

/** The model calls what the user's turn names, once: `lint`, `lint+fmt` or `lint(bad json)`. */
const script: MockModelScript = {
    toolCall: (request) => {
        const text = turnUserText(request);
        if (text.includes("lint+fmt")) {
            return [
                { name: "lint", arguments: {} },
                { name: "fmt", arguments: {} },
            ];
        }
        if (text.includes("bad-json")) return { name: "lint", arguments: "{not json" };
        if (text.includes("lint")) return { name: "lint", arguments: {} };
        return undefined;
    },
};

const patchedClient = (baseDirectory: string) =>
    new CopilotClient({ baseDirectory, onToolWarning: () => {} });

describe.concurrent("calls the runtime refused before anything ran", () => {
    it("a pre-tool hook of the app denying its custom tool: answered by none, the session stays open", async ({
        onTestFinished,
    }) => {
        const { client, base } = await e2eRig(testCleanups(onTestFinished), patchedClient, script);
        const lint = recordingTool("lint");
        const answers: ToolAnswer[] = [];
        const session = await client.createSession({
            ...base(CLAUDE_MODEL),
            tools: [lint],
            onToolAnswered: (answer) => answers.push(answer),
            hooks: {
                onPreToolUse: async () => ({
                    permissionDecision: "deny",
                    permissionDecisionReason: "not now",
                }),
            },
        });
        await session.sendAndWait({ prompt: "run lint" });
        expect(lint.calls).toHaveLength(0);
        expect(answers.map((a) => [a.toolName, a.answeredBy, a.expected])).toEqual([
            ["lint", "none", "handler"],
        ]);
        // Still open: the next message goes.
        await expect(session.sendAndWait({ prompt: "hello" })).resolves.toBeDefined();
    });

    it("arguments that are not JSON: answered by none, the session stays open", async ({
        onTestFinished,
    }) => {
        const { client, base } = await e2eRig(testCleanups(onTestFinished), patchedClient, script);
        const lint = recordingTool("lint");
        const answers: ToolAnswer[] = [];
        const session = await client.createSession({
            ...base(CLAUDE_MODEL),
            tools: [lint],
            onToolAnswered: (answer) => answers.push(answer),
        });
        await session.sendAndWait({ prompt: "bad-json" });
        expect(answers.map((a) => [a.toolName, a.answeredBy, a.expected])).toEqual([
            ["lint", "none", "handler"],
        ]);
        await expect(session.sendAndWait({ prompt: "hello" })).resolves.toBeDefined();
    });

    // Needs session.setTools (releases with the runtime request session.tools.set).
    it.runIf(TOOL_CUSTOMIZATION_PATCH.capabilities.setTools)(
        "a tool that lint's handler adds while the model's call of it is on its way: not expected of the handler, the session stays open",
        async ({ onTestFinished }) => {
            const { client, base } = await e2eRig(
                testCleanups(onTestFinished),
                patchedClient,
                script
            );
            const fmt = recordingTool("fmt");
            const answers: ToolAnswer[] = [];
            const lint = {
                ...recordingTool("lint"),
                handler: async () => {
                    await session.setTools({ tools: [lint, fmt] });
                    return "linted";
                },
            };
            const session = await client.createSession({
                ...base(CLAUDE_MODEL),
                tools: [lint],
                onToolAnswered: (answer) => answers.push(answer),
            });
            await session.sendAndWait({ prompt: "lint+fmt" });
            expect(answers.map((a) => [a.toolName, a.answeredBy, a.expected]).sort()).toEqual([
                ["fmt", "none", "built-in"],
                ["lint", "handler", "handler"],
            ]);
            expect(session.toolResolution?.wire.tools).toEqual(["lint", "fmt"]);
            await expect(session.sendAndWait({ prompt: "hello" })).resolves.toBeDefined();
        }
    );
});

describeNoLeftovers();
