import { quoteValue } from "./formatting.js";

/** How `availableTools` / `excludedTools` entries name a toolset: `toolset:<name>`. */
export const TOOL_SET_PREFIX = "toolset:";

/** Names a toolset may have. */
export const TOOL_SET_NAME_PATTERN = /^[a-zA-Z0-9_-]+$/;

/**
 * The toolsets every session has, by the names VS Code's chat uses. Members are built-in tools
 * of every model family the runtime serves (GPT models get `apply_patch` where Claude models get
 * `edit` and `create`), so a filter keeps its meaning after `session.setModel`. Members a
 * session's runtime does not offer are simply absent there; every member is a built-in of at least
 * one measured runtime version.
 *
 * @experimental
 */
export const DEFAULT_TOOL_SETS: Readonly<Record<string, readonly string[]>> = Object.freeze({
    read: Object.freeze(["view", "read_file"]),
    edit: Object.freeze(["edit", "create", "apply_patch", "str_replace_editor"]),
    search: Object.freeze(["glob", "grep", "rg"]),
    execute: Object.freeze([
        "bash",
        "read_bash",
        "stop_bash",
        "list_bash",
        "powershell",
        "read_powershell",
        "stop_powershell",
        "list_powershell",
    ]),
    web: Object.freeze(["web_fetch"]),
    agent: Object.freeze(["task", "read_agent", "write_agent", "list_agents"]),
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
