import { describe, expect, it, vi } from "vitest";
import { SessionToolError } from "../../src/sessionToolError.js";
import {
    createSessionToolState,
    prepareSessionTools,
    type NormalizedToolFilters,
    type SessionToolHost,
} from "../../src/sessionToolSetup.js";
import type { SessionToolWarning } from "../../src/sessionToolWarning.js";

const handler = async (): Promise<string> => "ok";
const CLAUDE = "claude-sonnet-4.5";
/** What runtime 1.0.85 offers claude-sonnet-4.5 in a default session (measured). */
const CLAUDE_BUILT_INS = [
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
];

/** A client on the bundled runtime 1.0.85, whose measurements the SDK carries. */
function bundledClient(options: Record<string, unknown> = {}) {
    const warnings: SessionToolWarning[] = [];
    const requests: string[] = [];
    const client: SessionToolHost = {
        sessionToolState: createSessionToolState(
            {
                builtInToolCollisions: "override",
                onToolWarning: (w: SessionToolWarning) => warnings.push(w),
                ...options,
            },
            "1.0.85"
        ),
        getStatus: async () => {
            requests.push("status.get");
            return { version: "1.0.85" };
        },
        rpc: {
            tools: {
                list: async () => {
                    requests.push("tools.list");
                    return { tools: [] };
                },
            },
        },
    };
    return { client, warnings, requests };
}

async function prepare(
    config: Record<string, unknown>,
    filters: NormalizedToolFilters = {},
    client = bundledClient().client
) {
    return prepareSessionTools(client, { model: CLAUDE, ...config }, filters);
}

async function refusal(promise: Promise<unknown>): Promise<SessionToolError> {
    const error = await promise.then(
        () => undefined,
        (e: unknown) => e
    );
    expect(error).toBeInstanceOf(SessionToolError);
    return error as SessionToolError;
}

describe("session tool step: overrides", () => {
    it("asks a bundled runtime of a measured version nothing", async () => {
        const { client, requests } = bundledClient();
        await prepare({ tools: [{ name: "view", handler }] }, {}, client);
        expect(requests).toEqual([]);
    });

    it("sends a custom view marked as an override and offers the model one view", async () => {
        const prepared = await prepare({ tools: [{ name: "view", handler }] });
        const tools = (
            prepared.config as unknown as {
                tools: { name: string; overridesBuiltInTool: boolean }[];
            }
        ).tools;
        expect(tools.map((t) => [t.name, t.overridesBuiltInTool])).toEqual([["view", true]]);
        expect(prepared.resolution.overriddenBuiltInTools).toEqual(["view"]);
        expect(prepared.resolution.enabledTools).toEqual(
            CLAUDE_BUILT_INS.filter((n) => n !== "view").concat("view")
        );
    });

    it("reports an automatic override once per client and name", async () => {
        const { client, warnings } = bundledClient();
        await prepare({ tools: [{ name: "view", handler }] }, {}, client);
        await prepare(
            {
                tools: [
                    { name: "view", handler },
                    { name: "bash", handler },
                ],
            },
            {},
            client
        );
        expect(warnings.map((w) => [w.code, w.identifiers])).toEqual([
            ["AUTOMATIC_OVERRIDE", ["view"]],
            ["AUTOMATIC_OVERRIDE", ["bash"]],
        ]);
    });

    it("reports nothing for a session it refuses", async () => {
        const { client, warnings } = bundledClient();
        await refusal(
            prepare(
                { tools: [{ name: "view", handler }] },
                { availableTools: ["toolset:"] },
                client
            )
        );
        expect(warnings).toEqual([]);
        await prepare({ tools: [{ name: "view", handler }] }, {}, client);
        expect(warnings.map((w) => w.code)).toEqual(["AUTOMATIC_OVERRIDE"]);
    });

    it("refuses a collision under the error policy before anything is sent", async () => {
        const { client } = bundledClient({ builtInToolCollisions: "error" });
        const error = await refusal(prepare({ tools: [{ name: "bash", handler }] }, {}, client));
        expect(error.code).toBe("BUILT_IN_TOOL_COLLISION");
    });

    it("refuses a custom tool-search tool unless tool search is known to defer tools", async () => {
        const tools = [
            { name: "tool_search_tool", handler, overridesBuiltInTool: true },
            { name: "lint", handler },
        ];
        const error = await refusal(prepare({ tools, toolSearch: { enabled: true } }));
        expect(error.code).toBe("UNSUPPORTED_OVERRIDE");
        expect(error.message).toContain("deferThreshold");
        const accepted = await prepare({ tools, toolSearch: { enabled: true, deferThreshold: 1 } });
        expect(accepted.resolution.enabledTools).toContain("tool_search_tool");
    });

    it("does not mutate the caller's config, tools or filter lists", async () => {
        const tools = Object.freeze([Object.freeze({ name: "view", handler })]);
        const availableTools = Object.freeze(["toolset:read", "bash"]);
        const config = Object.freeze({ model: CLAUDE, tools });
        const prepared = await prepareSessionTools(bundledClient().client, config, {
            availableTools,
        });
        expect(prepared.config).not.toBe(config);
        expect(config.tools).toBe(tools);
        expect(availableTools).toEqual(["toolset:read", "bash"]);
    });
});

describe("session tool step: availableTools and excludedTools", () => {
    it("expands toolsets to the members of every model family", async () => {
        const prepared = await prepare({}, { availableTools: ["toolset:edit"] });
        expect(prepared.resolution.wire.availableTools).toEqual([
            "edit",
            "create",
            "apply_patch",
            "str_replace_editor",
        ]);
        expect(prepared.resolution.enabledTools).toEqual(["create", "edit"]);
        expect(prepared.resolution.toolSetEnablement.get("edit")).toBe(true);
    });

    it("keeps a tool named in availableTools when its toolset is excluded", async () => {
        const prepared = await prepare(
            {},
            {
                availableTools: ["toolset:read", "toolset:edit", "view"],
                excludedTools: ["toolset:read"],
            }
        );
        expect(prepared.resolution.wire.excludedTools).toEqual(["read_file"]);
        expect(prepared.resolution.enabledTools).toEqual(["create", "edit", "view"]);
    });

    it("excludes a tool in an included and an excluded toolset, and any tool excluded by name", async () => {
        const prepared = await prepare(
            {
                tools: [
                    { name: "lint", handler },
                    { name: "fmt", handler },
                ],
                customToolSets: { quality: ["lint", "fmt", "edit"] },
            },
            { availableTools: ["toolset:quality", "fmt"], excludedTools: ["toolset:edit", "fmt"] }
        );
        expect(prepared.resolution.wire.excludedTools).toEqual(
            ["edit", "create", "apply_patch", "str_replace_editor", "fmt", "builtin:fmt"].filter(
                (entry) => entry !== "builtin:fmt"
            )
        );
        expect(prepared.resolution.enabledTools).toEqual(["lint"]);
        expect(
            (prepared.config as unknown as { tools: { name: string }[] }).tools.map((t) => t.name)
        ).toEqual(["lint"]);
    });

    it("passes patterns the runtime understands through unchanged", async () => {
        const prepared = await prepare(
            {},
            { availableTools: ["mcp:*", "builtin:view", "custom:*"] }
        );
        expect(prepared.resolution.wire.availableTools).toEqual([
            "mcp:*",
            "builtin:view",
            "custom:*",
        ]);
        expect(prepared.resolution.warnings).toEqual([]);
    });

    it("lets builtin:<name> keep a custom tool that replaces that built-in", async () => {
        const prepared = await prepare(
            { tools: [{ name: "view", handler, overridesBuiltInTool: true }] },
            { availableTools: ["builtin:view"] }
        );
        expect(prepared.resolution.wire.availableTools).toEqual(["builtin:view", "custom:view"]);
        expect(prepared.resolution.enabledTools).toEqual(["view"]);
    });

    it("removes the built-in too when the filter leaves out the custom tool replacing it", async () => {
        const prepared = await prepare(
            { tools: [{ name: "view", handler, overridesBuiltInTool: true }] },
            { excludedTools: ["toolset:read"] }
        );
        expect(prepared.resolution.wire.tools).toEqual([]);
        expect(prepared.resolution.wire.excludedTools).toEqual([
            "view",
            "read_file",
            "builtin:view",
        ]);
    });

    it("treats availableTools: [] as a deliberate session without tools", async () => {
        const prepared = await prepare(
            { tools: [{ name: "lint", handler }] },
            { availableTools: [] }
        );
        expect(prepared.resolution.enabledTools).toEqual([]);
        expect(prepared.resolution.warnings).toEqual([]);
    });

    it("warns once per option about unknown names, with suggestions and the toolsets", async () => {
        const { client, warnings } = bundledClient();
        const prepared = await prepare(
            {},
            { availableTools: ["bash", "toolset:edti", "veiw", "read"], excludedTools: ["nope"] },
            client
        );
        expect(prepared.resolution.unknownIdentifiers).toEqual([
            { option: "availableTools", identifier: "toolset:edti", suggestion: "toolset:edit" },
            { option: "availableTools", identifier: "veiw", suggestion: "view" },
            { option: "availableTools", identifier: "read", suggestion: "toolset:read" },
            { option: "excludedTools", identifier: "nope" },
        ]);
        expect(warnings.map((w) => [w.code, w.option])).toEqual([
            ["UNKNOWN_IDENTIFIERS", "availableTools"],
            ["UNKNOWN_IDENTIFIERS", "excludedTools"],
        ]);
        expect(warnings[0]!.message).toContain("'toolset:read', 'toolset:edit'");
    });

    it("warns when a non-empty availableTools leaves no tool", async () => {
        const prepared = await prepare({}, { availableTools: ["nothing_here_at_all"] });
        expect(prepared.resolution.warnings.map((w) => w.code)).toEqual([
            "UNKNOWN_IDENTIFIERS",
            "NO_TOOLS_ENABLED",
        ]);
    });

    it("warns when the model would get more than 128 tools, not at 128", async () => {
        const tools = (count: number) =>
            Array.from({ length: count }, (_, i) => ({ name: `tool_${i}`, handler }));
        const at128 = await prepare({ tools: tools(128 - CLAUDE_BUILT_INS.length) });
        expect(at128.resolution.enabledTools).toHaveLength(128);
        expect(at128.resolution.warnings).toEqual([]);
        const at129 = await prepare({ tools: tools(129 - CLAUDE_BUILT_INS.length) });
        expect(at129.resolution.warnings.map((w) => w.code)).toEqual(["TOO_MANY_TOOLS"]);
    });

    it("refuses malformed filter entries and toolsets with messages that say what to do", async () => {
        const cases: [Record<string, unknown>, NormalizedToolFilters, string, string][] = [
            [
                {},
                { availableTools: "view" },
                "INVALID_TOOL_FILTER",
                "Invalid availableTools 'view'",
            ],
            [
                {},
                { excludedTools: ["view", 3] },
                "INVALID_TOOL_FILTER",
                "Invalid excludedTools[1] 3",
            ],
            [{}, { availableTools: ["toolset:a b"] }, "INVALID_TOOL_FILTER", "'toolset:a b'"],
            [{ customToolSets: [] }, {}, "INVALID_TOOL_SET", "Invalid customToolSets []"],
            [{ customToolSets: { "a b": [] } }, {}, "INVALID_TOOL_SET", "name 'a b'"],
            [
                { customToolSets: { q: ["toolset:edit"] } },
                {},
                "INVALID_TOOL_SET",
                "list tool names",
            ],
            [
                { customToolSets: { toArray: () => [] } },
                {},
                "INVALID_TOOL_SET",
                "customToolSets got a ToolSet builder",
            ],
        ];
        for (const [config, filters, code, text] of cases) {
            const error = await refusal(prepare(config, filters));
            expect([error.code, error.message]).toEqual([code, expect.stringContaining(text)]);
        }
    });
});

describe("session tool step: the runtime's catalog", () => {
    function externalClient(status: () => Promise<{ version?: string }>, list = vi.fn()) {
        const warnings: SessionToolWarning[] = [];
        const client: SessionToolHost = {
            sessionToolState: createSessionToolState(
                {
                    builtInToolCollisions: "override",
                    onToolWarning: (w: SessionToolWarning) => warnings.push(w),
                },
                undefined
            ),
            getStatus: status,
            rpc: { tools: { list } },
        };
        return { client, warnings, list };
    }

    it("asks an external runtime its version once per client", async () => {
        const status = vi.fn(async () => ({ version: "1.0.85" }));
        const { client, list } = externalClient(status);
        await prepare({ tools: [{ name: "lint", handler }] }, {}, client);
        await prepare({ tools: [{ name: "lint", handler }] }, {}, client);
        expect(status).toHaveBeenCalledTimes(1);
        expect(list).not.toHaveBeenCalled();
    });

    it("asks nothing for a session without custom tools or filters", async () => {
        const status = vi.fn(async () => ({ version: "1.0.85" }));
        const { client } = externalClient(status);
        await prepare({}, {}, client);
        expect(status).not.toHaveBeenCalled();
    });

    it("adds the tools.list of an unmeasured version, and says it stands in", async () => {
        const list = vi.fn(async () => ({ tools: [{ name: "brand_new_tool" }] }));
        const { client, warnings } = externalClient(async () => ({ version: "0.0.1" }), list);
        const error = await refusal(
            prepare(
                { tools: [{ name: "brand_new_tool", handler, overridesBuiltInTool: false }] },
                {},
                client
            )
        );
        expect(error.code).toBe("BUILT_IN_TOOL_COLLISION");
        expect(warnings.map((w) => w.code)).toEqual(["CATALOG_FALLBACK"]);
    });

    it("falls back after a timeout when the runtime does not answer", async () => {
        vi.useFakeTimers();
        try {
            const { client, warnings } = externalClient(() => new Promise(() => {}));
            const pending = prepare({ tools: [{ name: "lint", handler }] }, {}, client);
            await vi.advanceTimersByTimeAsync(3000);
            const prepared = await pending;
            expect(prepared.resolution.runtime.catalog).toBe("fallback");
            expect(warnings.map((w) => w.code)).toEqual(["CATALOG_FALLBACK"]);
            expect(warnings[0]!.message).toContain("status.get did not answer in 3000 ms");
        } finally {
            vi.useRealTimers();
        }
    });
});

describe("session tool step: the resolution", () => {
    it("is defined, frozen, and its maps refuse changes", async () => {
        const prepared = await prepare(
            { tools: [{ name: "lint", handler }] },
            { excludedTools: ["bash"] }
        );
        const resolution = prepared.resolution;
        expect(resolution).toBeDefined();
        expect(Object.isFrozen(resolution)).toBe(true);
        expect(Object.isFrozen(resolution.enabledTools)).toBe(true);
        expect(Object.isFrozen(resolution.wire)).toBe(true);
        expect(() => (resolution.toolEnablement as Map<string, boolean>).set("bash", true)).toThrow(
            TypeError
        );
        expect(() => (resolution.toolSetEnablement as Map<string, boolean>).delete("edit")).toThrow(
            TypeError
        );
        expect(resolution.toolEnablement.get("bash")).toBe(false);
    });

    it("adds the built-ins that session options switch on", async () => {
        const prepared = await prepare({
            onUserInputRequest: async () => ({ answer: "", wasFreeform: true }),
        });
        expect(prepared.resolution.enabledTools).toContain("ask_user");
        expect(prepared.resolution.modeTools).toEqual({
            plan: ["exit_plan_mode"],
            autopilot: ["task_complete"],
        });
    });
});
