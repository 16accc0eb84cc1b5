/**
 * A custom tool named like a built-in, against the real runtime and a mock model that calls it:
 * through the patched SDK the model sees one definition of the name, the custom one, and the
 * call runs the custom handler, whose result reaches the model. Through the unpatched SDK the
 * same config fails at the first send or the built-in answers in the custom tool's place; which
 * one is what the runtime does for that name, written down per case.
 */
import { describe, expect, it } from "vitest";
import { BuiltInTools, CopilotClient, type SessionToolWarning } from "@github/copilot-sdk";
import { CopilotClient as UnpatchedClient } from "copilot-sdk-unpatched";
import {
    CLAUDE_MODEL,
    GPT_MODEL,
    e2eRig,
    isRecordingTool,
    recordingTool,
    testCleanups,
} from "../support/e2eHarness.js";
import { callsOfferedTools, descriptionOf, toolResultTexts } from "../support/mockModel.js";
import { describeNoLeftovers } from "../support/noLeftovers.js";
import {
    isBuiltInOfReleaseUnderTest,
    runtimeOfReleaseUnderTest,
} from "../support/rawMeasurements.js";

/** The prompt that makes the mock model call the custom tool; any other gets "ok". */
const CALL_PROMPT = "Use your tools now.";
const ARGS = { path: "/tmp/example.txt" };

interface OverrideCase {
    readonly name: string;
    readonly model: string;
    /** What the runtime does with the same tool when the SDK is not patched. */
    readonly unpatched: "fails at the first send" | "the built-in answers instead";
}

const CASES: readonly OverrideCase[] = [
    { name: "view", model: CLAUDE_MODEL, unpatched: "fails at the first send" },
    { name: "apply_patch", model: GPT_MODEL, unpatched: "fails at the first send" },
    // Hidden built-ins: never offered to the model, yet they answer calls of their name.
    { name: "read_file", model: CLAUDE_MODEL, unpatched: "the built-in answers instead" },
    { name: "update_todo", model: CLAUDE_MODEL, unpatched: "the built-in answers instead" },
];

/**
 * The arguments a handler received, as an object: runtime 1.0.57 hands a custom apply_patch (a
 * freeform tool for GPT models there) the JSON text the model wrote instead of parsing it.
 */
function argumentsOf(call: unknown): unknown {
    return typeof call === "string" ? JSON.parse(call) : call;
}

/** Runtimes seen not to end the turn at a custom task_complete (written by hand, as measured). */
const RUNTIMES_CONTINUING_AFTER_TASK_COMPLETE: readonly string[] = ["1.0.57"];

/** A mock model that calls every tool with a custom description when asked to. */
const callsCustomTools = callsOfferedTools(CALL_PROMPT, isRecordingTool, ARGS);

/** The cases as `[name, model, unpatched]` rows, for test names without quotes. */
const CASE_ROWS = CASES.map((c) => [c.name, c.model, c.unpatched] as const);

describe.concurrent("a custom tool named like a built-in, patched SDK", () => {
    it.for(CASE_ROWS)(
        "%s on %s: the model sees only the custom definition, and a call runs the custom handler",
        async ([name, modelId], { onTestFinished }) => {
            const defer = testCleanups(onTestFinished);
            const { client, model, base } = await e2eRig(
                defer,
                (baseDirectory) => new CopilotClient({ baseDirectory, onToolWarning: () => {} }),
                callsCustomTools
            );
            const tool = recordingTool(name);
            const session = await client.createSession({ ...base(modelId), tools: [tool] });
            // A runtime without a built-in of the name (read_file and update_todo arrived after
            // runtime 1.0.57) has nothing to replace: the tool is an ordinary custom tool there.
            expect(session.toolResolution?.overriddenBuiltInTools).toEqual(
                isBuiltInOfReleaseUnderTest(name) ? [name] : []
            );

            const reply = await session.sendAndWait({ prompt: CALL_PROMPT });

            const definitions = model.toolDefinitionsOf(0, name);
            expect(definitions.map(descriptionOf)).toEqual([tool.description]);
            expect(new Set(model.toolNamesOf(0))).toEqual(
                new Set(session.toolResolution?.enabledTools)
            );
            expect(tool.calls.map(argumentsOf)).toEqual([ARGS]);
            expect(model.toolResultsOf(1).map((result) => result.text)).toEqual([tool.result]);
            expect(reply?.data.content).toBe(`tool said: ${tool.result}`);
        }
    );
});

describe.concurrent("a custom tool named like a built-in, unpatched SDK (control)", () => {
    it.for(CASE_ROWS)(
        "%s on %s: %s, and the custom handler never runs",
        async ([name, modelId, unpatched], { onTestFinished }) => {
            const defer = testCleanups(onTestFinished);
            const { client, model, base } = await e2eRig(
                defer,
                (baseDirectory) => new UnpatchedClient({ baseDirectory }),
                callsCustomTools
            );
            const tool = recordingTool(name);
            const session = await client.createSession({ ...base(modelId), tools: [tool] });

            const sent = await session.sendAndWait({ prompt: CALL_PROMPT }).then(
                () => undefined,
                (error: unknown) => error as Error
            );

            if (unpatched === "fails at the first send") {
                expect(sent?.message).toContain(
                    `External tool "${name}" conflicts with a built-in tool`
                );
                expect(model.requests).toEqual([]);
            } else {
                expect(sent).toBeUndefined();
                expect(model.toolDefinitionsOf(0, name).map(descriptionOf)).toEqual([
                    tool.description,
                ]);
                const results = model.toolResultsOf(1);
                expect(results).toHaveLength(1);
                expect(results[0]?.text).not.toContain(tool.result);
            }
            expect(tool.calls).toEqual([]);
        }
    );
});

describe.concurrent("a custom tool whose name differs from a built-in's only in case", () => {
    it("keeps both, with one warning, and a call of the custom one runs the custom handler", async ({
        onTestFinished,
    }) => {
        const warnings: SessionToolWarning[] = [];
        const { client, model, base } = await e2eRig(
            testCleanups(onTestFinished),
            (baseDirectory) =>
                new CopilotClient({ baseDirectory, onToolWarning: (w) => warnings.push(w) }),
            callsCustomTools
        );
        const tool = recordingTool("View");
        const session = await client.createSession({ ...base(CLAUDE_MODEL), tools: [tool] });
        expect(warnings.map((w) => [w.code, w.identifiers])).toEqual([
            ["CASE_ONLY_MATCH", ["View"]],
        ]);

        await session.sendAndWait({ prompt: CALL_PROMPT });

        expect(model.toolNamesOf(0)).toEqual(expect.arrayContaining(["view", "View"]));
        expect(model.toolDefinitionsOf(0, "View").map(descriptionOf)).toEqual([tool.description]);
        expect(tool.calls).toEqual([ARGS]);
        expect(model.toolResultsOf(1).map((result) => result.text)).toEqual([tool.result]);
    });
});

describe.concurrent("a custom task_complete, patched SDK", () => {
    it("runs the custom handler, and the runtime still ends the turn as its built-in does", async ({
        onTestFinished,
    }) => {
        const defer = testCleanups(onTestFinished);
        const { client, model, base } = await e2eRig(
            defer,
            (baseDirectory) => new CopilotClient({ baseDirectory, onToolWarning: () => {} }),
            callsCustomTools
        );
        const tool = recordingTool("task_complete");
        const session = await client.createSession({ ...base(CLAUDE_MODEL), tools: [tool] });
        const completions: unknown[] = [];
        session.on("session.task_complete", (event) => completions.push(event.data));

        const reply = await session.sendAndWait({ prompt: CALL_PROMPT });

        expect(model.toolDefinitionsOf(0, "task_complete").map(descriptionOf)).toEqual([
            tool.description,
        ]);
        expect(tool.calls).toEqual([ARGS]);
        if (RUNTIMES_CONTINUING_AFTER_TASK_COMPLETE.includes(runtimeOfReleaseUnderTest())) {
            // This runtime treats the custom task_complete as any custom tool: the result goes
            // back to the model in the same turn.
            expect(toolResultTexts(model.requests[1])).toEqual([tool.result]);
            return;
        }
        // The runtime ends the turn on the call, by name: no request carries the result...
        expect(model.requests).toHaveLength(1);
        expect(reply?.data.content).toBe("");
        expect(completions).toEqual([{ summary: "", success: true }]);
        // ...until the next turn, whose request has it in the conversation.
        await session.sendAndWait({ prompt: "Hello." });
        expect(toolResultTexts(model.requests[1])).toEqual([tool.result]);
    });
});

describe.concurrent("a custom tool named like a built-in in empty mode", () => {
    /** The session config of an app in `mode: "empty"`, which must list its tools. */
    const emptyModeConfig = {
        includedBuiltinSkills: [],
        tools: [recordingTool("view")],
        availableTools: [...BuiltInTools.Isolated.map((name) => `builtin:${name}`), "custom:*"],
    };

    it("is constructed and answers, with the patched SDK", async ({ onTestFinished }) => {
        const defer = testCleanups(onTestFinished);
        const { client, base } = await e2eRig(
            defer,
            (baseDirectory) =>
                new CopilotClient({ baseDirectory, mode: "empty", onToolWarning: () => {} })
        );
        const session = await client.createSession({ ...base(CLAUDE_MODEL), ...emptyModeConfig });
        expect(session.toolResolution?.overriddenBuiltInTools).toEqual(["view"]);
        expect((await session.sendAndWait({ prompt: "Hello." }))?.data.content).toBe("ok");
    });

    it("fails inside createSession, after the runtime made the session, with the unpatched SDK", async ({
        onTestFinished,
    }) => {
        const defer = testCleanups(onTestFinished);
        const { client, base } = await e2eRig(
            defer,
            (baseDirectory) => new UnpatchedClient({ baseDirectory, mode: "empty" })
        );
        await expect(
            client.createSession({ ...base(CLAUDE_MODEL), ...emptyModeConfig })
        ).rejects.toThrow(
            /session\.options\.update failed .*External tool "view" conflicts with a built-in tool/
        );
    });
});

describeNoLeftovers();
