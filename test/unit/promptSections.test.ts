/**
 * The naming rule and the rewrite on the runtime's real section texts, captured from the
 * installed runtime when the test runs (test/support/runtimeSections.ts): for each model family,
 * with `view`, `grep` and `glob` dropped, what the rewrite removes is listed (printed), no
 * mention of a dropped tool is left, every line that names none is kept as it was, and the
 * hand-labelled fragments below go or stay as labelled.
 */
import { describe, expect, it } from "vitest";
import { CLAUDE_MODEL, GPT_MODEL, testCleanups } from "../support/e2eHarness.js";
import { captureRuntimePrompt } from "../support/runtimeSections.js";
import { toolMentions } from "../../src/toolCustomization/prompt/toolMentions.js";
import { rewriteWithoutTools } from "../../src/toolCustomization/prompt/promptRewrite.js";
import { describeNoLeftovers } from "../support/noLeftovers.js";
import { MEASURED_BUILT_IN_TOOLS } from "../../src/toolCustomization/catalog/generated/measuredBuiltInTools.generated.js";

/** Every built-in name any measured runtime has. */
const NAMES = new Set(MEASURED_BUILT_IN_TOOLS.flatMap((measured) => measured.builtIns));
const DROPPED = new Set(["view", "grep", "glob"]);

/**
 * Fragments of the runtime's text, labelled by hand: with view/grep/glob dropped, the sentence
 * holding a "gone" fragment recommends a dropped tool; a "kept" one uses a name as English or a
 * shell command.
 */
const GONE = ["view tool calls", "independent view calls", "**grep** instead of"];
const KEPT = ["pipe to grep/head", "Default task agents to sync", "related bash commands"];

describe.each([CLAUDE_MODEL, GPT_MODEL])("the runtime's sections for %s", (modelId) => {
    it("lose every mention of a dropped tool and nothing else", async ({ onTestFinished }) => {
        const defer = testCleanups(onTestFinished);
        const captured = await captureRuntimePrompt(defer, modelId);
        expect(captured.sections.size).toBeGreaterThan(5);
        let edits = 0;
        const whole = [...captured.sections.values()].join("\n");
        for (const [section, text] of captured.sections) {
            const rewritten = rewriteWithoutTools(text, NAMES, DROPPED);
            for (const edit of rewritten.edits) {
                console.log(
                    `${captured.runtimeVersion} ${modelId} ${section}: ${edit.action} [${edit.names.join(", ")}] ${edit.excerpt}`
                );
            }
            edits += rewritten.edits.length;
            const left = toolMentions(rewritten.text, NAMES).filter((m) => DROPPED.has(m.name));
            expect(left, section).toEqual([]);
            const inDroppedBlock = new Set<string>();
            for (const name of DROPPED) {
                const open = text.indexOf(`<${name}>`);
                const close = text.indexOf(`</${name}>`);
                if (open >= 0 && close > open) {
                    text.slice(open, close)
                        .split("\n")
                        .forEach((line) => inDroppedBlock.add(line));
                }
            }
            for (const line of text.split("\n")) {
                const names = toolMentions(line, NAMES).filter((m) => DROPPED.has(m.name));
                if (names.length > 0 || inDroppedBlock.has(line)) continue;
                if (/^<\/?[A-Za-z_]+>$/.test(line.trim())) continue;
                expect(rewritten.text, `${section}: ${line}`).toContain(line);
            }
        }
        expect(edits).toBeGreaterThan(0);
        const after = [...captured.sections.values()]
            .map((text) => rewriteWithoutTools(text, NAMES, DROPPED).text)
            .join("\n");
        for (const fragment of GONE.filter((fragment) => whole.includes(fragment))) {
            expect(after, fragment).not.toContain(fragment);
        }
        for (const fragment of KEPT.filter((fragment) => whole.includes(fragment))) {
            expect(after, fragment).toContain(fragment);
        }
    });
});

describeNoLeftovers();
