import { createRequire } from "node:module";
import { afterEach, describe, expect, it } from "vitest";
import {
    CopilotClient,
    RuntimeConnection,
    SessionToolError,
    ToolFilterError,
    approveAll,
    type SessionToolWarning,
    type Tool,
} from "@github/copilot-sdk";
import { CopilotClient as UnpatchedClient } from "copilot-sdk-unpatched";
import { startFakeRuntime, type FakeRuntime } from "../support/fakeRuntime.js";

const handler = async (): Promise<string> => "custom result";
const MODEL = "claude-sonnet-4.5";

/** Freezes a value and everything reachable from it, to prove nothing is mutated. */
function deepFreeze<T>(value: T): T {
    if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
        Object.freeze(value);
        for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
    }
    return value;
}

describe("session construction through the patched CopilotClient (mocked RPC)", () => {
    const cleanups: (() => Promise<unknown>)[] = [];
    afterEach(async () => {
        while (cleanups.length > 0) await cleanups.pop()!();
    });

    async function setUp(
        options: { builtInToolCollisions?: "override" | "error" } = {},
        runtimeOptions: Parameters<typeof startFakeRuntime>[0] = {}
    ): Promise<{ runtime: FakeRuntime; client: CopilotClient; warnings: SessionToolWarning[] }> {
        const runtime = await startFakeRuntime(runtimeOptions);
        cleanups.push(() => runtime.close());
        const warnings: SessionToolWarning[] = [];
        const client = new CopilotClient({
            connection: RuntimeConnection.forUri(runtime.url),
            onToolWarning: (warning) => warnings.push(warning),
            ...options,
        });
        cleanups.push(() => client.stop());
        return { runtime, client, warnings };
    }

    function wireTools(params: Record<string, unknown> | undefined): unknown[] {
        return (params?.tools as unknown[] | undefined) ?? [];
    }

    describe("built-in overrides", () => {
        it("sends one definition per name with overridesBuiltInTool set, in session.create and session.resume", async () => {
            const { runtime, client } = await setUp();
            const config = {
                model: MODEL,
                onPermissionRequest: approveAll,
                tools: [
                    { name: "view", description: "custom view", handler },
                    { name: "lint", description: "custom lint", handler },
                ],
            };
            const session = await client.createSession(config);
            await client.resumeSession(session.sessionId, config);
            for (const method of ["session.create", "session.resume"]) {
                const params = runtime.paramsOf(method)[0];
                expect(wireTools(params)).toEqual([
                    { name: "view", description: "custom view", overridesBuiltInTool: true },
                    { name: "lint", description: "custom lint" },
                ]);
                expect(params?.availableTools).toBeUndefined();
                expect(params?.excludedTools).toBeUndefined();
            }
        });

        it("reports each automatic override once per client", async () => {
            const { client, warnings } = await setUp();
            const config = {
                model: MODEL,
                onPermissionRequest: approveAll,
                tools: [{ name: "edit", handler }],
            };
            await client.createSession(config);
            await client.createSession(config);
            expect(warnings.filter((w) => w.code === "AUTOMATIC_OVERRIDE")).toEqual([
                expect.objectContaining({ toolName: "edit" }),
            ]);
        });

        it("keeps an explicit overridesBuiltInTool: true and reports nothing", async () => {
            const { runtime, client, warnings } = await setUp();
            await client.createSession({
                model: MODEL,
                onPermissionRequest: approveAll,
                tools: [{ name: "bash", handler, overridesBuiltInTool: true }],
            });
            expect(wireTools(runtime.paramsOf("session.create")[0])).toEqual([
                { name: "bash", overridesBuiltInTool: true },
            ]);
            expect(warnings).toEqual([]);
        });

        it("overrides built-ins that tools.list does not show (sql, update_todo)", async () => {
            const { runtime, client } = await setUp();
            await client.createSession({
                model: MODEL,
                onPermissionRequest: approveAll,
                tools: [
                    { name: "sql", handler },
                    { name: "update_todo", handler },
                ],
            });
            expect(wireTools(runtime.paramsOf("session.create")[0])).toEqual([
                { name: "sql", overridesBuiltInTool: true },
                { name: "update_todo", overridesBuiltInTool: true },
            ]);
        });

        it("uses the pinned names when the runtime cannot list its tools, and says so", async () => {
            const { runtime, client, warnings } = await setUp(
                {},
                { toolList: { kind: "method-not-found" } }
            );
            await client.createSession({
                model: MODEL,
                onPermissionRequest: approveAll,
                tools: [{ name: "view", handler }],
            });
            expect(wireTools(runtime.paramsOf("session.create")[0])).toEqual([
                { name: "view", overridesBuiltInTool: true },
            ]);
            expect(warnings.map((w) => w.code)).toContain("CATALOG_FALLBACK");
            expect(
                (await client.createSession({ model: MODEL, onPermissionRequest: approveAll }))
                    .toolResolution?.builtInCatalogSource
            ).toBe("pinned");
        });

        it("lists the built-in catalog at most once per client and model", async () => {
            const { runtime, client } = await setUp();
            const config = { onPermissionRequest: approveAll, tools: [{ name: "view", handler }] };
            await client.createSession({ ...config, model: MODEL });
            await client.createSession({ ...config, model: MODEL });
            await client.resumeSession("s-1", { ...config, model: MODEL });
            await client.createSession({ ...config, model: "gpt-4o" });
            expect(runtime.paramsOf("tools.list")).toEqual([{ model: MODEL }, { model: "gpt-4o" }]);
        });
    });

    describe("refused configurations send no session.create or session.resume", () => {
        const refusals: [string, Record<string, unknown>, string, RegExp][] = [
            [
                "an explicit overridesBuiltInTool: false on a built-in's name",
                { tools: [{ name: "view", handler, overridesBuiltInTool: false }] },
                "BUILT_IN_TOOL_COLLISION",
                /'view'/,
            ],
            [
                "two tools of the same name",
                {
                    tools: [
                        { name: "lint", handler },
                        { name: "lint", handler },
                    ],
                },
                "DUPLICATE_TOOL_NAME",
                /'lint' is defined twice/,
            ],
            [
                "a name outside the tool-name pattern",
                { tools: [{ name: "my tool", handler }] },
                "INVALID_CUSTOM_TOOL",
                /'my tool'/,
            ],
            [
                "a name longer than 64 characters",
                { tools: [{ name: "x".repeat(65), handler }] },
                "INVALID_CUSTOM_TOOL",
                /1 to 64 characters/,
            ],
            [
                "the name __proto__",
                { tools: [JSON.parse('{"name":"__proto__"}')] },
                "INVALID_CUSTOM_TOOL",
                /'__proto__'/,
            ],
            [
                "a string overridesBuiltInTool",
                { tools: [{ name: "view", handler, overridesBuiltInTool: "true" }] },
                "INVALID_CUSTOM_TOOL",
                /overridesBuiltInTool 'true'/,
            ],
            [
                "a missing handler",
                { tools: [{ name: "lint" }] },
                "INVALID_CUSTOM_TOOL",
                /'lint' \(tools\[0\]\) has no handler/,
            ],
            [
                "an override this runtime ignores (powershell)",
                { tools: [{ name: "powershell", handler, overridesBuiltInTool: true }] },
                "UNSUPPORTED_OVERRIDE",
                /'powershell'/,
            ],
            [
                "includeTools mixed with availableTools",
                { includeTools: ["read"], availableTools: ["builtin:view"] },
                "CONFLICTING_TOOL_FILTERS",
                /includeTools together with availableTools/,
            ],
            [
                "a toolset without a name",
                { toolSets: [{ tools: ["view"] }] },
                "INVALID_TOOL_SET",
                /toolSets\[0\]\.name/,
            ],
        ];

        it.each(refusals)("refuses %s", async (_label, extra, code, message) => {
            const { runtime, client } = await setUp();
            const config = { model: MODEL, onPermissionRequest: approveAll, ...extra };
            for (const construct of [
                () => client.createSession(config as never),
                () => client.resumeSession("s-1", config as never),
            ]) {
                const error = await construct().then(
                    () => undefined,
                    (e: unknown) => e
                );
                expect(error).toBeInstanceOf(SessionToolError);
                expect((error as SessionToolError).code).toBe(code);
                expect((error as Error).message).toMatch(message);
            }
            expect(runtime.paramsOf("session.create")).toEqual([]);
            expect(runtime.paramsOf("session.resume")).toEqual([]);
        });

        it("refuses unmarked collisions under builtInToolCollisions: 'error', naming every tool", async () => {
            const { runtime, client } = await setUp({ builtInToolCollisions: "error" });
            const error = await client
                .createSession({
                    model: MODEL,
                    onPermissionRequest: approveAll,
                    tools: [
                        { name: "view", handler },
                        { name: "edit", handler },
                        { name: "bash", handler, overridesBuiltInTool: true },
                    ],
                })
                .catch((e: unknown) => e);
            expect(error).toBeInstanceOf(SessionToolError);
            expect((error as SessionToolError).toolNames).toEqual(["view", "edit"]);
            expect(runtime.paramsOf("session.create")).toEqual([]);
        });

        it("refuses includeTools: [] with the filter helper's error", async () => {
            const { runtime, client } = await setUp();
            const error = await client
                .createSession({ model: MODEL, onPermissionRequest: approveAll, includeTools: [] })
                .catch((e: unknown) => e);
            expect(error).toBeInstanceOf(ToolFilterError);
            expect((error as ToolFilterError).code).toBe("EMPTY_INCLUDE_TOOLS");
            expect(runtime.paramsOf("session.create")).toEqual([]);
        });

        it("validates custom tools before starting the runtime connection", async () => {
            const { runtime, client } = await setUp();
            await expect(
                client.createSession({
                    onPermissionRequest: approveAll,
                    tools: [{ name: "a b", handler }],
                })
            ).rejects.toThrow(SessionToolError);
            expect(runtime.requests).toEqual([]);
        });

        it("rejects an unknown builtInToolCollisions value in the client constructor", () => {
            expect(
                () =>
                    new CopilotClient({
                        connection: RuntimeConnection.forUri("127.0.0.1:1"),
                        builtInToolCollisions: "ignore" as "error",
                    })
            ).toThrow(/Invalid builtInToolCollisions 'ignore': use 'override'/);
        });
    });

    describe("includeTools / excludeTools / toolSets", () => {
        it("sends exactly the resolved tools as availableTools and registers only enabled custom tools", async () => {
            const { runtime, client } = await setUp();
            const session = await client.createSession({
                model: MODEL,
                onPermissionRequest: approveAll,
                tools: [
                    { name: "view", handler },
                    { name: "lint", handler },
                    { name: "deploy", handler },
                ],
                toolSets: [{ name: "quality", tools: ["lint"] }],
                includeTools: ["read", "search", "quality", "mcp:github-list_issues"],
                excludeTools: ["grep"],
            });
            const params = runtime.paramsOf("session.create")[0];
            expect(params?.availableTools).toEqual([
                "builtin:glob",
                "custom:view",
                "custom:lint",
                "mcp:github-list_issues",
            ]);
            expect(params?.excludedTools).toBeUndefined();
            expect(wireTools(params)).toEqual([
                { name: "view", overridesBuiltInTool: true },
                { name: "lint" },
            ]);
            // getToolHandler is the SDK's own (internal) lookup of the handlers it dispatches to.
            const handlers = session as unknown as { getToolHandler(name: string): unknown };
            expect(handlers.getToolHandler("lint")).toBe(handler);
            expect(handlers.getToolHandler("deploy")).toBeUndefined();
            expect(session.toolResolution?.enabledTools).toEqual(["glob", "view", "lint"]);
            expect(session.toolResolution?.toolSetEnablement.get("quality")).toBe(true);
            expect(session.toolResolution?.toolSetEnablement.get("search")).toBe(false);
            expect(session.toolResolution?.passThroughIdentifiers).toEqual([
                "mcp:github-list_issues",
            ]);
        });

        it("translates a blacklist into excludedTools and drops excluded custom tools", async () => {
            const { runtime, client } = await setUp();
            await client.resumeSession("s-9", {
                model: MODEL,
                onPermissionRequest: approveAll,
                tools: [
                    { name: "lint", handler },
                    { name: "deploy", handler },
                ],
                excludeTools: ["execute", "deploy", "mcp:*"],
            });
            const params = runtime.paramsOf("session.resume")[0];
            expect(params?.availableTools).toBeUndefined();
            expect(params?.excludedTools).toEqual([
                "builtin:bash",
                "builtin:list_bash",
                "builtin:read_bash",
                "builtin:stop_bash",
                "mcp:*",
            ]);
            expect(wireTools(params)).toEqual([{ name: "lint" }]);
        });

        it("excludes the built-in as well when an overriding custom tool is excluded", async () => {
            const { runtime, client } = await setUp();
            const session = await client.createSession({
                model: MODEL,
                onPermissionRequest: approveAll,
                tools: [{ name: "view", handler }],
                excludeTools: ["view"],
            });
            const params = runtime.paramsOf("session.create")[0];
            expect(params?.excludedTools).toEqual(["builtin:view"]);
            expect(wireTools(params)).toEqual([]);
            expect(session.toolResolution?.toolEnablement.get("view")).toBe(false);
        });

        it("keeps an override available when availableTools names the built-in it replaces", async () => {
            const { runtime, client, warnings } = await setUp();
            const session = await client.createSession({
                model: MODEL,
                onPermissionRequest: approveAll,
                tools: [
                    { name: "view", handler },
                    { name: "bash", handler },
                ],
                availableTools: ["builtin:view", "builtin:glob"],
            });
            expect(runtime.paramsOf("session.create")[0]?.availableTools).toEqual([
                "builtin:view",
                "builtin:glob",
                "custom:view",
            ]);
            expect(session.toolResolution?.enabledTools).toEqual(["glob", "view"]);
            expect(warnings.map((w) => w.code)).toContain("OVERRIDDEN_BUILT_IN_IDENTIFIER");
        });

        it("keeps every override available under availableTools 'builtin:*'", async () => {
            const { runtime, client } = await setUp();
            await client.createSession({
                model: MODEL,
                onPermissionRequest: approveAll,
                tools: [
                    { name: "view", handler },
                    { name: "lint", handler },
                ],
                availableTools: ["builtin:*"],
            });
            const params = runtime.paramsOf("session.create")[0];
            expect(params?.availableTools).toEqual(["builtin:*", "custom:view"]);
            // The runtime would offer 'lint' although no pattern allows it; the SDK does not.
            expect(wireTools(params)).toEqual([{ name: "view", overridesBuiltInTool: true }]);
        });

        it("excludes the built-in as well when excludedTools removes an overriding custom tool", async () => {
            const { runtime, client } = await setUp();
            const session = await client.createSession({
                model: MODEL,
                onPermissionRequest: approveAll,
                tools: [
                    { name: "view", handler },
                    { name: "lint", handler },
                ],
                excludedTools: ["custom:view"],
            });
            const params = runtime.paramsOf("session.create")[0];
            expect(params?.excludedTools).toEqual(["custom:view", "builtin:view"]);
            expect(wireTools(params)).toEqual([{ name: "lint" }]);
            expect(session.toolResolution?.mode).toBe("runtime");
            expect(session.toolResolution?.toolEnablement.get("view")).toBe(false);
        });

        it("lets a directly included tool survive the exclusion of its toolset", async () => {
            const { runtime, client } = await setUp();
            await client.createSession({
                model: MODEL,
                onPermissionRequest: approveAll,
                includeTools: ["execute", "view"],
                excludeTools: ["execute", "builtin:bash"],
            });
            expect(runtime.paramsOf("session.create")[0]?.availableTools).toEqual(["builtin:view"]);
        });

        it("warns about unknown identifiers and lists them on the session", async () => {
            const { client, warnings } = await setUp();
            const session = await client.createSession({
                model: MODEL,
                onPermissionRequest: approveAll,
                includeTools: ["read", "raed"],
            });
            expect(warnings.map((w) => w.code)).toContain("UNKNOWN_IDENTIFIER");
            expect(session.toolResolution?.unknownIdentifiers).toEqual([
                { option: "includeTools", identifier: "raed" },
            ]);
        });

        it("does not mutate the caller's config", async () => {
            const { client } = await setUp();
            const config = deepFreeze({
                model: MODEL,
                onPermissionRequest: approveAll,
                tools: [{ name: "view", handler }] as Tool[],
                toolSets: [{ name: "quality", tools: ["view"] }],
                includeTools: ["quality"],
            });
            const snapshot = JSON.stringify(config);
            const session = await client.createSession(config);
            expect(JSON.stringify(config)).toBe(snapshot);
            expect(config.tools[0]).not.toHaveProperty("overridesBuiltInTool");
            expect(Object.isFrozen(session.toolResolution)).toBe(true);
        });
    });

    it("leaves a session without custom tools or filters unchanged on the wire", async () => {
        const runtime = await startFakeRuntime();
        cleanups.push(() => runtime.close());
        const config = { model: MODEL, onPermissionRequest: approveAll, sessionId: "same-id" };
        const unpatched = new UnpatchedClient({
            connection: RuntimeConnection.forUri(runtime.url),
        });
        cleanups.push(() => unpatched.stop());
        await unpatched.createSession(config);
        const patched = new CopilotClient({ connection: RuntimeConnection.forUri(runtime.url) });
        cleanups.push(() => patched.stop());
        await patched.createSession(config);
        const [before, after] = runtime.paramsOf("session.create");
        expect(after).toEqual(before);
    });

    it("works the same through the CommonJS build", async () => {
        const runtime = await startFakeRuntime();
        cleanups.push(() => runtime.close());
        const require = createRequire(import.meta.url);
        const cjs = require("@github/copilot-sdk") as typeof import("@github/copilot-sdk");
        expect(cjs.CopilotClient).not.toBe(CopilotClient);
        const client = new cjs.CopilotClient({
            connection: cjs.RuntimeConnection.forUri(runtime.url),
            onToolWarning: () => {},
        });
        cleanups.push(() => client.stop());
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: cjs.approveAll,
            tools: [{ name: "view", handler }],
            includeTools: ["read"],
        });
        const params = runtime.paramsOf("session.create")[0];
        expect(wireTools(params)).toEqual([{ name: "view", overridesBuiltInTool: true }]);
        expect(params?.availableTools).toEqual(["custom:view"]);
        expect(session.toolResolution?.overriddenBuiltInTools).toEqual(["view"]);
        await expect(
            client.createSession({
                onPermissionRequest: cjs.approveAll,
                tools: [{ name: "x y", handler }],
            })
        ).rejects.toBeInstanceOf(cjs.SessionToolError);
    });
});
