/**
 * `customAgents: null` and `defaultAgent: null` mean none, as `undefined` does (found by the
 * hostile-input property test, seed 543637132: `defaultAgent: null` failed createSession with a
 * TypeError instead of creating the session), through the real patched client against a fake
 * runtime.
 */
import { describe, expect, it } from "vitest";
import { approveAll } from "@github/copilot-sdk";
import { fakeRuntimeClients } from "../support/fakeRuntimeClient.js";

const { setUp } = fakeRuntimeClients();
const handler = async (): Promise<string> => "custom result";

describe("agent options set to null", () => {
    it.for(["customAgents", "defaultAgent"])(
        "creates the session with %s: null and sends it as given",
        async (option) => {
            const { runtime, client } = await setUp();
            await client.createSession({
                model: "claude-sonnet-4.5",
                onPermissionRequest: approveAll,
                tools: [{ name: "lint", description: "Lint the project", handler }],
                [option]: null,
            });
            const [sent] = runtime.paramsOf("session.create");
            expect(sent).toBeDefined();
            expect(sent?.[option] ?? null).toBeNull();
        }
    );
});
