/**
 * The fail-closed preset (`failClosed: true` on the client), through the real patched client
 * against a fake runtime: it refuses an unflagged override, a filter entry that names nothing,
 * and a custom tool the runtime rejects, before the session is returned; it refuses options that
 * contradict it instead of overruling them. Expected values are written by hand from
 * docs/using.md's description of the preset.
 */
import { describe, expect, it } from "vitest";
import { CopilotClient, SessionToolError, approveAll } from "@github/copilot-sdk";
import { fakeRuntimeClients } from "../support/fakeRuntimeClient.js";

const MODEL = "claude-sonnet-4.5";
const handler = async (): Promise<string> => "custom result";
const lint = { name: "lint", description: "Lint the project", handler };
const view = { name: "view", description: "The app's own file reader", handler };

const fake = fakeRuntimeClients();

async function outcomeOf(attempt: Promise<unknown>): Promise<unknown> {
    return attempt.then(
        () => "accepted",
        (error: unknown) => error
    );
}

describe("failClosed: true", () => {
    it("refuses a custom tool with a built-in's name unless it sets overridesBuiltInTool", async () => {
        const { runtime, client } = await fake.setUp({}, { failClosed: true });
        const outcome = await outcomeOf(
            client.createSession({ model: MODEL, onPermissionRequest: approveAll, tools: [view] })
        );
        expect(outcome).toBeInstanceOf(SessionToolError);
        expect(outcome).toMatchObject({ code: "BUILT_IN_TOOL_COLLISION", toolNames: ["view"] });
        expect(runtime.paramsOf("session.create")).toEqual([]);
        // Flagged, the same tool replaces the built-in.
        await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [{ ...view, overridesBuiltInTool: true }],
        });
        expect(runtime.paramsOf("session.create")).toHaveLength(1);
    });

    it("refuses a filter entry that names nothing, where the default client only warns", async () => {
        const config = {
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [lint],
            excludedTools: ["veiw"],
        };
        const lenient = await fake.setUp();
        await lenient.client.createSession(config);
        expect(lenient.warnings.map((warning) => warning.code)).toContain("UNKNOWN_IDENTIFIERS");

        const { runtime, client } = await fake.setUp({}, { failClosed: true });
        const outcome = await outcomeOf(client.createSession(config));
        expect(outcome).toMatchObject({ code: "UNKNOWN_IDENTIFIERS" });
        expect((outcome as Error).message).toContain("'veiw'");
        expect(runtime.paramsOf("session.create")).toEqual([]);
    });

    it("has the runtime validate every session's custom tools before createSession and resumeSession return", async () => {
        const { runtime, client } = await fake.setUp({}, { failClosed: true });
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [lint],
        });
        await client.resumeSession(session.sessionId, {
            onPermissionRequest: approveAll,
            tools: [lint],
        });
        expect(runtime.paramsOf("session.tools.initializeAndValidate")).toEqual([
            { sessionId: session.sessionId },
            { sessionId: session.sessionId },
        ]);
        // The default client sends no such request for the same config.
        const lenient = await fake.setUp();
        await lenient.client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [lint],
        });
        expect(lenient.runtime.paramsOf("session.tools.initializeAndValidate")).toEqual([]);
    });

    it("fails createSession when the runtime refuses the tools, leaving no session behind", async () => {
        const { runtime, client } = await fake.setUp({}, { failClosed: true });
        runtime.failMethod("session.tools.initializeAndValidate", 1);
        await expect(
            client.createSession({ model: MODEL, onPermissionRequest: approveAll, tools: [lint] })
        ).rejects.toThrow("The runtime refused the session's custom tools");
        expect(runtime.methods()).toContain("session.delete");
    });

    it("refuses options that contradict it, naming the option and the fix", () => {
        for (const [option, value] of [
            ["builtInToolCollisions", "override"],
            ["strictToolFilters", false],
        ] as const) {
            let thrown: unknown;
            try {
                new CopilotClient({ failClosed: true, [option]: value });
            } catch (error) {
                thrown = error;
            }
            expect(thrown).toBeInstanceOf(SessionToolError);
            expect(thrown).toMatchObject({ code: "INVALID_CLIENT_OPTION" });
            expect((thrown as Error).message).toContain(`Invalid ${option} `);
            expect((thrown as Error).message).toContain("with failClosed: true");
        }
        // Options that agree with it are accepted.
        expect(
            () =>
                new CopilotClient({
                    failClosed: true,
                    builtInToolCollisions: "error",
                    strictToolFilters: true,
                })
        ).not.toThrow();
    });

    it("refuses a session's validateTools: false and a non-boolean failClosed or validateTools", async () => {
        expect(() => new CopilotClient({ failClosed: "yes" as never })).toThrow(
            "Invalid failClosed 'yes'"
        );
        const { runtime, client } = await fake.setUp({}, { failClosed: true });
        const off = await outcomeOf(
            client.createSession({
                model: MODEL,
                onPermissionRequest: approveAll,
                tools: [lint],
                validateTools: false,
            })
        );
        expect(off).toMatchObject({ code: "INVALID_SESSION_OPTION", toolNames: ["validateTools"] });
        const lenient = await fake.setUp();
        const odd = await outcomeOf(
            lenient.client.createSession({
                model: MODEL,
                onPermissionRequest: approveAll,
                validateTools: "true" as never,
            })
        );
        expect(odd).toMatchObject({ code: "INVALID_SESSION_OPTION" });
        expect((odd as Error).message).toContain("Invalid validateTools 'true'");
        expect(runtime.paramsOf("session.create")).toEqual([]);
        expect(lenient.runtime.paramsOf("session.create")).toEqual([]);
    });
});
