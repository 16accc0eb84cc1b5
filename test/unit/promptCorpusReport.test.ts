/**
 * What `conformance` says of the labelled corpus and `conformance --compare`'s
 * UNLABELLED_PROMPT_EDIT: pure functions over hand-made corpus runs (src/cli/conformance/
 * promptCorpus.ts, corpusReport.ts, runtimeComparison.ts). Excerpts are written here by hand.
 */
import { describe, expect, it } from "vitest";
import {
    corpusKey,
    corpusPrecision,
    corpusRecall,
    scoreCorpus,
} from "../../src/cli/conformance/promptCorpus.js";
import type { CorpusRun, UnlabelledUnit } from "../../src/cli/conformance/corpusProbe.js";
import { promptCorpusLines, promptCorpusSummary } from "../../src/cli/conformance/corpusReport.js";
import {
    acceptDifferences,
    compareRuntimes,
    readAcceptedDifferences,
} from "../../src/cli/conformance/runtimeComparison.js";
import type { CompareProbeResult } from "../../src/cli/conformance/compareProbe.js";

const CLAUDE = "claude-sonnet-4.5";
/** A unit the labels cover: 1.0.85's "view/edit" list without view. */
const LABELLED = {
    config: "no view",
    section: "guidelines",
    action: "rewritten",
    excerpt: "view/edit",
};
/** A unit written here, which no label covers. */
const NEW_TEXT = {
    config: "no bash",
    section: "tone",
    action: "removed",
    excerpt: "Run bash for every answer.",
};

function run(unlabelled: UnlabelledUnit[]): CorpusRun {
    return {
        figures: scoreCorpus([LABELLED], 2, 0),
        unlabelled,
        notRun: [],
    };
}

function withCorpus(corpus: CorpusRun | undefined): CompareProbeResult {
    return {
        runtimeVersion: "x",
        listed: [],
        listedByModel: { [CLAUDE]: [] },
        offered: { [CLAUDE]: [] },
        names: { [CLAUDE]: {} },
        app: undefined,
        ...(corpus === undefined ? {} : { corpus }),
    };
}

const UNIT: UnlabelledUnit = {
    key: corpusKey(NEW_TEXT),
    model: CLAUDE,
    names: ["bash"],
    excerpt: NEW_TEXT.excerpt,
};

describe("the labelled corpus's figures", () => {
    it("counts a labelled unit as correct and an unlabelled one against precision", () => {
        const figures = scoreCorpus([LABELLED, NEW_TEXT], 4, 1);
        expect(figures.correct).toBe(1);
        expect(figures.unlabelled).toEqual([`${corpusKey(NEW_TEXT)}: ${NEW_TEXT.excerpt}`]);
        expect(corpusPrecision(figures)).toBe(0.5);
        expect(corpusRecall(figures)).toBe(0.75);
    });

    it("prints precision and recall per runtime, and lists what no label covers", () => {
        expect(promptCorpusSummary("1.0.14 (runtime 1.0.85)", run([]))).toBe(
            "1.0.14 (runtime 1.0.85): labelled corpus 1 edits, 1 correct, 0 false removals, " +
                "0 unlabelled; precision 1.000, recall 1.000 (2 of 2 mentions handled)"
        );
        expect(promptCorpusLines(undefined)).toEqual([]);
        const lines = promptCorpusLines(run([UNIT]));
        expect(lines).toContain(`- ${CLAUDE}: \`${UNIT.key}\`: Run bash for every answer.`);
    });
});

describe("conformance --compare: UNLABELLED_PROMPT_EDIT", () => {
    it("fails on an edit of B's text no label covers that A did not make", () => {
        const { differences } = compareRuntimes(withCorpus(run([])), withCorpus(run([UNIT])), []);
        expect(differences).toEqual([
            {
                kind: "UNLABELLED_PROMPT_EDIT",
                tool: UNIT.key,
                model: CLAUDE,
                a: "no such edit, or a labelled one",
                b: 'an edit no label covers (of bash): "Run bash for every answer."',
            },
        ]);
    });

    it("compares nothing where A made the same unlabelled edit, or B ran no corpus", () => {
        const both = withCorpus(run([UNIT]));
        expect(compareRuntimes(both, both, []).differences).toEqual([]);
        expect(compareRuntimes(both, withCorpus(undefined), []).differences).toEqual([]);
    });

    it("is a code an --accept file can name, by the unit's key", () => {
        const entries = readAcceptedDifferences(
            JSON.stringify({
                accepted: [{ code: "UNLABELLED_PROMPT_EDIT", tool: UNIT.key, reason: "labelled" }],
            }),
            "reviewed.json"
        );
        const { differences } = compareRuntimes(withCorpus(run([])), withCorpus(run([UNIT])), []);
        expect(acceptDifferences(differences, entries).unaccepted).toEqual([]);
    });
});
