/**
 * availableTools / excludedTools with toolset entries, the ToolSet builder and customToolSets,
 * against the real runtime: for each case the tools the model receives in its first request are
 * the ones written down for the case (what the rule says), and exactly
 * `session.toolResolution.enabledTools`. MCP tools, which the SDK does not list, come from the
 * mock model's MCP server and pass through the filter untouched.
 */
import { describe, expect, it } from "vitest";
import {
    CopilotClient,
    ToolSet,
    type MCPServerConfig,
    type SessionConfig,
} from "@github/copilot-sdk";
import {
    CLAUDE_MODEL,
    GPT_MODEL,
    e2eRig,
    recordingTool,
    testCleanups,
    type Defer,
} from "../support/e2eHarness.js";
import {
    callsOfferedTools,
    descriptionOf,
    toolNameOf,
    type MockModelScript,
} from "../support/mockModel.js";
import { describeNoLeftovers } from "../support/noLeftovers.js";
import { offeredWithoutOptions } from "../support/rawMeasurements.js";
import { AGENT_MEMBERS, EXECUTE_MEMBERS } from "../support/toolSetMembers.js";

type FilterOptions = Pick<SessionConfig, "availableTools" | "excludedTools" | "customToolSets">;

interface FilterCase {
    readonly label: string;
    readonly model: string;
    /** Names of custom tools to register. */
    readonly tools?: readonly string[];
    readonly options: FilterOptions;
    /** The tool names the model must receive, in any order. */
    readonly expected: readonly string[];
}

/**
 * What claude-sonnet-4.5 and gpt-4o are offered in a session without filter (the "no filter" cases
 * show it): the raw measurement of the release under test's runtime.
 */
const CLAUDE_DEFAULT = offeredWithoutOptions(CLAUDE_MODEL);
const GPT_DEFAULT = offeredWithoutOptions(GPT_MODEL);
/** The execute and agent toolsets' members that runtime offers without options. */
const EXECUTE = EXECUTE_MEMBERS.filter((name) => CLAUDE_DEFAULT.includes(name));
const AGENT = AGENT_MEMBERS.filter((name) => CLAUDE_DEFAULT.includes(name));
const without = (names: readonly string[], removed: readonly string[]): string[] =>
    names.filter((name) => !removed.includes(name));

const CASES: readonly FilterCase[] = [
    {
        label: "no filter at all",
        model: CLAUDE_MODEL,
        options: {},
        expected: CLAUDE_DEFAULT,
    },
    {
        label: "no filter at all",
        model: GPT_MODEL,
        options: {},
        expected: GPT_DEFAULT,
    },
    {
        label: "bare tool names in availableTools",
        model: CLAUDE_MODEL,
        options: { availableTools: ["view", "grep"] },
        expected: ["view", "grep"],
    },
    {
        label: "a source-qualified name beside a bare one",
        model: CLAUDE_MODEL,
        options: { availableTools: ["builtin:view", "bash"] },
        expected: ["view", "bash"],
    },
    {
        label: "toolsets in excludedTools",
        model: CLAUDE_MODEL,
        options: { excludedTools: ["toolset:execute", "toolset:web"] },
        expected: without(CLAUDE_DEFAULT, [...EXECUTE, "web_fetch"]),
    },
    {
        label: "ToolSet.addToolSet in excludedTools",
        model: CLAUDE_MODEL,
        options: { excludedTools: new ToolSet().addToolSet("execute").addToolSet("agent") },
        expected: without(CLAUDE_DEFAULT, [...EXECUTE, ...AGENT]),
    },
    {
        label: "ToolSet.addToolSet beside addBuiltIn in availableTools",
        model: CLAUDE_MODEL,
        options: { availableTools: new ToolSet().addToolSet("agent").addBuiltIn("view") },
        expected: [...AGENT, "view"],
    },
    {
        label: "the edit and search toolsets, whose members differ by model family",
        model: GPT_MODEL,
        options: { availableTools: ["toolset:edit", "toolset:search"] },
        expected: ["apply_patch", "rg", "glob"],
    },
    {
        label: "the edit toolset excluded",
        model: GPT_MODEL,
        options: { excludedTools: ["toolset:edit"] },
        expected: without(GPT_DEFAULT, ["apply_patch"]),
    },
    {
        label: "precedence: a toolset member excluded by name",
        model: CLAUDE_MODEL,
        options: { availableTools: ["toolset:edit", "toolset:read"], excludedTools: ["create"] },
        expected: ["edit", "view"],
    },
    {
        label: "precedence: a tool named in availableTools survives the exclusion of its toolset",
        model: CLAUDE_MODEL,
        options: {
            availableTools: ["toolset:read", "toolset:search", "grep"],
            excludedTools: ["toolset:search"],
        },
        expected: ["view", "grep"],
    },
    {
        label: "precedence: a tool named in both lists is excluded",
        model: CLAUDE_MODEL,
        options: { availableTools: ["toolset:search", "glob"], excludedTools: ["glob"] },
        expected: ["grep"],
    },
    {
        label: "precedence: a tool in an included and an excluded toolset is excluded",
        model: CLAUDE_MODEL,
        options: {
            customToolSets: { reading: ["view", "glob"] },
            availableTools: ["toolset:reading", "toolset:search"],
            excludedTools: ["toolset:read"],
        },
        expected: ["glob", "grep"],
    },
    {
        label: "a custom toolset of custom and built-in tools",
        model: CLAUDE_MODEL,
        tools: ["lint", "fmt"],
        options: {
            customToolSets: { quality: ["lint", "grep"] },
            availableTools: ["toolset:quality"],
        },
        expected: ["grep", "lint"],
    },
    {
        label: "custom tools excluded by their custom toolset",
        model: CLAUDE_MODEL,
        tools: ["lint", "fmt"],
        options: {
            customToolSets: { quality: ["lint", "fmt"] },
            excludedTools: ["toolset:quality"],
        },
        expected: CLAUDE_DEFAULT,
    },
    {
        label: "a custom toolset that replaces a default one",
        model: CLAUDE_MODEL,
        options: { customToolSets: { read: ["glob"] }, availableTools: ["toolset:read"] },
        expected: ["glob"],
    },
    {
        label: "availableTools naming the built-in that a custom tool overrides",
        model: CLAUDE_MODEL,
        tools: ["view"],
        options: { availableTools: ["builtin:view", "builtin:glob"] },
        expected: ["view", "glob"],
    },
    {
        label: "availableTools 'builtin:*' with an override and another custom tool",
        model: CLAUDE_MODEL,
        tools: ["view", "lint"],
        options: { availableTools: ["builtin:*"] },
        expected: CLAUDE_DEFAULT,
    },
    {
        label: "an override inside an included toolset",
        model: CLAUDE_MODEL,
        tools: ["view", "lint"],
        options: { availableTools: ["toolset:read"] },
        expected: ["view"],
    },
    {
        label: "an override excluded by name: neither the custom nor the built-in one is left",
        model: CLAUDE_MODEL,
        tools: ["view"],
        options: { excludedTools: ["view"] },
        expected: without(CLAUDE_DEFAULT, ["view"]),
    },
    {
        label: "an override excluded with its toolset",
        model: GPT_MODEL,
        tools: ["apply_patch"],
        options: { excludedTools: ["toolset:edit"] },
        expected: without(GPT_DEFAULT, ["apply_patch"]),
    },
    {
        label: "availableTools: [] (a session without tools)",
        model: CLAUDE_MODEL,
        tools: ["lint"],
        options: { availableTools: [] },
        expected: [],
    },
];

/** Starts a patched client on a fresh base directory, and a mock model. */
function patchedRig(defer: Defer, script: MockModelScript = {}) {
    return e2eRig(
        defer,
        (baseDirectory) => new CopilotClient({ baseDirectory, onToolWarning: () => {} }),
        script
    );
}

const asSet = (names: readonly string[] | undefined): Set<string> => new Set(names);

describe.concurrent("toolsets in availableTools / excludedTools on the real runtime", () => {
    it.for(CASES.map((c) => [c.label, c.model, c] as const))(
        "%s (%s): the model receives exactly the enabled tools",
        async ([, , filterCase], { onTestFinished }) => {
            const { client, model, base } = await patchedRig(testCleanups(onTestFinished));
            const tools = (filterCase.tools ?? []).map(recordingTool);
            const session = await client.createSession({
                ...base(filterCase.model),
                ...(tools.length > 0 ? { tools } : {}),
                ...filterCase.options,
            });
            await session.sendAndWait({ prompt: "Hello." });

            const offered = model.toolNamesOf(0);
            expect(offered).toHaveLength(asSet(offered).size);
            expect(asSet(offered)).toEqual(asSet(filterCase.expected));
            expect(asSet(session.toolResolution?.enabledTools)).toEqual(asSet(offered));
            for (const tool of tools.filter((t) => offered.includes(t.name))) {
                expect(model.toolDefinitionsOf(0, tool.name).map(descriptionOf)).toEqual([
                    tool.description,
                ]);
            }
        }
    );

    it("passes mcp: entries to the runtime untouched, which filters the MCP server's tools with them, and a call reaches the server", async ({
        onTestFinished,
    }) => {
        const { client, model, base } = await patchedRig(testCleanups(onTestFinished), {
            mcpTools: ["echo", "shout"],
            ...callsOfferedTools("Use the MCP tools.", (tool) =>
                toolNameOf(tool).startsWith("probe-")
            ),
        });
        const mcpServers: Record<string, MCPServerConfig> = {
            probe: { type: "http", url: model.mcpUrl, tools: ["*"] },
        };
        const session = await client.createSession({
            ...base(CLAUDE_MODEL),
            mcpServers,
            availableTools: ["toolset:read", "mcp:*"],
            excludedTools: ["mcp:probe-shout"],
        });
        await session.sendAndWait({ prompt: "Use the MCP tools." });

        const offered = model.toolNamesOf(0);
        expect(asSet(offered)).toEqual(asSet(["view", "probe-echo"]));
        expect(session.toolResolution?.wire.availableTools).toContain("mcp:*");
        expect(session.toolResolution?.wire.excludedTools).toEqual(["mcp:probe-shout"]);
        // enabledTools lists the built-in and custom tools; the SDK does not know MCP tools.
        expect(asSet(session.toolResolution?.enabledTools)).toEqual(
            asSet(offered.filter((name) => !name.startsWith("probe-")))
        );
        expect(model.mcpCalls).toEqual(["echo"]);
    });

    it("keeps toolset:edit meaningful across a model switch: create and edit, then apply_patch", async ({
        onTestFinished,
    }) => {
        const { client, model, base } = await patchedRig(testCleanups(onTestFinished));
        const session = await client.createSession({
            ...base(CLAUDE_MODEL),
            availableTools: ["toolset:edit"],
        });
        await session.sendAndWait({ prompt: "Hello." });
        expect(asSet(session.toolResolution?.enabledTools)).toEqual(asSet(["create", "edit"]));
        expect(asSet(model.toolNamesOf(0))).toEqual(asSet(["create", "edit"]));

        await session.setModel(GPT_MODEL);
        await session.sendAndWait({ prompt: "Hello again." });
        const last = model.requests.length - 1;
        expect(model.requests[last]?.model).toBe(GPT_MODEL);
        expect(model.toolNamesOf(last)).toEqual(["apply_patch"]);
    });

    it("lists ask_user, which onUserInputRequest switches on, in enabledTools and in the request", async ({
        onTestFinished,
    }) => {
        const { client, model, base } = await patchedRig(testCleanups(onTestFinished));
        const session = await client.createSession({
            ...base(CLAUDE_MODEL),
            onUserInputRequest: async () => ({ answer: "no", wasFreeform: true }),
            excludedTools: ["toolset:execute"],
        });
        await session.sendAndWait({ prompt: "Hello." });

        expect(session.toolResolution?.enabledTools).toContain("ask_user");
        expect(asSet(model.toolNamesOf(0))).toEqual(
            asSet([...without(CLAUDE_DEFAULT, EXECUTE), "ask_user"])
        );
        expect(asSet(session.toolResolution?.enabledTools)).toEqual(asSet(model.toolNamesOf(0)));
    });
});

describeNoLeftovers();
