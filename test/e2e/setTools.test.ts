/**
 * `session.setTools` against the real runtime and a mock model, on a Claude and a GPT model: the
 * model's next request shows exactly the new set (one definition per name, overrides included,
 * toolsets expanded for the model's family), a tool added mid-session is answered by its
 * handler, an override added mid-session replaces the built-in, a refused update leaves the next
 * request as the previous one, a removed tool's late call gets the runtime's "does not exist",
 * and an update made during a turn (from a tool handler) shows in that turn's next request.
 */
import { describe, expect, it } from "vitest";
import { CopilotClient, SessionToolError } from "@github/copilot-sdk";
import {
    CLAUDE_MODEL,
    GPT_MODEL,
    e2eRig,
    recordingTool,
    testCleanups,
    type Defer,
} from "../support/e2eHarness.js";
import { descriptionOf, toolResultTexts, type ScriptedToolCall } from "../support/mockModel.js";
import { describeNoLeftovers } from "../support/noLeftovers.js";

/** What each model family is offered by default (runtime 1.0.85), as measured. */
const DEFAULT_BUILT_INS: Record<string, readonly string[]> = {
    [CLAUDE_MODEL]: [
        "bash",
        "create",
        "edit",
        "glob",
        "grep",
        "list_agents",
        "list_bash",
        "read_agent",
        "read_bash",
        "sql",
        "stop_bash",
        "task",
        "view",
        "web_fetch",
        "write_agent",
    ],
    [GPT_MODEL]: [
        "apply_patch",
        "bash",
        "glob",
        "list_agents",
        "list_bash",
        "read_agent",
        "read_bash",
        "rg",
        "sql",
        "stop_bash",
        "task",
        "view",
        "web_fetch",
        "write_agent",
    ],
};
/** The file-editing built-ins of each family: what `toolset:edit` leaves the model. */
const EDIT_TOOLS: Record<string, readonly string[]> = {
    [CLAUDE_MODEL]: ["create", "edit"],
    [GPT_MODEL]: ["apply_patch"],
};

/** The prompt that makes the mock model call the tools named after "call:". */
const callPrompt = (...names: string[]) => `call: ${names.join(",")}`;

async function rig(defer: Defer) {
    return e2eRig(
        defer,
        (baseDirectory) => new CopilotClient({ baseDirectory, onToolWarning: () => {} }),
        {
            toolCall: (request) => {
                const text = JSON.stringify(request.messages.at(-1)?.content ?? "");
                const match = /call: ([a-z_,]+)/.exec(text);
                return match?.[1]
                    ?.split(",")
                    .map((name): ScriptedToolCall => ({ name, arguments: { path: "/tmp/x" } }));
            },
        }
    );
}

const sorted = (names: Iterable<string>) => [...names].sort();

describe.concurrent.each([CLAUDE_MODEL, GPT_MODEL])("session.setTools on %s", (modelId) => {
    it("shows the model exactly the new set on its next request, and the added tool's handler answers", async ({
        onTestFinished,
    }) => {
        const { client, model, base } = await rig(testCleanups(onTestFinished));
        const lint = recordingTool("lint");
        const format = recordingTool("format");
        const session = await client.createSession({ ...base(modelId), tools: [lint] });
        await session.sendAndWait({ prompt: "hello" });
        expect(sorted(model.toolNamesOf(model.requests.length - 1))).toEqual(
            sorted([...DEFAULT_BUILT_INS[modelId]!, "lint"])
        );

        const resolution = await session.setTools({
            tools: [lint, format],
            availableTools: ["toolset:edit", "custom:*"],
        });
        const next = model.requests.length;
        await session.sendAndWait({ prompt: callPrompt("format") });
        expect(sorted(model.toolNamesOf(next))).toEqual(
            sorted([...EDIT_TOOLS[modelId]!, "lint", "format"])
        );
        expect(sorted(resolution.enabledTools)).toEqual(sorted(model.toolNamesOf(next)));
        expect(format.calls).toHaveLength(1);
        expect(toolResultTexts(model.requests[next + 1])).toEqual([format.result]);
    });

    it("replaces a built-in with an override added mid-session: one definition, the custom handler", async ({
        onTestFinished,
    }) => {
        const { client, model, base } = await rig(testCleanups(onTestFinished));
        const session = await client.createSession(base(modelId));
        await session.sendAndWait({ prompt: "hello" });
        const view = recordingTool("view");
        const resolution = await session.setTools({ tools: [view] });
        expect(resolution.overriddenBuiltInTools).toEqual(["view"]);
        const next = model.requests.length;
        await session.sendAndWait({ prompt: callPrompt("view") });
        expect(model.toolDefinitionsOf(next, "view").map(descriptionOf)).toEqual([
            view.description,
        ]);
        expect(view.calls).toHaveLength(1);
        expect(toolResultTexts(model.requests[next + 1])).toEqual([view.result]);
    });

    it("removes the allowlist with availableTools: null: the next request offers every tool again", async ({
        onTestFinished,
    }) => {
        const { client, model, base } = await rig(testCleanups(onTestFinished));
        const lint = recordingTool("lint");
        const session = await client.createSession({
            ...base(modelId),
            tools: [lint],
            availableTools: ["view", "lint"],
        });
        await session.sendAndWait({ prompt: "hello" });
        expect(sorted(model.toolNamesOf(model.requests.length - 1))).toEqual(["lint", "view"]);
        await session.setTools({ availableTools: null });
        const next = model.requests.length;
        await session.sendAndWait({ prompt: "hello again" });
        expect(sorted(model.toolNamesOf(next))).toEqual(
            sorted([...DEFAULT_BUILT_INS[modelId]!, "lint"])
        );
    });

    it("leaves the next request as the previous one when it refuses an update", async ({
        onTestFinished,
    }) => {
        const { client, model, base } = await rig(testCleanups(onTestFinished));
        const lint = recordingTool("lint");
        const session = await client.createSession({
            ...base(modelId),
            tools: [lint],
            excludedTools: ["bash"],
        });
        await session.sendAndWait({ prompt: "hello" });
        const previous = model.requests.at(-1)!.tools;
        const before = session.toolResolution;
        for (const update of [
            { tools: [lint, recordingTool("powershell")] },
            { tools: [lint, lint] },
            { availableTools: ["toolset:"] },
        ]) {
            await expect(session.setTools(update)).rejects.toBeInstanceOf(SessionToolError);
        }
        expect(session.toolResolution).toBe(before);
        await session.sendAndWait({ prompt: callPrompt("lint") });
        expect(model.requests.at(-2)!.tools).toEqual(previous);
        expect(lint.calls).toHaveLength(1);
    });

    it("answers a late call of a removed tool with the runtime's 'does not exist'", async ({
        onTestFinished,
    }) => {
        const { client, model, base } = await rig(testCleanups(onTestFinished));
        const lint = recordingTool("lint");
        const format = recordingTool("format");
        const session = await client.createSession({ ...base(modelId), tools: [lint, format] });
        await session.sendAndWait({ prompt: "hello" });
        await session.setTools({ tools: [lint] });
        const next = model.requests.length;
        await session.sendAndWait({ prompt: callPrompt("format") });
        expect(model.toolNamesOf(next)).not.toContain("format");
        expect(format.calls).toEqual([]);
        expect(toolResultTexts(model.requests[next + 1])).toEqual([
            expect.stringMatching(/^Tool 'format' does not exist\./),
        ]);
    });

    it("takes effect on the next model request of the same turn when called from a tool handler", async ({
        onTestFinished,
    }) => {
        const { client, model, base } = await rig(testCleanups(onTestFinished));
        const format = recordingTool("format");
        const lint = {
            ...recordingTool("lint"),
            handler: async () => {
                await session.setTools({ tools: [format], excludedTools: ["bash"] });
                return "lint changed the tools";
            },
        };
        const session = await client.createSession({ ...base(modelId), tools: [lint] });
        const first = model.requests.length;
        await session.sendAndWait({ prompt: callPrompt("lint") });
        // One turn: the request that called lint, then the one that got its result.
        expect(model.requests.length - first).toBe(2);
        expect(model.toolNamesOf(first)).toEqual(expect.arrayContaining(["lint", "bash"]));
        // The call in flight finished with the handler it started with.
        expect(toolResultTexts(model.requests[first + 1])).toEqual(["lint changed the tools"]);
        expect(sorted(model.toolNamesOf(first + 1))).toEqual(
            sorted([...DEFAULT_BUILT_INS[modelId]!.filter((name) => name !== "bash"), "format"])
        );
    });
});

describe("session.setTools and a tool without description", () => {
    it("takes every tool createSession takes: the runtime gets the tool, its handler answers", async ({
        onTestFinished,
    }) => {
        const { client, model, base } = await rig(testCleanups(onTestFinished));
        const { description: _, ...bare } = recordingTool("bare");
        const lint = recordingTool("lint");
        const session = await client.createSession({ ...base(CLAUDE_MODEL), tools: [bare] });
        await session.sendAndWait({ prompt: "hello" });
        // session.create leaves the description out, and the runtime offers the tool without one.
        expect(
            model.toolDefinitionsOf(model.requests.length - 1, "bare").map(descriptionOf)
        ).toEqual([undefined]);
        // The runtime refuses session.tools.set with the field missing: setTools must still take it.
        const resolution = await session.setTools({ tools: [bare, lint] });
        expect(sorted(resolution.enabledTools)).toEqual(
            sorted([...DEFAULT_BUILT_INS[CLAUDE_MODEL]!, "bare", "lint"])
        );
        const next = model.requests.length;
        await session.sendAndWait({ prompt: callPrompt("bare") });
        expect(model.toolDefinitionsOf(next, "bare")).toHaveLength(1);
        expect(bare.calls).toHaveLength(1);
        expect(toolResultTexts(model.requests[next + 1])).toEqual([bare.result]);
    });
});

describeNoLeftovers();
