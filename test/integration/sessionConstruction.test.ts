import { createRequire } from "node:module";
import { afterEach, describe, expect, it } from "vitest";
import {
    CopilotClient,
    DEFAULT_TOOL_SETS,
    RuntimeConnection,
    SessionToolError,
    ToolFilterError,
    ToolSet,
    approveAll,
    resolveToolFilter,
    type SessionToolWarning,
} from "@github/copilot-sdk";
import { CopilotClient as UnpatchedClient } from "copilot-sdk-unpatched";
import {
    startFakeRuntime,
    type FakeRuntime,
    type FakeRuntimeOptions,
} from "../support/fakeRuntime.js";
import { takeForBundledRuntime, type FakeRuntimeDelivery } from "../support/fakeRuntimeClient.js";
import { NEWEST_MEASURED_RUNTIME } from "../support/rawMeasurements.js";
import { EDIT_MEMBERS, EXECUTE_MEMBERS } from "../support/toolSetMembers.js";

// The real patched CopilotClient talking JSON-RPC to a fake runtime on 127.0.0.1: the exact
// tool fields of the session.create / session.resume payloads, and the requests construction
// makes. Expected values are written by hand from the rules docs/using.md states.
const handler = async (): Promise<string> => "custom result";
const MODEL = "claude-sonnet-4.5";
/** The runtime whose measurements stand in for an unmeasured or silent one: the newest. */
const NEWEST_MEASURED = NEWEST_MEASURED_RUNTIME;

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
    while (cleanups.length > 0) await cleanups.pop()!();
});

interface Setup {
    readonly runtime: FakeRuntime;
    readonly client: CopilotClient;
    readonly warnings: SessionToolWarning[];
}

async function startRuntime(options: FakeRuntimeOptions = {}): Promise<FakeRuntime> {
    const runtime = await startFakeRuntime(options);
    cleanups.push(() => runtime.close());
    return runtime;
}

function connect(
    runtime: FakeRuntime,
    options: Record<string, unknown> = {},
    Client: typeof CopilotClient = CopilotClient,
    delivery: FakeRuntimeDelivery = "bundled"
): Setup {
    const warnings: SessionToolWarning[] = [];
    const client = new Client({
        connection: RuntimeConnection.forUri(runtime.url),
        onToolWarning: (warning: SessionToolWarning) => warnings.push(warning),
        ...options,
    });
    cleanups.push(() => client.stop());
    if (delivery === "bundled") takeForBundledRuntime(client);
    return { runtime, client, warnings };
}

async function setUp(
    options: Record<string, unknown> = {},
    runtimeOptions: FakeRuntimeOptions = {}
): Promise<Setup> {
    return connect(await startRuntime(runtimeOptions), options);
}

/** The tool fields of a session.create / session.resume payload. */
function toolFields(params: Record<string, unknown> | undefined): Record<string, unknown> {
    return {
        tools: params?.tools,
        availableTools: params?.availableTools,
        excludedTools: params?.excludedTools,
        toolFilterPrecedence: params?.toolFilterPrecedence,
    };
}

/** The handler a session would call for a tool call of this name (the SDK's internal lookup). */
function handlerOf(session: object, name: string): unknown {
    return (session as { getToolHandler(name: string): unknown }).getToolHandler(name);
}

function registeredSessions(client: CopilotClient): Map<string, unknown> {
    return (client as unknown as { sessions: Map<string, unknown> }).sessions;
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

/** A tool whose name getter answers "lint" first and "view" on every later read. */
function shiftyTool(): { readonly name: string; readonly handler: typeof handler } {
    let reads = 0;
    return {
        get name(): string {
            reads++;
            return reads === 1 ? "lint" : "view";
        },
        handler,
    };
}

/** An array whose index 0 is a hole and whose index 1 holds `item`. */
function sparse(item: unknown): unknown[] {
    const list: unknown[] = [];
    list[1] = item;
    return list;
}

describe("session construction: custom tools on the wire", () => {
    it("sends every accepted custom tool with overridesBuiltInTool: true unless the app set false", async () => {
        const { runtime, client } = await setUp();
        const parameters = { type: "object", properties: { path: { type: "string" } } };
        const config = {
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [
                { name: "view", description: "custom view", parameters, handler },
                { name: "lint", description: "custom lint", handler },
                { name: "bash", description: "custom bash", handler, skipPermission: true },
                { name: "notes", description: "app answers", overridesBuiltInTool: false },
            ],
        };
        const session = await client.createSession(config);
        await client.resumeSession(session.sessionId, config);
        const expected = {
            tools: [
                {
                    name: "view",
                    description: "custom view",
                    parameters,
                    overridesBuiltInTool: true,
                },
                {
                    name: "lint",
                    description: "custom lint",
                    overridesBuiltInTool: true,
                    defer: "auto",
                },
                {
                    name: "bash",
                    description: "custom bash",
                    overridesBuiltInTool: true,
                    skipPermission: true,
                },
                { name: "notes", description: "app answers", overridesBuiltInTool: false },
            ],
            availableTools: undefined,
            excludedTools: undefined,
            toolFilterPrecedence: "excluded",
        };
        expect(toolFields(runtime.paramsOf("session.create")[0])).toEqual(expected);
        expect(toolFields(runtime.paramsOf("session.resume")[0])).toEqual(expected);
    });

    it("validates, sends and registers a getter-based name under one name", async () => {
        const { runtime, client } = await setUp();
        const created = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [shiftyTool()],
        });
        const resumed = await client.resumeSession(created.sessionId, {
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [shiftyTool()],
        });
        for (const method of ["session.create", "session.resume"]) {
            expect(runtime.paramsOf(method)[0]!.tools).toEqual([
                { name: "lint", overridesBuiltInTool: true, defer: "auto" },
            ]);
        }
        for (const session of [created, resumed]) {
            expect(handlerOf(session, "lint")).toBe(handler);
            expect(handlerOf(session, "view")).toBeUndefined();
            expect(session.toolResolution!.overriddenBuiltInTools).toEqual([]);
        }
    });

    it("sends a tool without a handler and registers no handler for it", async () => {
        const { runtime, client } = await setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [{ name: "lookup", description: "answered by the app" }],
        });
        expect(runtime.paramsOf("session.create")[0]!.tools).toEqual([
            {
                name: "lookup",
                description: "answered by the app",
                overridesBuiltInTool: true,
                defer: "auto",
            },
        ]);
        expect(handlerOf(session, "lookup")).toBeUndefined();
    });

    it("neither sends nor registers the custom tools the filter disables", async () => {
        const { runtime, client } = await setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [
                { name: "lint", handler },
                { name: "fmt", handler },
            ],
            availableTools: ["toolset:read", "lint"],
        });
        expect(toolFields(runtime.paramsOf("session.create")[0])).toEqual({
            tools: [{ name: "lint", overridesBuiltInTool: true, defer: "auto" }],
            availableTools: ["view", "read_file", "lint"],
            excludedTools: undefined,
            toolFilterPrecedence: "excluded",
        });
        expect(handlerOf(session, "lint")).toBe(handler);
        expect(handlerOf(session, "fmt")).toBeUndefined();
    });

    it("excludes builtin:<name> too when the filter disables a custom tool replacing it", async () => {
        const { runtime, client } = await setUp();
        await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [{ name: "view", handler, overridesBuiltInTool: true }],
            excludedTools: ["toolset:read"],
        });
        expect(toolFields(runtime.paramsOf("session.create")[0])).toEqual({
            tools: [],
            availableTools: undefined,
            excludedTools: ["view", "read_file", "builtin:view"],
            toolFilterPrecedence: "excluded",
        });
    });
});

describe("session construction: overrides", () => {
    const automatic = (name: string): SessionToolWarning => ({
        code: "AUTOMATIC_OVERRIDE",
        option: "tools",
        identifiers: [name],
        message: `Custom tool '${name}' replaces the built-in tool of the same name. Set overridesBuiltInTool: true on it to say so (and silence this warning), or rename it to keep the built-in.`,
    });

    it("reports AUTOMATIC_OVERRIDE once per client and name, and nothing for a refused session", async () => {
        const runtime = await startRuntime();
        const first = connect(runtime);
        const base = { model: MODEL, onPermissionRequest: approveAll };
        await expect(
            first.client.createSession({
                ...base,
                tools: [{ name: "view", handler }],
                availableTools: ["toolset:"],
            })
        ).rejects.toBeInstanceOf(SessionToolError);
        expect(first.warnings).toEqual([]);

        const session = await first.client.createSession({
            ...base,
            tools: [{ name: "view", handler }],
        });
        await first.client.resumeSession(session.sessionId, {
            ...base,
            tools: [
                { name: "view", handler },
                { name: "bash", handler },
            ],
        });
        await first.client.createSession({
            ...base,
            tools: [
                { name: "bash", handler },
                { name: "view", handler },
            ],
        });
        // (A custom bash also gets BUILT_IN_COMPANIONS_REMAIN, tested in filterDropsAndFamilies.)
        const automaticOnly = (warnings: readonly { code: string }[]) =>
            warnings.filter((warning) => warning.code === "AUTOMATIC_OVERRIDE");
        expect(automaticOnly(first.warnings)).toEqual([automatic("view"), automatic("bash")]);
        expect(session.toolResolution!.warnings).toEqual([automatic("view")]);

        const second = connect(runtime);
        await second.client.createSession({ ...base, tools: [{ name: "view", handler }] });
        expect(second.warnings).toEqual([automatic("view")]);
    });

    it("refuses a custom tool_search_tool before anything is sent, whatever toolSearch says", async () => {
        const { runtime, client } = await setUp();
        const tools = [
            { name: "tool_search_tool", handler, overridesBuiltInTool: true },
            { name: "lint", handler, defer: "auto" as const },
        ];
        for (const toolSearch of [undefined, { enabled: true, deferThreshold: 5 }]) {
            await expect(
                client.createSession({
                    model: MODEL,
                    onPermissionRequest: approveAll,
                    tools,
                    toolSearch,
                })
            ).rejects.toMatchObject({
                code: "UNSUPPORTED_OVERRIDE",
                toolNames: ["tool_search_tool"],
            });
        }
        expect(runtime.paramsOf("session.create")).toEqual([]);
    });
});

describe("session construction: availableTools and excludedTools on the wire", () => {
    it("sends toolset entries as their members and the other entries unchanged", async () => {
        const { runtime, client } = await setUp();
        const config = {
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [{ name: "lint", handler }],
            customToolSets: { quality: ["lint"] },
            availableTools: new ToolSet()
                .addToolSet("edit")
                .addToolSet("quality")
                .addBuiltIn("view")
                .addCustom("lint")
                .addMcp("*"),
            excludedTools: ["toolset:execute", "create", "mcp:github-delete_repo"],
        };
        const session = await client.createSession(config);
        await client.resumeSession(session.sessionId, config);
        const expected = {
            tools: [{ name: "lint", overridesBuiltInTool: true, defer: "auto" }],
            availableTools: [...EDIT_MEMBERS, "lint", "builtin:view", "custom:lint", "mcp:*"],
            excludedTools: [...EXECUTE_MEMBERS, "create", "mcp:github-delete_repo"],
            toolFilterPrecedence: "excluded",
        };
        expect(toolFields(runtime.paramsOf("session.create")[0])).toEqual(expected);
        expect(toolFields(runtime.paramsOf("session.resume")[0])).toEqual(expected);
    });

    it("keeps a tool named in availableTools when a toolset it belongs to is excluded", async () => {
        const { runtime, client } = await setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            availableTools: ["toolset:edit", "create"],
            excludedTools: ["toolset:edit"],
        });
        expect(runtime.paramsOf("session.create")[0]!.excludedTools).toEqual([
            "edit",
            "apply_patch",
            "str_replace_editor",
        ]);
        expect(session.toolResolution!.enabledTools).toEqual(["create"]);
    });

    it("excludes a tool named in excludedTools even when availableTools names it too", async () => {
        const { runtime, client } = await setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            availableTools: ["bash", "view"],
            excludedTools: ["bash"],
        });
        expect(toolFields(runtime.paramsOf("session.create")[0])).toMatchObject({
            availableTools: ["bash", "view"],
            excludedTools: ["bash"],
        });
        expect(session.toolResolution!.enabledTools).toEqual(["view"]);
    });

    it("sends the toolset members of every model family, so the filter holds after setModel", async () => {
        const { runtime, client } = await setUp();
        const claude = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            availableTools: ["toolset:edit"],
        });
        const codex = await client.createSession({
            model: "gpt-5-codex",
            onPermissionRequest: approveAll,
            availableTools: ["toolset:edit"],
        });
        expect(runtime.paramsOf("session.create").map((p) => p.availableTools)).toEqual([
            EDIT_MEMBERS,
            EDIT_MEMBERS,
        ]);
        expect(claude.toolResolution!.enabledTools).toEqual(["create", "edit"]);
        expect(codex.toolResolution!.enabledTools).toEqual(["apply_patch"]);
    });

    it("lets builtin:<name> keep the custom tool that replaces that built-in", async () => {
        const { runtime, client } = await setUp();
        await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [{ name: "view", handler, overridesBuiltInTool: true }],
            availableTools: new ToolSet().addBuiltIn("view"),
        });
        expect(toolFields(runtime.paramsOf("session.create")[0])).toEqual({
            tools: [{ name: "view", overridesBuiltInTool: true }],
            availableTools: ["builtin:view", "custom:view"],
            excludedTools: undefined,
            toolFilterPrecedence: "excluded",
        });
    });

    it("sends availableTools: [] as a session without tools, silently", async () => {
        const { runtime, client, warnings } = await setUp();
        await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [{ name: "lint", handler }],
            availableTools: [],
        });
        expect(toolFields(runtime.paramsOf("session.create")[0])).toEqual({
            tools: [],
            availableTools: [],
            excludedTools: undefined,
            toolFilterPrecedence: "excluded",
        });
        expect(warnings).toEqual([]);
    });

    it("warns once per option about unknown names, with suggestions", async () => {
        const { client, warnings } = await setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            availableTools: ["bash", "read", "veiw"],
            excludedTools: ["bsah"],
        });
        expect(warnings.map((w) => [w.code, w.option, w.identifiers])).toEqual([
            ["UNKNOWN_IDENTIFIERS", "availableTools", ["read", "veiw"]],
            ["UNKNOWN_IDENTIFIERS", "excludedTools", ["bsah"]],
        ]);
        expect(session.toolResolution!.unknownIdentifiers).toEqual([
            { option: "availableTools", identifier: "read", suggestion: "toolset:read" },
            { option: "availableTools", identifier: "veiw", suggestion: "view" },
            { option: "excludedTools", identifier: "bsah", suggestion: "bash" },
        ]);
    });

    it("exposes a frozen toolResolution on created and resumed sessions", async () => {
        const { client } = await setUp();
        const config = {
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [{ name: "view", handler }],
            availableTools: ["toolset:read"],
        };
        const created = await client.createSession(config);
        const resumed = await client.resumeSession(created.sessionId, config);
        for (const session of [created, resumed]) {
            const resolution = session.toolResolution;
            expect(resolution).toBeDefined();
            expect(Object.isFrozen(resolution)).toBe(true);
            expect(() => (resolution!.toolSets as Map<string, string[]>).set("x", [])).toThrow(
                TypeError
            );
            expect(resolution!.enabledTools).toEqual(["view"]);
            expect(resolution!.overriddenBuiltInTools).toEqual(["view"]);
            expect(resolution!.runtime).toEqual({ version: "1.0.85", catalog: "measured" });
        }
    });
});

describe("session construction: requests to the runtime", () => {
    it("asks a runtime of a measured version status.get once per client and never tools.list", async () => {
        const runtime = await startRuntime();
        const first = connect(runtime);
        const config = {
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [{ name: "lint", handler }],
        };
        const session = await first.client.createSession(config);
        await first.client.createSession({ ...config, availableTools: ["toolset:read"] });
        await first.client.resumeSession(session.sessionId, config);
        expect(runtime.methods()).toEqual([
            "status.get",
            "session.create",
            "session.create",
            "session.resume",
            // The resumed object asks whether the session is processing before it is returned.
            "session.metadata.isProcessing",
        ]);
        const second = connect(runtime);
        await second.client.createSession(config);
        expect(runtime.methods().slice(5)).toEqual(["status.get", "session.create"]);
    });

    it("asks nothing extra for a session without custom tools or filters", async () => {
        const { runtime, client } = await setUp();
        await client.createSession({ model: MODEL, onPermissionRequest: approveAll });
        expect(runtime.methods()).toEqual(["session.create"]);
    });

    it("adds one tools.list for an unmeasured version, whose names count as built-ins", async () => {
        const { runtime, client, warnings } = await setUp(
            {},
            {
                status: { kind: "version", version: "0.0.1" },
                toolList: { kind: "list", names: ["brand_new"] },
            }
        );
        const config = {
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [{ name: "brand_new", handler }],
        };
        const session = await client.createSession(config);
        await client.createSession(config);
        expect(runtime.methods()).toEqual([
            "status.get",
            "tools.list",
            "session.create",
            "session.create",
        ]);
        expect(warnings.map((w) => [w.code, w.identifiers])).toEqual([
            ["CATALOG_FALLBACK", undefined],
            ["AUTOMATIC_OVERRIDE", ["brand_new"]],
        ]);
        expect(session.toolResolution!.overriddenBuiltInTools).toEqual(["brand_new"]);
        expect(session.toolResolution!.runtime).toEqual({
            version: NEWEST_MEASURED,
            catalog: "fallback",
        });
    });

    it("falls back after the timeout when status.get or tools.list never answers, and createSession completes", async () => {
        const silentStatus = await setUp({}, { status: { kind: "never" } });
        const silentList = await setUp(
            {},
            { status: { kind: "version", version: "0.0.1" }, toolList: { kind: "never" } }
        );
        const config = {
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [{ name: "view", handler }],
        };
        const started = Date.now();
        const sessions = await Promise.all([
            silentStatus.client.createSession(config),
            silentList.client.createSession(config),
        ]);
        const elapsed = Date.now() - started;
        expect(elapsed).toBeGreaterThanOrEqual(2900);
        expect(elapsed).toBeLessThan(10_000);
        expect(silentStatus.runtime.methods()).toEqual(["status.get", "session.create"]);
        expect(silentList.runtime.methods()).toEqual([
            "status.get",
            "tools.list",
            "session.create",
        ]);
        for (const [{ warnings }, session, silent] of [
            [silentStatus, sessions[0]!, "status.get"],
            [silentList, sessions[1]!, "tools.list"],
        ] as const) {
            expect(warnings.map((w) => w.code)).toEqual(["CATALOG_FALLBACK", "AUTOMATIC_OVERRIDE"]);
            expect(warnings[0]!.message).toContain(`${silent} did not answer in 3000 ms`);
            // The fallback goes to onToolWarning only: it is about the client, not this session.
            expect(session.toolResolution!.warnings.map((w) => w.code)).toEqual([
                "AUTOMATIC_OVERRIDE",
            ]);
            expect(session.toolResolution!.runtime).toEqual({
                version: NEWEST_MEASURED,
                catalog: "fallback",
            });
        }
    }, 20_000);
});

describe("session construction: runtime replies of the wrong shape", () => {
    const config = {
        model: MODEL,
        onPermissionRequest: approveAll,
        tools: [{ name: "lint", handler }],
    };

    it.each([
        ["a tool named 42", { tools: [{ name: "view" }, { name: 42 }] }],
        ["null", null],
        ["tools that are a string", { tools: "x" }],
    ])(
        "creates the session when tools.list answers %s, with one true CATALOG_FALLBACK, and asks again next time",
        async (_, value) => {
            const { runtime, client, warnings } = await setUp(
                {},
                {
                    status: { kind: "version", version: "0.0.1" },
                    toolList: { kind: "reply", value },
                }
            );
            const session = await client.createSession(config);
            expect(session.toolResolution!.runtime.catalog).toBe("fallback");
            expect(toolFields(runtime.paramsOf("session.create")[0]).tools).toEqual([
                expect.objectContaining({ name: "lint", overridesBuiltInTool: true }),
            ]);
            expect(warnings).toEqual([
                {
                    code: "CATALOG_FALLBACK",
                    message: `Custom tools are checked against a stand-in list of built-ins: runtime 0.0.1 was not measured and its tools.list answer is not a list of named tools; using the names measured on runtime ${NEWEST_MEASURED}.`,
                },
            ]);
            // The client keeps working, with and without tools, and asks the runtime again.
            await client.createSession({ model: MODEL, onPermissionRequest: approveAll });
            runtime.setToolList({ kind: "list", names: ["view"] });
            await client.createSession(config);
            expect(runtime.methods()).toEqual([
                "status.get",
                "tools.list",
                "session.create",
                "session.create",
                "status.get",
                "tools.list",
                "session.create",
            ]);
            expect(warnings.map((w) => w.code)).toEqual(["CATALOG_FALLBACK", "CATALOG_FALLBACK"]);
            expect(warnings[1]!.message).toContain("using its tools.list");
        }
    );

    it("creates the session when status.get answers without a version, and says so once", async () => {
        const { runtime, client, warnings } = await setUp(
            {},
            { status: { kind: "reply", value: { protocolVersion: 3 } } }
        );
        await client.createSession(config);
        expect(runtime.methods()).toEqual(["status.get", "session.create"]);
        expect(warnings.map((w) => w.code)).toEqual(["CATALOG_FALLBACK"]);
        expect(warnings[0]!.message).toContain("holds no version");
    });
});

describe("session construction: refusals", () => {
    const bad: [string, Record<string, unknown>, string][] = [
        ["tools not an array", { tools: { name: "lint", handler } }, "INVALID_CUSTOM_TOOL"],
        [
            "a sparse tools array",
            { tools: sparse({ name: "lint", handler }) },
            "INVALID_CUSTOM_TOOL",
        ],
        ["a tools entry that is not an object", { tools: ["lint"] }, "INVALID_CUSTOM_TOOL"],
        ["a name models refuse", { tools: [{ name: "bad name", handler }] }, "INVALID_CUSTOM_TOOL"],
        [
            "a handler that is no function",
            { tools: [{ name: "lint", handler: "x" }] },
            "INVALID_CUSTOM_TOOL",
        ],
        [
            "a non-boolean overridesBuiltInTool",
            { tools: [{ name: "view", handler, overridesBuiltInTool: "yes" }] },
            "INVALID_CUSTOM_TOOL",
        ],
        [
            "names equal when case is ignored",
            {
                tools: [
                    { name: "lint", handler },
                    { name: "LINT", handler },
                ],
            },
            "DUPLICATE_TOOL_NAME",
        ],
        [
            "overridesBuiltInTool: false on a built-in's name",
            { tools: [{ name: "read_file", handler, overridesBuiltInTool: false }] },
            "BUILT_IN_TOOL_COLLISION",
        ],
        [
            "an override the runtime does not honour",
            { tools: [{ name: "powershell", handler, overridesBuiltInTool: true }] },
            "UNSUPPORTED_OVERRIDE",
        ],
        [
            "a tool-search tool without tool search",
            { tools: [{ name: "tool_search_tool", handler, overridesBuiltInTool: true }] },
            "UNSUPPORTED_OVERRIDE",
        ],
        ["availableTools that is not an array", { availableTools: "view" }, "INVALID_TOOL_FILTER"],
        ["a non-string excludedTools entry", { excludedTools: ["view", 3] }, "INVALID_TOOL_FILTER"],
        ["an empty toolset entry", { availableTools: ["toolset:"] }, "INVALID_TOOL_FILTER"],
        ["a malformed toolset entry", { excludedTools: ["toolset:a b"] }, "INVALID_TOOL_FILTER"],
        ["customToolSets that is an array", { customToolSets: [] }, "INVALID_TOOL_SET"],
        ["a ToolSet as customToolSets", { customToolSets: new ToolSet() }, "INVALID_TOOL_SET"],
        ["a bad customToolSets name", { customToolSets: { "a b": ["lint"] } }, "INVALID_TOOL_SET"],
        [
            "a toolset as a customToolSets member",
            { customToolSets: { quality: ["toolset:edit"] } },
            "INVALID_TOOL_SET",
        ],
    ];

    it("refuses every tool problem with SessionToolError before session.create or session.resume", async () => {
        const { runtime, client } = await setUp();
        for (const [what, config, code] of bad) {
            const full = { model: MODEL, onPermissionRequest: approveAll, ...config };
            for (const attempt of [
                () => client.createSession(full as never),
                () => client.resumeSession("existing-session", full as never),
            ]) {
                const outcome = await attempt().then(
                    () => "accepted",
                    (error: unknown) => error
                );
                expect(outcome, what).toBeInstanceOf(SessionToolError);
                expect((outcome as SessionToolError).code, what).toBe(code);
            }
        }
        expect(runtime.paramsOf("session.create")).toEqual([]);
        expect(runtime.paramsOf("session.resume")).toEqual([]);
        expect(registeredSessions(client).size).toBe(0);
    });

    it("refuses a built-in's name without the flag under builtInToolCollisions: 'error'", async () => {
        const { runtime, client } = await setUp({ builtInToolCollisions: "error" });
        const config = {
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [{ name: "bash", handler }],
        };
        await expect(client.createSession(config)).rejects.toMatchObject({
            name: "SessionToolError",
            code: "BUILT_IN_TOOL_COLLISION",
            toolNames: ["bash"],
        });
        await expect(client.createSession(config)).rejects.toBeInstanceOf(SessionToolError);
        expect(runtime.methods()).toEqual(["status.get"]);
        expect(registeredSessions(client).size).toBe(0);
    });

    it("leaves a deep-frozen caller config and its tools untouched", async () => {
        const { runtime, client } = await setUp();
        const config = deepFreeze({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [
                { name: "view", handler, parameters: { type: "object", properties: {} } },
                { name: "lint", handler },
            ],
            customToolSets: { quality: ["lint"] },
            availableTools: ["toolset:read", "toolset:quality"],
            excludedTools: ["toolset:execute"],
        });
        const session = await client.createSession(config);
        await client.resumeSession(session.sessionId, config);
        expect(config).toEqual({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [
                { name: "view", handler, parameters: { type: "object", properties: {} } },
                { name: "lint", handler },
            ],
            customToolSets: { quality: ["lint"] },
            availableTools: ["toolset:read", "toolset:quality"],
            excludedTools: ["toolset:execute"],
        });
        expect(runtime.paramsOf("session.resume")[0]!.availableTools).toEqual([
            "view",
            "read_file",
            "lint",
        ]);
    });

    it("refuses a bare '*' with a SessionToolError, before the SDK's own check and before anything is sent", async () => {
        const { runtime, client } = await setUp();
        const config = {
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [{ name: "lint", handler }],
            availableTools: ["lint", "*"],
        };
        for (const attempt of [
            () => client.createSession(config),
            () => client.resumeSession("existing-session", config),
        ]) {
            await expect(attempt()).rejects.toMatchObject({
                name: "SessionToolError",
                code: "INVALID_TOOL_FILTER",
                toolNames: ["*"],
                message:
                    "Invalid availableTools entry '*': there is no bare wildcard. Use 'builtin:*', 'custom:*' or 'mcp:*' to name the tools of one source.",
            });
        }
        expect(runtime.methods()).toEqual([]);
    });

    it("keeps the SDK's check that mode 'empty' needs availableTools, then expands toolsets", async () => {
        const { runtime, client } = await setUp({
            mode: "empty",
            baseDirectory: "/tmp/unused-empty-mode",
        });
        const outcome = await client
            .createSession({ model: MODEL, onPermissionRequest: approveAll })
            .then(
                () => "accepted",
                (error: unknown) => error
            );
        expect(outcome).toBeInstanceOf(Error);
        expect(outcome).not.toBeInstanceOf(SessionToolError);
        expect((outcome as Error).message).toContain(
            "Empty mode requires every session to explicitly opt into the tools it wants"
        );
        await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            availableTools: new ToolSet().addToolSet("read"),
        });
        expect(runtime.paramsOf("session.create")[0]!.availableTools).toEqual([
            "view",
            "read_file",
        ]);
    });

    it("refuses a bad client option in the constructor with INVALID_CLIENT_OPTION", async () => {
        const runtime = await startRuntime();
        for (const options of [{ builtInToolCollisions: "replace" }, { onToolWarning: "log" }]) {
            let thrown: unknown;
            try {
                new CopilotClient({
                    connection: RuntimeConnection.forUri(runtime.url),
                    ...(options as object),
                });
            } catch (error) {
                thrown = error;
            }
            expect(thrown).toBeInstanceOf(SessionToolError);
            expect((thrown as SessionToolError).code).toBe("INVALID_CLIENT_OPTION");
        }
    });

    it("exports the tool customization API from the SDK root", () => {
        expect(typeof resolveToolFilter).toBe("function");
        expect(new ToolFilterError("EMPTY_INCLUDE", "m")).toBeInstanceOf(Error);
        expect(DEFAULT_TOOL_SETS.edit).toEqual(EDIT_MEMBERS);
    });
});

describe("session construction: the CommonJS build", () => {
    const cjs = createRequire(import.meta.url)(
        "@github/copilot-sdk"
    ) as typeof import("@github/copilot-sdk");

    it("throws a SessionToolError that is one for the ESM build's class too, and the reverse", async () => {
        const runtime = await startRuntime();
        const { client } = connect(runtime, {}, cjs.CopilotClient);
        const thrown = await client
            .createSession({
                model: MODEL,
                onPermissionRequest: cjs.approveAll,
                tools: [{ name: "bad name", handler }],
            } as never)
            .then(
                () => undefined,
                (error: unknown) => error
            );
        expect(Object.getPrototypeOf(thrown)).toBe(cjs.SessionToolError.prototype);
        expect(cjs.SessionToolError).not.toBe(SessionToolError);
        expect(thrown).toBeInstanceOf(SessionToolError);
        expect(SessionToolError.isInstance(thrown)).toBe(true);
        const esm = new SessionToolError("INVALID_TOOL_FILTER", "m");
        expect(esm).toBeInstanceOf(cjs.SessionToolError);
        expect(cjs.SessionToolError.isInstance(esm)).toBe(true);
        expect(new Error("m")).not.toBeInstanceOf(SessionToolError);
        expect(SessionToolError.isInstance({ code: "INVALID_TOOL_FILTER" })).toBe(false);
    });

    it("sends the same payload and asks a measured runtime status.get once", async () => {
        const runtime = await startRuntime();
        const { client } = connect(runtime, {}, cjs.CopilotClient);
        const config = {
            model: MODEL,
            onPermissionRequest: cjs.approveAll,
            tools: [
                { name: "view", handler },
                { name: "notes", overridesBuiltInTool: false },
            ],
            availableTools: new cjs.ToolSet().addToolSet("read").addCustom("notes"),
            excludedTools: ["toolset:execute"],
        };
        const session = await client.createSession(config);
        await client.resumeSession(session.sessionId, config);
        const expected = {
            tools: [
                { name: "view", overridesBuiltInTool: true },
                { name: "notes", overridesBuiltInTool: false },
            ],
            availableTools: ["view", "read_file", "custom:notes"],
            excludedTools: EXECUTE_MEMBERS,
            toolFilterPrecedence: "excluded",
        };
        expect(toolFields(runtime.paramsOf("session.create")[0])).toEqual(expected);
        expect(toolFields(runtime.paramsOf("session.resume")[0])).toEqual(expected);
        expect(runtime.methods()).toEqual([
            "status.get",
            "session.create",
            "session.resume",
            "session.metadata.isProcessing",
        ]);
        expect(session.toolResolution!.enabledTools).toEqual(["view", "notes"]);
    });

    it("refuses tool problems with its SessionToolError before anything is sent", async () => {
        const runtime = await startRuntime();
        const { client } = connect(runtime, {}, cjs.CopilotClient);
        for (const config of [
            { tools: [{ name: "a b", handler }] },
            { tools: [{ name: "view", handler, overridesBuiltInTool: false }] },
            { availableTools: ["toolset:"] },
            { customToolSets: new cjs.ToolSet() },
        ]) {
            const outcome = await client
                .createSession({
                    model: MODEL,
                    onPermissionRequest: cjs.approveAll,
                    ...(config as object),
                })
                .then(
                    () => "accepted",
                    (error: unknown) => error
                );
            expect(outcome).toBeInstanceOf(cjs.SessionToolError);
        }
        expect(runtime.paramsOf("session.create")).toEqual([]);
        expect(registeredSessions(client).size).toBe(0);
    });

    it("exports the tool customization API and the patch marker", () => {
        expect(typeof cjs.resolveToolFilter).toBe("function");
        expect(typeof cjs.ToolFilterError).toBe("function");
        expect(cjs.DEFAULT_TOOL_SETS.read).toEqual(["view", "read_file"]);
        expect(cjs.TOOL_CUSTOMIZATION_PATCH).toMatchObject({ sdkVersion: "1.0.14" });
    });
});

describe("the unpatched SDK (control)", () => {
    it("sends toolset entries verbatim and custom tools without overridesBuiltInTool", async () => {
        const config = {
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [{ name: "view", handler }],
            availableTools: ["toolset:edit", "view"],
        };
        const patched = await setUp();
        await patched.client.createSession(config);
        const unpatched = connect(
            await startRuntime(),
            {},
            UnpatchedClient as unknown as typeof CopilotClient,
            // The SDK's own client has no catalog to take the fake for anything.
            "as-connected"
        );
        await unpatched.client.createSession(config);

        expect(toolFields(unpatched.runtime.paramsOf("session.create")[0])).toEqual({
            tools: [{ name: "view" }],
            availableTools: ["toolset:edit", "view"],
            excludedTools: undefined,
            toolFilterPrecedence: "excluded",
        });
        const [unmarked] = unpatched.runtime.paramsOf("session.create")[0]!.tools as object[];
        expect(Object.keys(unmarked!)).toEqual(["name"]);
        expect(unpatched.runtime.methods()).toEqual(["session.create"]);

        expect(toolFields(patched.runtime.paramsOf("session.create")[0])).toEqual({
            tools: [{ name: "view", overridesBuiltInTool: true }],
            availableTools: [...EDIT_MEMBERS, "view"],
            excludedTools: undefined,
            toolFilterPrecedence: "excluded",
        });
    });
});

describe("sessions built alike share the filter's work, not its outcome", () => {
    it("gives each session the outcome of its own tools and filter, and its own warnings", async () => {
        const { runtime, client, warnings } = await setUp();
        const filter = { availableTools: ["custom:*", "nosuch_tool"] };
        const lint = { name: "lint", handler };
        const fmt = { name: "fmt", handler };
        const first = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [lint],
            ...filter,
        });
        // The same filter with another custom tool: custom:* must now mean fmt.
        const other = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [fmt],
            ...filter,
        });
        const again = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [lint],
            ...filter,
        });
        const sent = runtime
            .paramsOf("session.create")
            .map((params) => (params.tools as { name: string }[]).map((tool) => tool.name));
        expect(sent).toEqual([["lint"], ["fmt"], ["lint"]]);
        expect(first.toolResolution!.enabledTools).toEqual(["lint"]);
        expect(other.toolResolution!.enabledTools).toEqual(["fmt"]);
        expect(again.toolResolution!.enabledTools).toEqual(["lint"]);
        // Every session reports the entry that names nothing, to onToolWarning and in its resolution.
        const named = (list: readonly SessionToolWarning[]) =>
            list.filter((warning) => warning.identifiers?.includes("nosuch_tool")).length;
        expect(
            [first, other, again].map((session) => named(session.toolResolution!.warnings))
        ).toEqual([1, 1, 1]);
        expect(named(warnings)).toBe(3);
    });
});

describe("sessions built alike share the overrides and enablement decided before, not across what differs", () => {
    it("offers ask_user only to the session with an onUserInputRequest handler, whichever came first", async () => {
        const { client } = await setUp();
        const tools = [{ name: "lint", handler }];
        const plain = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools,
        });
        const asking = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            onUserInputRequest: async () => ({ answer: "yes", wasFreeform: true }),
            tools,
        });
        const plainAgain = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools,
        });
        expect(plain.toolResolution!.enabledTools).not.toContain("ask_user");
        expect(asking.toolResolution!.enabledTools).toContain("ask_user");
        expect(plainAgain.toolResolution!.enabledTools).not.toContain("ask_user");
    });

    it("refuses under builtInToolCollisions: 'error' the tool object another client let replace a built-in", async () => {
        const runtime = await startRuntime();
        const lenient = connect(runtime);
        const strict = connect(runtime, { builtInToolCollisions: "error" });
        const view = { name: "view", handler };
        const accepted = await lenient.client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [view],
        });
        expect(accepted.toolResolution!.overriddenBuiltInTools).toEqual(["view"]);
        const refused = await strict.client
            .createSession({ model: MODEL, onPermissionRequest: approveAll, tools: [view] })
            .then(
                () => undefined,
                (error: unknown) => error
            );
        expect(refused).toBeInstanceOf(SessionToolError);
        expect(refused).toMatchObject({ code: "BUILT_IN_TOOL_COLLISION", toolNames: ["view"] });
    });
});
