import { builtInToolGroups } from "./builtInToolGroups.js";
import { quoteValue } from "../../shared/formatting.js";

/** How `availableTools` / `excludedTools` entries name a toolset: `toolset:<name>`. */
export const TOOL_SET_PREFIX = "toolset:";

/** Names a toolset may have. */
export const TOOL_SET_NAME_PATTERN = /^[a-zA-Z0-9_-]+$/;

/**
 * The toolsets every session has, by the names VS Code's chat uses: the core's built-in tool
 * groups (`BuiltInTools.Read` is `toolset:read`, and so on), so the two spellings always mean the
 * same tools. Members are built-in tools of every model family the runtime serves, so a filter
 * keeps its meaning after `session.setModel`; members a session's runtime does not offer are
 * simply absent there, and every member is a built-in of at least one measured runtime version.
 *
 * @public
 */
export const DEFAULT_TOOL_SETS: Readonly<Record<string, readonly string[]>> = Object.freeze({
    read: Object.freeze([...builtInToolGroups.Read]),
    edit: Object.freeze([...builtInToolGroups.Edit]),
    search: Object.freeze([...builtInToolGroups.Search]),
    execute: Object.freeze([...builtInToolGroups.Execute]),
    web: Object.freeze([...builtInToolGroups.Web]),
    agent: Object.freeze([...builtInToolGroups.Agent]),
});

/**
 * The filter entry that names a toolset, checked; used by `ToolSet.addToolSet`.
 *
 * @param name - a toolset name (`"edit"`, or one of `customToolSets`)
 * @returns `toolset:<name>`
 * @throws Error when the name is not a valid toolset name
 */
export function toolSetEntry(name: string): string {
    if (typeof name !== "string" || !TOOL_SET_NAME_PATTERN.test(name)) {
        throw new Error(
            `Invalid toolset name ${quoteValue(name)}: use letters, digits, '_' or '-', e.g. 'edit' or a name of customToolSets.`
        );
    }
    return `${TOOL_SET_PREFIX}${name}`;
}
