/**
 * Built-in tool names grouped by what they let the model do, for `ToolSet.addBuiltIn`
 * (`BuiltInTools.Read`, `BuiltInTools.Edit`, ...) in `availableTools` or `excludedTools`. Each
 * group lists the names the runtime has for that capability across model families and platforms
 * (GPT models edit files with `apply_patch`, Claude models with `edit` and `create`; the
 * `powershell` tools are the Windows shell), so that a filter keeps its meaning after
 * `session.setModel`; a name the session's runtime does not offer matches nothing. Built-ins that
 * fit no capability (`sql`, for one) are in no group. Every built-in of a measured runtime that
 * searches files or runs a shell is in `Search` or `Execute` (`file_search`, `grep_search`,
 * `semantic_search`, `local_shell` included, although no measured model is offered them today), so
 * that excluding a group fails closed.
 *
 * @example
 * ```typescript
 * // Read and search, but no edits and no shell:
 * const tools = new ToolSet().addBuiltIn(BuiltInTools.Read).addBuiltIn(BuiltInTools.Search);
 * ```
 */
export const builtInToolGroups = {
    /** Reading files. */
    Read: ["view", "read_file"] as readonly string[],
    /** Creating and changing files. */
    Edit: ["edit", "create", "apply_patch", "str_replace_editor"] as readonly string[],
    /** Finding files and text. */
    Search: [
        "glob",
        "grep",
        "rg",
        "file_search",
        "grep_search",
        "semantic_search",
    ] as readonly string[],
    /** Running shell commands and managing their processes (host access). */
    Execute: [
        "bash",
        "read_bash",
        "stop_bash",
        "list_bash",
        "write_bash",
        "powershell",
        "read_powershell",
        "stop_powershell",
        "list_powershell",
        "local_shell",
    ] as readonly string[],
    /** Fetching web pages (network access). */
    Web: ["web_fetch"] as readonly string[],
    /** Starting sub-agents and talking to them. */
    Agent: ["task", "read_agent", "write_agent", "list_agents"] as readonly string[],
} as const;
