/**
 * The rule that fails `npm run conformance` (src/cli/conformance/patchedGaps.ts): every case of a
 * release's section where the patched SDK neither ran the custom handler nor refused the tool,
 * the tool-search rows included, which the summary's per-name count does not hold. Expected
 * values are written by hand.
 */
import { describe, expect, it } from "vitest";
import { isPatchedGap, patchedGaps } from "../../src/cli/conformance/patchedGaps.js";

const runs = { noFlag: "custom-runs", flag: "custom-runs" };
const refused = { noFlag: "refused:RESERVED_NAME", flag: "refused:UNSUPPORTED_OVERRIDE" };

describe("patchedGaps", () => {
    it("finds nothing when every case runs the custom handler or is refused", () => {
        expect(
            patchedGaps({
                names: {
                    "claude-sonnet-4.5": { view: runs, bash: refused },
                    "gpt-4o": { view: runs },
                },
                toolSearch: {
                    deferring: "refused:UNSUPPORTED_OVERRIDE",
                    enabledOnly: "custom-runs",
                },
            })
        ).toEqual([]);
    });

    it("reports a custom tool_search_tool dropped under tool search, though no name's row shows it", () => {
        // Runtimes 1.0.69-0 and 1.0.69 through SDK 1.0.6-preview.1 and 1.0.6, measured before
        // their data listed the name: both tool-search rows read "tool dropped", the table none.
        expect(
            patchedGaps({
                names: { "claude-sonnet-4.5": { view: runs }, "gpt-4o": { view: runs } },
                toolSearch: { deferring: "dropped", enabledOnly: "dropped" },
            })
        ).toEqual([
            "`tool_search_tool` (tool search deferring tools): dropped",
            "`tool_search_tool` (toolSearch: { enabled: true } only): dropped",
        ]);
    });

    it("reports each model's and flag's case a built-in answered or the runtime dropped", () => {
        expect(
            patchedGaps({
                names: {
                    "claude-sonnet-4.5": {
                        grep: { noFlag: "custom-runs", flag: "built-in-answers" },
                    },
                    "gpt-4o": { grep: { noFlag: "dropped", flag: "custom-runs" } },
                },
                toolSearch: { deferring: "custom-runs", enabledOnly: "custom-runs" },
            })
        ).toEqual([
            "`grep` (claude-sonnet-4.5, overridesBuiltInTool): built-in-answers",
            "`grep` (gpt-4o, no flag): dropped",
        ]);
    });

    it("counts every outcome but the custom handler and a refusal", () => {
        expect(
            ["custom-runs", "refused:-32603", "built-in-answers", "dropped", "fails-at-send"].map(
                isPatchedGap
            )
        ).toEqual([false, false, true, true, true]);
    });
});
