/**
 * The mock model's scripts match the user's own text: the real runtime begins each user message
 * with its `<current_datetime>...</current_datetime>` block, so a script written as
 * `startsWith(<the prompt>)` on the raw message never fires; on `userPrompt(request)` it does.
 */
import { describe, expect, it } from "vitest";
import { CopilotClient } from "@github/copilot-sdk";
import { CLAUDE_MODEL, e2eRig, recordingTool, testCleanups } from "../support/e2eHarness.js";
import { lastUserText, userPrompt, type RecordedChatRequest } from "../support/mockModel.js";
import { describeNoLeftovers } from "../support/noLeftovers.js";

const PROMPT = "Read notes.txt for me";

describe("the mock model's view of the user's prompt", () => {
    it("fires a startsWith script on userPrompt(request), which is the prompt as sent", async ({
        onTestFinished,
    }) => {
        const defer = testCleanups(onTestFinished);
        const seen: RecordedChatRequest[] = [];
        const { client, model, base } = await e2eRig(
            defer,
            (baseDirectory) => new CopilotClient({ baseDirectory, onToolWarning: () => {} }),
            {
                toolCall: (request) => {
                    seen.push(request);
                    return userPrompt(request).startsWith(PROMPT)
                        ? { name: "view", arguments: { path: "notes.txt" } }
                        : undefined;
                },
            }
        );
        const view = { ...recordingTool("view"), overridesBuiltInTool: true };
        const session = await client.createSession({ ...base(CLAUDE_MODEL), tools: [view] });
        const reply = await session.sendAndWait({ prompt: PROMPT });
        expect(view.calls).toEqual([{ path: "notes.txt" }]);
        expect(reply?.data.content).toBe(`tool said: ${view.result}`);
        expect(userPrompt(seen[0]!)).toBe(PROMPT);
        // The raw message the runtime sent starts with its own block, not with the prompt.
        expect(lastUserText(seen[0]!)).toMatch(
            /^<current_datetime>[^<]+<\/current_datetime>\n\nRead notes\.txt for me(\n\n<system_reminder>[\s\S]*<\/system_reminder>)?$/
        );
        expect(model.requests).toHaveLength(2);
        await session.disconnect();
    }, 120_000);
});

describe("userPrompt", () => {
    const request = (...contents: unknown[]): RecordedChatRequest => ({
        model: "m",
        messages: [
            { role: "system", content: "system" },
            ...contents.map((content) => ({ role: "user", content })),
        ],
    });

    it("strips the runtime's blocks at the start of each user message of the turn, and drops messages that are only such blocks", () => {
        expect(
            userPrompt(
                request(
                    "<current_datetime>2026-11-26T21:00:50.149+00:00</current_datetime>\n\nfirst line\nsecond <b>line</b>",
                    "<reminder>\nsome deferred tools\n</reminder>"
                )
            )
        ).toBe("first line\nsecond <b>line</b>");
        expect(userPrompt(request([{ type: "text", text: "<a_b>x</a_b> hello" }]))).toBe("hello");
        // Runtime 1.0.57 (SDK 1.0.0) puts a reminder after the prompt.
        expect(
            userPrompt(
                request(
                    "<current_datetime>2026-11-26T21:41:28.179+00:00</current_datetime>\n\nUse your tools now.\n\n<system_reminder>\n<sql_tables>No tables currently exist.</sql_tables>\n</system_reminder>"
                )
            )
        ).toBe("Use your tools now.");
        expect(userPrompt(request("plain <current_datetime>x</current_datetime>"))).toBe(
            "plain <current_datetime>x</current_datetime>"
        );
    });
});

describeNoLeftovers();
