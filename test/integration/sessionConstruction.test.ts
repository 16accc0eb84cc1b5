import { createRequire } from "node:module";
import { afterEach, describe, expect, it } from "vitest";
import {
    CopilotClient,
    RuntimeConnection,
    SessionToolError,
    ToolSet,
    approveAll,
    type SessionToolWarning,
} from "@github/copilot-sdk";
import { CopilotClient as UnpatchedClient } from "copilot-sdk-unpatched";
import {
    startFakeRuntime,
    type FakeRuntime,
    type FakeRuntimeOptions,
} from "../support/fakeRuntime.js";

// The real patched CopilotClient, talking JSON-RPC to a fake runtime on 127.0.0.1: the exact
// session.create / session.resume payloads and the requests session construction makes.
const handler = async (): Promise<string> => "custom result";
const MODEL = "claude-sonnet-4.5";

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
    while (cleanups.length > 0) await cleanups.pop()!();
});

async function setUp(
    options: Record<string, unknown> = {},
    runtimeOptions: FakeRuntimeOptions = {},
    Client: typeof CopilotClient = CopilotClient
): Promise<{ runtime: FakeRuntime; client: CopilotClient; warnings: SessionToolWarning[] }> {
    const runtime = await startFakeRuntime(runtimeOptions);
    cleanups.push(() => runtime.close());
    const warnings: SessionToolWarning[] = [];
    const client = new Client({
        connection: RuntimeConnection.forUri(runtime.url),
        onToolWarning: (warning: SessionToolWarning) => warnings.push(warning),
        ...options,
    });
    cleanups.push(() => client.stop());
    return { runtime, client, warnings };
}

/** The RPC methods the client sent, without the handshake. */
function methods(runtime: FakeRuntime): string[] {
    return runtime.requests.map((r) => r.method).filter((m) => m !== "connect" && m !== "ping");
}

describe("session construction through the patched client (mocked RPC)", () => {
    it("sends every custom tool as an override, in session.create and session.resume", async () => {
        const { runtime, client } = await setUp();
        const config = {
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [
                { name: "view", description: "custom view", handler },
                { name: "lint", description: "custom lint", handler },
                { name: "notes", description: "app answers", overridesBuiltInTool: false },
            ],
        };
        const session = await client.createSession(config);
        await client.resumeSession(session.sessionId, config);
        for (const method of ["session.create", "session.resume"]) {
            const params = runtime.paramsOf(method)[0]!;
            expect(params.tools).toEqual([
                { name: "view", description: "custom view", overridesBuiltInTool: true },
                {
                    name: "lint",
                    description: "custom lint",
                    overridesBuiltInTool: true,
                    defer: "auto",
                },
                { name: "notes", description: "app answers", overridesBuiltInTool: false },
            ]);
            expect(params.availableTools).toBeUndefined();
            expect(params.excludedTools).toBeUndefined();
            expect(params.toolFilterPrecedence).toBe("excluded");
        }
    });

    it("asks a runtime of a measured version status.get once per client, and never tools.list", async () => {
        const { runtime, client } = await setUp();
        const config = {
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [{ name: "lint", handler }],
        };
        await client.createSession(config);
        await client.createSession(config);
        expect(methods(runtime)).toEqual(["status.get", "session.create", "session.create"]);
    });

    it("asks nothing extra for a session without custom tools or filters", async () => {
        const { runtime, client } = await setUp();
        await client.createSession({ model: MODEL, onPermissionRequest: approveAll });
        expect(methods(runtime)).toEqual(["session.create"]);
    });

    it("adds tools.list for a runtime version it has no measurements of", async () => {
        const { runtime, client, warnings } = await setUp(
            {},
            { runtimeVersion: "0.0.1", toolList: { kind: "list", names: ["brand_new"] } }
        );
        await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [{ name: "brand_new", handler }],
        });
        expect(methods(runtime)).toEqual(["status.get", "tools.list", "session.create"]);
        expect(warnings.map((w) => w.code)).toEqual(["CATALOG_FALLBACK", "AUTOMATIC_OVERRIDE"]);
    });

    it("completes construction when tools.list never answers, with the stand-in list", async () => {
        const { client, warnings } = await setUp(
            {},
            { runtimeVersion: "0.0.1", toolList: { kind: "never" } }
        );
        const started = Date.now();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [{ name: "view", handler }],
        });
        expect(Date.now() - started).toBeLessThan(10_000);
        expect(session.toolResolution?.runtime.catalog).toBe("fallback");
        expect(warnings[0]!.message).toContain("tools.list did not answer in 3000 ms");
    }, 20_000);

    it("sends toolsets expanded and the other entries unchanged", async () => {
        const { runtime, client } = await setUp();
        await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [{ name: "lint", handler }],
            customToolSets: { quality: ["lint"] },
            availableTools: new ToolSet().addToolSet("edit").addToolSet("quality").addMcp("*"),
            excludedTools: ["toolset:execute", "create"],
        });
        const params = runtime.paramsOf("session.create")[0]!;
        expect(params.availableTools).toEqual([
            "edit",
            "create",
            "apply_patch",
            "str_replace_editor",
            "lint",
            "mcp:*",
        ]);
        expect(params.excludedTools).toEqual([
            "bash",
            "read_bash",
            "write_bash",
            "stop_bash",
            "list_bash",
            "powershell",
            "read_powershell",
            "write_powershell",
            "stop_powershell",
            "list_powershell",
            "create",
        ]);
    });

    it("refuses every tool problem with SessionToolError before session.create", async () => {
        const { runtime, client } = await setUp({ builtInToolCollisions: "error" });
        const bad: Record<string, unknown>[] = [
            { tools: [{ name: "bad name", handler }] },
            {
                tools: [
                    { name: "lint", handler },
                    { name: "LINT", handler },
                ],
            },
            { tools: [{ name: "bash", handler }] },
            { tools: [{ name: "read_file", handler, overridesBuiltInTool: false }] },
            { availableTools: ["toolset:"] },
            { customToolSets: new ToolSet() },
        ];
        for (const config of bad) {
            await expect(
                client.createSession({ model: MODEL, onPermissionRequest: approveAll, ...config })
            ).rejects.toBeInstanceOf(SessionToolError);
        }
        expect(runtime.paramsOf("session.create")).toEqual([]);
        expect(runtime.paramsOf("session.resume")).toEqual([]);
    });

    it("keeps the SDK's own checks first", async () => {
        const { client } = await setUp();
        await expect(
            client.createSession({
                model: MODEL,
                onPermissionRequest: approveAll,
                availableTools: ["*"],
            })
        ).rejects.toThrow("Invalid availableTools entry '*': there is no bare wildcard");
        const empty = await setUp({ mode: "empty", baseDirectory: "/tmp/unused-empty-mode" });
        await expect(
            empty.client.createSession({ model: MODEL, onPermissionRequest: approveAll })
        ).rejects.toThrow("Empty mode requires every session to explicitly opt into the tools");
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
            expect(session.toolResolution).toBeDefined();
            expect(Object.isFrozen(session.toolResolution)).toBe(true);
            expect(session.toolResolution!.enabledTools).toEqual(["view"]);
            expect(session.toolResolution!.overriddenBuiltInTools).toEqual(["view"]);
        }
    });

    it("rejects a bad client option in the constructor", async () => {
        const runtime = await startFakeRuntime();
        cleanups.push(() => runtime.close());
        expect(
            () =>
                new CopilotClient({
                    connection: RuntimeConnection.forUri(runtime.url),
                    builtInToolCollisions: "replace" as never,
                })
        ).toThrow(expect.objectContaining({ code: "INVALID_CLIENT_OPTION" }));
    });

    it("behaves the same through the CommonJS build", async () => {
        const cjs = createRequire(import.meta.url)(
            "@github/copilot-sdk"
        ) as typeof import("@github/copilot-sdk");
        const { runtime, client } = await setUp({}, {}, cjs.CopilotClient);
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [{ name: "view", handler }],
            availableTools: new cjs.ToolSet().addToolSet("read").toArray(),
        });
        expect(runtime.paramsOf("session.create")[0]!.availableTools).toEqual([
            "view",
            "read_file",
        ]);
        expect(session.toolResolution?.enabledTools).toEqual(["view"]);
        await expect(
            client.createSession({ model: MODEL, tools: [{ name: "a b", handler }] })
        ).rejects.toBeInstanceOf(cjs.SessionToolError);
        expect(cjs.TOOL_CUSTOMIZATION_PATCH).toEqual({ sdkVersion: "1.0.14" });
    });
});

describe("the same configs through the unpatched SDK (control)", () => {
    it("sends toolset entries verbatim and custom tools unmarked", async () => {
        const { runtime, client } = await setUp(
            {},
            {},
            UnpatchedClient as unknown as typeof CopilotClient
        );
        await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [{ name: "view", handler }],
            availableTools: ["toolset:edit"],
        });
        const params = runtime.paramsOf("session.create")[0]!;
        expect(params.availableTools).toEqual(["toolset:edit"]);
        expect(params.tools).toEqual([{ name: "view" }]);
        expect(methods(runtime)).toEqual(["session.create"]);
    });
});
