/**
 * `session.setTools` through the real patched client against a fake runtime on 127.0.0.1: the
 * exact requests it sends (the meet of both filters, the tools, the new filter: only what changes),
 * nothing sent
 * when it refuses, the handlers it registers, the order of concurrent calls, and the rollback
 * when the runtime fails half-way. Expected values are written by hand from the rules.
 */
import { describe, expect, it } from "vitest";
import { SessionToolError, approveAll, type CopilotSession } from "@github/copilot-sdk";
import type { FakeRuntime } from "../support/fakeRuntime.js";
import { fakeRuntimeClients } from "../support/fakeRuntimeClient.js";

const MODEL = "claude-sonnet-4.5";
const handler = async (): Promise<string> => "custom result";
const lint = { name: "lint", description: "Lint the code", handler };
const format = { name: "format", description: "Format the code", handler };
const view = { name: "view", description: "Custom view", handler, overridesBuiltInTool: true };

const { setUp } = fakeRuntimeClients();

/** The requests after construction, by method, with their params (session id left out). */
function updates(runtime: FakeRuntime, from: number): [string, Record<string, unknown>][] {
    return runtime.requests.slice(from).map(({ method, params }) => {
        const { sessionId: _, ...rest } = params;
        return [method, rest];
    });
}

function handlerOf(session: CopilotSession, name: string): unknown {
    return (session as unknown as { getToolHandler(name: string): unknown }).getToolHandler(name);
}

describe("session.setTools: what it sends", () => {
    it("takes a tool without description as createSession does: session.tools.set carries it as the empty string", async () => {
        const { runtime, client } = await setUp();
        const bare = { name: "bare", handler };
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [bare],
        });
        // session.create leaves the field out (the SDK's own form); the runtime takes that there,
        // but refuses it on session.tools.set ("missing field `description`").
        expect(runtime.paramsOf("session.create").at(-1)!.tools).toEqual([
            { name: "bare", overridesBuiltInTool: true, defer: "auto" },
        ]);
        const from = runtime.requests.length;
        await session.setTools({ tools: [bare, lint] });
        expect(updates(runtime, from).filter(([method]) => method === "session.tools.set")).toEqual(
            [
                [
                    "session.tools.set",
                    {
                        tools: [
                            {
                                name: "bare",
                                description: "",
                                overridesBuiltInTool: true,
                                defer: "auto",
                            },
                            {
                                name: "lint",
                                description: "Lint the code",
                                overridesBuiltInTool: true,
                                defer: "auto",
                            },
                        ],
                    },
                ],
            ]
        );
        expect(bare).not.toHaveProperty("description");
    });

    it("sends the meet of both filters first, then the new tools as session.create would, for the session it changes", async () => {
        const { runtime, client } = await setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [lint],
        });
        const from = runtime.requests.length;
        await session.setTools({ tools: [lint, format, view] });

        // The definitions equal those session.create sends for the same tools.
        const other = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [lint, format, view],
        });
        const created = runtime.paramsOf("session.create").at(-1)!;
        // The custom view replaces the built-in from now on: its built-in is excluded before the
        // tools change (and stays excluded, as a guard), so no state offers the built-in.
        expect(updates(runtime, from).slice(0, 2)).toEqual([
            ["session.options.update", { availableTools: null, excludedTools: ["builtin:view"] }],
            ["session.tools.set", { tools: created.tools }],
        ]);
        expect(runtime.paramsOf("session.tools.set")[0]!.sessionId).toBe(session.sessionId);
        expect(created.tools).toEqual([
            {
                name: "lint",
                description: "Lint the code",
                overridesBuiltInTool: true,
                defer: "auto",
            },
            {
                name: "format",
                description: "Format the code",
                overridesBuiltInTool: true,
                defer: "auto",
            },
            { name: "view", description: "Custom view", overridesBuiltInTool: true },
        ]);
        await other.disconnect();
    });

    it("expands toolsets and keeps the options it is not given", async () => {
        const { runtime, client } = await setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [lint],
            customToolSets: { quality: ["lint", "format"] },
            excludedTools: ["bash"],
        });
        const from = runtime.requests.length;
        await session.setTools({ availableTools: ["toolset:edit", "toolset:quality"] });
        // The tools are unchanged, so only the filter is sent (the meet of both is the new one).
        expect(updates(runtime, from)).toEqual([
            [
                "session.options.update",
                {
                    availableTools: [
                        "edit",
                        "create",
                        "apply_patch",
                        "str_replace_editor",
                        "lint",
                        "format",
                    ],
                    excludedTools: ["bash"],
                },
            ],
        ]);
        expect(session.toolResolution!.wire.excludedTools).toEqual(["bash"]);
    });

    it("removes an option given as null: no filter, no custom tools", async () => {
        const { runtime, client } = await setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [lint],
            availableTools: ["view", "lint"],
            excludedTools: ["glob"],
        });
        const from = runtime.requests.length;
        const resolution = await session.setTools({
            tools: null,
            availableTools: null,
            excludedTools: null,
        });
        expect(updates(runtime, from)).toEqual([
            ["session.tools.set", { tools: [] }],
            ["session.options.update", { availableTools: null, excludedTools: [] }],
        ]);
        expect(resolution.mode).toBe("default");
        expect(resolution.wire.tools).toEqual([]);
        expect(handlerOf(session, "lint")).toBeUndefined();
    });

    it("switches the handlers with the tools, and returns the new toolResolution", async () => {
        const { client } = await setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [lint],
        });
        const before = session.toolResolution;
        const resolution = await session.setTools({ tools: [format, view] });
        expect(session.toolResolution).toBe(resolution);
        expect(before!.wire.tools).toEqual(["lint"]);
        expect(resolution.wire.tools).toEqual(["format", "view"]);
        expect(resolution.overriddenBuiltInTools).toEqual(["view"]);
        expect(handlerOf(session, "lint")).toBeUndefined();
        expect(handlerOf(session, "format")).toBe(handler);
        expect(handlerOf(session, "view")).toBe(handler);
    });
});

describe("session.setTools: refusals change nothing", () => {
    const refusals: [string, unknown, string][] = [
        ["a duplicate name", { tools: [lint, lint] }, "DUPLICATE_TOOL_NAME"],
        [
            "overridesBuiltInTool: false on a built-in",
            { tools: [{ name: "view", handler, overridesBuiltInTool: false }] },
            "BUILT_IN_TOOL_COLLISION",
        ],
        [
            "an unsupported override",
            { tools: [{ name: "powershell", handler }] },
            "UNSUPPORTED_OVERRIDE",
        ],
        [
            "a custom tool_search_tool",
            { tools: [{ name: "tool_search_tool", handler }] },
            "UNSUPPORTED_OVERRIDE",
        ],
        ["a malformed toolset entry", { availableTools: ["toolset:"] }, "INVALID_TOOL_FILTER"],
        ["customToolSets that are no object", { customToolSets: "quality" }, "INVALID_TOOL_SET"],
        ["an option setTools does not change", { model: "gpt-4o" }, "INVALID_TOOL_UPDATE"],
        ["no object", "lint", "INVALID_TOOL_UPDATE"],
    ];

    it.each(refusals)("refuses %s before anything is sent", async (_, update, code) => {
        const { runtime, client } = await setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [lint],
        });
        const before = session.toolResolution;
        const from = runtime.requests.length;
        const error = await session.setTools(update as never).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(SessionToolError);
        expect((error as SessionToolError).code).toBe(code);
        expect(runtime.requests.length).toBe(from);
        expect(session.toolResolution).toBe(before);
        expect(handlerOf(session, "lint")).toBe(handler);
    });

    it("keeps the SDK's own check first: a bare '*' throws its plain Error", async () => {
        const { runtime, client } = await setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
        });
        const from = runtime.requests.length;
        await expect(session.setTools({ availableTools: ["*"] })).rejects.toThrow(
            /Invalid availableTools entry '\*'/
        );
        expect(runtime.requests.length).toBe(from);
    });

    it("puts the previous tools and filter back when the runtime refuses the new tools", async () => {
        const { runtime, client } = await setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [lint],
            excludedTools: ["bash"],
        });
        const before = session.toolResolution;
        runtime.failMethod("session.tools.set", 1);
        const from = runtime.requests.length;
        await expect(
            session.setTools({ tools: [format], excludedTools: ["bash", "glob"] })
        ).rejects.toThrow(
            /^setTools failed: .*session\.tools\.set failed \(fake\).*\. The session keeps its previous tools and filter\.$/
        );
        expect(
            updates(runtime, from).map(([method, params]) => [
                method,
                method === "session.tools.set"
                    ? (params.tools as { name: string }[]).map((t) => t.name)
                    : params.excludedTools,
            ])
        ).toEqual([
            // the meet of both filters, then the new tools (refused)
            ["session.options.update", ["bash", "glob"]],
            ["session.tools.set", ["format"]],
            // put back the same way: the meet, the old tools, the old filter
            ["session.options.update", ["bash", "glob"]],
            ["session.tools.set", ["lint"]],
            ["session.options.update", ["bash"]],
        ]);
        expect(session.toolResolution).toBe(before);
        expect(handlerOf(session, "lint")).toBe(handler);
        expect(handlerOf(session, "format")).toBeUndefined();
    });

    it("reports no warning for an update the runtime refused, and reports it once one succeeds", async () => {
        const { runtime, client, warnings } = await setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [lint],
        });
        runtime.failMethod("session.tools.set", 1);
        const bash = { name: "bash", description: "Custom bash", handler };
        await expect(session.setTools({ tools: [bash] })).rejects.toThrow(/setTools failed/);
        expect(warnings).toEqual([]);
        await session.setTools({ tools: [bash] });
        expect(warnings.map((w) => [w.code, w.identifiers])).toEqual([
            ["BUILT_IN_COMPANIONS_REMAIN", ["read_bash", "stop_bash", "list_bash"]],
            ["AUTOMATIC_OVERRIDE", ["bash"]],
        ]);
    });

    it("says the tools are unknown when putting them back fails too", async () => {
        const { runtime, client } = await setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [lint],
        });
        runtime.failMethod("session.tools.set");
        await expect(session.setTools({ tools: [format] })).rejects.toThrow(
            /putting the previous tools back failed too .*: the runtime may hold either set of tools; calls to either set's custom tools reach their handlers, and built-ins that neither set allows stay excluded\. To recover, call setTools again to set them\.$/
        );
        // Either set's calls have a handler; the next change sends everything again.
        expect(handlerOf(session, "lint")).toBe(handler);
        expect(handlerOf(session, "format")).toBe(handler);
        runtime.failMethod(undefined);
        const from = runtime.requests.length;
        await session.setTools({ tools: [lint] });
        expect(updates(runtime, from).map(([method]) => method)).toEqual([
            "session.options.update",
            "session.tools.set",
        ]);
        expect(handlerOf(session, "format")).toBeUndefined();
    });

    it("has the runtime check the new tools when the session set validateTools, and puts the old ones back when it refuses", async () => {
        const { runtime, client } = await setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [lint],
            validateTools: true,
        });
        runtime.failMethod("session.tools.initializeAndValidate", 1);
        const from = runtime.requests.length;
        await expect(session.setTools({ tools: [format] })).rejects.toThrow(
            /^setTools failed: The runtime refused the session's custom tools: .*initializeAndValidate failed \(fake\)/
        );
        expect(updates(runtime, from).map(([method]) => method)).toEqual([
            "session.tools.set",
            "session.tools.initializeAndValidate",
            "session.options.update",
            "session.tools.set",
            "session.options.update",
        ]);
        expect(handlerOf(session, "lint")).toBe(handler);
    });

    it("refuses a session that was disconnected, or replaced by resumeSession, before anything is sent", async () => {
        const { runtime, client } = await setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [lint],
        });
        const resumed = await client.resumeSession(session.sessionId, {
            model: MODEL,
            onPermissionRequest: approveAll,
        });
        const from = runtime.requests.length;
        await expect(session.setTools({ tools: [format] })).rejects.toMatchObject({
            code: "INVALID_TOOL_UPDATE",
            message: `Session '${session.sessionId}' was resumed as another object: call setTools on the session that resumeSession returned.`,
        });
        await resumed.disconnect();
        await expect(resumed.setTools({ tools: [format] })).rejects.toMatchObject({
            code: "INVALID_TOOL_UPDATE",
            message: `Session '${session.sessionId}' is disconnected, so setTools cannot change it: resume it with client.resumeSession('${session.sessionId}', { tools, ... }) and call setTools on the session that returns.`,
        });
        expect(updates(runtime, from).map(([method]) => method)).toEqual(["session.detach"]);
    });

    it("reads the update at the call: a later change to the caller's array does not count", async () => {
        const { runtime, client } = await setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
        });
        const tools = [lint];
        const pending = session.setTools({ tools });
        tools.push(format);
        await pending;
        const sent = runtime.paramsOf("session.tools.set").at(-1)!.tools as { name: string }[];
        expect(sent.map((t) => t.name)).toEqual(["lint"]);
    });
});

describe("session.setTools: order", () => {
    it("applies concurrent calls in call order, each from the one before", async () => {
        const { runtime, client } = await setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
        });
        const from = runtime.requests.length;
        const results = await Promise.allSettled([
            session.setTools({ tools: [lint] }),
            session.setTools({ tools: [lint, lint] }),
            session.setTools({ excludedTools: ["bash"] }),
        ]);
        expect(results.map((r) => r.status)).toEqual(["fulfilled", "rejected", "fulfilled"]);
        // The first setTools asks the runtime's version (status.get): the session had nothing to check.
        expect(
            updates(runtime, from)
                .filter(([method]) => method !== "status.get")
                .map(([method, params]) => [
                    method,
                    method === "session.tools.set"
                        ? (params.tools as { name: string }[]).map((t) => t.name)
                        : params.excludedTools,
                ])
        ).toEqual([
            // only what changes is sent: the tools, then the filter
            ["session.tools.set", ["lint"]],
            ["session.options.update", ["bash"]],
        ]);
        expect(session.toolResolution!.wire).toEqual({
            tools: ["lint"],
            availableTools: undefined,
            excludedTools: ["bash"],
        });
    });

    it("keeps what resumeSession is given, not what setTools set on the session before", async () => {
        const { runtime, client } = await setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [lint],
        });
        await session.setTools({ tools: [format], excludedTools: ["bash"] });
        const resumed = await client.resumeSession(session.sessionId, {
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [lint],
        });
        const params = runtime.paramsOf("session.resume").at(-1)!;
        expect((params.tools as { name: string }[]).map((t) => t.name)).toEqual(["lint"]);
        expect(params.excludedTools).toBeUndefined();
        expect(resumed.toolResolution!.wire.tools).toEqual(["lint"]);
    });
});
