// The cases of one release's section where the PATCHED SDK let a custom tool go unanswered by
// its own handler without refusing it: the per-name rows (each model, without and with the flag)
// and the two tool-search rows. conformance.ts fails its run on any of them. Kept apart from
// conformance.ts, a script that runs on import, so that a test can read the rule.

import type { ProbeResult } from "./conformanceProbe.js";

/** An outcome the patch must never let through: not the custom handler, and not a refusal. */
export const isPatchedGap = (outcome: string): boolean =>
    outcome !== "custom-runs" && !outcome.startsWith("refused:");

/**
 * Every case of the patched probe whose outcome {@link isPatchedGap}, described for the log:
 * `` `name` (model, flag): outcome `` for a name's rows, `` `tool_search_tool` (tool search …):
 * outcome `` for the tool-search rows.
 *
 * @param patched - the probe's result through the patched SDK
 */
export function patchedGaps(patched: Pick<ProbeResult, "names" | "toolSearch">): string[] {
    const gaps: string[] = [];
    for (const [model, byName] of Object.entries(patched.names)) {
        for (const [name, outcomes] of Object.entries(byName)) {
            if (isPatchedGap(outcomes.noFlag))
                gaps.push(`\`${name}\` (${model}, no flag): ${outcomes.noFlag}`);
            if (isPatchedGap(outcomes.flag)) {
                gaps.push(`\`${name}\` (${model}, overridesBuiltInTool): ${outcomes.flag}`);
            }
        }
    }
    const toolSearch = [
        ["tool search deferring tools", patched.toolSearch.deferring],
        ["toolSearch: { enabled: true } only", patched.toolSearch.enabledOnly],
    ] as const;
    for (const [scenario, outcome] of toolSearch) {
        if (isPatchedGap(outcome)) gaps.push(`\`tool_search_tool\` (${scenario}): ${outcome}`);
    }
    return gaps;
}
