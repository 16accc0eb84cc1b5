/**
 * Custom agents and the runtime's sub-agents, on the real runtime against the mock model: the
 * model delegates with `task` (`mode: "sync"`), and the sub-agent's requests reach the same mock
 * model, its first user message being the task's `prompt`. Shows that the agents' tool lists in
 * the session's vocabulary reach the runtime as names it offers, that the runtime withholds from a
 * custom agent what the session's filter removes (what `AGENT_TOOL_WITHHELD` says), that an MCP
 * server declared on an agent cannot take a custom tool's calls, and that each call's answer
 * names its agent. Run on the pinned release by `vitest`, and on other served releases by
 * `npm run test:release -- <version>` (1.0.0 and 1.0.15-preview.4 in `npm test`; every served
 * release has `customAgents` and `defaultAgent`). With COPILOT_EXTERNAL_RUNTIME set to a copilot
 * binary (the native `node_modules/@github/copilot-linux-x64/copilot` of `@github/copilot`, e.g.
 * 1.0.102), every case runs on that runtime instead, through `RuntimeConnection.forStdio`.
 */
import { describe, expect, it } from "vitest";
import { SessionToolError, type SessionToolWarning, type ToolAnswer } from "@github/copilot-sdk";
import { CLAUDE_MODEL, recordingTool, runtimeRig } from "../support/e2eHarness.js";
import {
    toolNameOf,
    userPrompt,
    type MockModelScript,
    type RecordedChatRequest,
} from "../support/mockModel.js";
import { describeNoLeftovers } from "../support/noLeftovers.js";

/**
 * Records a warning about the agents; `CATALOG_FALLBACK` is about the runtime (an external one
 * the package has no measurements of), said once per session whatever its agents.
 */
const keep = (warnings: SessionToolWarning[], warning: SessionToolWarning) =>
    warning.code === "CATALOG_FALLBACK" || warnings.push(warning);

/** The sub-agent's first message: the `prompt` of the task call. */
const SUBTASK = "SUBTASK: lint, then run bash";

/**
 * The user's `delegate <agent>` makes the model call `task` for that agent; the sub-agent (whose
 * first message is {@link SUBTASK}) calls `lint` and `bash`; `direct` makes the main agent call
 * `lint` itself.
 */
const script: MockModelScript = {
    toolCall: (request) => {
        const text = userPrompt(request);
        if (text.includes("SUBTASK")) {
            return [
                { name: "lint", arguments: {} },
                { name: "bash", arguments: { command: "echo sub", description: "echo" } },
            ];
        }
        const delegated = /delegate (\S+)/.exec(text);
        if (delegated !== null) {
            return {
                name: "task",
                arguments: {
                    agent_type: delegated[1],
                    name: "sub",
                    description: "run the checks",
                    prompt: SUBTASK,
                    mode: "sync",
                },
            };
        }
        if (text.includes("direct")) return { name: "lint", arguments: {} };
        return undefined;
    },
};

const offered = (request: RecordedChatRequest | undefined) =>
    (request?.tools ?? []).map(toolNameOf).sort();
const subAgentRequest = (requests: readonly RecordedChatRequest[]) =>
    requests.find((request) => userPrompt(request).includes("SUBTASK"));
const mainRequest = (requests: readonly RecordedChatRequest[]) =>
    requests.find((request) => !userPrompt(request).includes("SUBTASK"));

describe.concurrent("custom agents and sub-agents on the real runtime", () => {
    it("offers a custom agent the members of its toolset entries and the custom tools it names, hides defaultAgent's excluded toolset from the main agent only, and names each call's agent", async ({
        onTestFinished,
    }) => {
        const warnings: SessionToolWarning[] = [];
        const { client, base, model } = await runtimeRig(onTestFinished, script, (warning) =>
            keep(warnings, warning)
        );
        const lint = recordingTool("lint");
        const answers: ToolAnswer[] = [];
        const session = await client.createSession({
            ...base(CLAUDE_MODEL),
            tools: [lint],
            customToolSets: { quality: ["lint"] },
            customAgents: [
                {
                    name: "runner",
                    prompt: "You run the project's checks.",
                    tools: ["toolset:read", "toolset:quality", "toolset:execute"],
                },
            ],
            defaultAgent: { excludedTools: ["toolset:execute"] },
            onToolAnswered: (answer) => answers.push(answer),
        });
        expect(warnings).toEqual([]);

        await session.sendAndWait({ prompt: "delegate runner" });
        const sub = subAgentRequest(model.requests);
        // Without the expansion the runtime offers this agent no tool at all (runtime 1.0.85).
        expect(offered(sub)).toEqual(
            expect.arrayContaining(["view", "lint", "bash", "read_bash", "stop_bash"])
        );
        // The main agent lost the execute toolset, bash included; the sub-agent has it.
        expect(offered(mainRequest(model.requests))).not.toContain("bash");
        expect(offered(mainRequest(model.requests))).toContain("task");
        // The app's handler answered, once. Runtimes 1.0.83 to 1.0.89-7 send each call a sub-agent
        // makes as two external_tool.requested with one request id, and the SDK alone runs the
        // handler again when the first had answered; the package runs it once per request.
        expect(lint.calls.length).toBe(1);

        const task = answers.find((answer) => answer.toolName === "task")!;
        expect(task.agent).toEqual({ kind: "main" });
        const inSubAgent = answers.filter((answer) => answer.toolName !== "task");
        expect(
            inSubAgent.map((answer) => [answer.toolName, answer.answeredBy, answer.agent]).sort()
        ).toEqual([
            ["bash", "built-in", { kind: "custom", name: "runner", taskCallId: task.toolCallId }],
            ["lint", "handler", { kind: "custom", name: "runner", taskCallId: task.toolCallId }],
        ]);
        expect(session.toolResolution!.calls.map((call) => call.agent.kind).sort()).toEqual([
            "custom",
            "custom",
            "main",
        ]);
    });

    it("names a built-in sub-agent's calls by its type; the runtime withholds what the session's filter removes from a custom agent that lists it", async ({
        onTestFinished,
    }) => {
        const warnings: SessionToolWarning[] = [];
        const { client, base, model } = await runtimeRig(onTestFinished, script, (warning) =>
            keep(warnings, warning)
        );
        const lint = recordingTool("lint");
        const answers: ToolAnswer[] = [];
        const session = await client.createSession({
            ...base(CLAUDE_MODEL),
            tools: [lint],
            excludedTools: ["grep"],
            customAgents: [{ name: "runner", prompt: "Run.", tools: ["lint", "bash", "grep"] }],
            onToolAnswered: (answer) => answers.push(answer),
        });
        expect(warnings.map((warning) => [warning.code, warning.identifiers])).toEqual([
            ["AGENT_TOOL_WITHHELD", ["grep"]],
        ]);
        await session.sendAndWait({ prompt: "delegate runner" });
        // What the warning says: the runtime applies the session's exclusion to the agent.
        expect(offered(subAgentRequest(model.requests))).toContain("lint");
        expect(offered(subAgentRequest(model.requests))).not.toContain("grep");

        model.requests.length = 0;
        answers.length = 0;
        await session.sendAndWait({ prompt: "delegate explore" });
        const task = answers.find((answer) => answer.toolName === "task")!;
        const bash = answers.find((answer) => answer.toolName === "bash")!;
        expect(bash.agent).toEqual({
            kind: "built-in",
            name: "explore",
            taskCallId: task.toolCallId,
        });
        // explore is not offered the app's lint: its call is answered by nothing, not a built-in.
        const lintCall = answers.find((answer) => answer.toolName === "lint")!;
        expect([lintCall.answeredBy, lintCall.agent.kind]).toEqual(["none", "built-in"]);
    });

    it("lets the app's custom tools replace built-ins offered only to a sub-agent (general-purpose's session_store_sql), with the same opt-in as any built-in", async ({
        onTestFinished,
    }) => {
        const warnings: SessionToolWarning[] = [];
        const { client, base, model } = await runtimeRig(
            onTestFinished,
            {
                toolCall: (request) =>
                    userPrompt(request).includes("SUBTASK")
                        ? { name: "session_store_sql", arguments: { query: "select 1" } }
                        : userPrompt(request).includes("delegate")
                          ? {
                                name: "task",
                                arguments: {
                                    agent_type: "general-purpose",
                                    name: "sub",
                                    description: "query",
                                    prompt: "SUBTASK: query",
                                    mode: "sync",
                                },
                            }
                          : undefined,
            },
            (warning) => keep(warnings, warning)
        );
        // Whether the package has measurements of this runtime, as a session without the tool says.
        const probe = await client.createSession(base(CLAUDE_MODEL));
        const fallback = probe.toolResolution!.runtime.catalog === "fallback";
        await probe.disconnect();
        warnings.length = 0;
        const sql = recordingTool("session_store_sql");
        const answers: ToolAnswer[] = [];
        const creation = client.createSession({
            ...base(CLAUDE_MODEL),
            tools: [sql],
            onToolAnswered: (answer) => answers.push(answer),
        });
        if (fallback) {
            // A runtime the package has no measurements of: its stand-in catalog joins every
            // measured runtime's, on some of which session_store_sql is kept only while tool
            // search defers tools, so the override cannot be shown to reach the handler.
            await expect(creation).rejects.toMatchObject({
                code: "UNSUPPORTED_OVERRIDE",
                toolNames: ["session_store_sql"],
                message: expect.stringContaining("replaces a built-in that the runtime may keep"),
            });
            return;
        }
        const session = await creation;
        // The main agent is not offered a built-in session_store_sql (runtime 1.0.85), yet the
        // name is a built-in: the tool is an override, said as for any built-in.
        expect(warnings.map((warning) => [warning.code, warning.identifiers])).toEqual([
            ["AUTOMATIC_OVERRIDE", ["session_store_sql"]],
        ]);
        await session.sendAndWait({ prompt: "delegate" });
        expect(model.requests.length).toBeGreaterThan(1);
        const call = answers.find((answer) => answer.toolName === "session_store_sql")!;
        expect([call.answeredBy, call.expected, call.agent.kind]).toEqual([
            "handler",
            "handler",
            "built-in",
        ]);
        expect(sql.calls.length).toBeGreaterThanOrEqual(1);
    });

    it("offers a custom agent the MCP tool its mcp: entry names (the runtime alone offers none for it)", async ({
        onTestFinished,
    }) => {
        const { client, base, model } = await runtimeRig(onTestFinished, {
            ...script,
            mcpTools: ["probe"],
        });
        const session = await client.createSession({
            ...base(CLAUDE_MODEL),
            mcpServers: { m: { type: "http", url: model.mcpUrl, tools: ["*"] } },
            customAgents: [{ name: "prober", prompt: "Probe.", tools: ["mcp:m-probe"] }],
        });
        await session.sendAndWait({ prompt: "delegate prober" });
        expect(offered(subAgentRequest(model.requests))).toContain("m-probe");
    });

    it("names the selected custom agent as the maker of the main agent's calls", async ({
        onTestFinished,
    }) => {
        const { client, base } = await runtimeRig(onTestFinished, script);
        const lint = recordingTool("lint");
        const answers: ToolAnswer[] = [];
        const session = await client.createSession({
            ...base(CLAUDE_MODEL),
            tools: [lint],
            customAgents: [{ name: "runner", prompt: "Run.", tools: ["custom:lint"] }],
            agent: "runner",
            onToolAnswered: (answer) => answers.push(answer),
        });
        await session.sendAndWait({ prompt: "direct" });
        expect(answers.map((answer) => [answer.toolName, answer.answeredBy, answer.agent])).toEqual(
            [["lint", "handler", { kind: "custom", name: "runner" }]]
        );
    });

    it("refuses a custom tool that an MCP server declared on a custom agent would shadow, before the runtime has a session", async ({
        onTestFinished,
    }) => {
        const { client, base, model } = await runtimeRig(onTestFinished, {
            ...script,
            mcpTools: ["view"],
        });
        const mView = recordingTool("m-view");
        const attempt = client.createSession({
            ...base(CLAUDE_MODEL),
            tools: [mView],
            customAgents: [
                {
                    name: "viewer",
                    prompt: "View.",
                    mcpServers: { m: { type: "http", url: model.mcpUrl, tools: ["*"] } },
                },
            ],
        });
        await expect(attempt).rejects.toBeInstanceOf(SessionToolError);
        await expect(attempt).rejects.toMatchObject({ code: "MCP_TOOL_COLLISION" });
        expect(await client.listSessions()).toEqual([]);
    });
});

describeNoLeftovers();
