/**
 * A custom agent's own `model`, checked at construction as `setModel` checks a switch, through the
 * real patched client against a fake runtime (measured version 1.0.85): for a model id the
 * measurements lack, the runtime's `tools.list({ model })` shows a built-in named like a custom
 * tool the agent is offered, which would answer the agent's calls of it.
 */
import { describe, expect, it } from "vitest";
import { approveAll, SessionToolError } from "@github/copilot-sdk";
import { FAKE_LISTED_TOOLS } from "../support/fakeRuntime.js";
import { fakeRuntimeClients } from "../support/fakeRuntimeClient.js";

const { setUp } = fakeRuntimeClients();
const handler = async (): Promise<string> => "custom result";
/** A name no measured runtime has; the fake runtime lists it as a built-in of every model. */
const NEW_BUILT_IN = "apply_diff";
/** A model id no measurement of runtime 1.0.85 has. */
const UNMEASURED_MODEL = "gpt-9-preview";

async function attempt(agent: Record<string, unknown>, overridesBuiltInTool?: boolean) {
    const { runtime, client } = await setUp();
    runtime.setToolList({ kind: "list", names: [...FAKE_LISTED_TOOLS, NEW_BUILT_IN] });
    const outcome = await client
        .createSession({
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
            customAgents: [{ name: "reviewer", prompt: "Review the change.", ...agent }],
        })
        .then(
            () => "created",
            (error: unknown) => error
        );
    return { runtime, outcome };
}

describe("a custom agent's model", () => {
    it("refuses an agent on an unmeasured model where a built-in has a custom tool's name, before session.create", async () => {
        const { runtime, outcome } = await attempt({ model: UNMEASURED_MODEL }, false);
        expect(SessionToolError.isInstance(outcome)).toBe(true);
        expect(outcome).toMatchObject({
            code: "BUILT_IN_TOOL_COLLISION",
            toolNames: [NEW_BUILT_IN],
        });
        const message = (outcome as Error).message;
        expect(message).toContain(`Custom agent 'reviewer' runs on model '${UNMEASURED_MODEL}'`);
        expect(message).toContain(`built-in '${NEW_BUILT_IN}'`);
        expect(message).toContain("Set overridesBuiltInTool: true on it");
        expect(runtime.paramsOf("tools.list")).toEqual([{ model: UNMEASURED_MODEL }]);
        expect(runtime.paramsOf("session.create")).toEqual([]);
    });

    it("accepts the agent, asking nothing, when the custom tool replaces built-ins (flagged by the app or by the package)", async () => {
        for (const flag of [true, undefined]) {
            const { runtime, outcome } = await attempt({ model: UNMEASURED_MODEL }, flag);
            expect(outcome).toBe("created");
            expect(runtime.paramsOf("tools.list")).toEqual([]);
            expect(runtime.paramsOf("session.create")[0]?.tools).toMatchObject([
                { name: NEW_BUILT_IN, overridesBuiltInTool: true },
            ]);
        }
    });

    it("accepts the agent when its tools leave the custom tool out", async () => {
        const { outcome } = await attempt({ model: UNMEASURED_MODEL, tools: ["view"] }, false);
        expect(outcome).toBe("created");
    });

    it("asks nothing for a model the measurements know, nor for an agent on the session's model", async () => {
        for (const model of ["gpt-4o", "claude-sonnet-4.5"]) {
            const { runtime, outcome } = await attempt({ model }, false);
            expect(outcome).toBe("created");
            expect(runtime.paramsOf("tools.list")).toEqual([]);
        }
    });

    it("leaves the measurements to decide when the runtime cannot list for the model, as setModel does", async () => {
        const { runtime, client } = await setUp();
        runtime.setToolList({ kind: "fail", message: "no listing" });
        await expect(
            client.createSession({
                model: "claude-sonnet-4.5",
                onPermissionRequest: approveAll,
                tools: [
                    {
                        name: NEW_BUILT_IN,
                        description: "The app's own diff tool",
                        handler,
                        overridesBuiltInTool: false,
                    },
                ],
                customAgents: [{ name: "reviewer", prompt: "Review.", model: UNMEASURED_MODEL }],
            })
        ).resolves.toBeDefined();
        expect(runtime.paramsOf("tools.list")).toEqual([{ model: UNMEASURED_MODEL }]);
    });
});
