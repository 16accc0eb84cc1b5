/**
 * The wrapper of src/wrap/wrapSdk.ts around a stand-in SDK client, built from src/ without the
 * patch build, whose TOOL_CUSTOMIZATION_PATCH therefore records no capability: what a release
 * cannot do is refused before the SDK's own method runs.
 */
import { describe, expect, it, vi } from "vitest";
import { wrapCopilotClient } from "../../src/wrap/wrapSdk.js";
import { SessionToolError } from "../../src/toolCustomization/api/sessionToolError.js";

/** A stand-in for the SDK's client: records what its methods were given. */
class StandInClient {
    readonly created: unknown[] = [];
    connection: unknown = null;
    start = vi.fn(async () => {
        this.connection = {};
    });
    async createSession(config: unknown) {
        this.created.push(config);
        return { sessionId: "s1" };
    }
    async resumeSession() {
        return { sessionId: "s1" };
    }
}

describe("the wrapped client on a release without session.tools.initializeAndValidate", () => {
    const Wrapped = wrapCopilotClient(StandInClient as never) as unknown as new (
        options?: object
    ) => StandInClient;

    it("refuses validateTools: true as UNSUPPORTED_BY_RELEASE before anything runs", async () => {
        const client = new Wrapped({});
        const error = await client
            .createSession({ validateTools: true, tools: [{ name: "lint" }] })
            .then(
                () => undefined,
                (caught: unknown) => caught
            );
        expect(SessionToolError.isInstance(error)).toBe(true);
        expect(error).toMatchObject({
            code: "UNSUPPORTED_BY_RELEASE",
            toolNames: ["session.tools.initializeAndValidate"],
        });
        expect(client.start).not.toHaveBeenCalled();
        expect(client.created).toEqual([]);
    });

    it("keeps the SDK's class name", () => {
        expect(Wrapped.name).toBe("StandInClient");
    });
});
