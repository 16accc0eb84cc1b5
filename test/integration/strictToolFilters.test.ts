/**
 * Filter mistakes that used to pass silently, through the real patched client against a fake
 * runtime: an unknown source prefix is refused, a mistyped or empty custom toolset is named, the
 * client option `strictToolFilters: true` turns the warnings that name nothing into a
 * `SessionToolError` before anything is sent, and the 0.1.0 option names are refused in
 * JavaScript. Expected values are written by hand from the rules in docs/using.md.
 */
import { describe, expect, it } from "vitest";
import {
    CopilotClient,
    RuntimeConnection,
    BuiltInTools,
    SessionToolError,
    ToolSet,
    approveAll,
} from "@github/copilot-sdk";
import { startFakeRuntime } from "../support/fakeRuntime.js";
import { fakeRuntimeClients } from "../support/fakeRuntimeClient.js";

const MODEL = "claude-sonnet-4.5";
const handler = async (): Promise<string> => "custom result";
const lint = { name: "lint", description: "Lint the project", handler };

const fake = fakeRuntimeClients();
const setUp = (options: Record<string, unknown> = {}) => fake.setUp({}, options);

async function outcomeOf(attempt: Promise<unknown>): Promise<unknown> {
    return attempt.then(
        () => "accepted",
        (error: unknown) => error
    );
}

describe("filter entries with an unknown source prefix", () => {
    it("refuses 'Builtin:view', 'biultin:view' and 'mpc:github-x' before session.create, naming the entry and the fix", async () => {
        const { runtime, client } = await setUp();
        for (const [entry, meant] of [
            ["Builtin:view", "builtin:view"],
            ["biultin:view", "builtin:view"],
            ["mpc:github-x", "mcp:github-x"],
        ]) {
            const outcome = await outcomeOf(
                client.createSession({
                    model: MODEL,
                    onPermissionRequest: approveAll,
                    availableTools: [entry!],
                })
            );
            expect(outcome).toBeInstanceOf(SessionToolError);
            expect(outcome).toMatchObject({ code: "INVALID_TOOL_FILTER", toolNames: [entry] });
            expect((outcome as Error).message).toContain(`Invalid availableTools entry '${entry}'`);
            expect((outcome as Error).message).toContain(`Did you mean '${meant}'?`);
        }
        expect(runtime.paramsOf("session.create")).toEqual([]);
    });
});

describe("customToolSets members", () => {
    it("names a mistyped member with a suggestion, and an empty toolset, in warnings and toolResolution", async () => {
        const { client, warnings } = await setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [lint],
            customToolSets: { q: ["lnt"], empty: [] },
            availableTools: ["toolset:q", "view"],
        });
        expect(
            warnings.map((warning) => [warning.code, warning.option, warning.identifiers])
        ).toEqual([
            ["UNKNOWN_IDENTIFIERS", "customToolSets.q", ["lnt"]],
            ["EMPTY_TOOL_SET", "customToolSets.empty", ["toolset:empty"]],
            // The typo leaves lint out of availableTools: said, not silent.
            ["FILTER_DROPS_CUSTOM_TOOL", "availableTools", ["lint"]],
        ]);
        expect(warnings[0]!.message).toContain("Did you mean 'lint'?");
        expect(session.toolResolution!.unknownIdentifiers).toEqual([
            { option: "customToolSets.q", identifier: "lnt", suggestion: "lint" },
        ]);
    });
});

describe("strictToolFilters: true", () => {
    it("refuses an unknown filter name with UNKNOWN_IDENTIFIERS before anything is sent", async () => {
        const { runtime, client, warnings } = await setUp({ strictToolFilters: true });
        const config = {
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [lint],
            availableTools: ["veiw", "lint"],
        };
        for (const attempt of [
            () => client.createSession(config),
            () => client.resumeSession("existing-session", config),
        ]) {
            const outcome = await outcomeOf(attempt());
            expect(outcome).toBeInstanceOf(SessionToolError);
            expect(outcome).toMatchObject({ code: "UNKNOWN_IDENTIFIERS", toolNames: ["veiw"] });
            expect((outcome as Error).message).toContain("Did you mean 'view'?");
            expect((outcome as Error).message).toContain("strictToolFilters: true");
        }
        expect(runtime.paramsOf("session.create")).toEqual([]);
        expect(runtime.paramsOf("session.resume")).toEqual([]);
        expect(warnings).toEqual([]);
    });

    it("accepts excluding every documented family member and BuiltInTools group, which the runtime may lack, and still refuses a typo of one", async () => {
        const { runtime, client, warnings } = await setUp({ strictToolFilters: true });
        // docs/using.md (BUILT_IN_COMPANIONS_REMAIN and the execute toolset) names these.
        const documented = ["bash", "read_bash", "write_bash", "stop_bash", "list_bash"];
        const groups = [...BuiltInTools.Execute, ...BuiltInTools.Search, ...BuiltInTools.Agent];
        for (const excludedTools of [
            documented,
            new ToolSet().addBuiltIn(BuiltInTools.Execute).addBuiltIn(BuiltInTools.Search),
            groups,
        ]) {
            await client.createSession({
                model: MODEL,
                onPermissionRequest: approveAll,
                excludedTools,
            });
        }
        expect(warnings).toEqual([]);
        const sent = runtime.paramsOf("session.create") as { excludedTools?: string[] }[];
        expect(sent[0]!.excludedTools).toEqual(expect.arrayContaining(documented));
        const typo = await outcomeOf(
            client.createSession({
                model: MODEL,
                onPermissionRequest: approveAll,
                excludedTools: ["write_bsh"],
            })
        );
        expect(typo).toMatchObject({ code: "UNKNOWN_IDENTIFIERS", toolNames: ["write_bsh"] });
    });

    it("refuses a mistyped customToolSets member, an empty toolset and a filter that leaves no tool", async () => {
        const { runtime, client } = await setUp({ strictToolFilters: true });
        for (const [options, code, names] of [
            [{ customToolSets: { q: ["lnt"] } }, "UNKNOWN_IDENTIFIERS", ["lnt"]],
            [{ customToolSets: { empty: [] } }, "EMPTY_TOOL_SET", ["toolset:empty"]],
            [{ availableTools: ["custom:*"], excludedTools: ["lint"] }, "NO_TOOLS_ENABLED", []],
        ] as const) {
            const outcome = await outcomeOf(
                client.createSession({
                    model: MODEL,
                    onPermissionRequest: approveAll,
                    tools: [lint],
                    ...options,
                } as never)
            );
            expect(outcome, code).toBeInstanceOf(SessionToolError);
            expect(outcome, code).toMatchObject({ code, toolNames: names });
        }
        expect(runtime.paramsOf("session.create")).toEqual([]);
    });

    it("refuses the same in session.setTools, leaving the session's tools as they were", async () => {
        const { runtime, client } = await setUp({ strictToolFilters: true });
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [lint],
            availableTools: ["lint"],
        });
        const before = session.toolResolution;
        const requests = runtime.requests.length;
        const outcome = await outcomeOf(session.setTools({ availableTools: ["lnit"] }));
        expect(outcome).toMatchObject({ code: "UNKNOWN_IDENTIFIERS", toolNames: ["lnit"] });
        expect(session.toolResolution).toBe(before);
        expect(runtime.requests.length).toBe(requests);
    });

    it("accepts a filter whose every name is known", async () => {
        const { client, warnings } = await setUp({ strictToolFilters: true });
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [lint],
            customToolSets: { quality: ["lint"] },
            availableTools: ["toolset:quality", "toolset:read", "mcp:github-list_issues"],
        });
        expect(session.toolResolution!.wire.availableTools).toEqual([
            "lint",
            "view",
            "read_file",
            "mcp:github-list_issues",
        ]);
        expect(warnings).toEqual([]);
    });

    it("is refused in the constructor when it is not a boolean", async () => {
        const runtime = await startFakeRuntime();
        let thrown: unknown;
        try {
            new CopilotClient({
                connection: RuntimeConnection.forUri(runtime.url),
                strictToolFilters: "yes",
            } as never);
        } catch (error) {
            thrown = error;
        } finally {
            await runtime.close();
        }
        expect(thrown).toBeInstanceOf(SessionToolError);
        expect(thrown).toMatchObject({ code: "INVALID_CLIENT_OPTION" });
        expect((thrown as Error).message).toContain("Invalid strictToolFilters 'yes'");
    });
});

describe("the 0.1.0 option names, from JavaScript", () => {
    it("refuses includeTools, excludeTools and toolSets before anything is sent, naming the replacement", async () => {
        const { runtime, client } = await setUp();
        for (const [options, code, replacement] of [
            [{ includeTools: ["read"] }, "INVALID_TOOL_FILTER", "use availableTools"],
            [{ excludeTools: ["grep"] }, "INVALID_TOOL_FILTER", "use excludedTools"],
            [
                { toolSets: [{ name: "quality", tools: ["lint"] }] },
                "INVALID_TOOL_SET",
                "use customToolSets",
            ],
        ] as const) {
            const name = Object.keys(options)[0]!;
            const outcome = await outcomeOf(
                client.createSession({
                    model: MODEL,
                    onPermissionRequest: approveAll,
                    ...options,
                } as never)
            );
            expect(outcome, name).toBeInstanceOf(SessionToolError);
            expect(outcome, name).toMatchObject({ code, toolNames: [name] });
            expect((outcome as Error).message).toContain(`The session option ${name} (`);
            expect((outcome as Error).message).toContain(replacement);
        }
        expect(runtime.paramsOf("session.create")).toEqual([]);
    });
});
