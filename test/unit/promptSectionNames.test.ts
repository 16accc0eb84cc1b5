/**
 * The measured names of the runtime's prompt sections (promptSectionNames.generated.ts), which
 * decide the sections the agreement registers transforms for (`sectionsToAgree`): they match the
 * installed runtime's text (a changed text or naming rule fails here until
 * `node scripts/measure/measure-prompt-sections.mjs` is run again), and the decision registers
 * none where nothing disagrees, the naming sections where something does, all where unmeasured.
 */
import { describe, expect, it } from "vitest";
import { CLAUDE_MODEL, GPT_MODEL, testCleanups } from "../support/e2eHarness.js";
import { captureRuntimePrompt } from "../support/runtimeSections.js";
import { toolMentions } from "../../src/toolCustomization/prompt/toolMentions.js";
import {
    namesOutsideAgreement,
    sectionsToAgree,
} from "../../src/toolCustomization/prompt/promptSections.js";
import type { PromptTools } from "../../src/toolCustomization/prompt/promptAgreement.js";
import { MEASURED_PROMPT_SECTIONS } from "../../src/toolCustomization/catalog/generated/promptSectionNames.generated.js";
import { MEASURED_BUILT_IN_TOOLS } from "../../src/toolCustomization/catalog/generated/measuredBuiltInTools.generated.js";
import { describeNoLeftovers } from "../support/noLeftovers.js";

const NAMES = new Set(MEASURED_BUILT_IN_TOOLS.flatMap((measured) => measured.builtIns));

describe("the measured section names", () => {
    it.for([CLAUDE_MODEL, GPT_MODEL])(
        "match the installed runtime's sections for %s",
        async (model, { onTestFinished }) => {
            const captured = await captureRuntimePrompt(testCleanups(onTestFinished), model);
            const measured = MEASURED_PROMPT_SECTIONS.find(
                (entry) => entry.runtimeVersion === captured.runtimeVersion
            );
            expect(measured, `runtime ${captured.runtimeVersion} is measured`).toBeDefined();
            for (const [id, text] of captured.sections) {
                const names = [
                    ...new Set(
                        toolMentions(text, NAMES)
                            .filter((mention) => mention.conditional !== true)
                            .map((mention) => mention.name)
                    ),
                ].sort();
                expect(names, id).toEqual(measured!.byModel[model]![id]);
            }
        }
    );
});

describe("sectionsToAgree", () => {
    const [measured] = MEASURED_PROMPT_SECTIONS;
    const runtime = { version: measured!.runtimeVersion, catalog: "measured" as const };
    const tools = (dropped: string[], unconfirmed: string[] = []): PromptTools => ({
        names: NAMES,
        dropped: new Set(dropped),
        missing: dropped,
        replaced: [],
        droppedBuiltIns: dropped,
        unconfirmed,
    });

    it("registers none where the session lacks nothing its model's prompt names", () => {
        expect(sectionsToAgree(runtime, CLAUDE_MODEL, tools(["apply_patch", "rg"]))).toEqual([]);
    });

    it("registers the sections that name tools, and only those, where something disagrees", () => {
        const sections = sectionsToAgree(runtime, CLAUDE_MODEL, tools(["view"]))!;
        expect(sections).toContain("tool_instructions");
        expect(sections).toContain("tool_efficiency");
        expect(sections).not.toContain("safety");
        expect(sections).not.toContain("preamble");
        expect(sectionsToAgree(runtime, CLAUDE_MODEL, tools([], ["skill"]))).toEqual(sections);
    });

    it("registers all where the runtime or the model id was not measured and the session lacks a tool", () => {
        const lacking = tools(["grep"]);
        expect(sectionsToAgree({ ...runtime, catalog: "fallback" }, CLAUDE_MODEL, lacking)).toBe(
            undefined
        );
        expect(sectionsToAgree(runtime, "some-new-model", lacking)).toBe(undefined);
        expect(sectionsToAgree(runtime, "constructor", lacking)).toBe(undefined);
        expect(sectionsToAgree(runtime, undefined, lacking)).toBe(undefined);
    });

    it("registers none with the stand-in catalog where the session lacks and replaces nothing, unconfirmed names or not", () => {
        const nothing = tools([], ["skill", "apply_patch"]);
        expect(sectionsToAgree({ ...runtime, catalog: "fallback" }, CLAUDE_MODEL, nothing)).toEqual(
            []
        );
        // A measured catalog's absences are the runtime's, not the app's: all, texts unmeasured.
        expect(sectionsToAgree(runtime, "some-new-model", nothing)).toBe(undefined);
        expect(
            sectionsToAgree({ version: "9.9.9", catalog: "measured" }, CLAUDE_MODEL, nothing)
        ).toBe(undefined);
    });
});

describe("namesOutsideAgreement", () => {
    const [measured] = MEASURED_PROMPT_SECTIONS;
    const lacking: PromptTools = {
        names: NAMES,
        dropped: new Set(["grep", "view"]),
        missing: ["grep"],
        replaced: ["view"],
        droppedBuiltIns: ["grep", "view"],
        unconfirmed: [],
    };

    it("names the built-ins the session lacks or replaces, not certain, where the runtime's texts were not measured", () => {
        for (const runtime of [
            { version: measured!.runtimeVersion, catalog: "fallback" as const },
            { version: "9.9.9", catalog: "measured" as const },
        ]) {
            expect(namesOutsideAgreement([], runtime, CLAUDE_MODEL, lacking)).toEqual({
                names: ["grep", "view"],
                certain: false,
            });
        }
    });

    it("names nothing where every section has a transform", () => {
        const runtime = { version: "9.9.9", catalog: "fallback" as const };
        expect(namesOutsideAgreement(undefined, runtime, CLAUDE_MODEL, lacking).names).toEqual([]);
    });
});

describeNoLeftovers();
