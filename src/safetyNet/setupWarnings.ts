// The warnings of the session step, in the session's words, and `strictToolFilters`' refusal.

import type { BuiltInToolOverrides } from "./builtInToolOverrides.js";
import { formatList, quoteValue } from "../toolFilter/formatting.js";
import { SessionToolError } from "./sessionToolError.js";
import type { SessionToolWarning } from "./sessionToolWarning.js";
import { MAX_TOOLS_PER_REQUEST, type ToolFilterMode } from "../toolFilter/toolFilter.js";

/** Warning codes that `strictToolFilters: true` turns into a `SessionToolError`. */
type StrictCode = "UNKNOWN_IDENTIFIERS" | "NO_TOOLS_ENABLED" | "EMPTY_TOOL_SET";
const STRICT_CODES: ReadonlySet<string> = new Set<StrictCode>([
    "UNKNOWN_IDENTIFIERS",
    "NO_TOOLS_ENABLED",
    "EMPTY_TOOL_SET",
]);

function isStrict(
    warning: SessionToolWarning
): warning is SessionToolWarning & { readonly code: StrictCode } {
    return STRICT_CODES.has(warning.code);
}

/** With `strictToolFilters: true`, the first warning that names nothing refuses the session. */
export function refuseStrictWarnings(warnings: readonly SessionToolWarning[]): void {
    const first = warnings.find(isStrict);
    if (first === undefined) return;
    throw new SessionToolError(
        first.code,
        `${first.message} (An error because the client sets strictToolFilters: true.)`,
        first.identifiers ?? []
    );
}

export function overrideWarnings(
    automatic: readonly string[],
    caseOnlyMatches: BuiltInToolOverrides["caseOnlyMatches"]
): SessionToolWarning[] {
    const warnings: SessionToolWarning[] = [];
    if (automatic.length > 0) {
        const one = automatic.length === 1;
        warnings.push({
            code: "AUTOMATIC_OVERRIDE",
            option: "tools",
            identifiers: Object.freeze([...automatic]),
            message: one
                ? `Custom tool ${quoteValue(automatic[0])} replaces the built-in tool of the same name. Set overridesBuiltInTool: true on it to say so (and silence this warning), or rename it to keep the built-in.`
                : `Custom tools ${formatList(automatic)} replace the built-in tools of the same names. Set overridesBuiltInTool: true on them to say so (and silence this warning), or rename them to keep the built-ins.`,
        });
    }
    if (caseOnlyMatches.length > 0) {
        const tools = caseOnlyMatches.map((match) => match.tool);
        const builtIns = caseOnlyMatches.map((match) => match.builtIn);
        const one = tools.length === 1;
        warnings.push({
            code: "CASE_ONLY_MATCH",
            option: "tools",
            identifiers: Object.freeze(tools),
            message: one
                ? `Custom tool ${quoteValue(tools[0])} differs from the built-in ${quoteValue(builtIns[0])} only in case, so the model gets both. Use the built-in's exact name to replace it, or a clearly different name.`
                : `Custom tools ${formatList(tools)} differ from the built-ins ${formatList(builtIns)} only in case, so the model gets both. Use the built-in's exact name to replace one, or a clearly different name.`,
        });
    }
    return warnings;
}

/** `TOO_MANY_TOOLS` in the session's words: whether a filter was set, and what to set. */
export function tooManySessionTools(count: number, mode: ToolFilterMode): SessionToolWarning {
    const what =
        mode === "default"
            ? `This session offers the model ${count} tools`
            : `The session's availableTools / excludedTools leave ${count} tools`;
    return {
        code: "TOO_MANY_TOOLS",
        message: `${what}, more than the ${MAX_TOOLS_PER_REQUEST} a model accepts in one request; requests may be refused or tools dropped. Leave out what the model does not need with excludedTools (e.g. 'toolset:agent'), or list what it needs in availableTools.`,
    };
}
