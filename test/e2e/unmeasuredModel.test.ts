/**
 * Model ids the measured catalog lacks, against the real runtime and the mock model recording
 * what each request offers. The runtime gives each model id one family of tools (create, edit
 * and grep, or apply_patch and rg) by rules an unmeasured id does not show: on the bundled
 * runtime, gpt-4.1-mini and gpt-5.1-codex get apply_patch and rg, an id it cannot know gets the
 * other family. What the package says about such a session must not be wrong:
 *
 * - `toolResolution.enabledTools` without `uncertainBuiltIns` is offered, and every offered
 *   built-in is in one of the two lists;
 * - `previewModel` lists as added or removed only built-ins that are, and every change is listed
 *   there or in `builtInsUncertain`;
 * - the prompt agreement keeps what the runtime's instructions say about the tools the model has.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CopilotClient, type CopilotSession, type SessionConfig } from "@github/copilot-sdk";
import { CLAUDE_MODEL, cleanupStack, e2eRig, type E2eRig } from "../support/e2eHarness.js";
import { contentText, toolNameOf } from "../support/mockModel.js";
import { describeNoLeftovers } from "../support/noLeftovers.js";
import { toolMentions } from "../../src/toolCustomization/prompt/toolMentions.js";
import { MEASURED_BUILT_IN_TOOLS } from "../../src/toolCustomization/catalog/generated/measuredBuiltInTools.generated.js";

const NAMES = new Set(MEASURED_BUILT_IN_TOOLS.flatMap((measured) => measured.builtIns));

/** Unmeasured ids: two the runtime gives apply_patch and rg (issue 33), one it cannot know. */
const MODELS = ["gpt-4.1-mini", "gpt-5.1-codex", "local-llama-3-8b"] as const;

interface FirstTurn {
    readonly session: CopilotSession;
    /** The built-ins the model's first request offered. */
    readonly offered: ReadonlySet<string>;
    /** That request's system prompt. */
    readonly prompt: string;
}

/** One runtime and mock model per model id; its tests run one after another on it. */
type Rig = E2eRig<CopilotClient>;

async function firstTurn(rig: Rig, model: string, config: Partial<SessionConfig> = {}) {
    const session = await rig.client.createSession({ ...rig.base(model), ...config } as never);
    const from = rig.model.requests.length;
    await session.sendAndWait({ prompt: "hello" });
    const request = rig.model.requests[from]!;
    const system = request.messages.find((message) => message.role === "system")?.content;
    const turn: FirstTurn = {
        session,
        offered: new Set((request.tools ?? []).map(toolNameOf)),
        prompt: contentText((system ?? "") as never),
    };
    return turn;
}

const sorted = (names: Iterable<string>) => [...names].sort();
const without = (names: Iterable<string>, other: ReadonlySet<string>) =>
    sorted([...names].filter((name) => !other.has(name)));

/** How often the prompt names each of `names`, by the naming rule. */
function mentionCounts(prompt: string, names: Iterable<string>): Record<string, number> {
    const counts: Record<string, number> = {};
    for (const name of names) counts[name] = 0;
    for (const mention of toolMentions(prompt, NAMES)) {
        if (mention.name in counts) counts[mention.name]!++;
    }
    return counts;
}

describe("model ids the measured catalog lacks", () => {
    describe.concurrent.each(MODELS)("%s", (model) => {
        const cleanups = cleanupStack();
        let rig: Rig;
        beforeAll(async () => {
            rig = await e2eRig(
                cleanups.defer,
                (baseDirectory) => new CopilotClient({ baseDirectory, onToolWarning: () => {} })
            );
        });
        afterAll(() => cleanups.run());

        it.sequential(
            "toolResolution says which built-ins it cannot tell, and the rest is offered",
            async () => {
                const { session, offered } = await firstTurn(rig, model);
                const { enabledTools, uncertainBuiltIns } = session.toolResolution!;
                const uncertain = new Set(uncertainBuiltIns);
                expect(uncertainBuiltIns.length).toBeGreaterThan(0);
                expect(
                    without(enabledTools, uncertain).filter((name) => !offered.has(name))
                ).toEqual([]);
                const listed = new Set([...enabledTools, ...uncertainBuiltIns]);
                expect(without(offered, listed)).toEqual([]);
            }
        );

        it.sequential(
            "previewModel from Claude lists only real changes, the rest as uncertain",
            async () => {
                const claude = await firstTurn(rig, CLAUDE_MODEL);
                const target = await firstTurn(rig, model);
                const preview = await claude.session.previewModel(model);
                const added = without(target.offered, claude.offered);
                const removed = without(claude.offered, target.offered);
                expect(preview.builtInsAdded.filter((name) => !added.includes(name))).toEqual([]);
                expect(preview.builtInsRemoved.filter((name) => !removed.includes(name))).toEqual(
                    []
                );
                const told = new Set([
                    ...preview.builtInsAdded,
                    ...preview.builtInsRemoved,
                    ...preview.builtInsUncertain,
                ]);
                expect(without([...added, ...removed], told)).toEqual([]);
            }
        );

        it.sequential(
            "the prompt agreement keeps what the runtime says about the tools the model has",
            async () => {
                const agreed = await firstTurn(rig, model);
                const untouched = await firstTurn(rig, model, {
                    promptAgreement: "off",
                } as Partial<SessionConfig>);
                const offered = sorted(agreed.offered);
                // Outside the note, which names the tools the package cannot confirm.
                const outsideNote = agreed.prompt.split("<tool_availability>")[0]!;
                expect(mentionCounts(outsideNote, offered)).toEqual(
                    mentionCounts(untouched.prompt, offered)
                );
                expect(agreed.session.toolResolution!.prompt!.unconfirmed).toEqual(
                    agreed.session.toolResolution!.uncertainBuiltIns
                );
            }
        );
    });
});

describeNoLeftovers();
