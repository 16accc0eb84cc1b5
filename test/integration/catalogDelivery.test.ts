/**
 * The built-in catalog matches a measurement on the runtime's version and on its delivery: one
 * version comes bundled with an SDK release and as the `@github/copilot` CLI, and the two may
 * offer different built-ins (the CLI 1.0.85 offers `skill`; SDK 1.0.14's bundled 1.0.85, the one
 * measured, does not). A client that reaches a runtime of a version measured only on the other
 * delivery gets the fallback catalog: the runtime's own listing, a CATALOG_FALLBACK warning that
 * says why, only the app's exclusions counting as certain in the prompt's view, and 'warn' as the
 * default promptAgreement. The fake runtime plays 1.0.85 over a URI (see FakeRuntimeDelivery);
 * the section texts and expected values are written for this test.
 */
import { describe, expect, it } from "vitest";
import { approveAll, type CopilotSession } from "@github/copilot-sdk";
import { fakeRuntimeClients, runtimeTransform } from "../support/fakeRuntimeClient.js";
import { NEWEST_MEASURED_RUNTIME } from "../support/rawMeasurements.js";

const MODEL = "claude-sonnet-4.5";
const fake = fakeRuntimeClients();

/** What the CLI 1.0.85 lists for a default session (the fake answers this to tools.list). */
const CLI_LISTING = ["bash", "glob", "grep", "skill", "view"];

/** A tools section in the runtime's style, written for this test. */
const TOOLS_SECTION = [
    "<glob>\nFind files by pattern.\n</glob>",
    "<skill>\nLoad a skill when the task matches it.\n</skill>",
    "<bash>\nRun commands.\n</bash>",
].join("\n");

/** Hands the section to the SDK's own dispatcher, as the runtime's `systemMessage.transform`. */
const transformTools = (session: CopilotSession) =>
    runtimeTransform(session, { tool_instructions: TOOLS_SECTION });

const config = { model: MODEL, onPermissionRequest: approveAll, excludedTools: ["glob"] };

describe("built-in catalog: a measurement counts for its delivery only", () => {
    it("gives a client of the bundled runtime of a measured version the measurements", async () => {
        const { runtime, client, warnings } = await fake.setUp({
            toolList: { kind: "list", names: CLI_LISTING },
        });
        const session = await client.createSession(config);
        expect(session.toolResolution!.runtime).toEqual({ version: "1.0.85", catalog: "measured" });
        expect(runtime.methods()).toEqual(["status.get", "session.create"]);
        expect(warnings.map((w) => w.code)).toEqual([]);
        // The bundled 1.0.85 offers no skill without skillDirectories: its block goes too.
        const { sections } = await transformTools(session);
        expect(session.toolResolution!.prompt!.mode).toBe("rewrite");
        expect(sections.tool_instructions!.content).not.toContain("<skill>");
        expect(sections.tool_instructions!.content).not.toContain("<glob>");
    });

    it("falls back for a connection to the CLI of that version: its listing counts, skill stays", async () => {
        const { runtime, client, warnings } = await fake.setUp(
            { toolList: { kind: "list", names: CLI_LISTING } },
            {},
            "as-connected"
        );
        const session = await client.createSession(config);
        expect(session.toolResolution!.runtime).toEqual({
            version: NEWEST_MEASURED_RUNTIME,
            catalog: "fallback",
        });
        expect(runtime.methods()).toEqual(["status.get", "tools.list", "session.create"]);
        expect(warnings).toEqual([
            {
                code: "CATALOG_FALLBACK",
                message:
                    "Custom tools are checked against a stand-in list of built-ins: runtime 1.0.85 " +
                    "was measured only as the runtime an SDK release bundles, which may offer other " +
                    "built-ins than the @github/copilot CLI this client runs; using its tools.list " +
                    `and the names measured on runtime ${NEWEST_MEASURED_RUNTIME}.`,
            },
        ]);
        // The default: 'warn', the text stays; what the rewrite would remove is the app's
        // exclusion only.
        const { sections } = await transformTools(session);
        const report = session.toolResolution!.prompt!;
        expect(report.mode).toBe("warn");
        expect(sections.tool_instructions!.content).toContain(TOOLS_SECTION);
        expect(report.edits.map((e) => [e.section, e.action, e.names])).toEqual([
            ["tool_instructions", "removed", ["glob"]],
        ]);
    });

    it("removes only the app's exclusions when the app asks for 'rewrite' on such a client", async () => {
        const { client } = await fake.setUp(
            { toolList: { kind: "list", names: CLI_LISTING } },
            {},
            "as-connected"
        );
        const session = await client.createSession({ ...config, promptAgreement: "rewrite" });
        const { sections } = await transformTools(session);
        expect(session.toolResolution!.prompt!.mode).toBe("rewrite");
        expect(sections.tool_instructions!.content).toContain(
            "<skill>\nLoad a skill when the task matches it.\n</skill>"
        );
        expect(sections.tool_instructions!.content).not.toContain("<glob>");
    });

    it("keeps the measurements for a connection to a runtime measured as the CLI (1.0.102)", async () => {
        const { runtime, client, warnings } = await fake.setUp(
            { status: { kind: "version", version: "1.0.102" } },
            {},
            "as-connected"
        );
        const session = await client.createSession(config);
        expect(session.toolResolution!.runtime).toEqual({
            version: "1.0.102",
            catalog: "measured",
        });
        expect(runtime.methods()).toEqual(["status.get", "session.create"]);
        expect(warnings.map((w) => w.code)).toEqual([]);
    });
});
