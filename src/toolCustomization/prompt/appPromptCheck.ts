import { formatList } from "../../shared/formatting.js";
import type { SessionToolWarning } from "../api/sessionToolWarning.js";
import { toolNamesInPrompt } from "./toolMentions.js";

/**
 * The texts of a `systemMessage` option: its `content`, and each section override's `content`
 * (customize mode). Anything else yields nothing.
 */
function promptTexts(systemMessage: unknown): string[] {
    if (typeof systemMessage === "string") return [systemMessage];
    if (systemMessage === null || typeof systemMessage !== "object") return [];
    const { content, sections } = systemMessage as { content?: unknown; sections?: unknown };
    const texts = typeof content === "string" ? [content] : [];
    if (sections !== null && typeof sections === "object") {
        for (const section of Object.values(sections)) {
            const text = (section as { content?: unknown } | null)?.content;
            if (typeof text === "string") texts.push(text);
        }
    }
    return texts;
}

/**
 * `PROMPT_NAMES_REMOVED_TOOL` warnings: the session's `systemMessage` names (by the rule of
 * `toolMentions`, the one the rewrite of the runtime's sections uses) a tool its filter removed, or a built-in a custom tool replaced, so
 * the model is told about a tool it cannot call, or one that now behaves as the app's tool does.
 *
 * @param systemMessage - the session's `systemMessage` option, as read
 * @param toolEnablement - the session's enablement of each offered tool
 * @param replaced - the built-ins the session's custom tools replace
 * @param names - every name the rule looks for: the runtime's built-ins and the custom tools
 * @returns at most two warnings (removed, replaced)
 */
export function promptToolWarnings(
    systemMessage: unknown,
    toolEnablement: ReadonlyMap<string, boolean>,
    replaced: readonly string[],
    names: ReadonlySet<string>
): SessionToolWarning[] {
    const texts = promptTexts(systemMessage);
    if (texts.length === 0) return [];
    const named = new Set(texts.flatMap((text) => toolNamesInPrompt(text, names)));
    const removed = [...named].filter((name) => toolEnablement.get(name) === false);
    const replacedNamed = replaced.filter((name) => named.has(name));
    const warnings: SessionToolWarning[] = [];
    if (removed.length > 0) {
        warnings.push({
            code: "PROMPT_NAMES_REMOVED_TOOL",
            option: "systemMessage",
            identifiers: Object.freeze(removed),
            message:
                `The systemMessage names ${formatList(removed)}, ` +
                `which this session's availableTools / excludedTools ${removed.length === 1 ? "removes" : "remove"}: ` +
                `the model would be told about a tool it cannot call ("Tool does not exist"). ` +
                `Remove the mention from the prompt, or keep the tool in the filter.`,
        });
    }
    if (replacedNamed.length > 0) {
        warnings.push({
            code: "PROMPT_NAMES_REMOVED_TOOL",
            option: "systemMessage",
            identifiers: Object.freeze(replacedNamed),
            message:
                `The systemMessage names ${formatList(replacedNamed)}, ` +
                `a built-in this session's custom tool of the same name replaces: ` +
                `the model calls the app's tool under that name. Make sure the prompt describes the app's tool, ` +
                `or rename the custom tool to keep the built-in.`,
        });
    }
    return warnings;
}
