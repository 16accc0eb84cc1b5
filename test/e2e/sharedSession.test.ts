/**
 * Issue 27 on the real runtime: two clients on one session id (one runtime, two connections),
 * an MCP tool that would shadow a custom tool, and a schema 2,000 levels deep.
 *
 * Asserted: B's failed add and B's removed tool leave A's calls to A (the model never gets B's
 * "was removed" answer for them; measured on 1.0.14 over a TCP runtime, the runtime also ignored
 * B's answers with those guards removed, so the integration suite, whose fake runtime takes any
 * answer, is where their removal fails); B's clash is a SessionToolError naming the tool; the MCP
 * shadow is refused before anything is sent; the deep schema is refused at once, naming the tool.
 */
import { describe, expect, it } from "vitest";
import { CopilotClient, SessionToolError } from "@github/copilot-sdk";
import {
    CLAUDE_MODEL,
    e2eRig,
    recordingTool,
    testCleanups,
    twoClientRig,
} from "../support/e2eHarness.js";
import { describeNoLeftovers } from "../support/noLeftovers.js";

/** Two clients on one runtime: A starts it on a TCP port, B connects to it. */
async function twoClients(onTestFinished: Parameters<typeof testCleanups>[0], calls: string[]) {
    return twoClientRig(testCleanups(onTestFinished), {
        // The model calls each named tool it is offered, once per turn.
        toolCall: (request) =>
            (request.tools ?? [])
                .map((tool) => tool.function?.name ?? "")
                .filter((name) => calls.includes(name))
                .map((name) => ({ name, arguments: {} })),
    });
}

/** A recording tool whose handler takes a while, as real tools do (a file, a network call). */
function slowTool(name: string): ReturnType<typeof recordingTool> {
    const tool = recordingTool(name);
    return {
        ...tool,
        handler: async (args) => {
            await new Promise((resolve) => setTimeout(resolve, 600));
            return tool.handler(args);
        },
    };
}

/** The tool results the model got, over every request. */
function resultTexts(model: { requests: unknown[]; toolResultsOf(i: number): { text: string }[] }) {
    return model.requests.flatMap((_, index) => model.toolResultsOf(index).map((r) => r.text));
}

describe("two clients on one session id", () => {
    it("keeps A's calls with A after B's add of A's name failed", async ({ onTestFinished }) => {
        const { client, other, model, base } = await twoClients(onTestFinished, ["format"]);
        const lint = recordingTool("lint");
        const format = slowTool("format");
        const a = await client.createSession({ ...base(CLAUDE_MODEL), tools: [format] });
        const b = await other.resumeSession(a.sessionId, { ...base(CLAUDE_MODEL), tools: [lint] });
        const error = await b.setTools({ tools: [lint, recordingTool("format")] }).then(
            () => undefined,
            (caught: unknown) => caught
        );
        expect(error).toBeInstanceOf(SessionToolError);
        expect(error).toMatchObject({ code: "TOOL_NAME_CLASH", toolNames: ["format"] });
        for (let turn = 0; turn < 4; turn++)
            await a.sendAndWait({ prompt: `turn ${turn}` }, 30_000);
        const texts = resultTexts(model);
        expect(texts.filter((text) => text.includes("was removed"))).toEqual([]);
        expect(format.calls.length).toBeGreaterThanOrEqual(4);
    }, 120_000);

    it("keeps A's calls with A after B removed a tool that A then added", async ({
        onTestFinished,
    }) => {
        const { client, other, model, base } = await twoClients(onTestFinished, ["deploy"]);
        const a = await client.createSession({ ...base(CLAUDE_MODEL), tools: [] });
        const b = await other.resumeSession(a.sessionId, {
            ...base(CLAUDE_MODEL),
            tools: [recordingTool("deploy")],
        });
        await b.setTools({ tools: [] });
        const deploy = slowTool("deploy");
        await a.setTools({ tools: [deploy] });
        for (let turn = 0; turn < 4; turn++)
            await a.sendAndWait({ prompt: `turn ${turn}` }, 30_000);
        const texts = resultTexts(model);
        expect(texts.filter((text) => text.includes("was removed"))).toEqual([]);
        expect(deploy.calls.length).toBeGreaterThanOrEqual(4);
    }, 120_000);

    it("refuses B's resume with A's custom name as a SessionToolError naming it", async ({
        onTestFinished,
    }) => {
        const { client, other, base } = await twoClients(onTestFinished, []);
        const a = await client.createSession({
            ...base(CLAUDE_MODEL),
            tools: [recordingTool("format")],
        });
        const error = await other
            .resumeSession(a.sessionId, { ...base(CLAUDE_MODEL), tools: [recordingTool("format")] })
            .then(
                () => undefined,
                (caught: unknown) => caught
            );
        expect(error).toBeInstanceOf(SessionToolError);
        expect(error).toMatchObject({ code: "TOOL_NAME_CLASH", toolNames: ["format"] });
    }, 120_000);
});

describe("MCP names and deep schemas on the real runtime", () => {
    it("refuses a custom tool the session's MCP server would shadow; a clear name reaches the app", async ({
        onTestFinished,
    }) => {
        const defer = testCleanups(onTestFinished);
        const { client, model, base } = await e2eRig(
            defer,
            (baseDirectory) => new CopilotClient({ baseDirectory, onToolWarning: () => {} }),
            {
                mcpTools: ["lint"],
                toolCall: (request) =>
                    (request.tools ?? [])
                        .map((tool) => tool.function?.name ?? "")
                        .filter((name) => name === "adv_lint" || name === "adv-lint")
                        .map((name) => ({ name, arguments: {} })),
            }
        );
        const mcpServers = { adv: { type: "http" as const, url: model.mcpUrl, tools: ["*"] } };
        await expect(
            client.createSession({
                ...base(CLAUDE_MODEL),
                mcpServers,
                tools: [recordingTool("adv-lint")],
            })
        ).rejects.toMatchObject({ name: "SessionToolError", code: "MCP_TOOL_COLLISION" });
        const renamed = recordingTool("adv_lint");
        const session = await client.createSession({
            ...base(CLAUDE_MODEL),
            mcpServers,
            tools: [renamed],
        });
        await session.sendAndWait({ prompt: "lint it" }, 30_000);
        expect(renamed.calls.length).toBe(1);
    }, 120_000);

    it("refuses a 2,000-level schema at once, naming the tool, in createSession and setTools", async ({
        onTestFinished,
    }) => {
        const defer = testCleanups(onTestFinished);
        const { client, base } = await e2eRig(
            defer,
            (baseDirectory) => new CopilotClient({ baseDirectory, onToolWarning: () => {} })
        );
        let schema: Record<string, unknown> = { type: "string" };
        for (let level = 0; level < 2_000; level++) {
            schema = { type: "object", properties: { inner: schema } };
        }
        const deep = { ...recordingTool("deep"), parameters: schema };
        const started = Date.now();
        await expect(
            client.createSession({ ...base(CLAUDE_MODEL), tools: [deep] })
        ).rejects.toMatchObject({
            name: "SessionToolError",
            code: "INVALID_CUSTOM_TOOL",
            message: expect.stringContaining("'deep'"),
        });
        const session = await client.createSession({ ...base(CLAUDE_MODEL) });
        await expect(session.setTools({ tools: [deep] })).rejects.toMatchObject({
            name: "SessionToolError",
            code: "INVALID_CUSTOM_TOOL",
        });
        expect(Date.now() - started).toBeLessThan(15_000);
    }, 120_000);
});

describeNoLeftovers();
