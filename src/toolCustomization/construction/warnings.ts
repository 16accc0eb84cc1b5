// The warnings of the session step, in the session's words, and `strictToolFilters`' refusal.

import type { BuiltInToolOverrides } from "./overrides.js";
import { formatList, quoteValue } from "../../shared/formatting.js";
import { SessionToolError } from "../api/sessionToolError.js";
import { TOOL_SET_PREFIX } from "../catalog/defaultToolSets.js";
import type { SessionToolWarning } from "../api/sessionToolWarning.js";
import { MAX_TOOLS_PER_REQUEST, type ToolFilterMode } from "../../toolFilter/toolFilter.js";

/** Warning codes that `strictToolFilters: true` turns into a `SessionToolError`. */
type StrictCode =
    | "UNKNOWN_IDENTIFIERS"
    | "NO_TOOLS_ENABLED"
    | "EMPTY_TOOL_SET"
    | "FILTER_DROPS_CUSTOM_TOOL"
    | "AGENT_TOOL_WITHHELD";
const STRICT_CODES: ReadonlySet<string> = new Set<StrictCode>([
    "UNKNOWN_IDENTIFIERS",
    "NO_TOOLS_ENABLED",
    "EMPTY_TOOL_SET",
    "FILTER_DROPS_CUSTOM_TOOL",
    "AGENT_TOOL_WITHHELD",
]);

function isStrict(
    warning: SessionToolWarning
): warning is SessionToolWarning & { readonly code: StrictCode } {
    return STRICT_CODES.has(warning.code);
}

/**
 * With `strictToolFilters: true`, the first warning that names nothing, or a filter that drops
 * one of the app's tools, refuses the session.
 */
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
                ? `Custom tool ${quoteValue(automatic[0])} replaces the built-in tool of the same name. ` +
                  `Set overridesBuiltInTool: true on it to say so (and silence this warning), or rename it to keep the built-in.`
                : `Custom tools ${formatList(automatic)} replace the built-in tools of the same names. ` +
                  `Set overridesBuiltInTool: true on them to say so (and silence this warning), or rename them to keep the built-ins.`,
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
                ? `Custom tool ${quoteValue(tools[0])} differs from the built-in ${quoteValue(builtIns[0])} only in case, ` +
                  `so the model gets both. Use the built-in's exact name to replace it, or a clearly different name.`
                : `Custom tools ${formatList(tools)} differ from the built-ins ${formatList(builtIns)} only in case, ` +
                  `so the model gets both. Use the built-in's exact name to replace one, or a clearly different name.`,
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
        message:
            `${what}, more than the ${MAX_TOOLS_PER_REQUEST} a model accepts in one request; ` +
            `requests may be refused or tools dropped. ` +
            `Leave out what the model does not need with excludedTools (e.g. 'toolset:agent'), ` +
            `or list what it needs in availableTools.`,
    };
}

/** The filter options as the session step read them, and the session's toolsets. */
export interface GivenFilter {
    readonly availableTools: readonly string[] | undefined;
    readonly excludedTools: readonly string[] | undefined;
    readonly toolSets: ReadonlyMap<string, readonly string[]>;
}

/**
 * `FILTER_DROPS_CUSTOM_TOOL`: a custom tool the app passed in `tools` that the filter leaves
 * out, with the entry that removed it: a toolset entry of `excludedTools` that has it as a
 * member, or an `availableTools` that names it nowhere (itself or through a toolset). A tool
 * `excludedTools` names itself (`'lint'`, `'custom:lint'`) is the app's intent: no warning.
 *
 * @param custom - the names of the custom tools passed
 * @param sent - the names of those the filter keeps
 * @param given - the filter options as read
 */
export function droppedCustomToolWarnings(
    custom: readonly string[],
    sent: ReadonlySet<string>,
    given: GivenFilter
): SessionToolWarning[] {
    const warnings: SessionToolWarning[] = [];
    const names = (entries: readonly string[] | undefined) => new Set(entries ?? []);
    const excluded = names(given.excludedTools);
    const toolSetOf = (entry: string) =>
        entry.startsWith(TOOL_SET_PREFIX)
            ? given.toolSets.get(entry.slice(TOOL_SET_PREFIX.length))
            : undefined;
    const inToolSet = (entry: string, name: string) => {
        const members = toolSetOf(entry);
        return members?.includes(name) === true || members?.includes(`custom:${name}`) === true;
    };
    for (const name of custom) {
        if (sent.has(name) || excluded.has(name) || excluded.has(`custom:${name}`)) continue;
        const entry = given.excludedTools?.find((candidate) => inToolSet(candidate, name));
        if (entry !== undefined) {
            warnings.push({
                code: "FILTER_DROPS_CUSTOM_TOOL",
                option: "excludedTools",
                identifiers: Object.freeze([name]),
                message:
                    `Custom tool ${quoteValue(name)} is not offered: ` +
                    `excludedTools entry ${quoteValue(entry)} removes it (it is a member of that toolset). ` +
                    `Leave it out of tools if that is meant, exclude it by its own name ('${name}') to say so, ` +
                    `or list it in availableTools to keep it.`,
            });
            continue;
        }
        // availableTools: [] is the SDK's documented "no tools": said, not a filter's side effect.
        if (given.availableTools !== undefined && given.availableTools.length > 0) {
            warnings.push({
                code: "FILTER_DROPS_CUSTOM_TOOL",
                option: "availableTools",
                identifiers: Object.freeze([name]),
                message:
                    `Custom tool ${quoteValue(name)} is not offered: ` +
                    `availableTools ${formatList(given.availableTools)} does not name it, itself or through a toolset. ` +
                    `Add '${name}' (or 'custom:${name}') to availableTools to keep it, or leave it out of tools.`,
            });
        }
    }
    return warnings;
}

/**
 * The built-ins that work as one family: the shell tool, and the tools that read, write, stop
 * and list the shells it started. A custom tool that replaces one member leaves the others
 * acting on the built-in's shells.
 */
export const BUILT_IN_FAMILIES: readonly (readonly string[])[] = [
    ["bash", "read_bash", "write_bash", "stop_bash", "list_bash"],
    ["powershell", "read_powershell", "write_powershell", "stop_powershell", "list_powershell"],
];

/**
 * `BUILT_IN_COMPANIONS_REMAIN`: a custom tool replaces a member of a built-in family (bash and
 * its read_bash / write_bash / stop_bash / list_bash; the powershell ones) while other members
 * stay the runtime's built-ins.
 *
 * @param replaced - the built-ins the session's sent custom tools replace
 * @param offered - the built-ins the session offers (enabled, not replaced)
 */
export function familyWarnings(
    replaced: readonly string[],
    offered: ReadonlySet<string>
): SessionToolWarning[] {
    const warnings: SessionToolWarning[] = [];
    for (const family of BUILT_IN_FAMILIES) {
        const mine = family.filter((name) => replaced.includes(name));
        const remaining = family.filter((name) => offered.has(name) && !mine.includes(name));
        if (mine.length === 0 || remaining.length === 0) continue;
        const one = remaining.length === 1;
        warnings.push({
            code: "BUILT_IN_COMPANIONS_REMAIN",
            option: "tools",
            identifiers: Object.freeze([...remaining]),
            message:
                `Custom ${mine.length === 1 ? "tool" : "tools"} ${formatList(mine)} ` +
                `${mine.length === 1 ? "replaces a built-in" : "replace built-ins"} of the ${quoteValue(family[0])} family, ` +
                `but ${formatList(remaining)} ${one ? "stays" : "stay"} built-in: ` +
                `${one ? "it acts" : "they act"} on the built-in's shells, ` +
                `which the app's ${formatList(mine)} never ${mine.length === 1 ? "starts" : "start"}. ` +
                `Replace ${one ? "it" : "them"} too (custom tools of ${one ? "that name" : "those names"} with overridesBuiltInTool: ` +
                `true), or exclude ${one ? "it" : "them"} (excludedTools: [${remaining.map((name) => `'${name}'`).join(", ")}]).`,
        });
    }
    return warnings;
}
