/**
 * Every name the runtime has a built-in for, as far as the discovery measured it, plus six
 * built-ins it hides: a custom tool of that name, with and without `overridesBuiltInTool`, on a
 * Claude and a GPT model, through the patched SDK against the real runtime. For each name either
 * construction refuses it, naming it, or the model sees exactly one definition (the custom one)
 * and its call runs the custom handler. Never a built-in answering silently.
 *
 * A refusal is only right when the runtime would misbehave: every refused name is shown, through
 * the unpatched SDK with `overridesBuiltInTool: true`, to be answered by the built-in, dropped,
 * or refused by the runtime itself.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CopilotClient, SessionToolError, approveAll, type Tool } from "@github/copilot-sdk";
import { CopilotClient as UnpatchedClient } from "copilot-sdk-unpatched";
import { MEASURED_BUILT_IN_TOOLS } from "../../src/measuredBuiltInTools.generated.js";
import {
    CLAUDE_MODEL,
    GPT_MODEL,
    cleanupStack,
    mockModel,
    providerFor,
    temporaryBaseDirectory,
} from "../support/e2eHarness.js";
import { descriptionOf, lastUserText, type MockModel } from "../support/mockModel.js";
import { describeNoLeftovers } from "../support/noLeftovers.js";

/** Built-ins the runtime hides, which an earlier discovery missed. */
const HIDDEN_BUILT_INS = [
    "semantic_search",
    "grep_search",
    "search_code_subagent",
    "lexical_code_search",
    "semantic_code_search",
    "extensions_manage",
];
const CALL_PROMPT = "Call every tool now.";
const DESCRIPTION = "The app's own implementation.";

interface ProbeTools {
    readonly tools: Tool[];
    readonly ran: Set<string>;
}

function probeTools(names: readonly string[], flag: boolean | undefined): ProbeTools {
    const ran = new Set<string>();
    const tools = names.map((name): Tool => ({
        name,
        description: DESCRIPTION,
        parameters: { type: "object", properties: {} },
        skipPermission: true,
        ...(flag === undefined ? {} : { overridesBuiltInTool: flag }),
        handler: async () => {
            ran.add(name);
            return `custom ${name} ran`;
        },
    }));
    return { tools, ran };
}

/** Names the model saw exactly once, with the custom description, in request `index`. */
function seenOnceAsCustom(model: MockModel, index: number, names: readonly string[]): string[] {
    return names.filter((name) => {
        const definitions = model.toolDefinitionsOf(index, name);
        return definitions.length === 1 && descriptionOf(definitions[0]!) === DESCRIPTION;
    });
}

const { defer, run } = cleanupStack();
// Everything below runs inside one describe, so its clean-up runs before describeNoLeftovers.
describe("custom tools named like built-ins, swept", () => {
    let model: MockModel;
    let patched: CopilotClient;
    let unpatched: UnpatchedClient;
    let names: string[];

    beforeAll(async () => {
        model = await mockModel(defer, {
            toolCall: (request) =>
                lastUserText(request).includes(CALL_PROMPT)
                    ? (request.tools ?? [])
                          .filter((tool) => descriptionOf(tool) === DESCRIPTION)
                          .map((tool) => ({ name: tool.function?.name ?? tool.custom?.name ?? "" }))
                    : undefined,
        });
        patched = new CopilotClient({
            baseDirectory: temporaryBaseDirectory(defer),
            onToolWarning: () => {},
        });
        defer(() => patched.stop());
        unpatched = new UnpatchedClient({ baseDirectory: temporaryBaseDirectory(defer) });
        defer(() => unpatched.stop());
        await Promise.all([patched.start(), unpatched.start()]);
        const status = await patched.getStatus();
        const measured = MEASURED_BUILT_IN_TOOLS.find((m) => m.runtimeVersion === status.version);
        names = [...new Set([...(measured?.builtIns ?? []), ...HIDDEN_BUILT_INS])].sort();
    });
    afterAll(run);

    const base = (modelId: string) => ({
        model: modelId,
        provider: providerFor(model),
        onPermissionRequest: approveAll,
    });

    describe.each([CLAUDE_MODEL, GPT_MODEL])("every built-in name on %s", (modelId) => {
        it.each([
            ["without the flag", undefined],
            ["with overridesBuiltInTool: true", true],
        ] as const)(
            "%s: construction refuses the name, or the custom handler answers it",
            async (_label, flag) => {
                expect(names.length).toBeGreaterThan(50);
                // Construction alone sorts the names: refused ones never reach the runtime.
                const accepted: string[] = [];
                const refused: string[] = [];
                for (const name of names) {
                    try {
                        const session = await patched.createSession({
                            ...base(modelId),
                            tools: probeTools([name], flag).tools,
                        });
                        accepted.push(name);
                        await session.disconnect();
                    } catch (error) {
                        expect(error).toBeInstanceOf(SessionToolError);
                        expect((error as Error).message).toContain(`'${name}'`);
                        refused.push(name);
                    }
                }
                expect(accepted).toEqual(expect.arrayContaining(["view", "bash"]));

                // All accepted names in one session; the model calls every one it is offered.
                const { tools, ran } = probeTools(accepted, flag);
                const session = await patched.createSession({ ...base(modelId), tools });
                const first = model.requests.length;
                await session.sendAndWait({ prompt: CALL_PROMPT }, 60_000);
                await session.disconnect();
                expect(seenOnceAsCustom(model, first, accepted)).toEqual(accepted);
                expect([...ran].sort()).toEqual(accepted);

                // Each refusal is justified by what the runtime does with an honest override.
                const shown = await misbehavingOverrides(modelId, refused);
                expect(shown).toEqual(refused);
            },
            120_000
        );
    });

    /** The names, of `candidates`, whose override the runtime does not honour (unpatched SDK). */
    async function misbehavingOverrides(modelId: string, candidates: readonly string[]) {
        const misbehaving: string[] = [];
        const pending = [[...candidates]];
        while (pending.length > 0) {
            const batch = pending.pop()!;
            if (batch.length === 0) continue;
            const { tools, ran } = probeTools(batch, true);
            let session;
            try {
                session = await unpatched.createSession({ ...base(modelId), tools });
            } catch {
                // The runtime refuses the batch: find which names, one half at a time.
                if (batch.length === 1) misbehaving.push(batch[0]!);
                else
                    pending.push(batch.slice(0, batch.length >> 1), batch.slice(batch.length >> 1));
                continue;
            }
            const first = model.requests.length;
            await session.sendAndWait({ prompt: CALL_PROMPT }, 60_000).catch(() => undefined);
            await session.disconnect();
            const honoured = new Set(
                seenOnceAsCustom(model, first, batch).filter((n) => ran.has(n))
            );
            misbehaving.push(...batch.filter((name) => !honoured.has(name)));
        }
        return misbehaving.sort();
    }

    describe("the tool-search tool", () => {
        it("is refused unless tool search defers tools, where the runtime keeps it", async () => {
            const alone = probeTools(["tool_search_tool"], true).tools;
            const error = await patched
                .createSession({
                    ...base(CLAUDE_MODEL),
                    tools: alone,
                    toolSearch: { enabled: true },
                })
                .catch((e: unknown) => e);
            expect(error).toBeInstanceOf(SessionToolError);
            expect((error as Error).message).toContain("deferThreshold");

            const withOthers = probeTools(["tool_search_tool", "lint_a", "lint_b"], undefined);
            const session = await patched.createSession({
                ...base(CLAUDE_MODEL),
                tools: withOthers.tools,
                toolSearch: { enabled: true, deferThreshold: 1 },
            });
            const first = model.requests.length;
            await session.sendAndWait({ prompt: "Hello." });
            await session.disconnect();
            expect(seenOnceAsCustom(model, first, ["tool_search_tool"])).toEqual([
                "tool_search_tool",
            ]);
        });
    });
});

describeNoLeftovers();
