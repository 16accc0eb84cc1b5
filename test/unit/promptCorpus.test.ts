/**
 * The labelled corpus: the rewrite held against hand labels on the runtime's real section texts,
 * captured from the installed runtime when the test runs (and from COPILOT_EXTERNAL_RUNTIME, when
 * set). For each configuration below, every unit the rewrite removes or edits is looked up by a
 * stable key (configuration, section, action, the first 10 hex digits of the SHA-256 of the
 * unit's excerpt) in CORPUS_LABELS, labelled by reading it: FALSE_TEXT when what went was false for the
 * session (a correct edit), TRUE_TEXT when it said something true (a false removal). A unit
 * without a label fails the test: a runtime whose text changed shows up as a difference of its
 * own, not as a pass. Precision (correct edits / edits) and recall (mentions of a dropped tool
 * the rewrite handled / mentions, outside conditions on availability: by the naming rule, not by
 * hand labels) are printed per runtime, and the known false removals are listed so that a new
 * one fails. The configurations and labels are src/cli/conformance/promptCorpus.ts's (which
 * `conformance` and scripts/measure/measure-prompt-sections.mjs also score by); where the measured
 * data records the corpus's figures for the runtime (from which the default `promptAgreement` is
 * decided), they must be the figures measured now.
 */
import { existsSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { RuntimeConnection } from "@github/copilot-sdk";
import { cleanupStack } from "../support/e2eHarness.js";
import { captureRuntimePrompt, type CapturedPrompt } from "../support/runtimeSections.js";
import {
    droppedMentions,
    rewriteWithoutTools,
} from "../../src/toolCustomization/prompt/promptRewrite.js";
import { describeNoLeftovers } from "../support/noLeftovers.js";
import { MEASURED_BUILT_IN_TOOLS } from "../../src/toolCustomization/catalog/generated/measuredBuiltInTools.generated.js";
import { MEASURED_PROMPT_SECTIONS } from "../../src/toolCustomization/catalog/generated/promptSectionNames.generated.js";
import {
    CORPUS_CONFIGS,
    CORPUS_LABELS,
    CORPUS_MODELS,
    TRUE_TEXT,
    corpusLine,
    scoreCorpus,
    type CorpusEdit,
} from "../../src/cli/conformance/promptCorpus.js";

const NAMES = new Set(MEASURED_BUILT_IN_TOOLS.flatMap((measured) => measured.builtIns));

const external = process.env.COPILOT_EXTERNAL_RUNTIME;
const RUNTIMES: readonly (readonly [string, Record<string, unknown>])[] = [
    ["bundled", {}],
    ...(external !== undefined && existsSync(external)
        ? ([["external", { connection: RuntimeConnection.forStdio({ path: external }) }]] as const)
        : []),
];

/** The false removals the labels know of (none left): a new one fails. */
const KNOWN_FALSE_REMOVALS = CORPUS_LABELS.filter(([, label]) => label === TRUE_TEXT).map(
    ([key]) => key
);

describe.each(RUNTIMES)("the labelled corpus on the %s runtime", (_label, clientOptions) => {
    const captured: CapturedPrompt[] = [];
    const cleanups = cleanupStack();
    beforeAll(async () => {
        for (const model of CORPUS_MODELS) {
            captured.push(await captureRuntimePrompt(cleanups.defer, model, {}, clientOptions));
        }
        await cleanups.run();
    });

    it("labels every edit; precision and recall are printed; no false removal beyond the known", () => {
        const edits: CorpusEdit[] = [];
        let mentions = 0;
        let left = 0;
        for (const prompt of captured) {
            const offered = new Set(prompt.tools);
            for (const [config, lacks, replaces] of CORPUS_CONFIGS) {
                const replaced = new Set(replaces);
                const dropped = new Set(
                    [...NAMES].filter(
                        (name) => !offered.has(name) || lacks.includes(name) || replaced.has(name)
                    )
                );
                for (const [section, text] of prompt.sections) {
                    const rewritten = rewriteWithoutTools(text, NAMES, dropped, replaced);
                    mentions += rewritten.mentions.length;
                    left += droppedMentions(rewritten.text, NAMES, dropped, replaced).length;
                    for (const edit of rewritten.edits) edits.push({ config, section, ...edit });
                }
            }
        }
        const figures = scoreCorpus(edits, mentions, left);
        const version = captured[0]!.runtimeVersion;
        console.log(`${_label} runtime ${version}: ${corpusLine(figures)}`);
        expect(figures.unlabelled).toEqual([]);
        for (const key of figures.falseRemovals) expect(KNOWN_FALSE_REMOVALS).toContain(key);
        expect(left).toBe(0);
        // The measured data the default mode is decided by holds what the corpus shows now.
        const recorded = MEASURED_PROMPT_SECTIONS.find(
            (entry) => entry.runtimeVersion === version
        )?.corpus;
        if (recorded !== undefined) {
            expect(recorded).toEqual({
                edits: figures.edits,
                correct: figures.correct,
                falseRemovals: figures.falseRemovals.length,
                unlabelled: figures.unlabelled.length,
                mentions: figures.mentions,
                handled: figures.handled,
            });
        }
    });
});

describeNoLeftovers();
