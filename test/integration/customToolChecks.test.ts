/* eslint-disable @typescript-eslint/no-explicit-any */
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import { approveAll, CopilotClient, RuntimeConnection } from "@github/copilot-sdk";
import {
    assertUniqueToolNames,
    validateSessionTools,
} from "../../src/toolCustomization/input/customToolChecks.js";

const handler = async () => "ok";

describe("assertUniqueToolNames", () => {
    it("accepts distinct names and a missing tools option", () => {
        expect(() => assertUniqueToolNames([{ name: "lint" }, { name: "format" }])).not.toThrow();
        expect(() => assertUniqueToolNames(undefined)).not.toThrow();
    });

    it("names each repeated tool once", () => {
        expect(() => assertUniqueToolNames([{ name: "lint" }, { name: "lint" }])).toThrow(
            "Custom tool names must be unique: 'lint' is defined more than once in tools. Rename or remove the extra definitions."
        );
        expect(() =>
            assertUniqueToolNames([
                { name: "lint" },
                { name: "view" },
                { name: "lint" },
                { name: "view" },
                { name: "lint" },
            ])
        ).toThrow("'lint', 'view' are defined more than once");
    });
});

describe("validateSessionTools", () => {
    function session(initializeAndValidate: () => Promise<unknown>) {
        return { rpc: { tools: { initializeAndValidate: vi.fn(initializeAndValidate) } } };
    }

    it("asks nothing unless validateTools is set and the session has custom tools", async () => {
        const s = session(async () => ({}));
        await validateSessionTools(s, { tools: [{ name: "lint" }] }, vi.fn());
        await validateSessionTools(s, { tools: [{ name: "lint" }], validateTools: false }, vi.fn());
        await validateSessionTools(s, { validateTools: true }, vi.fn());
        await validateSessionTools(s, { tools: [], validateTools: true }, vi.fn());
        expect(s.rpc.tools.initializeAndValidate).not.toHaveBeenCalled();
        await validateSessionTools(s, { tools: [{ name: "lint" }], validateTools: true }, vi.fn());
        expect(s.rpc.tools.initializeAndValidate).toHaveBeenCalledOnce();
    });

    it("discards the session and reports the runtime's reason when it refuses the tools", async () => {
        const refusal = new Error('External tool "view" conflicts with a built-in tool');
        const discard = vi.fn(async () => {
            throw new Error("already gone");
        });
        const error = await validateSessionTools(
            session(async () => Promise.reject(refusal)),
            { tools: [{ name: "view" }], validateTools: true },
            discard
        ).catch((e: unknown) => e as Error);
        expect(error).toBeInstanceOf(Error);
        expect(error?.message).toBe(
            `The runtime refused the session's custom tools: External tool "view" conflicts with a built-in tool`
        );
        expect(error?.cause).toBe(refusal);
        expect(discard).toHaveBeenCalledOnce();
    });
});

/** The parts of an SDK build these tests construct a client with. */
interface SdkBuild {
    readonly CopilotClient: new (options: any) => any;
    readonly RuntimeConnection: { forUri(uri: string): unknown };
}

/**
 * A client of `sdk` (the patched SDK unless told) whose connection answers `respond`, recording
 * every request it sends.
 */
async function startWithMockConnection(
    respond: (method: string, params: any) => unknown = () => ({}),
    sdk: SdkBuild = { CopilotClient, RuntimeConnection }
) {
    const client = new sdk.CopilotClient({
        connection: sdk.RuntimeConnection.forUri("localhost:1234"),
    });
    onTestFinished(() => client.forceStop());
    const sendRequest = vi.fn(async (method: string, params: any) => {
        if (method === "session.create" || method === "session.resume") {
            return { sessionId: params.sessionId };
        }
        if (["session.delete", "session.detach", "session.destroy"].includes(method)) {
            return { success: true };
        }
        return respond(method, params);
    });
    vi.spyOn(client as any, "connectToServer").mockImplementation(async () => {
        (client as any).connection = { sendRequest, onNotification: vi.fn() };
    });
    vi.spyOn(client as any, "verifyProtocolVersion").mockResolvedValue(undefined);
    await client.start();
    const sent = (method: string) =>
        sendRequest.mock.calls.filter(([name]) => name === method).map(([, params]) => params);
    return { client, sent, sendRequest };
}

describe("CopilotClient custom tool checks", () => {
    const conflict = 'External tool "view" conflicts with a built-in tool of the same name.';

    const refusingRuntime = (method: string) => {
        if (method === "session.tools.initializeAndValidate") throw new Error(conflict);
        return {};
    };

    it("releases a created session the runtime refused, also when deleting it fails", async () => {
        const { client, sendRequest } = await startWithMockConnection(refusingRuntime);
        const original = sendRequest.getMockImplementation()!;
        sendRequest.mockImplementation(async (method: string, params: any) =>
            method === "session.delete"
                ? { success: false, error: "the runtime is busy" }
                : original(method, params)
        );
        await expect(
            client.createSession({
                onPermissionRequest: approveAll,
                tools: [{ name: "view", handler }],
                validateTools: true,
            })
        ).rejects.toThrow(`The runtime refused the session's custom tools: ${conflict}`);
        // As the SDK's own failure path leaves it: not routed, marked disconnected.
        expect((client as any).sessions.size).toBe(0);
    });

    it("lets the SDK refuse gitHubToken with gitHubTokenProvider first, as without the patch", async () => {
        const { client, sent } = await startWithMockConnection();
        await expect(
            client.createSession({
                onPermissionRequest: approveAll,
                gitHubToken: "token",
                gitHubTokenProvider: async () => ({ token: "token" }),
                // Also a tool mistake, which the session step would refuse otherwise.
                tools: [{ name: "not a name", handler }],
            } as never)
        ).rejects.toThrow("gitHubToken and gitHubTokenProvider are mutually exclusive");
        expect(sent("session.create")).toEqual([]);
    });

    it("refuses duplicate tool names before session.create or session.resume is sent", async () => {
        // In the patched SDK the safety net's stricter check (case ignored) answers first; the
        // core's own check is tested alone below, on the build that has only the core.
        const { client, sent } = await startWithMockConnection();
        const tools = [
            { name: "lint", handler },
            { name: "lint", handler },
        ];
        const safetyNetMessage =
            "Custom tool names must be unique, also when case is ignored; these repeat: 'lint', 'lint'. Rename or remove all but one of each.";
        await expect(
            client.createSession({ onPermissionRequest: approveAll, tools })
        ).rejects.toThrow(safetyNetMessage);
        await expect(
            client.resumeSession("s1", { onPermissionRequest: approveAll, tools })
        ).rejects.toThrow(safetyNetMessage);
        expect(sent("session.create")).toEqual([]);
        expect(sent("session.resume")).toEqual([]);
    });

    it("asks the runtime to validate custom tools once the session exists, with validateTools", async () => {
        const { client, sent, sendRequest } = await startWithMockConnection();
        const session = await client.createSession({
            onPermissionRequest: approveAll,
            tools: [{ name: "lint", handler }],
            validateTools: true,
        });
        await client.resumeSession(session.sessionId, {
            onPermissionRequest: approveAll,
            tools: [{ name: "lint", handler }],
            validateTools: true,
        });
        expect(sent("session.tools.initializeAndValidate")).toEqual([
            { sessionId: session.sessionId },
            { sessionId: session.sessionId },
        ]);
        // Each right after its session exists and has its options, before the call returns.
        const sessionMethods = sendRequest.mock.calls
            .map(([method]) => method)
            .filter((method) => method.startsWith("session."));
        expect(sessionMethods).toEqual([
            "session.create",
            "session.tools.initializeAndValidate",
            "session.resume",
            "session.tools.initializeAndValidate",
            // The resumed object asks whether the session is processing before it is returned;
            // this mock answers no boolean, so the session's history is asked (getEvents).
            "session.metadata.isProcessing",
            "session.getMessages",
        ]);
    });

    it("sends no validation request without validateTools or without custom tools", async () => {
        const { client, sent } = await startWithMockConnection();
        await client.createSession({
            onPermissionRequest: approveAll,
            tools: [{ name: "lint", handler }],
        });
        await client.createSession({ onPermissionRequest: approveAll, validateTools: true });
        await client.resumeSession("s1", { onPermissionRequest: approveAll, validateTools: true });
        expect(sent("session.tools.initializeAndValidate")).toEqual([]);
    });

    it("fails createSession with the runtime's reason and deletes the session it refused", async () => {
        const { client, sent } = await startWithMockConnection(refusingRuntime);
        await expect(
            client.createSession({
                onPermissionRequest: approveAll,
                tools: [{ name: "view", handler }],
                validateTools: true,
            })
        ).rejects.toThrow(`The runtime refused the session's custom tools: ${conflict}`);
        const [created] = sent("session.create");
        expect(sent("session.delete")).toEqual([{ sessionId: created.sessionId }]);
        expect((client as any).sessions.size).toBe(0);
    });

    it("fails resumeSession with the runtime's reason and releases the session without deleting it", async () => {
        const { client, sent } = await startWithMockConnection(refusingRuntime);
        await expect(
            client.resumeSession("s1", {
                onPermissionRequest: approveAll,
                tools: [{ name: "view", handler }],
                validateTools: true,
            })
        ).rejects.toThrow(`The runtime refused the session's custom tools: ${conflict}`);
        // Released (session.destroy, or session.detach in later SDK releases), never deleted.
        expect([...sent("session.detach"), ...sent("session.destroy")]).toEqual([
            { sessionId: "s1" },
        ]);
        expect(sent("session.delete")).toEqual([]);
        expect((client as any).sessions.size).toBe(0);
    });
});

// The core's construction checks alone: a copy of the SDK with only
// src/toolCustomization/input/customToolChecks.ts and its calls (`coreFileEdits()`), built by the patch
// scripts into .cache/sdk-checks/ (rebuilt when the checks or the edits change). In the patched
// SDK the safety net answers duplicates first, so only this build shows that the core's own
// guard and its call in createSession / resumeSession work: with either stubbed out, these fail.
describe("the core's duplicate-name check, without the safety net", () => {
    const ROOT = join(import.meta.dirname, "..", "..");
    const coreMessage =
        "Custom tool names must be unique: 'lint' is defined more than once in tools. Rename or remove the extra definitions.";
    const duplicates = [
        { name: "lint", handler },
        { name: "format", handler },
        { name: "lint", handler },
    ];
    let coreSdkDir = "";

    beforeAll(async () => {
        const { constructionChecksSdkDir } = (await import(
            pathToFileURL(join(ROOT, "scripts", "patch", "lib", "constructionChecks.mjs")).href
        )) as { constructionChecksSdkDir(): string };
        coreSdkDir = constructionChecksSdkDir();
    }, 180_000);

    it("refuses duplicates in createSession and resumeSession with the core's message, sending nothing (ESM)", async () => {
        const core = (await import(
            pathToFileURL(join(coreSdkDir, "dist", "index.js")).href
        )) as SdkBuild & { approveAll: unknown };
        const { client, sent } = await startWithMockConnection(undefined, core);
        const config = { onPermissionRequest: core.approveAll, tools: duplicates };
        await expect(client.createSession(config)).rejects.toThrow(new Error(coreMessage));
        await expect(client.resumeSession("s1", config)).rejects.toThrow(new Error(coreMessage));
        expect(sent("session.create")).toEqual([]);
        expect(sent("session.resume")).toEqual([]);
    });

    it("refuses duplicates with the core's message in the CommonJS build too", async () => {
        const core = createRequire(import.meta.url)(
            join(coreSdkDir, "dist", "cjs", "index.js")
        ) as SdkBuild & { approveAll: unknown };
        const { client, sent } = await startWithMockConnection(undefined, core);
        const config = { onPermissionRequest: core.approveAll, tools: duplicates };
        await expect(client.createSession(config)).rejects.toThrow(new Error(coreMessage));
        await expect(client.resumeSession("s1", config)).rejects.toThrow(new Error(coreMessage));
        expect(sent("session.create")).toEqual([]);
    });

    it("lets distinct names, differing only in case, through to the runtime", async () => {
        // The core compares names exactly; only the safety net also ignores case.
        const core = (await import(
            pathToFileURL(join(coreSdkDir, "dist", "index.js")).href
        )) as SdkBuild & { approveAll: unknown };
        const { client, sent } = await startWithMockConnection(undefined, core);
        await client.createSession({
            onPermissionRequest: core.approveAll,
            tools: [
                { name: "lint", handler },
                { name: "Lint", handler },
            ],
        });
        expect(sent("session.create")).toHaveLength(1);
    });
});
