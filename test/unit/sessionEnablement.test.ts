/**
 * What the session step keeps for sessions built alike (the overrides, the enablement, the
 * snapshots) holds the app's tools only while the app holds them: a handler, and whatever it
 * captures, is collectable once the app lets go of its tool object, however many sessions were
 * built from it.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { prepareSessionConfig } from "../../src/toolCustomization/construction/pipeline.js";
import { createSessionToolState } from "../../src/toolCustomization/construction/clientState.js";
import type { ToolSessionConfig } from "../../src/toolCustomization/api/sessionConfig.js";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** A stand-in client with the bundled, measured runtime 1.0.85: it is asked nothing. */
const host = {
    getStatus: async () => ({ version: "1.0.85" }),
    rpc: { tools: { list: async () => ({ tools: [] }) } },
    sessionToolState: createSessionToolState({ onToolWarning: () => {} }, "1.0.85"),
};

/** Builds `sessions` sessions from one app tool whose handler captures an object; a weak ref to it. */
async function sessionsFromOneTool(sessions: number, name: string): Promise<WeakRef<object>> {
    const captured = { state: new Array(1000).fill(name) };
    const tool = { name, description: `The ${name} tool`, handler: async () => captured.state[0] };
    for (let i = 0; i < sessions; i++) {
        const prepared = await prepareSessionConfig(
            host,
            {
                model: "claude-sonnet-4.5",
                tools: [tool],
                availableTools: ["toolset:read", "custom:*"],
            } as unknown as ToolSessionConfig,
            (config) => ({
                availableTools: config.availableTools,
                excludedTools: config.excludedTools,
            })
        );
        expect(prepared.config.tools!.map((sent) => sent.name)).toEqual([name]);
    }
    return new WeakRef(captured);
}

async function collected(ref: WeakRef<object>): Promise<boolean> {
    for (let attempt = 0; attempt < 10 && ref.deref() !== undefined; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        gc();
    }
    return ref.deref() === undefined;
}

describe("what the session step keeps for sessions built alike", () => {
    it("lets a tool's handler go once the app lets go of the tool", async () => {
        const refs = [await sessionsFromOneTool(3, "lint"), await sessionsFromOneTool(3, "fmt")];
        // A later session with other tools, as an app would go on.
        const later = await sessionsFromOneTool(1, "check");
        expect(await collected(refs[0]!)).toBe(true);
        expect(await collected(refs[1]!)).toBe(true);
        expect(later).toBeDefined();
    });
});
