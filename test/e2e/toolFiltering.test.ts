/**
 * availableTools / excludedTools with toolset entries, and customToolSets, against the real runtime: the tools the model receives
 * in its first request are exactly `session.toolResolution.enabledTools`, and exactly the list
 * written down for each case.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CopilotClient, ToolSet, approveAll, type SessionConfig } from "@github/copilot-sdk";
import {
    CLAUDE_MODEL,
    GPT_MODEL,
    cleanupStack,
    mockModel,
    providerFor,
    recordingTool,
    temporaryBaseDirectory,
} from "../support/e2eHarness.js";
import { describeNoLeftovers } from "../support/noLeftovers.js";

interface FilterCase {
    readonly label: string;
    readonly model: string;
    /** Names of custom tools to register. */
    readonly tools?: readonly string[];
    /** availableTools, excludedTools, customToolSets. */
    readonly options: Pick<SessionConfig, "availableTools" | "excludedTools" | "customToolSets">;
    /** The tool names the model must receive, in any order. */
    readonly expected: readonly string[];
}

/** What claude-sonnet-4.5 is offered in a default session (measured on the runtime). */
const CLAUDE_DEFAULT = [
    "bash",
    "read_bash",
    "stop_bash",
    "list_bash",
    "view",
    "create",
    "edit",
    "web_fetch",
    "sql",
    "read_agent",
    "list_agents",
    "write_agent",
    "grep",
    "glob",
    "task",
];

const CASES: readonly FilterCase[] = [
    {
        label: "tool names in availableTools",
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
        label: "toolsets excluded",
        model: CLAUDE_MODEL,
        options: { excludedTools: ["toolset:execute", "toolset:web"] },
        expected: CLAUDE_DEFAULT.filter(
            (name) => !["bash", "read_bash", "stop_bash", "list_bash", "web_fetch"].includes(name)
        ),
    },
    {
        label: "a toolset with one member excluded by name",
        model: CLAUDE_MODEL,
        options: { availableTools: ["toolset:edit", "toolset:read"], excludedTools: ["create"] },
        expected: ["edit", "view"],
    },
    {
        label: "a tool named in availableTools whose toolset is excluded",
        model: CLAUDE_MODEL,
        options: {
            availableTools: ["toolset:read", "toolset:search", "grep"],
            excludedTools: ["toolset:search"],
        },
        expected: ["view", "grep"],
    },
    {
        label: "the ToolSet builder with addToolSet",
        model: CLAUDE_MODEL,
        options: { availableTools: new ToolSet().addToolSet("agent").addBuiltIn("view") },
        expected: ["task", "read_agent", "write_agent", "list_agents", "view"],
    },
    {
        label: "a toolset of the session's own",
        model: CLAUDE_MODEL,
        tools: ["lint", "fmt"],
        options: {
            customToolSets: { quality: ["lint", "grep"] },
            availableTools: ["toolset:quality"],
        },
        expected: ["grep", "lint"],
    },
    {
        label: "availableTools: [] (a session without tools)",
        model: CLAUDE_MODEL,
        tools: ["lint"],
        options: { availableTools: [] },
        expected: [],
    },
    {
        label: "an MCP pattern passed through beside a toolset",
        model: CLAUDE_MODEL,
        options: { availableTools: ["toolset:read", "mcp:*"] },
        expected: ["view"],
    },
    {
        label: "no filter at all",
        model: CLAUDE_MODEL,
        options: {},
        expected: CLAUDE_DEFAULT,
    },
    {
        label: "the edit and search toolsets on a GPT model",
        model: GPT_MODEL,
        options: { availableTools: ["toolset:edit", "toolset:search"] },
        expected: ["apply_patch", "rg", "glob"],
    },
    {
        label: "the edit toolset excluded on a GPT model",
        model: GPT_MODEL,
        options: { excludedTools: ["toolset:edit"] },
        expected: [
            "bash",
            "read_bash",
            "stop_bash",
            "list_bash",
            "view",
            "web_fetch",
            "sql",
            "read_agent",
            "list_agents",
            "write_agent",
            "rg",
            "glob",
            "task",
        ],
    },
    {
        label: "availableTools naming the built-in a custom tool overrides",
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
];

const sorted = (names: readonly string[] | undefined): string[] => [...(names ?? [])].sort();

describe("availableTools / excludedTools with toolsets on the real runtime", () => {
    const { defer, run } = cleanupStack();
    afterEach(run);
    let client: CopilotClient;

    beforeEach(() => {
        client = new CopilotClient({
            baseDirectory: temporaryBaseDirectory(defer),
            onToolWarning: () => {},
        });
        defer(() => client.stop());
    });

    async function check(filterCase: FilterCase): Promise<void> {
        const local = cleanupStack();
        try {
            const model = await mockModel(local.defer);
            const tools = (filterCase.tools ?? []).map(recordingTool);
            const session = await client.createSession({
                model: filterCase.model,
                provider: providerFor(model),
                onPermissionRequest: approveAll,
                ...(tools.length > 0 ? { tools } : {}),
                ...filterCase.options,
            });
            await session.sendAndWait({ prompt: "Hello." });

            const offered = model.toolNamesOf(0);
            expect(new Set(offered).size).toBe(offered.length);
            expect(sorted(offered)).toEqual(sorted(filterCase.expected));
            expect(sorted(session.toolResolution?.enabledTools)).toEqual(sorted(offered));
            for (const tool of tools.filter((t) => offered.includes(t.name))) {
                expect(model.toolDefinitionsOf(0, tool.name)[0]?.function?.description).toBe(
                    tool.description
                );
            }
        } finally {
            await local.run();
        }
    }

    it.each(CASES.map((c) => [c.label, c.model, c] as const))(
        "%s (%s): the model receives exactly the enabled tools",
        async (_label, _model, filterCase) => check(filterCase)
    );

    it("keeps a toolset filter meaningful across a model switch", async () => {
        const local = cleanupStack();
        try {
            const model = await mockModel(local.defer);
            const session = await client.createSession({
                model: CLAUDE_MODEL,
                provider: providerFor(model),
                onPermissionRequest: approveAll,
                availableTools: ["toolset:edit"],
            });
            await session.sendAndWait({ prompt: "Hello." });
            await session.setModel(GPT_MODEL);
            await session.sendAndWait({ prompt: "Hello again." });
            expect(sorted(model.toolNamesOf(0))).toEqual(["create", "edit"]);
            expect(model.toolNamesOf(model.requests.length - 1)).toEqual(["apply_patch"]);
        } finally {
            await local.run();
        }
    });

    it("lists the built-ins that session options switch on", async () => {
        const local = cleanupStack();
        try {
            const model = await mockModel(local.defer);
            const session = await client.createSession({
                model: CLAUDE_MODEL,
                provider: providerFor(model),
                onPermissionRequest: approveAll,
                onUserInputRequest: async () => ({ answer: "no", wasFreeform: true }),
                excludedTools: ["toolset:execute"],
            });
            await session.sendAndWait({ prompt: "Hello." });
            expect(model.toolNamesOf(0)).toContain("ask_user");
            expect(sorted(session.toolResolution?.enabledTools)).toEqual(
                sorted(model.toolNamesOf(0))
            );
        } finally {
            await local.run();
        }
    });
});

describeNoLeftovers();
