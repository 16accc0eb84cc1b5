/**
 * What a disconnected session keeps of its tools: the SDK keeps the session object (and with it
 * the section transforms and hooks it was given), so nothing those reach may hold the app's
 * handlers. Here the test holds the session object as the SDK does, and the handler's captured
 * object must be collectable once the app lets go of its tools.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { approveAll } from "@github/copilot-sdk";
import { fakeRuntimeClients } from "../support/fakeRuntimeClient.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const { setUp } = fakeRuntimeClients();

async function collected(ref: WeakRef<object>): Promise<boolean> {
    for (let attempt = 0; attempt < 10 && ref.deref() !== undefined; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        gc();
    }
    return ref.deref() === undefined;
}

/** A session whose custom `view` replaces the built-in; the weak ref to what its handler holds. */
async function disconnectedSession(
    client: Awaited<ReturnType<typeof setUp>>["client"],
    promptAgreement: "rewrite" | "warn"
): Promise<{ session: object; captured: WeakRef<object> }> {
    const captured = { state: new Array(1000).fill("view") };
    const session = await client.createSession({
        model: "claude-sonnet-4.5",
        onPermissionRequest: approveAll,
        promptAgreement,
        tools: [
            {
                name: "view",
                description: "The app's own view",
                overridesBuiltInTool: true,
                handler: async () => captured.state[0],
            },
        ],
    });
    await session.disconnect();
    return { session, captured: new WeakRef(captured) };
}

describe("a disconnected session keeps none of its tools", () => {
    it.each(["rewrite", "warn"] as const)(
        "lets the handlers go with promptAgreement '%s' (transforms and, in rewrite mode, the task-note hook given to the SDK)",
        async (promptAgreement) => {
            const { client } = await setUp();
            const { session, captured } = await disconnectedSession(client, promptAgreement);
            // The task-note hook is given in rewrite mode on runtime 1.0.85 (the fake's version).
            const hooks = (session as { hooks?: unknown }).hooks;
            if (promptAgreement === "rewrite") expect(hooks).toBeDefined();
            expect(await collected(captured)).toBe(true);
            // The session object stays reachable, as the SDK's client keeps it.
            expect(session).toBeDefined();
        }
    );
});
