/**
 * The built-in sub-agents' half of the prompt agreement, on the real runtime against the mock
 * model: the package's `preToolUse` hook appends the agreement's note to each `task` call's
 * `prompt` (the sub-agent's first message), without a permission decision of its own, composed
 * with the app's own `onPreToolUse`. Also the measurements the route rests on (runtime 1.0.85,
 * docs/runtime-checks.md): `task` never asks the app's permission handler; `modifiedArgs` apply
 * without a `permissionDecision` and not with `"ask"`; the sub-agent's own calls still go to the
 * app's permission handler, whose rejection stands. In the 1.0.0 and 1.0.15-preview.4 release
 * runs too (runtime 1.0.57 gets no note: see measuredTaskPrompt.ts), and on COPILOT_EXTERNAL_RUNTIME
 * when set.
 */
import { describe, expect, it } from "vitest";
import { type PermissionRequest, type SessionConfig } from "@github/copilot-sdk";
import { CLAUDE_MODEL, recordingTool, runtimeRig } from "../support/e2eHarness.js";
import {
    toolResultTexts,
    turnUserText,
    userPrompt,
    type MockModelScript,
    type RecordedChatRequest,
} from "../support/mockModel.js";
import { describeNoLeftovers } from "../support/noLeftovers.js";
import { TASK_PROMPT_NOTE_RUNTIMES } from "../../src/toolCustomization/catalog/measuredTaskPrompt.js";

const SUBTASK = "SUBTASK: lint, then run bash";

/** `delegate` makes the model call `task` (general-purpose); the sub-agent calls lint and bash. */
const script: MockModelScript = {
    toolCall: (request) => {
        const text = userPrompt(request);
        if (text.includes("SUBTASK")) {
            return [
                { name: "lint", arguments: {} },
                { name: "bash", arguments: { command: "echo sub-ran", description: "echo" } },
            ];
        }
        if (!text.includes("delegate")) return undefined;
        return {
            name: "task",
            arguments: {
                agent_type: "general-purpose",
                name: "sub",
                description: "run the checks",
                prompt: SUBTASK,
                mode: "sync",
            },
        };
    },
};

/** The sub-agent's first message as the runtime sent it (the note is an XML block at its end). */
const subAgentPrompt = (requests: readonly RecordedChatRequest[]) => {
    const sub = requests.find((request) => userPrompt(request).includes("SUBTASK"));
    return sub === undefined ? undefined : turnUserText(sub);
};
/** Every tool result the model was sent, as text. */
const toolResults = (requests: readonly RecordedChatRequest[]) =>
    requests.flatMap((request) => toolResultTexts(request));

/** A permission handler that records each request's kind and rejects shell commands. */
function rejectingShell(asked: string[]): SessionConfig["onPermissionRequest"] {
    return (request: PermissionRequest) => {
        const { kind, toolName } = request as { kind: string; toolName?: string };
        asked.push(toolName === undefined ? kind : `${kind}:${toolName}`);
        return kind === "shell" ? { kind: "reject" } : { kind: "approve-once" };
    };
}

/** Whether the session's runtime is one of TASK_PROMPT_NOTE_RUNTIMES. */
const measuredRuntime = (session: object) =>
    TASK_PROMPT_NOTE_RUNTIMES.has(
        (session as { toolResolution?: { runtime?: { version?: string } } }).toolResolution?.runtime
            ?.version ?? ""
    );

/**
 * Whether the session's runtime is one where the note is added; on another (runtime 1.0.57 of
 * SDK 1.0.0, where `modifiedArgs` for `task` make the call fail) the test shows the task prompt
 * as the model wrote it and the sub-agent running, and ends.
 */
function noteApplies(session: object, requests: readonly RecordedChatRequest[]): boolean {
    if (measuredRuntime(session)) return true;
    const prompt = subAgentPrompt(requests);
    expect(prompt).toContain(SUBTASK);
    expect(prompt).not.toContain("<tool_availability>");
    return false;
}

describe.concurrent("the task prompt note on the real runtime", () => {
    it("appends the note naming what the session lacks and replaces to the prompt a built-in sub-agent receives, and the app's permission handler still decides every call", async ({
        onTestFinished,
    }) => {
        const { client, base, model } = await runtimeRig(onTestFinished, script);
        const asked: string[] = [];
        const session = await client.createSession({
            ...base(CLAUDE_MODEL),
            // Set: the default is "warn" on a runtime whose corpus does not prove the rewrite.
            promptAgreement: "rewrite",
            tools: [
                recordingTool("lint"),
                { ...recordingTool("view"), overridesBuiltInTool: true },
            ],
            excludedTools: ["grep"],
            onPermissionRequest: rejectingShell(asked),
        });
        await session.sendAndWait({ prompt: "delegate" });
        if (!noteApplies(session, model.requests)) return;
        const prompt = subAgentPrompt(model.requests)!;
        expect(prompt).toContain(`${SUBTASK}\n\n<tool_availability>\n`);
        expect(prompt).toContain("does not offer the tool grep");
        expect(prompt).toContain("The tool view is this application's own");
        // task asked nothing (the note's hook returns no permission decision, and 1.0.85 asks
        // none for task); the sub-agent's calls asked the app's handler, and its rejection stood.
        expect(asked.filter((kind) => kind.includes("task") || kind === "hook")).toEqual([]);
        expect(asked).toContain("shell");
        expect(asked).toContain("custom-tool:lint");
        expect(toolResults(model.requests).join("\n")).not.toContain("sub-ran");
    });

    it("composes with the app's onPreToolUse: the app's hook sees every call, its modifiedArgs get the note, its deny and its ask stand", async ({
        onTestFinished,
    }) => {
        const { client, base, model } = await runtimeRig(onTestFinished, script);
        const seen: string[] = [];
        const asked: string[] = [];
        let decision: "rewrite" | "deny" | "ask" = "rewrite";
        const session = await client.createSession({
            ...base(CLAUDE_MODEL),
            // Set: the default is "warn" on a runtime whose corpus does not prove the rewrite.
            promptAgreement: "rewrite",
            tools: [recordingTool("lint")],
            excludedTools: ["grep"],
            onPermissionRequest: (request) => {
                asked.push(request.kind);
                return { kind: "approve-once" };
            },
            hooks: {
                onPreToolUse: (input) => {
                    seen.push(input.toolName);
                    if (input.toolName !== "task") return undefined;
                    if (decision !== "rewrite") {
                        return { permissionDecision: decision, permissionDecisionReason: "app" };
                    }
                    const args = input.toolArgs as Record<string, unknown>;
                    return { modifiedArgs: { ...args, prompt: `${String(args.prompt)} (app)` } };
                },
            },
        });
        await session.sendAndWait({ prompt: "delegate" });
        // Runtime 1.0.57: the app's own modifiedArgs for task make the call fail, package or not.
        if (!measuredRuntime(session)) return;
        expect(subAgentPrompt(model.requests)).toMatch(
            /SUBTASK: lint, then run bash \(app\)\n\n<tool_availability>\n[^\n]*grep/
        );
        expect(seen).toEqual(["task", "lint", "bash"]);

        model.requests.length = 0;
        decision = "deny";
        await session.sendAndWait({ prompt: "delegate" });
        expect(subAgentPrompt(model.requests)).toBeUndefined();
        expect(toolResults(model.requests).join("\n")).toContain("Denied by preToolUse hook: app");

        // "ask": the runtime asks the app's handler (kind hook) and keeps the model's arguments.
        model.requests.length = 0;
        asked.length = 0;
        decision = "ask";
        await session.sendAndWait({ prompt: "delegate" });
        expect(asked[0]).toBe("hook");
        expect(subAgentPrompt(model.requests)).not.toContain("<tool_availability>");
    });

    it("leaves the task prompt as the model wrote it with promptAgreement 'warn' or 'off', and when the session lacks nothing", async ({
        onTestFinished,
    }) => {
        const { client, base, model } = await runtimeRig(onTestFinished, script);
        for (const options of [
            { excludedTools: ["grep"], promptAgreement: "warn" as const },
            { excludedTools: ["grep"], promptAgreement: "off" as const },
            {},
        ]) {
            model.requests.length = 0;
            const session = await client.createSession({
                ...base(CLAUDE_MODEL),
                tools: [recordingTool("lint")],
                ...options,
            });
            await session.sendAndWait({ prompt: "delegate" });
            const prompt = subAgentPrompt(model.requests);
            expect(prompt).toContain(SUBTASK);
            const { catalog } = (session as { toolResolution?: { runtime?: { catalog?: string } } })
                .toolResolution!.runtime!;
            if (options.promptAgreement === undefined && catalog === "fallback") {
                // A runtime without measurements: the built-ins the package cannot confirm are
                // named as such ("may not offer"), as in the main agent's note; nothing else.
                expect(prompt).not.toContain("does not offer");
            } else {
                expect(prompt).not.toContain("<tool_availability>");
            }
            await session.disconnect();
        }
    });

    it("names in the note what the session lacks at the time of the task call, after setTools", async ({
        onTestFinished,
    }) => {
        const { client, base, model } = await runtimeRig(onTestFinished, script);
        const session = await client.createSession({
            ...base(CLAUDE_MODEL),
            // Set: the default is "warn" on a runtime whose corpus does not prove the rewrite.
            promptAgreement: "rewrite",
            tools: [recordingTool("lint")],
            excludedTools: ["grep"],
        });
        model.requests.length = 0;
        await session.sendAndWait({ prompt: "delegate" });
        if (!noteApplies(session, model.requests)) return;
        model.requests.length = 0;
        await session.setTools({ excludedTools: ["glob"] });
        await session.sendAndWait({ prompt: "delegate" });
        const prompt = subAgentPrompt(model.requests)!;
        expect(prompt).toContain("does not offer the tool glob");
        expect(prompt).not.toMatch(/<tool_availability>[\s\S]*grep/);
    });
});

describeNoLeftovers();
