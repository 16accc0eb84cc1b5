// What `conformance` says of the labelled corpus (corpusProbe.ts) on each runtime: a line of
// figures (precision and recall) in the release's section of the report and on stderr, and the
// units no label covers.

import type { CorpusRun } from "./corpusProbe.js";
import { corpusLine } from "./promptCorpus.js";

/**
 * The report's lines for one runtime's corpus run (none when the patched SDK did not run it).
 *
 * @param run - the run, from the patched probe
 */
export function promptCorpusLines(run: CorpusRun | undefined): string[] {
    if (run === undefined) return [];
    return [
        "",
        "Labelled corpus (src/cli/conformance/promptCorpus.ts; `promptAgreement: 'rewrite'`, " +
            `claude-sonnet-4.5 and gpt-4o): ${corpusLine(run.figures)}.`,
        ...(run.figures.falseRemovals.length > 0
            ? ["", "False removals:", "", ...run.figures.falseRemovals.map((key) => `- ${key}`)]
            : []),
        ...(run.unlabelled.length > 0
            ? [
                  "",
                  "Units no label covers (label them in promptCorpus.ts):",
                  "",
                  ...run.unlabelled.map(
                      (unit) => `- ${unit.model}: \`${unit.key}\`: ${unit.excerpt.slice(0, 60)}`
                  ),
              ]
            : []),
        ...(run.notRun.length > 0 ? ["", ...run.notRun.map((why) => `- not run: ${why}`)] : []),
    ];
}

/**
 * The stderr line for one runtime's corpus run.
 *
 * @param label - the release and runtime, e.g. "1.0.14 (runtime 1.0.85)"
 * @param run - the run, from the patched probe
 */
export function promptCorpusSummary(label: string, run: CorpusRun | undefined): string | undefined {
    return run === undefined ? undefined : `${label}: labelled corpus ${corpusLine(run.figures)}`;
}
