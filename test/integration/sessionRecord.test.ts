/**
 * The session record against a fake runtime: what a session object knows from the moment it
 * exists (a resumed one in the middle of another object's turn), model ids read as the runtime
 * reads them, a method called on a wrong receiver, and a session id the runtime cannot take.
 */
import { describe, expect, it } from "vitest";
import { approveAll, type CopilotSession } from "@github/copilot-sdk";
import { exchanged, fakeRuntimeClients } from "../support/fakeRuntimeClient.js";
import { RESUME_PROBE_TIMEOUT } from "../../src/toolCustomization/session/busy.js";

const { setUp } = fakeRuntimeClients();
const MODEL = "claude-sonnet-4.5";
const handler = async (): Promise<string> => "custom result";
const view = (description: string) => ({
    name: "view",
    description,
    overridesBuiltInTool: true,
    handler,
});

async function errorOf(pending: Promise<unknown>): Promise<{ code?: unknown; message?: unknown }> {
    return pending.then(
        () => ({ code: "resolved" }),
        (error: { code?: unknown; message?: unknown }) => ({
            code: error.code,
            message: error.message,
        })
    );
}

describe("a resumed session object knows whether its session is busy", () => {
    it("refuses a redefinition as SESSION_BUSY while the runtime says the session is processing, and accepts it after the session's idle", async () => {
        const { runtime, client } = await setUp();
        const created = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [view("first")],
        });
        // Another object's turn runs when this one resumes the session.
        runtime.setProcessing(true);
        const resumed = await client.resumeSession(created.sessionId, {
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [view("first")],
        });
        const from = runtime.requests.length;
        expect(await errorOf(resumed.setTools({ tools: [view("second")] }))).toMatchObject({
            code: "SESSION_BUSY",
        });
        expect(runtime.requests.slice(from).map(({ method }) => method)).toEqual([]);

        runtime.emit(created.sessionId, { type: "session.idle", data: {} });
        await exchanged(client);
        const resolution = await resumed.setTools({ tools: [view("second")] });
        expect(resolution.overriddenBuiltInTools).toEqual(["view"]);
    });

    it("accepts a redefinition at once when the runtime says the session is idle", async () => {
        const { client } = await setUp();
        const created = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [view("first")],
        });
        const resumed = await client.resumeSession(created.sessionId, {
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [view("first")],
        });
        await expect(resumed.setTools({ tools: [view("second")] })).resolves.toMatchObject({
            overriddenBuiltInTools: ["view"],
        });
    });

    it("asks the session's history when isProcessing rejects, and is idle when it shows no turn", async () => {
        const { runtime, client } = await setUp();
        const created = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [view("first")],
        });
        runtime.failMethod("session.metadata.isProcessing", 1);
        const resumed = await client.resumeSession(created.sessionId, {
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [view("first")],
        });
        // getMessages answers an empty history: no turn under way, so changes are not refused.
        await expect(resumed.setTools({ tools: [view("second")] })).resolves.toMatchObject({
            overriddenBuiltInTools: ["view"],
        });
    });

    it("stays busy until the runtime's next idle when the runtime cannot say within the probe's bound", async () => {
        const { runtime, client } = await setUp();
        const created = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [view("first")],
        });
        runtime.failMethod("session.metadata.isProcessing", 1);
        runtime.hangMethod("session.getMessages", 1);
        const started = Date.now();
        const resumed = await client.resumeSession(created.sessionId, {
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [view("first")],
        });
        // Bounded: the resume returns once the probe gave up.
        expect(Date.now() - started).toBeLessThan(RESUME_PROBE_TIMEOUT + 2_000);
        expect(await errorOf(resumed.setTools({ tools: [view("second")] }))).toMatchObject({
            code: "SESSION_BUSY",
        });
        runtime.emit(created.sessionId, { type: "session.idle", data: {} });
        await exchanged(client);
        await expect(resumed.setTools({ tools: [view("second")] })).resolves.toBeDefined();
    }, 20_000);
});

describe("a message is busy from its send call", () => {
    it("refuses a redefinition asked for in the same tick as a message sent before it", async () => {
        const { client } = await setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [view("first")],
        });
        const sent = session.send({ prompt: "hello" });
        expect(await errorOf(session.setTools({ tools: [view("second")] }))).toMatchObject({
            code: "SESSION_BUSY",
        });
        await sent;
    });

    it("applies a redefinition asked for before the message, first", async () => {
        const { runtime, client } = await setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [view("first")],
        });
        const from = runtime.requests.length;
        const changed = session.setTools({ tools: [view("second")] });
        const sent = session.send({ prompt: "hello" });
        await expect(changed).resolves.toMatchObject({ overriddenBuiltInTools: ["view"] });
        await sent;
        const methods = runtime.requests.slice(from).map(({ method }) => method);
        expect(methods.indexOf("session.tools.set")).toBeGreaterThanOrEqual(0);
        expect(methods.indexOf("session.tools.set")).toBeLessThan(methods.indexOf("session.send"));
    });
});

describe("members called the wrong way answer with a SessionToolError", () => {
    it("refuses previewModel and setTools without their session", async () => {
        const { client } = await setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
        });
        const preview = session.previewModel as (this: unknown, model: string) => Promise<unknown>;
        const setTools = session.setTools as (this: unknown, update: object) => Promise<unknown>;
        for (const pending of [preview.call(null, "gpt-4o"), setTools.call(undefined, {})]) {
            const error = await errorOf(pending);
            expect(error.code).toBe("INVALID_TOOL_UPDATE");
            expect(error.message).toMatch(/was called without its session: call it as session\./);
        }
    });

    it("reads a String model id as the runtime does: the preview and the switch see 'gpt-4o'", async () => {
        const { runtime, client } = await setUp();
        const session: CopilotSession = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
        });
        const model = new String("gpt-4o") as unknown as string;
        const preview = await session.previewModel(model);
        expect(preview.model).toBe("gpt-4o");
        await session.setModel(model);
        // The switch was previewed (the runtime's list for the model) before it was sent.
        expect(runtime.paramsOf("tools.list").at(-1)).toEqual({ model: "gpt-4o" });
        expect(runtime.methods()).toContain("session.model.switchTo");
    });
});

describe("a session id the runtime cannot take", () => {
    it("is refused before anything is sent, naming the bound", async () => {
        const { runtime, client } = await setUp();
        const from = runtime.requests.length;
        const long = "a".repeat(256);
        for (const pending of [
            client.resumeSession(long, { onPermissionRequest: approveAll }),
            client.createSession({ sessionId: long, onPermissionRequest: approveAll }),
        ]) {
            const error = await errorOf(pending);
            expect(error.code).toBe("INVALID_SESSION_OPTION");
            expect(error.message).toContain("(256 bytes)");
            expect(error.message).toContain("at most 255 bytes");
        }
        expect(runtime.requests.slice(from).map(({ method }) => method)).not.toContain(
            "session.resume"
        );
        // 255 bytes go to the runtime.
        await client.resumeSession("a".repeat(255), { onPermissionRequest: approveAll });
        expect(runtime.paramsOf("session.resume").at(-1)?.sessionId).toBe("a".repeat(255));
    });
});
