/**
 * No filter drops the app's tools in silence, and a replaced shell tool does not leave its
 * companions acting on the built-in's shells unsaid: through the real patched client against a
 * fake runtime. Expected warnings are written by hand from the rules in docs/using.md.
 */
import { describe, expect, it } from "vitest";
import { SessionToolError, approveAll } from "@github/copilot-sdk";
import { fakeRuntimeClients } from "../support/fakeRuntimeClient.js";

const MODEL = "claude-sonnet-4.5";
const handler = async (): Promise<string> => "custom result";
const tool = (name: string, overridesBuiltInTool?: boolean) => ({
    name,
    description: `The app's ${name}`,
    handler,
    ...(overridesBuiltInTool === undefined ? {} : { overridesBuiltInTool }),
});

const fake = fakeRuntimeClients();

describe("FILTER_DROPS_CUSTOM_TOOL", () => {
    it("names each custom tool a toolset entry or an allowlist drops, and the entry", async () => {
        const { client, warnings } = await fake.setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [tool("view", true), tool("lint")],
            availableTools: ["toolset:search"],
            excludedTools: ["toolset:read"],
        });
        const dropped = warnings.filter((w) => w.code === "FILTER_DROPS_CUSTOM_TOOL");
        expect(dropped.map((w) => [w.option, w.identifiers])).toEqual([
            ["excludedTools", ["view"]],
            ["availableTools", ["lint"]],
        ]);
        expect(dropped[0]!.message).toContain("excludedTools entry 'toolset:read' removes it");
        expect(dropped[1]!.message).toContain("Add 'lint' (or 'custom:lint') to availableTools");
        expect(session.toolResolution!.warnings).toEqual(warnings);
        expect(session.toolResolution!.wire.tools).toEqual([]);
    });

    it("warns every session built alike, not only the first", async () => {
        const { client, warnings } = await fake.setUp();
        const tools = [tool("view", true), tool("lint")];
        const sessions = [];
        for (let i = 0; i < 3; i++) {
            sessions.push(
                await client.createSession({
                    model: MODEL,
                    onPermissionRequest: approveAll,
                    tools,
                    availableTools: ["toolset:search"],
                    excludedTools: ["toolset:read"],
                })
            );
        }
        const dropped = (list: readonly { code: string; identifiers?: readonly string[] }[]) =>
            list.filter((w) => w.code === "FILTER_DROPS_CUSTOM_TOOL").map((w) => w.identifiers);
        expect(dropped(warnings)).toEqual([
            ["view"],
            ["lint"],
            ["view"],
            ["lint"],
            ["view"],
            ["lint"],
        ]);
        for (const session of sessions) {
            expect(dropped(session.toolResolution!.warnings)).toEqual([["view"], ["lint"]]);
        }
    });

    it("says nothing for a tool the app excluded by its own name, or availableTools: []", async () => {
        const { client, warnings } = await fake.setUp();
        await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [tool("lint"), tool("format")],
            excludedTools: ["lint", "custom:format"],
        });
        // Excluded by name beside an allowlist that does not name it either: still the app's intent.
        await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [tool("lint")],
            availableTools: ["toolset:search"],
            excludedTools: ["lint"],
        });
        await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [tool("lint")],
            availableTools: [],
        });
        expect(warnings.filter((w) => w.code === "FILTER_DROPS_CUSTOM_TOOL")).toEqual([]);
    });

    it("says nothing when the allowlist keeps the tool, by name or through its toolset", async () => {
        const { client, warnings } = await fake.setUp();
        await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [tool("lint"), tool("view", true)],
            availableTools: ["lint", "toolset:read"],
        });
        expect(warnings.filter((w) => w.code === "FILTER_DROPS_CUSTOM_TOOL")).toEqual([]);
    });

    it("refuses the session under strictToolFilters, before session.create", async () => {
        const { runtime, client } = await fake.setUp({}, { strictToolFilters: true });
        const outcome = await client
            .createSession({
                model: MODEL,
                onPermissionRequest: approveAll,
                tools: [tool("lint")],
                availableTools: ["toolset:search"],
            })
            .then(
                () => "accepted",
                (error: unknown) => error
            );
        expect(outcome).toBeInstanceOf(SessionToolError);
        expect(outcome).toMatchObject({ code: "FILTER_DROPS_CUSTOM_TOOL", toolNames: ["lint"] });
        expect(runtime.paramsOf("session.create")).toEqual([]);
    });
});

describe("BUILT_IN_COMPANIONS_REMAIN", () => {
    it("names the companions a custom bash leaves built-in, and how to replace or exclude them", async () => {
        const { client, warnings } = await fake.setUp();
        await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [tool("bash", true)],
        });
        const family = warnings.filter((w) => w.code === "BUILT_IN_COMPANIONS_REMAIN");
        expect(family.map((w) => w.identifiers)).toEqual([["read_bash", "stop_bash", "list_bash"]]);
        expect(family[0]!.message).toContain("'read_bash', 'stop_bash', 'list_bash' stay built-in");
        expect(family[0]!.message).toContain(
            "excludedTools: ['read_bash', 'stop_bash', 'list_bash']"
        );
    });

    it("says nothing once the companions are replaced or excluded", async () => {
        const { client, warnings } = await fake.setUp();
        await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [tool("bash", true), tool("read_bash", true)],
            excludedTools: ["stop_bash", "list_bash"],
        });
        expect(warnings.filter((w) => w.code === "BUILT_IN_COMPANIONS_REMAIN")).toEqual([]);
    });

    it("names the companion left when only some are replaced", async () => {
        const { client, warnings } = await fake.setUp();
        await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [tool("bash", true), tool("read_bash", true), tool("stop_bash", true)],
        });
        expect(
            warnings
                .filter((w) => w.code === "BUILT_IN_COMPANIONS_REMAIN")
                .map((w) => w.identifiers)
        ).toEqual([["list_bash"]]);
    });
});
