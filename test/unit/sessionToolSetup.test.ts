import { afterEach, describe, expect, it, vi } from "vitest";
import { SessionToolError } from "../../src/toolCustomization/api/sessionToolError.js";
import {
    prepareSessionConfig,
    prepareSessionTools,
} from "../../src/toolCustomization/construction/pipeline.js";
import {
    createSessionToolState,
    type SessionToolHost,
} from "../../src/toolCustomization/construction/clientState.js";
import type { NormalizedToolFilters } from "../../src/toolCustomization/api/sessionConfig.js";
import type { SessionToolWarning } from "../../src/toolCustomization/api/sessionToolWarning.js";
import { EDIT_MEMBERS } from "../support/toolSetMembers.js";

// The session step of createSession / resumeSession (the rules of docs/using.md) on a
// small fake client: tools snapshot -> checks -> built-in catalog -> overrides -> filter -> wire.
// The client runs the bundled runtime 1.0.85, whose measurements the SDK carries. Expected
// values are written by hand from the rules and runtime 1.0.85's measured data.
const handler = async (): Promise<string> => "ok";
const CLAUDE = "claude-sonnet-4.5";
/** What runtime 1.0.85 offers claude-sonnet-4.5 in a default session. */
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

interface FakeClient {
    readonly client: SessionToolHost;
    readonly warnings: SessionToolWarning[];
    readonly requests: string[];
}

/** A client on the bundled runtime 1.0.85 that records warnings and runtime requests. */
function bundledClient(options: Record<string, unknown> = {}): FakeClient {
    const warnings: SessionToolWarning[] = [];
    const requests: string[] = [];
    const client: SessionToolHost = {
        sessionToolState: createSessionToolState(
            {
                // Explicit, so these tests hold under either default (the patch's and upstream's).
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

/** Runs the step the way the SDK does: the filter lists as the SDK normalised them. */
async function prepare(
    config: Record<string, unknown>,
    fake: FakeClient = bundledClient()
): Promise<Awaited<ReturnType<typeof prepareSessionTools<Record<string, unknown>>>>> {
    // The options are read at the boundary, as createSession reads them; the SDK's own
    // normalisation of the filter lists is the identity for these arrays.
    const prepared = await prepareSessionConfig<Record<string, unknown>>(
        fake.client,
        { model: CLAUDE, ...config },
        (read): NormalizedToolFilters => ({
            availableTools: read.availableTools,
            excludedTools: read.excludedTools,
        })
    );
    // As the client does once the runtime has taken the session.
    prepared.deliverWarnings();
    return prepared;
}

async function refusal(promise: Promise<unknown>): Promise<SessionToolError> {
    const outcome = await promise.then(
        () => "accepted",
        (error: unknown) => error
    );
    expect(outcome).toBeInstanceOf(SessionToolError);
    return outcome as SessionToolError;
}

function sentTools(prepared: { config: Record<string, unknown> }): Record<string, unknown>[] {
    return (prepared.config.tools as Record<string, unknown>[]).map((tool) => ({ ...tool }));
}

function deepFreeze<T>(value: T): T {
    if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
        Object.freeze(value);
        for (const key of Reflect.ownKeys(value)) {
            deepFreeze((value as Record<PropertyKey, unknown>)[key]);
        }
    }
    return value;
}

afterEach(() => {
    vi.restoreAllMocks();
});

describe("session tool step: client options", () => {
    // #region patch-only
    // The patch's default; upstream keeps refusing collisions unless the app opts in.
    it("replaces built-ins by default (builtInToolCollisions: 'override')", () => {
        expect(createSessionToolState(undefined, "1.0.85").policy).toBe("override");
        expect(createSessionToolState({}, undefined).policy).toBe("override");
    });
    // #endregion patch-only

    it("refuses a builtInToolCollisions other than 'override' or 'error' with INVALID_CLIENT_OPTION", () => {
        let thrown: unknown;
        try {
            createSessionToolState({ builtInToolCollisions: "replace" } as never, "1.0.85");
        } catch (error) {
            thrown = error;
        }
        expect(thrown).toBeInstanceOf(SessionToolError);
        expect((thrown as SessionToolError).code).toBe("INVALID_CLIENT_OPTION");
        expect((thrown as SessionToolError).message).toBe(
            "Invalid builtInToolCollisions 'replace': use 'override' (a custom tool replaces the built-in of its name) or 'error' (refuse such sessions)."
        );
    });

    it("refuses an onToolWarning that is not a function with INVALID_CLIENT_OPTION", () => {
        expect(() => createSessionToolState({ onToolWarning: "log" } as never, "1.0.85")).toThrow(
            new SessionToolError(
                "INVALID_CLIENT_OPTION",
                "Invalid onToolWarning 'log': pass a function that receives each warning, or leave it out to log with console.warn."
            )
        );
    });

    it("logs each warning's message with console.warn when onToolWarning is not given", async () => {
        const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
        const client: SessionToolHost = {
            ...bundledClient().client,
            sessionToolState: createSessionToolState({}, "1.0.85"),
        };
        const prepared = await prepareSessionConfig(
            client,
            { model: CLAUDE, tools: [{ name: "View", handler }] },
            () => ({})
        );
        // Nothing is said until the caller reports that the runtime took the session.
        expect(warn.mock.calls).toEqual([]);
        prepared.deliverWarnings();
        prepared.deliverWarnings();
        expect(warn.mock.calls).toEqual([
            [
                "Custom tool 'View' differs from the built-in 'view' only in case, so the model gets both. Use the built-in's exact name to replace it, or a clearly different name.",
            ],
        ]);
    });
});

describe("session tool step: custom tools", () => {
    it("validates, sends and registers a getter-based name under the name read first", async () => {
        let reads = 0;
        const shifty = {
            get name(): string {
                reads++;
                return reads === 1 ? "lint" : "view";
            },
            handler,
        };
        const prepared = await prepare({ tools: [shifty] });
        const tools = prepared.config.tools as { name: string; handler: unknown }[];
        expect(tools.map((tool) => tool.name)).toEqual(["lint"]);
        expect(tools.map((tool) => tool.name)).toEqual(["lint"]);
        expect(tools[0]!.handler).toBe(handler);
        expect(prepared.resolution.wire.tools).toEqual(["lint"]);
        expect(prepared.resolution.overriddenBuiltInTools).toEqual([]);
        expect(reads).toBe(1);
    });

    it("refuses a sparse tools array with a SessionToolError, not a TypeError", async () => {
        const tools: unknown[] = [];
        tools[1] = { name: "lint", handler };
        const error = await refusal(prepare({ tools }));
        expect(error.code).toBe("INVALID_CUSTOM_TOOL");
        expect(error.message).toBe(
            "tools[0] is an empty slot of a sparse array: pass a tool at every position."
        );
    });

    it("sends a tool without a handler as a declaration", async () => {
        const prepared = await prepare({
            tools: [{ name: "lookup", description: "answered by the app" }],
        });
        expect(sentTools(prepared)).toEqual([
            {
                name: "lookup",
                description: "answered by the app",
                overridesBuiltInTool: true,
                defer: "auto",
            },
        ]);
    });

    it("leaves a deep-frozen caller config, its tools and its filter lists untouched", async () => {
        const config = deepFreeze({
            model: CLAUDE,
            tools: [
                {
                    name: "view",
                    handler,
                    parameters: { type: "object", properties: { path: { type: "string" } } },
                },
                { name: "lint", handler },
            ],
            customToolSets: { quality: ["lint"] },
            availableTools: ["toolset:read", "toolset:quality", "bash"],
            excludedTools: ["toolset:execute"],
        });
        const prepared = await prepareSessionConfig(bundledClient().client, config, (read) => ({
            availableTools: read.availableTools,
            excludedTools: read.excludedTools,
        }));
        expect(prepared.config).not.toBe(config);
        expect(config).toEqual({
            model: CLAUDE,
            tools: [
                {
                    name: "view",
                    handler,
                    parameters: { type: "object", properties: { path: { type: "string" } } },
                },
                { name: "lint", handler },
            ],
            customToolSets: { quality: ["lint"] },
            availableTools: ["toolset:read", "toolset:quality", "bash"],
            excludedTools: ["toolset:execute"],
        });
    });

    it("sends every accepted tool with overridesBuiltInTool: true unless the app set false", async () => {
        const prepared = await prepare({
            tools: [
                { name: "view", handler },
                { name: "bash", handler, overridesBuiltInTool: true },
                { name: "lint", handler },
                { name: "notes", overridesBuiltInTool: false },
                { name: "fmt", handler, defer: "never" },
            ],
        });
        expect(sentTools(prepared)).toEqual([
            { name: "view", handler, overridesBuiltInTool: true },
            { name: "bash", handler, overridesBuiltInTool: true },
            { name: "lint", handler, overridesBuiltInTool: true, defer: "auto" },
            { name: "notes", overridesBuiltInTool: false },
            { name: "fmt", handler, overridesBuiltInTool: true, defer: "never" },
        ]);
        expect(prepared.resolution.overriddenBuiltInTools).toEqual(["view", "bash"]);
    });

    it("refuses overridesBuiltInTool: false on a built-in's name with BUILT_IN_TOOL_COLLISION", async () => {
        const error = await refusal(
            prepare({ tools: [{ name: "grep", handler, overridesBuiltInTool: false }] })
        );
        expect(error.code).toBe("BUILT_IN_TOOL_COLLISION");
        expect(error.toolNames).toEqual(["grep"]);
    });

    it("refuses a built-in's name without the flag under builtInToolCollisions: 'error'", async () => {
        const fake = bundledClient({ builtInToolCollisions: "error" });
        const error = await refusal(prepare({ tools: [{ name: "bash", handler }] }, fake));
        expect(error.code).toBe("BUILT_IN_TOOL_COLLISION");
        expect(error.toolNames).toEqual(["bash"]);
        const flagged = await prepare(
            { tools: [{ name: "bash", handler, overridesBuiltInTool: true }] },
            fake
        );
        expect(flagged.resolution.overriddenBuiltInTools).toEqual(["bash"]);
        // Only the family warning: the built-in read_bash, stop_bash, list_bash stay.
        expect(fake.warnings.map((w) => w.code)).toEqual(["BUILT_IN_COMPANIONS_REMAIN"]);
    });

    it("refuses an override the runtime does not honour with UNSUPPORTED_OVERRIDE", async () => {
        const error = await refusal(
            prepare({
                tools: [
                    { name: "powershell", handler, overridesBuiltInTool: true },
                    { name: "session_history", handler },
                ],
            })
        );
        expect(error.code).toBe("UNSUPPORTED_OVERRIDE");
        expect(error.toolNames).toEqual(["powershell", "session_history"]);
        expect(error.message).toBe(
            "The runtime (version 1.0.85) does not let a custom tool replace its built-in tools 'powershell', 'session_history': the built-in would still answer, or the custom tool would be dropped. Rename these tools."
        );
    });

    it("refuses a custom tool_search_tool whatever toolSearch says, since the runtime may drop it or answer it", async () => {
        const tools = [
            { name: "tool_search_tool", handler, overridesBuiltInTool: true },
            { name: "lint", handler, defer: "auto" },
        ];
        for (const toolSearch of [
            undefined,
            { enabled: true },
            { enabled: true, deferThreshold: -1 },
            { enabled: true, deferThreshold: 0.5 },
            { enabled: true, deferThreshold: 5 },
            { enabled: false, deferThreshold: 5 },
        ]) {
            const error = await refusal(prepare({ tools, toolSearch }));
            expect(error.code).toBe("UNSUPPORTED_OVERRIDE");
            expect(error.toolNames).toEqual(["tool_search_tool"]);
            expect(error.message).toContain("Rename it;");
        }
    });

    it("reports AUTOMATIC_OVERRIDE once per client and name", async () => {
        const first = bundledClient();
        await prepare({ tools: [{ name: "view", handler }] }, first);
        await prepare(
            {
                tools: [
                    { name: "view", handler },
                    { name: "bash", handler },
                ],
            },
            first
        );
        await prepare(
            {
                tools: [
                    { name: "bash", handler },
                    { name: "view", handler },
                ],
            },
            first
        );
        expect(first.warnings.filter((w) => w.code === "AUTOMATIC_OVERRIDE")).toEqual([
            {
                code: "AUTOMATIC_OVERRIDE",
                option: "tools",
                identifiers: ["view"],
                message:
                    "Custom tool 'view' replaces the built-in tool of the same name. Set overridesBuiltInTool: true on it to say so (and silence this warning), or rename it to keep the built-in.",
            },
            {
                code: "AUTOMATIC_OVERRIDE",
                option: "tools",
                identifiers: ["bash"],
                message:
                    "Custom tool 'bash' replaces the built-in tool of the same name. Set overridesBuiltInTool: true on it to say so (and silence this warning), or rename it to keep the built-in.",
            },
        ]);
        const second = bundledClient();
        await prepare({ tools: [{ name: "view", handler }] }, second);
        expect(second.warnings.map((w) => [w.code, w.identifiers])).toEqual([
            ["AUTOMATIC_OVERRIDE", ["view"]],
        ]);
    });

    it("neither warns AUTOMATIC_OVERRIDE nor reports an override for a custom tool the filter leaves out", async () => {
        const fake = bundledClient();
        const prepared = await prepare(
            {
                tools: [
                    { name: "bash", handler },
                    { name: "lint", handler },
                ],
                excludedTools: ["bash"],
            },
            fake
        );
        expect(prepared.resolution.wire.tools).toEqual(["lint"]);
        expect(prepared.resolution.overriddenBuiltInTools).toEqual([]);
        expect(prepared.resolution.warnings).toEqual([]);
        expect(fake.warnings).toEqual([]);
        // The name the filter removed is gone entirely: the built-in goes too.
        expect(prepared.resolution.wire.excludedTools).toEqual(["bash", "builtin:bash"]);
        // Sent later on the same client, it is reported then.
        await prepare({ tools: [{ name: "bash", handler }] }, fake);
        expect(fake.warnings.map((w) => [w.code, w.identifiers])).toEqual([
            ["BUILT_IN_COMPANIONS_REMAIN", ["read_bash", "stop_bash", "list_bash"]],
            ["AUTOMATIC_OVERRIDE", ["bash"]],
        ]);
    });

    it.each(["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf"])(
        "constructs a session whose model id is '%s' like one of an unknown model",
        async (model) => {
            const prepared = await prepare({ model, tools: [{ name: "lint", handler }] });
            expect(prepared.resolution.enabledTools).toEqual([...CLAUDE_BUILT_INS, "lint"]);
        }
    );

    it("constructs a session whose availableTools name Object.prototype keys beside an excluded toolset", async () => {
        for (const [name, toolSet] of [
            ["constructor", "toolset:read"],
            ["valueOf", "toolset:search"],
        ] as const) {
            const prepared = await prepare({
                availableTools: [name, "view", "bash"],
                excludedTools: [toolSet],
            });
            expect(prepared.resolution.wire.availableTools).toEqual([name, "view", "bash"]);
            expect(prepared.resolution.unknownIdentifiers.map((u) => u.identifier)).toEqual([name]);
        }
    });

    it("keeps a name that differs from a built-in only in case, with one CASE_ONLY_MATCH", async () => {
        const fake = bundledClient();
        const prepared = await prepare({ tools: [{ name: "View", handler }] }, fake);
        expect(prepared.resolution.enabledTools).toEqual([...CLAUDE_BUILT_INS, "View"]);
        expect(prepared.resolution.overriddenBuiltInTools).toEqual([]);
        expect(fake.warnings.map((w) => [w.code, w.identifiers])).toEqual([
            ["CASE_ONLY_MATCH", ["View"]],
        ]);
    });

    it("reports no warning for a session it refuses, and the override later when accepted", async () => {
        const fake = bundledClient();
        await refusal(
            prepare({ tools: [{ name: "view", handler }], availableTools: ["toolset:"] }, fake)
        );
        expect(fake.warnings).toEqual([]);
        await prepare({ tools: [{ name: "view", handler }] }, fake);
        expect(fake.warnings.map((w) => w.code)).toEqual(["AUTOMATIC_OVERRIDE"]);
    });
});

describe("session tool step: availableTools and excludedTools", () => {
    it("sends toolset members of every model family, so the filter means the same after setModel", async () => {
        const claude = await prepare({ availableTools: ["toolset:edit"] });
        const codex = await prepare({ model: "gpt-5-codex", availableTools: ["toolset:edit"] });
        expect(claude.resolution.wire.availableTools).toEqual(EDIT_MEMBERS);
        expect(codex.resolution.wire.availableTools).toEqual(EDIT_MEMBERS);
        expect(claude.resolution.enabledTools).toEqual(["create", "edit"]);
        expect(codex.resolution.enabledTools).toEqual(["apply_patch"]);
    });

    it("neither sends nor registers the custom tools the filter disables", async () => {
        const prepared = await prepare({
            tools: [
                { name: "lint", handler },
                { name: "fmt", handler },
            ],
            availableTools: ["toolset:read", "lint"],
        });
        expect(sentTools(prepared).map((tool) => tool.name)).toEqual(["lint"]);
        expect(prepared.resolution.wire.tools).toEqual(["lint"]);
        expect(prepared.resolution.toolEnablement.get("fmt")).toBe(false);
    });

    it("excludes builtin:<name> too when the filter disables a custom tool replacing it", async () => {
        const prepared = await prepare({
            tools: [{ name: "view", handler, overridesBuiltInTool: true }],
            excludedTools: ["toolset:read"],
        });
        expect(prepared.resolution.wire.tools).toEqual([]);
        expect(prepared.resolution.wire.excludedTools).toEqual([
            "view",
            "read_file",
            "builtin:view",
        ]);
        expect(prepared.config.excludedTools).toEqual(["view", "read_file", "builtin:view"]);
    });

    it("treats availableTools: [] as a session without tools, silently", async () => {
        const fake = bundledClient();
        const prepared = await prepare(
            { tools: [{ name: "lint", handler }], availableTools: [] },
            fake
        );
        expect(prepared.resolution.enabledTools).toEqual([]);
        expect(prepared.resolution.wire).toEqual({
            tools: [],
            availableTools: [],
            excludedTools: undefined,
        });
        expect(prepared.resolution.warnings).toEqual([]);
        expect(fake.warnings).toEqual([]);
    });

    it("warns UNKNOWN_IDENTIFIERS once per option, suggesting toolset:<name> for a bare toolset name", async () => {
        const fake = bundledClient();
        const prepared = await prepare(
            { availableTools: ["bash", "read", "veiw"], excludedTools: ["bsah"] },
            fake
        );
        expect(prepared.resolution.unknownIdentifiers).toEqual([
            { option: "availableTools", identifier: "read", suggestion: "toolset:read" },
            { option: "availableTools", identifier: "veiw", suggestion: "view" },
            { option: "excludedTools", identifier: "bsah", suggestion: "bash" },
        ]);
        expect(fake.warnings.map((w) => [w.code, w.option, w.identifiers])).toEqual([
            ["UNKNOWN_IDENTIFIERS", "availableTools", ["read", "veiw"]],
            ["UNKNOWN_IDENTIFIERS", "excludedTools", ["bsah"]],
        ]);
        expect(fake.warnings[0]!.message).toContain(
            "Did you mean 'toolset:read' for 'read', 'view' for 'veiw'?"
        );
    });

    it("warns NO_TOOLS_ENABLED when a non-empty availableTools leaves no tool", async () => {
        const prepared = await prepare({ availableTools: ["bash"], excludedTools: ["bash"] });
        expect(prepared.resolution.warnings.map((w) => w.code)).toEqual(["NO_TOOLS_ENABLED"]);
    });

    it("warns TOO_MANY_TOOLS when the model gets 129 tools, not 128", async () => {
        const tools = (count: number) =>
            Array.from({ length: count }, (_, i) => ({ name: `tool_${i}`, handler }));
        const at128 = await prepare({ tools: tools(128), availableTools: ["custom:*"] });
        expect(at128.resolution.enabledTools).toHaveLength(128);
        expect(at128.resolution.warnings).toEqual([]);
        const at129 = await prepare({ tools: tools(129), availableTools: ["custom:*"] });
        expect(at129.resolution.warnings).toEqual([
            {
                code: "TOO_MANY_TOOLS",
                message:
                    "The session's availableTools / excludedTools leave 129 tools, more than the 128 a model accepts in one request; requests may be refused or tools dropped. Leave out what the model does not need with excludedTools (e.g. 'toolset:agent'), or list what it needs in availableTools.",
            },
        ]);
    });

    it("counts the built-ins the model is offered towards TOO_MANY_TOOLS", async () => {
        const tools = (count: number) =>
            Array.from({ length: count }, (_, i) => ({ name: `tool_${i}`, handler }));
        // claude-sonnet-4.5 is offered 15 built-ins: 113 custom tools make 128, 114 make 129.
        const at128 = await prepare({ tools: tools(113) });
        expect(at128.resolution.warnings).toEqual([]);
        const at129 = await prepare({ tools: tools(114) });
        expect(at129.resolution.warnings.map((w) => w.code)).toEqual(["TOO_MANY_TOOLS"]);
        // No filter was set: the message does not speak of one.
        expect(at129.resolution.warnings[0]!.message).toMatch(
            /^This session offers the model 129 tools, more than the 128 /
        );
    });

    it("treats the names the runtime's filter links as one tool alike (grep and rg)", async () => {
        const excluded = await prepare({ model: "gpt-5-codex", excludedTools: ["grep"] });
        expect(excluded.resolution.toolEnablement.get("rg")).toBe(false);
        const allowed = await prepare({ model: "gpt-5-codex", availableTools: ["grep"] });
        expect(allowed.resolution.enabledTools).toEqual(["rg"]);
    });
});

describe("session tool step: the resolution", () => {
    it("is defined and frozen, and its maps refuse changes", async () => {
        const { resolution } = await prepare({
            tools: [{ name: "lint", handler }],
            availableTools: ["toolset:read", "lint"],
            excludedTools: ["bash"],
        });
        expect(resolution).toBeDefined();
        for (const part of [
            resolution,
            resolution.enabledTools,
            resolution.modeTools,
            resolution.modeTools.plan,
            resolution.overriddenBuiltInTools,
            resolution.unknownIdentifiers,
            resolution.warnings,
            resolution.runtime,
            resolution.wire,
            resolution.wire.tools,
            resolution.wire.availableTools,
            resolution.wire.excludedTools,
        ]) {
            expect(Object.isFrozen(part)).toBe(true);
        }
        const maps = [
            resolution.toolEnablement,
            resolution.toolSetEnablement,
            resolution.toolSets,
        ] as Map<string, unknown>[];
        for (const map of maps) {
            expect(map).toBeDefined();
            expect(Object.isFrozen(map)).toBe(true);
            expect(() => map.set("bash", true)).toThrow(TypeError);
            expect(() => map.delete("read")).toThrow(TypeError);
            expect(() => map.clear()).toThrow(TypeError);
        }
        expect(resolution.toolEnablement.get("bash")).toBe(false);
        expect(resolution.toolSets.get("read")).toEqual(["view", "read_file"]);
    });

    it("names the mode after the filter options given", async () => {
        const modeOf = async (config: Record<string, unknown>) =>
            (await prepare(config)).resolution.mode;
        expect(await modeOf({})).toBe("default");
        expect(await modeOf({ availableTools: ["view"] })).toBe("include");
        expect(await modeOf({ excludedTools: ["view"] })).toBe("exclude");
        expect(await modeOf({ availableTools: ["view"], excludedTools: ["bash"] })).toBe(
            "combined"
        );
    });

    it("describes what the session offers and what was sent", async () => {
        const fake = bundledClient();
        const { resolution } = await prepare(
            {
                tools: [
                    { name: "view", handler },
                    { name: "lint", handler },
                ],
                onUserInputRequest: async () => ({ answer: "", wasFreeform: true }),
                availableTools: [
                    "toolset:read",
                    "toolset:edit",
                    "lint",
                    "ask_user",
                    "exit_plan_mode",
                ],
                excludedTools: ["create"],
            },
            fake
        );
        expect(resolution.mode).toBe("combined");
        expect(resolution.enabledTools).toEqual(["ask_user", "edit", "view", "lint"]);
        expect([...resolution.toolEnablement]).toEqual([
            ["ask_user", true],
            ["bash", false],
            ["create", false],
            ["edit", true],
            ["glob", false],
            ["grep", false],
            ["list_agents", false],
            ["list_bash", false],
            ["read_agent", false],
            ["read_bash", false],
            ["sql", false],
            ["stop_bash", false],
            ["task", false],
            ["web_fetch", false],
            ["write_agent", false],
            ["view", true],
            ["lint", true],
        ]);
        expect([...resolution.toolSetEnablement]).toEqual([
            ["read", true],
            ["edit", false],
            ["search", false],
            ["execute", false],
            ["web", false],
            ["agent", false],
        ]);
        expect([...resolution.toolSets.keys()]).toEqual([
            "read",
            "edit",
            "search",
            "execute",
            "web",
            "agent",
        ]);
        expect(resolution.modeTools).toEqual({ plan: ["exit_plan_mode"], autopilot: [] });
        expect(resolution.overriddenBuiltInTools).toEqual(["view"]);
        expect(resolution.unknownIdentifiers).toEqual([]);
        expect(resolution.warnings.map((w) => w.code)).toEqual(["AUTOMATIC_OVERRIDE"]);
        expect(resolution.warnings).toEqual(fake.warnings);
        expect(resolution.runtime).toEqual({ version: "1.0.85", catalog: "measured" });
        expect(resolution.wire).toEqual({
            tools: ["view", "lint"],
            availableTools: [
                "view",
                "read_file",
                ...EDIT_MEMBERS,
                "lint",
                "ask_user",
                "exit_plan_mode",
            ],
            excludedTools: ["create"],
        });
    });

    it("lists the built-ins the session's options switch on", async () => {
        const { resolution } = await prepare({
            onUserInputRequest: async () => ({ answer: "", wasFreeform: true }),
            manageScheduleEnabled: true,
        });
        expect(resolution.enabledTools).toEqual([
            "ask_user",
            "bash",
            "create",
            "edit",
            "glob",
            "grep",
            "list_agents",
            "list_bash",
            "manage_schedule",
            "read_agent",
            "read_bash",
            "sql",
            "stop_bash",
            "task",
            "view",
            "web_fetch",
            "write_agent",
        ]);
    });

    it("lists the mode tools the filter keeps", async () => {
        const all = await prepare({});
        expect(all.resolution.modeTools).toEqual({
            plan: ["exit_plan_mode"],
            autopilot: ["task_complete"],
        });
        const filtered = await prepare({ excludedTools: ["exit_plan_mode"] });
        expect(filtered.resolution.modeTools).toEqual({ plan: [], autopilot: ["task_complete"] });
    });

    it("asks a bundled runtime of a measured version nothing", async () => {
        const fake = bundledClient();
        await prepare(
            { tools: [{ name: "view", handler }], availableTools: ["toolset:read"] },
            fake
        );
        expect(fake.requests).toEqual([]);
    });
});
