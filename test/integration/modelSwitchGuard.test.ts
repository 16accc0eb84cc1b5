/**
 * `session.previewModel` and the guarded `session.setModel` against a fake runtime whose version
 * was never measured: the runtime's own `tools.list({ model })` is what shows a built-in that
 * only the new model has. (Report 01's apply_patch, on the real runtime, is in
 * test/e2e/runtimeProof.test.ts; there every measured built-in is known at construction.)
 */
import { describe, expect, it } from "vitest";
import { approveAll, SessionToolError } from "@github/copilot-sdk";
import { FAKE_LISTED_TOOLS } from "../support/fakeRuntime.js";
import { fakeRuntimeClients } from "../support/fakeRuntimeClient.js";

const { setUp } = fakeRuntimeClients();
const handler = async (): Promise<string> => "custom result";
/** A name no measured runtime has, which the fake runtime starts listing as a GPT built-in. */
const NEW_BUILT_IN = "apply_diff";

async function sessionOnUnmeasuredRuntime(overridesBuiltInTool: boolean | undefined) {
    const { runtime, client } = await setUp({ status: { kind: "version", version: "9.9.9" } });
    const session = await client.createSession({
        model: "claude-sonnet-4.5",
        onPermissionRequest: approveAll,
        tools: [
            {
                name: NEW_BUILT_IN,
                description: "The app's own diff tool",
                handler,
                ...(overridesBuiltInTool === undefined ? {} : { overridesBuiltInTool }),
            },
        ],
    });
    // From here on the runtime lists a built-in of the custom tool's name (for the new model).
    runtime.setToolList({ kind: "list", names: [...FAKE_LISTED_TOOLS, NEW_BUILT_IN] });
    return { runtime, session };
}

describe("setModel refuses a switch after which a built-in could answer a custom name", () => {
    it("previews the collision the runtime lists for the new model and refuses the switch, sending nothing", async () => {
        const { runtime, session } = await sessionOnUnmeasuredRuntime(false);
        const before = session.toolResolution;
        const from = runtime.requests.length;

        const preview = await session.previewModel("gpt-4o");

        expect(runtime.paramsOf("tools.list").at(-1)).toEqual({ model: "gpt-4o" });
        expect(preview.collisions).toEqual([
            { tool: NEW_BUILT_IN, offered: true, replaced: false },
        ]);
        expect(preview.ignoredOverrides).toEqual([NEW_BUILT_IN]);
        expect(preview.refusal?.code).toBe("MODEL_SWITCH_REFUSED");

        const refused = await session.setModel("gpt-4o").then(
            () => undefined,
            (error: unknown) => error
        );
        expect(SessionToolError.isInstance(refused)).toBe(true);
        expect((refused as SessionToolError).code).toBe("MODEL_SWITCH_REFUSED");
        expect((refused as SessionToolError).toolNames).toEqual([NEW_BUILT_IN]);
        expect((refused as SessionToolError).message).toContain(`'${NEW_BUILT_IN}'`);
        // Unchanged: only the listings were asked; no model switch reached the runtime.
        expect(
            runtime.requests
                .slice(from)
                .map(({ method }) => method)
                .filter((method) => method !== "tools.list")
        ).toEqual([]);
        expect(session.toolResolution).toBe(before);
    });

    it("lets the switch through when the custom tool replaces the new built-in (the patch marks it)", async () => {
        const { runtime, session } = await sessionOnUnmeasuredRuntime(undefined);

        const preview = await session.previewModel("gpt-4o");
        expect(preview.collisions).toEqual([{ tool: NEW_BUILT_IN, offered: true, replaced: true }]);
        expect(preview.refusal).toBeUndefined();

        await session.setModel("gpt-4o");
        expect(runtime.methods()).toContain("session.model.switchTo");
    });

    it("refuses a model id that is not a string in previewModel, naming it", async () => {
        const { session } = await sessionOnUnmeasuredRuntime(undefined);
        await expect(session.previewModel(42 as never)).rejects.toMatchObject({
            code: "INVALID_SESSION_OPTION",
            message: expect.stringContaining("Invalid model 42"),
        });
    });
});

describe("what a session object carries of the guard", () => {
    it("gets no own property (previewModel, setModel and send live on the class), and a disconnected one previews nothing", async () => {
        const { session } = await sessionOnUnmeasuredRuntime(true);
        // Own properties would be kept, with what their closures hold, for as long as the SDK's
        // client keeps the disconnected session (bench/sessionMemory.bench.ts).
        for (const key of ["previewModel", "setModel", "send", "setTools", "toolResolution"]) {
            expect(Object.hasOwn(session, key), key).toBe(false);
        }
        expect((await session.previewModel("gpt-4o")).refusal).toBeUndefined();
        await session.disconnect();
        await expect(session.previewModel("gpt-4o")).rejects.toMatchObject({
            code: "INVALID_TOOL_UPDATE",
        });
        expect(session.toolResolution).toBeUndefined();
    });
});
