// data/prompt-agreement.json: per SDK release, whether the runtime's instructions agreed with the
// session's tools after the package's rewrite in the conformance run's prompt cases
// (promptProbe.ts), as `npm run conformance` measured it. The README's compatibility table reads
// it (scripts/patch/lib/compatibilityTable.mjs); a release run again replaces its entry, the
// others stay.

import { join } from "node:path";
import type { PromptAgreementSummary } from "./promptReport.js";
import { readReleaseData, writeReleaseData } from "./releaseDataFile.js";
import { ROOT } from "./servedReleases.js";

export const PROMPT_AGREEMENT_DATA = join(ROOT, "data", "prompt-agreement.json");

/** One release's measurement: its runtime and the summary of its prompt cases. */
export interface PromptAgreementMeasurement extends PromptAgreementSummary {
    runtimeVersion: string;
}

/**
 * The measurements by SDK version (empty when the file does not exist yet).
 *
 * @param file - the data file (default: the repository's)
 */
export function readPromptAgreement(
    file: string = PROMPT_AGREEMENT_DATA
): Map<string, PromptAgreementMeasurement> {
    return readReleaseData<PromptAgreementMeasurement>(file);
}

/**
 * Writes the measurements of the releases run now over the earlier ones.
 *
 * @param measured - by SDK version, the releases run now
 * @param order - the served releases, in release order (the file lists them so)
 * @param file - the data file (default: the repository's)
 */
export function writePromptAgreement(
    measured: ReadonlyMap<string, PromptAgreementMeasurement>,
    order: readonly string[],
    file: string = PROMPT_AGREEMENT_DATA
): void {
    writeReleaseData(file, measured, order);
}
