/**
 * Changes mid-session and the runtime's sub-agents, on the real runtime against the mock model:
 * a sub-agent that runs (a sync or a background `task`) keeps the session busy, so a change that
 * `SESSION_BUSY` guards waits for it; a sub-agent started after `setTools` is offered the tools
 * then in force; and a change that would make a custom agent's entries name other tools than
 * the runtime holds for it is refused (`AGENT_TOOLS_FIXED`); a sub-agent started after `setModel`
 * runs on the new model with its built-ins. Measured on runtime 1.0.85.
 */
import { describe, expect, it } from "vitest";
import { type SessionToolWarning, type ToolAnswer } from "@github/copilot-sdk";
import { CLAUDE_MODEL, GPT_MODEL, recordingTool, runtimeRig } from "../support/e2eHarness.js";
import {
    descriptionOf,
    toolNameOf,
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
