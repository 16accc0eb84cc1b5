/**
 * Changes mid-session and the runtime's sub-agents, on the real runtime against the mock model:
 * a sub-agent that runs (a sync or a background `task`) keeps the session busy, so a change that
 * `SESSION_BUSY` guards waits for it; a sub-agent started after `setTools` is offered the tools
 * then in force; and a change that would make a custom agent's entries name other tools than
 * the runtime holds for it is refused (`AGENT_TOOLS_FIXED`); a sub-agent started after `setModel`
 * runs on the new model with its built-ins, and a `setModel` made while a sub-agent runs goes
 * through the same busy check but is applied at once: a model switch moves no custom tool's name
 * to or from a built-in and redefines none (the overrides and the definitions sent do not depend
 * on the model), which is all `SESSION_BUSY` guards. Measured on runtimes 1.0.85 and 1.0.102.
 * On both, the runtime holds the main run's `session.idle` back until a sub-agent has ended, so
 * the run alone keeps the session busy here; the sub-agent's own busy state (turns.ts) is what
 * counts when an idle comes first, which test/integration/sessionOwnership.test.ts covers.
 */
import { describe, expect, it } from "vitest";
import { type SessionToolWarning, type ToolAnswer } from "@github/copilot-sdk";
import { CLAUDE_MODEL, GPT_MODEL, recordingTool, runtimeRig } from "../support/e2eHarness.js";
import {
    contentText,
    descriptionOf,
    toolNameOf,
    toolResultTexts,
    userPrompt,
    type MockModelScript,
    type RecordedChatRequest,
} from "../support/mockModel.js";
import { describeNoLeftovers } from "../support/noLeftovers.js";
import { RELEASE_UNDER_TEST } from "../support/rawMeasurements.js";

/**
 * Whether the release under test has the runtime request `session.tools.set` (1.0.13-preview.4
 * and later), which every case here uses; older releases refuse setTools with
 * UNSUPPORTED_BY_RELEASE (test/e2e/releaseCapabilities.test.ts).
 */
const [, minor = 0, patch = 0] = RELEASE_UNDER_TEST.split(/[.-]/).map(Number);
const HAS_SET_TOOLS = minor > 0 || patch >= 13;

/** `delegate <agent> [background]` calls task; the sub-agent calls lint when told to. */
const script: MockModelScript = {
    toolCall: (request) => {
        const text = userPrompt(request);
        if (text.includes("SUBTASK")) {
            return text.includes("lint") ? { name: "lint", arguments: {} } : undefined;
        }
        const delegated = /delegate (\S+)( background)?( lint)?/.exec(text);
        if (delegated === null) return undefined;
        return {
            name: "task",
            arguments: {
                agent_type: delegated[1],
                name: "sub",
                description: "sub-task",
                prompt: delegated[3] === undefined ? "SUBTASK" : "SUBTASK: lint",
                mode: delegated[2] === undefined ? "sync" : "background",
            },
        };
    },
};

const subAgentRequest = (requests: readonly RecordedChatRequest[]) =>
    requests.find((request) => userPrompt(request).includes("SUBTASK"));
/** Whether a request is the sub-agent's: its conversation starts with the task's prompt. */
const isSubAgent = (request: RecordedChatRequest) =>
    request.messages.some(
        (message) => message.role === "user" && contentText(message.content).includes("SUBTASK")
    );
const WATCHED = ["lint", "fmt", "grep", "glob", "view", "bash"];
/** The watched tools a request offers; a `view` the app's is `view(custom)`. */
const offered = (request: RecordedChatRequest | undefined) =>
    (request?.tools ?? [])
        .filter((tool) => WATCHED.includes(toolNameOf(tool)))
        .map((tool) =>
            descriptionOf(tool)?.startsWith("Custom ") === true && toolNameOf(tool) === "view"
                ? "view(custom)"
                : toolNameOf(tool)
        )
        .sort();

describe.skipIf(!HAS_SET_TOOLS)(
    `changes mid-session and sub-agents on the real runtime${HAS_SET_TOOLS ? "" : ` (skipped: SDK ${RELEASE_UNDER_TEST} has no session.tools.set, so no setTools)`}`,
    () => {
        for (const mode of ["sync", "background"] as const) {
            it(`counts a sub-agent started by a ${mode} task as busy while it runs: a change SESSION_BUSY guards is refused, and applied once it ended`, async ({
                onTestFinished,
            }) => {
                const { client, base } = await runtimeRig(onTestFinished, script);
                let release!: () => void;
                const gate = new Promise<void>((resolve) => (release = resolve));
                let entered!: () => void;
                const inLint = new Promise<void>((resolve) => (entered = resolve));
                const lint = {
                    ...recordingTool("lint"),
                    handler: async () => {
                        entered();
                        await gate;
                        return "lint done";
                    },
                };
                const session = await client.createSession({
                    ...base(CLAUDE_MODEL),
                    tools: [lint],
                });
                const idle = new Promise<void>((resolve) =>
                    session.on("session.idle", () => resolve())
                );
                const turn = session.sendAndWait({
                    prompt: `delegate general-purpose${mode === "sync" ? "" : " background"} lint`,
                });
                await inLint;
                // A custom glob would take the name from the built-in the sub-agent may call.
                const glob = { ...recordingTool("glob"), overridesBuiltInTool: true };
                await expect(session.setTools({ tools: [lint, glob] })).rejects.toMatchObject({
                    code: "SESSION_BUSY",
                });
                release();
                await turn;
                await idle;
                await expect(session.setTools({ tools: [lint, glob] })).resolves.toBeDefined();
            });
        }

        for (const mode of ["sync", "background"] as const) {
            it(`applies a setModel made while a sub-agent of a ${mode} task runs at once (the session busy: a redefinition at that moment is refused), the sub-agent keeps its model and tools, and every call reaches the app's handler`, async ({
                onTestFinished,
            }) => {
                const { client, base, model } = await runtimeRig(onTestFinished, {
                    ...script,
                    // The sub-agent calls lint a second time after the first one's result.
                    followUp: (request) =>
                        isSubAgent(request) && toolResultTexts(request).length < 2
                            ? { name: "lint", arguments: {} }
                            : undefined,
                });
                let release!: () => void;
                const gate = new Promise<void>((resolve) => (release = resolve));
                let entered!: () => void;
                const inLint = new Promise<void>((resolve) => (entered = resolve));
                const handled: string[] = [];
                const lint = {
                    ...recordingTool("lint"),
                    handler: async (_args: unknown, invocation: { toolCallId: string }) => {
                        handled.push(invocation.toolCallId);
                        entered();
                        await gate;
                        return "lint done";
                    },
                };
                // The app's grep replaces the built-in on both model families.
                const grep = { ...recordingTool("grep"), overridesBuiltInTool: true };
                const session = await client.createSession({
                    ...base(CLAUDE_MODEL),
                    tools: [lint, grep],
                });
                const idle = new Promise<void>((resolve) =>
                    session.on("session.idle", () => resolve())
                );
                // A background task's main turn ends while its sub-agent runs.
                const mainTurnEnded = new Promise<void>((resolve) =>
                    session.on("assistant.turn_end", (event) => {
                        if ((event as { agentId?: unknown }).agentId === undefined) resolve();
                    })
                );
                const turn = session.sendAndWait({
                    prompt: `delegate general-purpose${mode === "sync" ? "" : " background"} lint`,
                });
                await inLint;
                if (mode === "background") await mainTurnEnded;
                const redefined = { ...grep, description: "Custom grep, redefined." };
                await expect(session.setTools({ tools: [lint, redefined] })).rejects.toMatchObject({
                    code: "SESSION_BUSY",
                });
                const switched = session.setModel(GPT_MODEL).then(() => "switched");
                // Settled while the sub-agent still waits in the app's handler.
                await expect(
                    Promise.race([switched, new Promise((resolve) => setTimeout(resolve, 10_000))])
                ).resolves.toBe("switched");
                expect(session.toolResolution!.enabledTools).toEqual(
                    expect.arrayContaining(["apply_patch", "rg", "grep", "lint"])
                );
                expect(session.toolResolution!.enabledTools).not.toContain("edit");
                const switchedAt = model.requests.length;
                release();
                await turn;
                await idle;

                // The running sub-agent kept its model and its tools (Claude's edit, the app's grep).
                const subAfter = model.requests.slice(switchedAt).filter(isSubAgent);
                expect(subAfter.length).toBeGreaterThan(0);
                for (const request of subAfter) {
                    expect(request.model).toBe(CLAUDE_MODEL);
                    expect(offered(request)).toEqual(["bash", "glob", "grep", "lint", "view"]);
                    expect(request.tools?.map(toolNameOf)).toContain("edit");
                }
                // Every lint call the model made was answered by the app's handler.
                const lintResults = model.requests
                    .flatMap((_, index) => model.toolResultsOf(index))
                    .filter((result) => result.toolCallId?.endsWith("_lint") === true);
                const answered = new Map(lintResults.map((r) => [r.toolCallId!, r.text]));
                expect(answered.size).toBe(2);
                expect([...answered.values()]).toEqual(["lint done", "lint done"]);
                expect([...new Set(handled)].sort()).toEqual([...answered.keys()].sort());
                // The next message runs on the new model.
                model.requests.length = 0;
                await session.sendAndWait({ prompt: "hello" });
                expect(model.requests.map((request) => request.model)).toEqual([GPT_MODEL]);
            });
        }

        it("offers a sub-agent started after setTools the tools then in force: the built-in and the list-less custom agent get the new tools, a listing agent keeps its list, less what the session excludes", async ({
            onTestFinished,
        }) => {
            const warnings: SessionToolWarning[] = [];
            const { client, base, model } = await runtimeRig(onTestFinished, script, (warning) =>
                warnings.push(warning)
            );
            const session = await client.createSession({
                ...base(CLAUDE_MODEL),
                tools: [recordingTool("lint")],
                customAgents: [
                    { name: "runner", prompt: "Run.", tools: ["lint", "grep", "glob", "view"] },
                    { name: "all", prompt: "All." },
                ],
            });
            const offeredTo = async (agent: string) => {
                model.requests.length = 0;
                await session.sendAndWait({ prompt: `delegate ${agent}` });
                return offered(subAgentRequest(model.requests));
            };
            expect(await offeredTo("general-purpose")).toEqual([
                "bash",
                "glob",
                "grep",
                "lint",
                "view",
            ]);
            expect(await offeredTo("runner")).toEqual(["glob", "grep", "lint", "view"]);
            await session.setTools({
                tools: [
                    recordingTool("lint"),
                    recordingTool("fmt"),
                    { ...recordingTool("view"), overridesBuiltInTool: true },
                ],
                excludedTools: ["grep"],
            });
            expect(
                warnings.filter((warning) => warning.code === "AGENT_TOOL_WITHHELD")
            ).toMatchObject([{ identifiers: ["grep"] }]);
            const after = ["bash", "fmt", "glob", "lint", "view(custom)"];
            expect(await offeredTo("general-purpose")).toEqual(after);
            expect(await offeredTo("all")).toEqual(after);
            expect(await offeredTo("runner")).toEqual(["glob", "lint", "view(custom)"]);
        });

        it("offers a sub-agent started after setModel the new model's built-ins (apply_patch and rg for gpt-4o), and each model's sub-agent its own model", async ({
            onTestFinished,
        }) => {
            const { client, base, model } = await runtimeRig(onTestFinished, script);
            const session = await client.createSession({
                ...base(CLAUDE_MODEL),
                tools: [recordingTool("lint")],
            });
            const delegated = async () => {
                model.requests.length = 0;
                await session.sendAndWait({ prompt: "delegate general-purpose" });
                const sub = subAgentRequest(model.requests);
                const names = (sub?.tools ?? []).map(toolNameOf);
                return {
                    model: (sub as { model?: unknown } | undefined)?.model,
                    family: ["apply_patch", "rg", "edit", "grep"].filter((n) => names.includes(n)),
                };
            };
            expect(await delegated()).toEqual({ model: CLAUDE_MODEL, family: ["edit", "grep"] });
            await session.setModel(GPT_MODEL);
            expect(await delegated()).toEqual({ model: GPT_MODEL, family: ["apply_patch", "rg"] });
        });

        it("names the custom agent session.rpc.agent.select picks as the maker of the main agent's later calls, offered that agent's tools", async ({
            onTestFinished,
        }) => {
            const { client, base, model } = await runtimeRig(onTestFinished, {
                toolCall: (request) =>
                    userPrompt(request).includes("direct")
                        ? { name: "lint", arguments: {} }
                        : undefined,
            });
            const answers: ToolAnswer[] = [];
            const session = await client.createSession({
                ...base(CLAUDE_MODEL),
                tools: [recordingTool("lint")],
                customAgents: [{ name: "runner", prompt: "Run.", tools: ["lint", "view"] }],
                onToolAnswered: (answer) => answers.push(answer),
            });
            await session.sendAndWait({ prompt: "direct" });
            await session.rpc.agent.select({ name: "runner" });
            model.requests.length = 0;
            await session.sendAndWait({ prompt: "direct" });
            expect(offered(model.requests[0])).toEqual(["lint", "view"]);
            expect(answers.map((answer) => [answer.answeredBy, answer.agent])).toEqual([
                ["handler", { kind: "main" }],
                ["handler", { kind: "custom", name: "runner" }],
            ]);
        });

        it("refuses a setTools after which a custom agent's toolset entry would name other tools than the runtime holds for it (AGENT_TOOLS_FIXED), and changes nothing", async ({
            onTestFinished,
        }) => {
            const { client, base, model } = await runtimeRig(onTestFinished, script);
            const session = await client.createSession({
                ...base(CLAUDE_MODEL),
                tools: [recordingTool("lint")],
                customToolSets: { quality: ["lint"] },
                customAgents: [{ name: "runner", prompt: "Run.", tools: ["toolset:quality"] }],
            });
            const update = {
                tools: [recordingTool("lint"), recordingTool("fmt")],
                customToolSets: { quality: ["lint", "fmt"] },
            };
            await expect(session.setTools(update)).rejects.toMatchObject({
                code: "AGENT_TOOLS_FIXED",
                toolNames: ["fmt"],
            });
            await session.sendAndWait({ prompt: "delegate runner" });
            expect(offered(subAgentRequest(model.requests))).toEqual(["lint"]);
            expect(offered(model.requests[0])).not.toContain("fmt");
            // A change that leaves the agent's entries naming the same tools goes through.
            await expect(
                session.setTools({ tools: update.tools, customToolSets: { quality: ["lint"] } })
            ).resolves.toBeDefined();
        });
    }
);

describeNoLeftovers();
