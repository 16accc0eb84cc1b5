/**
 * Every name the runtime has a built-in for, as far as the discovery measured it, plus six
 * built-ins it hides: a custom tool of that name, with and without `overridesBuiltInTool`, on a
 * Claude and a GPT model, through the patched SDK against the real runtime. For each name either
 * construction refuses it with a SessionToolError naming it, or the model sees exactly one
 * definition of the name (the custom one) and a call runs the custom handler. Never a built-in
 * answering silently.
 *
 * The measured data only supplies the candidate names. Which names are refused is what the
 * patched SDK does, and each refusal is justified by what the runtime does: the same tool, with
 * `overridesBuiltInTool: true`, through the unpatched SDK, is not honoured (the built-in answers,
 * the tool is dropped, or the runtime refuses the session).
 *
 * To stay fast, every accepted name goes into one session whose model calls them all in one
 * response (parallel tool calls).
 */
import { describe, expect, it } from "vitest";
import { CopilotClient, SessionToolError, type CopilotSession } from "@github/copilot-sdk";
import { CopilotClient as UnpatchedClient } from "copilot-sdk-unpatched";
import {
    CLAUDE_MODEL,
    GPT_MODEL,
    e2eRig,
    isRecordingTool,
    recordingTool,
    testCleanups,
    type Defer,
    type E2eRig,
    type RecordingTool,
    type SessionBase,
} from "../support/e2eHarness.js";
import {
    callsOfferedTools,
    descriptionOf,
    toolResultTexts,
    type MockModel,
} from "../support/mockModel.js";
import { describeNoLeftovers } from "../support/noLeftovers.js";
import { RAW_MEASUREMENTS } from "../support/rawMeasurements.js";
import { HIDDEN_BUILT_INS } from "../../src/cli/conformance/hiddenBuiltIns.js";

/** Built-ins the runtime hides from its tool list, which an earlier discovery missed. */
const CALL_PROMPT = "Call every tool now.";
const MODELS = [CLAUDE_MODEL, GPT_MODEL];

/** Recording tools named `names`, with `overridesBuiltInTool: flag` unless it is undefined. */
function probeTools(names: readonly string[], flag: boolean | undefined): RecordingTool[] {
    return names.map((name) =>
        flag === undefined
            ? recordingTool(name)
            : { ...recordingTool(name), overridesBuiltInTool: flag }
    );
}

function patchedRig(defer: Defer): Promise<E2eRig<CopilotClient>> {
    return e2eRig(
        defer,
        (baseDirectory) => new CopilotClient({ baseDirectory, onToolWarning: () => {} }),
        callsOfferedTools(CALL_PROMPT, isRecordingTool)
    );
}

/**
 * The candidate names: the built-ins measured for the runtime version the patched SDK reports
 * in `toolResolution` (so a session without tools is made to read it), plus the hidden ones.
 */
async function sweptNames(client: CopilotClient, base: SessionBase): Promise<string[]> {
    const session = await client.createSession(base);
    const runtime = session.toolResolution?.runtime;
    await session.disconnect();
    expect(runtime?.catalog).toBe("measured");
    const measured = RAW_MEASUREMENTS.find((m) => m.runtimeVersion === runtime?.version);
    expect(measured?.builtIns.length).toBeGreaterThan(50);
    return [...new Set([...(measured?.builtIns ?? []), ...HIDDEN_BUILT_INS])].sort();
}

/**
 * Offers every name at once and drops the ones each refusal names, until construction succeeds.
 * Each refusal must be a SessionToolError naming only names still offered.
 *
 * @returns the session with the accepted tools, and the refused names
 */
async function sortByConstruction(
    client: CopilotClient,
    base: SessionBase,
    names: readonly string[],
    flag: boolean | undefined
): Promise<{ session: CopilotSession; tools: RecordingTool[]; refused: string[] }> {
    const refused: string[] = [];
    for (;;) {
        const offered = names.filter((name) => !refused.includes(name));
        const tools = probeTools(offered, flag);
        try {
            return { session: await client.createSession({ ...base, tools }), tools, refused };
        } catch (error) {
            expect(error).toBeInstanceOf(SessionToolError);
            const { toolNames } = error as SessionToolError;
            expect(toolNames.length).toBeGreaterThan(0);
            expect(offered).toEqual(expect.arrayContaining([...toolNames]));
            refused.push(...toolNames);
        }
    }
}

/** What happened to a custom tool the mock model was asked to call. */
type Outcome =
    | "custom handler ran"
    | "never called (the probe is broken)"
    | "dropped (the model never saw it)"
    | "offered twice"
    | "built-in answered"
    | "result never reached the model"
    | "runtime refused the session"
    | "send failed";

/**
 * Asks the model to call every custom tool (one response, parallel tool calls), then sends one
 * more turn, so that every tool result is in the conversation the model receives even when a
 * tool ends the turn; tells per tool what happened.
 */
async function callEveryTool(
    session: { sendAndWait(options: { prompt: string }): Promise<unknown> },
    model: MockModel,
    tools: readonly RecordingTool[]
): Promise<Record<string, Outcome>> {
    const first = model.requests.length;
    await session.sendAndWait({ prompt: CALL_PROMPT });
    await session.sendAndWait({ prompt: "Go on." });
    const results = new Set(toolResultTexts(model.requests.at(-1)));
    const outcomeOf = (tool: RecordingTool): Outcome => {
        const descriptions = model.toolDefinitionsOf(first, tool.name).map(descriptionOf);
        if (!descriptions.includes(tool.description)) return "dropped (the model never saw it)";
        if (descriptions.length > 1) return "offered twice";
        if (!model.toolCallsOf(first).includes(tool.name))
            return "never called (the probe is broken)";
        if (tool.calls.length === 0) return "built-in answered";
        if (!results.has(tool.result)) return "result never reached the model";
        return "custom handler ran";
    };
    return Object.fromEntries(tools.map((tool) => [tool.name, outcomeOf(tool)]));
}

describe.concurrent.each(MODELS)("a custom tool for every built-in name on %s", (modelId) => {
    it.for([
        ["without overridesBuiltInTool", undefined],
        ["with overridesBuiltInTool: true", true],
    ] as const)(
        "%s: construction refuses the name, naming it, or a call runs the custom handler",
        async ([, flag], { onTestFinished }) => {
            const { client, model, base } = await patchedRig(testCleanups(onTestFinished));
            const names = await sweptNames(client, base(modelId));

            const { session, tools, refused } = await sortByConstruction(
                client,
                base(modelId),
                names,
                flag
            );
            for (const name of refused) {
                const alone = await client
                    .createSession({ ...base(modelId), tools: probeTools([name], flag) })
                    .then(
                        () => undefined,
                        (error: unknown) => error as SessionToolError
                    );
                expect(alone).toBeInstanceOf(SessionToolError);
                expect(alone?.code).toBeOneOf(["UNSUPPORTED_OVERRIDE", "BUILT_IN_TOOL_COLLISION"]);
                expect(alone?.message).toContain(`'${name}'`);
            }

            const accepted = tools.map((tool) => tool.name);
            expect(accepted).toEqual(expect.arrayContaining(["view", "bash", "read_file"]));
            expect(await callEveryTool(session, model, tools)).toEqual(
                Object.fromEntries(accepted.map((name) => [name, "custom handler ran"]))
            );
        }
    );

    it("the unpatched SDK shows, for every name the patched SDK refuses, that the runtime does not honour the override", async ({
        onTestFinished,
    }) => {
        const defer = testCleanups(onTestFinished);
        const patched = await patchedRig(defer);
        const names = await sweptNames(patched.client, patched.base(modelId));
        const { refused } = await sortByConstruction(
            patched.client,
            patched.base(modelId),
            names,
            true
        );
        expect(refused.length).toBeGreaterThan(0);

        const unpatched = await e2eRig(
            defer,
            (baseDirectory) => new UnpatchedClient({ baseDirectory }),
            callsOfferedTools(CALL_PROMPT, isRecordingTool)
        );
        const outcomes = await unpatchedOverrideOutcomes(unpatched, modelId, refused);
        expect(Object.keys(outcomes).sort()).toEqual([...refused].sort());
        const honoured = Object.keys(outcomes).filter(
            (name) => outcomes[name] === "custom handler ran"
        );
        expect(honoured, JSON.stringify(outcomes, null, 1)).toEqual([]);
    });
});

/** A name whose override the runtime honours, probed beside the others to show the probe works. */
const CONTROL = "view";

/**
 * What the runtime does, through the unpatched SDK, with a custom tool of each of `names` that
 * sets `overridesBuiltInTool: true`. Names are probed together, with {@link CONTROL}; a batch
 * whose session the runtime refuses, or whose send fails, is split in halves until single names
 * remain.
 */
async function unpatchedOverrideOutcomes(
    { client, model, base }: E2eRig<UnpatchedClient>,
    modelId: string,
    names: readonly string[]
): Promise<Record<string, Outcome>> {
    const outcomes: Record<string, Outcome> = {};
    const pending = [[...names]];
    while (pending.length > 0) {
        const batch = pending.pop()!;
        const tools = probeTools([CONTROL, ...batch], true);
        let failure: Outcome | undefined;
        let probed: Record<string, Outcome>;
        try {
            const session = await client.createSession({ ...base(modelId), tools }).catch((e) => {
                failure = "runtime refused the session";
                throw e;
            });
            probed = await callEveryTool(session, model, tools).catch((e) => {
                failure = "send failed";
                throw e;
            });
        } catch {
            if (batch.length > 1) {
                const half = Math.ceil(batch.length / 2);
                pending.push(batch.slice(0, half), batch.slice(half));
            } else {
                outcomes[batch[0]!] = failure!;
            }
            continue;
        }
        expect(probed[CONTROL]).toBe("custom handler ran");
        for (const name of batch) outcomes[name] = probed[name]!;
    }
    return outcomes;
}

/** toolSearch settings a custom tool_search_tool was tried with. */
const TOOL_SEARCH_SETTINGS: readonly [string, Record<string, unknown>][] = [
    ["no toolSearch", {}],
    ["toolSearch enabled, no threshold", { toolSearch: { enabled: true } }],
    ["deferThreshold -1", { toolSearch: { enabled: true, deferThreshold: -1 } }],
    ["deferThreshold 0.5", { toolSearch: { enabled: true, deferThreshold: 0.5 } }],
    ["deferThreshold 1", { toolSearch: { enabled: true, deferThreshold: 1 } }],
    ["deferThreshold 5", { toolSearch: { enabled: true, deferThreshold: 5 } }],
    ["deferThreshold 16", { toolSearch: { enabled: true, deferThreshold: 16 } }],
    ["toolSearch disabled", { toolSearch: { enabled: false, deferThreshold: 1 } }],
];

/** A custom tool_search_tool beside two tools the runtime may defer. */
function toolSearchProbe(flag: boolean | undefined): RecordingTool[] {
    const [toolSearch, ...others] = probeTools(["tool_search_tool", "lint_a", "lint_b"], flag);
    return [toolSearch!, ...others.map((tool) => ({ ...tool, defer: "auto" as const }))];
}

describe.concurrent.each(MODELS)("a custom tool named tool_search_tool on %s", (modelId) => {
    it("is refused with every toolSearch setting, before the runtime hears of a session", async ({
        onTestFinished,
    }) => {
        const { client, model, base } = await patchedRig(testCleanups(onTestFinished));
        for (const [label, options] of TOOL_SEARCH_SETTINGS) {
            for (const flag of [undefined, true]) {
                const error = await client
                    .createSession({ ...base(modelId), ...options, tools: toolSearchProbe(flag) })
                    .then(
                        () => undefined,
                        (e: unknown) => e as SessionToolError
                    );
                expect(error, label).toBeInstanceOf(SessionToolError);
                expect(error?.code).toBe("UNSUPPORTED_OVERRIDE");
                expect(error?.toolNames).toEqual(["tool_search_tool"]);
                expect(error?.message).toMatch(/Rename it;/);
            }
        }
        expect(model.requests).toEqual([]);
    });

    it("the unpatched SDK shows why: with the flag, the runtime drops it or lets the built-in answer under some of these settings", async ({
        onTestFinished,
    }) => {
        const { client, model, base } = await e2eRig(
            testCleanups(onTestFinished),
            (baseDirectory) => new UnpatchedClient({ baseDirectory }),
            callsOfferedTools(CALL_PROMPT, isRecordingTool)
        );
        const outcomes: Record<string, Outcome> = {};
        for (const [label, options] of TOOL_SEARCH_SETTINGS) {
            const tools = toolSearchProbe(true);
            const session = await client
                .createSession({ ...base(modelId), ...options, tools })
                .catch(() => undefined);
            if (session === undefined) {
                outcomes[label] = "runtime refused the session";
                continue;
            }
            const probed = await callEveryTool(session, model, [tools[0]!]).catch(
                (): Record<string, Outcome> => ({ tool_search_tool: "send failed" })
            );
            outcomes[label] = probed.tool_search_tool!;
            await session.disconnect();
        }
        const notHonoured = Object.entries(outcomes).filter(
            ([, outcome]) => outcome !== "custom handler ran"
        );
        expect(notHonoured.length, JSON.stringify(outcomes, null, 1)).toBeGreaterThan(0);
    });
});

describeNoLeftovers();
