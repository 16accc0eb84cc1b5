/**
 * A named group of tools that `includeTools` and `excludeTools` can refer to by its name, like
 * the toolsets of VS Code's chat (`edit`, `read`, `search`, ...).
 *
 * @example
 * ```typescript
 * const session = await client.createSession({
 *     tools: [lintTool, formatTool],
 *     toolSets: [{ name: "quality", tools: ["lint", "format"] }],
 *     includeTools: ["read", "quality"],
 *     onPermissionRequest: approveAll,
 * });
 * ```
 */
export interface SessionToolSetDefinition {
    /** The name `includeTools`/`excludeTools` use; a toolset of the same name replaces a default one. */
    readonly name: string;
    /** Names of member tools: built-in tools, custom tools, or both. */
    readonly tools: readonly string[];
    /** What the toolset is for (informational). */
    readonly description?: string;
}

/** Name of the default toolset that holds every custom tool of the session. */
export const CUSTOM_TOOL_SET_NAME = "custom";

/** Name of the default toolset that holds every built-in tool of the runtime for the model. */
export const BUILT_IN_TOOL_SET_NAME = "builtin";

/**
 * The default toolsets, by the reference names users know from VS Code and ask for in the SDK.
 * Members name built-in tools of every model family the runtime serves (it offers, for
 * instance, `apply_patch` to GPT models where Claude models get `edit` and `create`); members the
 * session's runtime does not offer are left out of the toolset for that session. `custom` and
 * `builtin` are filled per session with its custom and built-in tools.
 */
export const DEFAULT_TOOL_SETS: readonly SessionToolSetDefinition[] = Object.freeze(
    [
        {
            name: "read",
            description: "Read files",
            tools: Object.freeze(["view", "read_file"]),
        },
        {
            name: "edit",
            description: "Create and change files",
            tools: Object.freeze(["edit", "create", "apply_patch", "write_file"]),
        },
        {
            name: "search",
            description: "Find files and text",
            tools: Object.freeze(["glob", "grep", "rg", "search_code"]),
        },
        {
            name: "execute",
            description: "Run shell commands and manage their sessions",
            tools: Object.freeze([
                "bash",
                "read_bash",
                "write_bash",
                "stop_bash",
                "list_bash",
                "powershell",
                "read_powershell",
                "write_powershell",
                "stop_powershell",
                "list_powershell",
            ]),
        },
        {
            name: "web",
            description: "Fetch and search the web",
            tools: Object.freeze(["web_fetch", "web_search"]),
        },
        {
            name: "agent",
            description: "Delegate to sub-agents",
            tools: Object.freeze(["task", "read_agent", "write_agent", "list_agents"]),
        },
        { name: CUSTOM_TOOL_SET_NAME, description: "Every custom tool of the session", tools: [] },
        {
            name: BUILT_IN_TOOL_SET_NAME,
            description: "Every built-in tool of the runtime",
            tools: [],
        },
    ].map((toolSet) => Object.freeze(toolSet))
);
