/**
 * The session's agents in the session's vocabulary, through the real patched client against a
 * fake runtime: custom agents' `tools` and `defaultAgent.excludedTools` take `toolset:<name>`,
 * `customToolSets` and custom tool names, are checked like the session's filters and reach the
 * runtime as its names; malformed agent options are refused before `session.create`. Expected
 * values are written by hand from the rules in construction/agents.ts and input/agents.ts.
 */
import { describe, expect, it } from "vitest";
import { SessionToolError, approveAll } from "@github/copilot-sdk";
import { fakeRuntimeClients } from "../support/fakeRuntimeClient.js";
import { EXECUTE_MEMBERS } from "../support/toolSetMembers.js";

const MODEL = "claude-sonnet-4.5";
const handler = async (): Promise<string> => "custom result";
const lint = { name: "lint", description: "Lint the project", handler };
const mView = { name: "m-view", description: "View through the app", handler };

const fake = fakeRuntimeClients();
const setUp = (options: Record<string, unknown> = {}) => fake.setUp({}, options);

const base = { model: MODEL, onPermissionRequest: approveAll };

async function refusal(attempt: Promise<unknown>): Promise<SessionToolError> {
    const outcome = await attempt.then(
        () => "accepted",
        (error: unknown) => error
    );
    expect(outcome).toBeInstanceOf(SessionToolError);
    return outcome as SessionToolError;
}

describe("custom agents' tools in the session's vocabulary", () => {
    it("sends toolset entries, customToolSets and builtin:/custom: patterns as the runtime's names", async () => {
        const { runtime, client, warnings } = await setUp();
        await client.createSession({
            ...base,
            tools: [lint],
            customToolSets: { quality: ["lint"] },
            customAgents: [
                { name: "reader", prompt: "Read.", tools: ["toolset:read", "toolset:quality"] },
                { name: "patterns", prompt: "P.", tools: ["builtin:grep", "custom:*", "grep"] },
                { name: "all", prompt: "All.", tools: null },
                { name: "unlisted", prompt: "Unlisted." },
            ],
            defaultAgent: { excludedTools: ["toolset:execute", "lint"] },
        });
        const [sent] = runtime.paramsOf("session.create");
        expect(sent!.customAgents).toEqual([
            { name: "reader", prompt: "Read.", tools: ["view", "read_file", "lint"] },
            { name: "patterns", prompt: "P.", tools: ["grep", "lint"] },
            { name: "all", prompt: "All.", tools: null },
            { name: "unlisted", prompt: "Unlisted." },
        ]);
        expect(sent!.defaultAgent).toEqual({
            excludedTools: [...EXECUTE_MEMBERS, "lint"],
        });
        expect(warnings).toEqual([]);
    });

    it("leaves the caller's agents untouched", async () => {
        const { client } = await setUp();
        const agents = [{ name: "reader", prompt: "Read.", tools: ["toolset:read"] }];
        await client.createSession({ ...base, customAgents: agents });
        expect(agents).toEqual([{ name: "reader", prompt: "Read.", tools: ["toolset:read"] }]);
    });

    it("warns about a mistyped tool with a suggestion, and still sends it", async () => {
        const { runtime, client, warnings } = await setUp();
        const session = await client.createSession({
            ...base,
            tools: [lint],
            customAgents: [{ name: "r", prompt: "R.", tools: ["veiw", "lnit"] }],
            defaultAgent: { excludedTools: ["bsah"] },
        });
        expect(warnings.map((w) => [w.code, w.option, w.identifiers])).toEqual([
            ["UNKNOWN_IDENTIFIERS", "customAgents.r.tools", ["veiw", "lnit"]],
            ["UNKNOWN_IDENTIFIERS", "defaultAgent.excludedTools", ["bsah"]],
        ]);
        expect(warnings[0]!.message).toContain(
            "Did you mean 'view' for 'veiw', 'lint' for 'lnit'?"
        );
        expect(warnings[1]!.message).toContain("Did you mean 'bash'?");
        expect(session.toolResolution!.warnings.map((w) => w.code)).toEqual([
            "UNKNOWN_IDENTIFIERS",
            "UNKNOWN_IDENTIFIERS",
        ]);
        expect(runtime.paramsOf("session.create")[0]!.customAgents).toEqual([
            { name: "r", prompt: "R.", tools: ["veiw", "lnit"] },
        ]);
    });

    it("says so when an agent names a custom tool the session does not define", async () => {
        const { client, warnings } = await setUp();
        await client.createSession({
            ...base,
            tools: [lint],
            customAgents: [{ name: "r", prompt: "R.", tools: ["custom:fmt"] }],
        });
        expect(warnings.map((w) => [w.code, w.identifiers])).toEqual([
            ["UNKNOWN_IDENTIFIERS", ["custom:fmt"]],
        ]);
        expect(warnings[0]!.message).toContain("no built-in and no custom tool of the session");
    });

    it("says so when an agent names a tool the session's filter removes", async () => {
        const { client, warnings } = await setUp();
        await client.createSession({
            ...base,
            tools: [lint],
            excludedTools: ["bash", "lint"],
            customAgents: [{ name: "runner", prompt: "Run.", tools: ["bash", "lint", "view"] }],
        });
        expect(warnings.map((w) => [w.code, w.option, w.identifiers])).toEqual([
            ["AGENT_TOOL_WITHHELD", "customAgents.runner.tools", ["bash", "lint"]],
        ]);
        expect(warnings[0]!.message).toContain("defaultAgent.excludedTools");
    });

    it("refuses under strictToolFilters before session.create", async () => {
        const { runtime, client } = await setUp({ strictToolFilters: true });
        const unknown = await refusal(
            client.createSession({
                ...base,
                customAgents: [{ name: "r", prompt: "R.", tools: ["veiw"] }],
            })
        );
        expect(unknown).toMatchObject({ code: "UNKNOWN_IDENTIFIERS", toolNames: ["veiw"] });
        const withheld = await refusal(
            client.createSession({
                ...base,
                excludedTools: ["bash"],
                customAgents: [{ name: "r", prompt: "R.", tools: ["bash"] }],
            })
        );
        expect(withheld).toMatchObject({ code: "AGENT_TOOL_WITHHELD", toolNames: ["bash"] });
        expect(runtime.paramsOf("session.create")).toEqual([]);
    });

    it("refuses a toolset entry that names no toolset, always, with a suggestion", async () => {
        const { runtime, client } = await setUp();
        for (const [option, config] of [
            [
                "customAgents.r.tools",
                { customAgents: [{ name: "r", prompt: "R.", tools: ["toolset:raed"] }] },
            ],
            ["defaultAgent.excludedTools", { defaultAgent: { excludedTools: ["toolset:raed"] } }],
        ] as [string, Record<string, unknown>][]) {
            const error = await refusal(client.createSession({ ...base, ...config }));
            expect(error).toMatchObject({
                code: "INVALID_TOOL_FILTER",
                toolNames: ["toolset:raed"],
            });
            expect(error.message).toContain(`Invalid ${option} entry 'toolset:raed'`);
            expect(error.message).toContain("Did you mean 'toolset:read'?");
        }
        expect(runtime.paramsOf("session.create")).toEqual([]);
    });

    it("sends mcp: entries as the names the runtime matches in an agent's tools", async () => {
        const { runtime, client } = await setUp();
        const server = { command: "node", args: ["s.js"], tools: ["*"] };
        await client.createSession({
            ...base,
            mcpServers: { s: server },
            customAgents: [
                {
                    name: "r",
                    prompt: "R.",
                    tools: ["mcp:s-probe", "mcp:m-x-tool", "mcp:*", "mcp:z-none"],
                    mcpServers: { m: server, "m-x": server },
                },
            ],
            defaultAgent: { excludedTools: ["mcp:s-probe"] },
        });
        const [sent] = runtime.paramsOf("session.create");
        // <server>/<tool>, by the longest declared server: runtime 1.0.57 matches no <server>-<tool>.
        expect((sent!.customAgents as { tools: unknown }[])[0]!.tools).toEqual([
            "s/probe",
            "m-x/tool",
            "s/*",
            "m/*",
            "m-x/*",
            "z-none",
        ]);
        expect(sent!.defaultAgent).toEqual({ excludedTools: ["s-probe"] });
    });

    it("refuses 'mcp:*' in defaultAgent.excludedTools, whose matching is not known", async () => {
        const { runtime, client } = await setUp();
        const error = await refusal(
            client.createSession({ ...base, defaultAgent: { excludedTools: ["mcp:*"] } })
        );
        expect(error).toMatchObject({ code: "INVALID_TOOL_FILTER", toolNames: ["mcp:*"] });
        expect(runtime.paramsOf("session.create")).toEqual([]);
    });

    it("refuses a bare '*' and an unknown source prefix in an agent's tools", async () => {
        const { runtime, client } = await setUp();
        for (const entry of ["*", "biultin:view"]) {
            const error = await refusal(
                client.createSession({
                    ...base,
                    customAgents: [{ name: "r", prompt: "R.", tools: [entry] }],
                })
            );
            expect(error).toMatchObject({ code: "INVALID_TOOL_FILTER", toolNames: [entry] });
        }
        expect(runtime.paramsOf("session.create")).toEqual([]);
    });
});

describe("a custom agent's own prompt", () => {
    it("warns when it names a tool the agent's tools do not list, naming the agent", async () => {
        const { client, warnings } = await setUp();
        await client.createSession({
            ...base,
            tools: [lint],
            customAgents: [
                {
                    name: "tester",
                    prompt: "Run the tests with the **bash** tool, then call `lint`.",
                    tools: ["view", "lint"],
                },
            ],
        });
        expect(warnings.map((w) => [w.code, w.option, w.identifiers])).toEqual([
            ["PROMPT_NAMES_REMOVED_TOOL", "customAgents.tester.prompt", ["bash"]],
        ]);
        expect(warnings[0]!.message).toContain("The prompt of custom agent 'tester' names 'bash'");
    });

    it("checks each session's agents anew when the client's sessions are built alike", async () => {
        const { client, warnings } = await setUp();
        const prompt = "Run the tests with the **bash** tool, then call `lint`.";
        const session = (tools: string[], agentPrompt = prompt) =>
            client.createSession({
                ...base,
                tools: [lint],
                customAgents: [{ name: "tester", prompt: agentPrompt, tools }],
            });
        await session(["view", "lint"]);
        await session(["view", "lint"]);
        await session(["bash", "lint"]);
        await session(["view", "lint"], "Call `lint`, then read with `view` and `grep`.");
        expect(warnings.map((w) => [w.code, w.option, w.identifiers])).toEqual([
            ["PROMPT_NAMES_REMOVED_TOOL", "customAgents.tester.prompt", ["bash"]],
            ["PROMPT_NAMES_REMOVED_TOOL", "customAgents.tester.prompt", ["bash"]],
            ["PROMPT_NAMES_REMOVED_TOOL", "customAgents.tester.prompt", ["grep"]],
        ]);
    });

    it("warns when it names a tool the session's filter removes, for an agent of all tools", async () => {
        const { client, warnings } = await setUp();
        await client.createSession({
            ...base,
            excludedTools: ["bash"],
            customAgents: [{ name: "tester", prompt: "Use the `bash` tool.", tools: null }],
        });
        expect(warnings.map((w) => [w.code, w.identifiers])).toEqual([
            ["PROMPT_NAMES_REMOVED_TOOL", ["bash"]],
        ]);
    });

    it("does not warn about a tool it has, a shell tool's companions, or an English word", async () => {
        const { client, warnings } = await setUp();
        await client.createSession({
            ...base,
            customAgents: [
                {
                    name: "tester",
                    prompt: "Start `bash`, then poll it with `read_bash`. Give a clear view of the results.",
                    tools: ["bash"],
                },
            ],
        });
        expect(warnings).toEqual([]);
    });
});

describe("MCP servers declared on a custom agent", () => {
    const server = { command: "node", args: ["m.js"], tools: ["*"] };

    it("refuses a custom tool the agent's MCP server would shadow, naming the agent", async () => {
        const { runtime, client } = await setUp();
        const error = await refusal(
            client.createSession({
                ...base,
                tools: [mView],
                customAgents: [{ name: "viewer", prompt: "V.", mcpServers: { m: server } }],
            })
        );
        expect(error).toMatchObject({ code: "MCP_TOOL_COLLISION", toolNames: ["m-view"] });
        expect(error.message).toContain("(MCP server 'm' of custom agent 'viewer')");
        expect(runtime.paramsOf("session.create")).toEqual([]);
    });

    it("accepts the server when the agent is not offered the custom tool", async () => {
        const { runtime, client } = await setUp();
        await client.createSession({
            ...base,
            tools: [mView],
            customAgents: [
                { name: "viewer", prompt: "V.", tools: ["view"], mcpServers: { m: server } },
            ],
        });
        expect(runtime.paramsOf("session.create")).toHaveLength(1);
    });
});

describe("malformed agent options", () => {
    const cases: readonly [string, Record<string, unknown>, RegExp][] = [
        ["customAgents not an array", { customAgents: { name: "r" } }, /^Invalid customAgents/],
        [
            "an agent that is not an object",
            { customAgents: ["r"] },
            /^Invalid customAgents\[0\] 'r'/,
        ],
        [
            "an agent without a name",
            { customAgents: [{ prompt: "R." }] },
            /^Invalid customAgents\[0\]\.name undefined: every custom agent needs a non-empty name/,
        ],
        [
            "two agents of one name",
            {
                customAgents: [
                    { name: "r", prompt: "A." },
                    { name: "r", prompt: "B." },
                ],
            },
            /^Invalid customAgents\[1\]: another agent is already named 'r'/,
        ],
        [
            "agent naming no agent",
            { customAgents: [{ name: "r", prompt: "R." }], agent: "x" },
            /^Invalid agent 'x': it must be the name of one of customAgents \('r'\)/,
        ],
        ["agent without customAgents", { agent: "x" }, /the session defines none/],
        [
            "a prompt that is not a string",
            { customAgents: [{ name: "r", prompt: 3 }] },
            /^Invalid customAgents\[0\] \('r'\)\.prompt 3/,
        ],
        [
            "an MCP server config that is not an object",
            { customAgents: [{ name: "r", prompt: "R.", mcpServers: { m: 1 } }] },
            /^Invalid config 1 of MCP server 'm' in customAgents\[0\] \('r'\)\.mcpServers/,
        ],
        ["defaultAgent not an object", { defaultAgent: ["bash"] }, /^Invalid defaultAgent/],
        [
            "a throwing getter",
            {
                customAgents: [
                    {
                        name: "r",
                        prompt: "R.",
                        get tools(): never {
                            throw new Error("boom");
                        },
                    },
                ],
            },
            /^Invalid customAgents\[0\]: it cannot be read \(boom\)/,
        ],
        [
            "a revoked proxy",
            {
                customAgents: (() => {
                    const { proxy, revoke } = Proxy.revocable([], {});
                    revoke();
                    return proxy;
                })(),
            },
            /^Invalid customAgents: it cannot be read/,
        ],
    ];
    for (const [what, options, message] of cases) {
        it(`refuses ${what} before session.create`, async () => {
            const { runtime, client } = await setUp();
            const error = await refusal(client.createSession({ ...base, ...options } as never));
            expect(error.code).toBe("INVALID_CUSTOM_AGENT");
            expect(error.message).toMatch(message);
            expect(runtime.paramsOf("session.create")).toEqual([]);
        });
    }

    it("refuses a tools entry that is not a string, naming the agent", async () => {
        const { runtime, client } = await setUp();
        const error = await refusal(
            client.createSession({
                ...base,
                customAgents: [{ name: "r", prompt: "R.", tools: ["view", 7] }],
            } as never)
        );
        expect(error.code).toBe("INVALID_TOOL_FILTER");
        expect(error.message).toMatch(/^Invalid customAgents\[0\] \('r'\)\.tools\[1\] 7/);
        expect(runtime.paramsOf("session.create")).toEqual([]);
    });

    it("reads a getter of an agent once", async () => {
        const { runtime, client } = await setUp();
        let reads = 0;
        const agent = {
            name: "r",
            prompt: "R.",
            get tools() {
                reads += 1;
                return reads === 1 ? ["view"] : ["bash"];
            },
        };
        await client.createSession({ ...base, customAgents: [agent] });
        expect(reads).toBe(1);
        expect(runtime.paramsOf("session.create")[0]!.customAgents).toEqual([
            { name: "r", prompt: "R.", tools: ["view"] },
        ]);
    });
});
