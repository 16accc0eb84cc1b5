/**
 * includeTools / excludeTools / toolSets against the real runtime: the tools the model receives
 * in its first request are exactly `session.toolResolution.enabledTools`, and exactly the list
 * written down for each case.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
    CopilotClient,
    approveAll,
    type SessionConfig,
    type SessionToolConfig,
} from "@github/copilot-sdk";
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
    /** The filter options, or the runtime's own patterns (`availableTools`/`excludedTools`). */
    readonly options: SessionToolConfig | Pick<SessionConfig, "availableTools" | "excludedTools">;
    /** The tool names the model must receive, in any order. */
    readonly expected: readonly string[];
}

const CASES: readonly FilterCase[] = [
    {
        label: "a whitelist of built-ins",
        model: CLAUDE_MODEL,
        options: { includeTools: ["view", "grep"] },
        expected: ["view", "grep"],
    },
    {
        label: "a whitelist with a source-qualified name",
        model: CLAUDE_MODEL,
        options: { includeTools: ["builtin:view", "bash"] },
        expected: ["view", "bash"],
    },
    {
        label: "a blacklist of toolsets",
        model: CLAUDE_MODEL,
        options: { excludeTools: ["execute", "web"] },
        expected: [
            "view",
            "create",
            "edit",
            "sql",
            "read_agent",
            "list_agents",
            "write_agent",
            "grep",
            "glob",
            "task",
        ],
    },
    {
        label: "toolsets included, one member excluded",
        model: CLAUDE_MODEL,
        options: { includeTools: ["read", "search"], excludeTools: ["grep"] },
        expected: ["view", "glob"],
    },
    {
        label: "the execute toolset without stop_bash",
        model: CLAUDE_MODEL,
        options: { includeTools: ["execute"], excludeTools: ["stop_bash"] },
        expected: ["bash", "read_bash", "list_bash"],
    },
    {
        label: "the edit toolset",
        model: CLAUDE_MODEL,
        options: { includeTools: ["edit"] },
        expected: ["edit", "create"],
    },
    {
        label: "the custom toolset with read",
        model: CLAUDE_MODEL,
        tools: ["lint", "deploy"],
        options: { includeTools: ["custom", "read"] },
        expected: ["view", "lint", "deploy"],
    },
    {
        label: "the custom toolset without one custom tool",
        model: CLAUDE_MODEL,
        tools: ["lint", "deploy"],
        options: { includeTools: ["custom", "search"], excludeTools: ["custom:deploy"] },
        expected: ["glob", "grep", "lint"],
    },
    {
        label: "an override of view with the read toolset",
        model: CLAUDE_MODEL,
        tools: ["view"],
        options: { includeTools: ["read"] },
        expected: ["view"],
    },
    {
        label: "an overriding custom tool excluded: no view at all, custom or built-in",
        model: CLAUDE_MODEL,
        tools: ["view", "lint"],
        options: { excludeTools: ["view", "execute", "agent"] },
        expected: ["create", "edit", "glob", "grep", "sql", "web_fetch", "lint"],
    },
    {
        label: "builtin:* excluded, view included directly",
        model: CLAUDE_MODEL,
        tools: ["lint"],
        options: { includeTools: ["view", "custom"], excludeTools: ["builtin:*"] },
        expected: ["view", "lint"],
    },
    {
        label: "a toolset of the session's own",
        model: CLAUDE_MODEL,
        tools: ["lint"],
        options: {
            toolSets: [{ name: "quality", tools: ["lint", "grep"] }],
            includeTools: ["quality"],
        },
        expected: ["grep", "lint"],
    },
    {
        label: "no filter at all",
        model: CLAUDE_MODEL,
        options: {},
        expected: [
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
        ],
    },
    {
        label: "sql named directly",
        model: CLAUDE_MODEL,
        options: { includeTools: ["view", "sql"] },
        expected: ["view", "sql"],
    },
    {
        label: "the edit and search toolsets on a GPT model",
        model: GPT_MODEL,
        options: { includeTools: ["edit", "search"] },
        expected: ["apply_patch", "rg", "glob"],
    },
    {
        label: "the edit toolset excluded on a GPT model",
        model: GPT_MODEL,
        options: { excludeTools: ["edit"] },
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
        label: "the runtime's availableTools naming the built-in a custom tool overrides",
        model: CLAUDE_MODEL,
        tools: ["view"],
        options: { availableTools: ["builtin:view", "builtin:glob"] },
        expected: ["view", "glob"],
    },
    {
        label: "the runtime's availableTools 'builtin:*' with an override",
        model: CLAUDE_MODEL,
        tools: ["view", "lint"],
        options: { availableTools: ["builtin:*"] },
        expected: [
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
        ],
    },
];

const sorted = (names: readonly string[] | undefined): string[] => [...(names ?? [])].sort();

describe("includeTools / excludeTools / toolSets on the real runtime", () => {
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
});

describeNoLeftovers();
