/**
 * resumeSession with a custom tool named like a built-in, against the real runtime: a session
 * made and used without custom tools is resumed with a custom `view`. Through the patched SDK
 * the resumed session behaves as a new one does (one definition, the custom one; the custom
 * handler answers), on the client that made the session and on a new one; through the
 * unpatched SDK the resumed session fails at its first send.
 */
import { describe, expect, it } from "vitest";
import { CopilotClient } from "@github/copilot-sdk";
import { CopilotClient as UnpatchedClient } from "copilot-sdk-unpatched";
import {
    CLAUDE_MODEL,
    e2eRig,
    isRecordingTool,
    recordingTool,
    stoppedAtEnd,
    testCleanups,
    type E2eRig,
} from "../support/e2eHarness.js";
import { callsOfferedTools, descriptionOf } from "../support/mockModel.js";
import { describeNoLeftovers } from "../support/noLeftovers.js";

const CALL_PROMPT = "Use your tools now.";
const ARGS = { path: "/tmp/example.txt" };

/** Creates a session without custom tools, has one turn in it, disconnects it. */
async function earlierSessionId<C extends CopilotClient | UnpatchedClient>({
    client,
    base,
}: E2eRig<C>): Promise<string> {
    const session = await client.createSession(base(CLAUDE_MODEL));
    await session.sendAndWait({ prompt: "Hello." });
    await session.disconnect();
    return session.sessionId;
}

describe.concurrent("resumeSession with a custom view, patched SDK", () => {
    it.for([
        ["on the client that made the session", false],
        ["on a new client", true],
    ] as const)(
        "%s: the model sees only the custom definition, and a call runs the custom handler",
        async ([, newClient], { onTestFinished }) => {
            const defer = testCleanups(onTestFinished);
            const makeClient = (baseDirectory: string) =>
                new CopilotClient({ baseDirectory, onToolWarning: () => {} });
            const rig = await e2eRig(
                defer,
                makeClient,
                callsOfferedTools(CALL_PROMPT, isRecordingTool, ARGS)
            );
            const { model, base } = rig;
            const sessionId = await earlierSessionId(rig);
            const resumer = newClient
                ? stoppedAtEnd(defer, makeClient(rig.baseDirectory))
                : rig.client;

            const tool = recordingTool("view");
            const session = await resumer.resumeSession(sessionId, {
                ...base(CLAUDE_MODEL),
                tools: [tool],
            });
            expect(session.sessionId).toBe(sessionId);
            expect(session.toolResolution?.overriddenBuiltInTools).toEqual(["view"]);

            const first = model.requests.length;
            const reply = await session.sendAndWait({ prompt: CALL_PROMPT });

            expect(model.toolDefinitionsOf(first, "view").map(descriptionOf)).toEqual([
                tool.description,
            ]);
            expect(new Set(model.toolNamesOf(first))).toEqual(
                new Set(session.toolResolution?.enabledTools)
            );
            expect(tool.calls).toEqual([ARGS]);
            expect(model.toolResultsOf(first + 1).map((result) => result.text)).toEqual([
                tool.result,
            ]);
            expect(reply?.data.content).toBe(`tool said: ${tool.result}`);
        }
    );
});

describe.concurrent("resumeSession with a custom view, unpatched SDK (control)", () => {
    it("resumes, then fails at the first send with a conflict, and the custom handler never runs", async ({
        onTestFinished,
    }) => {
        const rig = await e2eRig(
            testCleanups(onTestFinished),
            (baseDirectory) => new UnpatchedClient({ baseDirectory }),
            callsOfferedTools(CALL_PROMPT, isRecordingTool, ARGS)
        );
        const sessionId = await earlierSessionId(rig);
        const tool = recordingTool("view");
        const session = await rig.client.resumeSession(sessionId, {
            ...rig.base(CLAUDE_MODEL),
            tools: [tool],
        });
        const requestsBefore = rig.model.requests.length;

        await expect(session.sendAndWait({ prompt: CALL_PROMPT })).rejects.toThrow(
            'External tool "view" conflicts with a built-in tool'
        );
        expect(rig.model.requests).toHaveLength(requestsBefore);
        expect(tool.calls).toEqual([]);
    });
});

describeNoLeftovers();
