// GENERATED FILE - do not edit by hand.
// Regenerate with: node scripts/discover-reserved-tool-names.mjs
// Measured against the unmodified runtime @github/copilot-sdk-linux-x64@1.0.14
// (SDK undefined) on linux-x64, offline, with an OpenAI-compatible mock model.

/** Runtime (and SDK) version these lists were measured against. */
export const RUNTIME_TOOL_NAMES_VERSION = "1.0.14";

/**
 * Every name a custom tool without `overridesBuiltInTool: true` conflicts with in at least
 * one probed configuration (the session then fails with 'External tool "<name>" conflicts
 * with a built-in tool of the same name'), plus names no custom tool may use at all
 * ({@link FORBIDDEN_CUSTOM_TOOL_NAMES}). A name conflicts only while the session offers that
 * built-in, which depends on the model and on session options.
 */
export const RESERVED_BUILT_IN_TOOL_NAMES: readonly string[] = [
    "apply_patch",
    "ask_user",
    "bash",
    "catalog_search",
    "create",
    "edit",
    "exit_plan_mode",
    "glob",
    "grep",
    "list_agents",
    "list_bash",
    "manage_schedule",
    "read_agent",
    "read_bash",
    "rg",
    "session_store_sql",
    "skill",
    "sql",
    "stop_bash",
    "task",
    "task_complete",
    "view",
    "web_fetch",
    "write_agent",
];

/**
 * Names `createSession` rejects for any custom tool, even with `overridesBuiltInTool: true`
 * ("External tools cannot define the reserved <name> built-in").
 */
export const FORBIDDEN_CUSTOM_TOOL_NAMES: readonly string[] = ["catalog_search"];

/**
 * Names of built-ins that a custom tool WITHOUT `overridesBuiltInTool` silently shadows in
 * at least one probed configuration: no error, the model sees the custom definition, but a
 * call runs the runtime's built-in implementation instead of the custom handler.
 */
export const SHADOWED_BUILT_IN_TOOL_NAMES: readonly string[] = [
    "apply_patch",
    "ask_user",
    "context_board",
    "create",
    "create_pull_request",
    "edit",
    "execution_subagent",
    "exit_plan_mode",
    "extensions_reload",
    "factories_manage",
    "fetch_copilot_cli_documentation",
    "file_search",
    "get_context_remaining",
    "grep",
    "invoke_canvas_action",
    "list_canvas_capabilities",
    "list_powershell",
    "local_shell",
    "lsp",
    "manage_schedule",
    "new_context",
    "open_canvas",
    "powershell",
    "read_file",
    "read_inbox",
    "read_memories",
    "read_powershell",
    "reply_to_comment",
    "report_dreaming_artifact",
    "report_progress",
    "rg",
    "run_factory",
    "send_inbox",
    "session_artifacts",
    "session_history",
    "session_store_sql",
    "skill",
    "stop_powershell",
    "store_memory",
    "str_replace_editor",
    "task_complete",
    "tool_search_tool",
    "update_todo",
    "vote_memory",
];

/**
 * Every name the runtime has a built-in implementation for, as far as measured:
 * {@link RESERVED_BUILT_IN_TOOL_NAMES} and {@link SHADOWED_BUILT_IN_TOOL_NAMES}.
 */
export const ALL_BUILT_IN_TOOL_NAMES: readonly string[] = [
    "apply_patch",
    "ask_user",
    "bash",
    "catalog_search",
    "context_board",
    "create",
    "create_pull_request",
    "edit",
    "execution_subagent",
    "exit_plan_mode",
    "extensions_reload",
    "factories_manage",
    "fetch_copilot_cli_documentation",
    "file_search",
    "get_context_remaining",
    "glob",
    "grep",
    "invoke_canvas_action",
    "list_agents",
    "list_bash",
    "list_canvas_capabilities",
    "list_powershell",
    "local_shell",
    "lsp",
    "manage_schedule",
    "new_context",
    "open_canvas",
    "powershell",
    "read_agent",
    "read_bash",
    "read_file",
    "read_inbox",
    "read_memories",
    "read_powershell",
    "reply_to_comment",
    "report_dreaming_artifact",
    "report_progress",
    "rg",
    "run_factory",
    "send_inbox",
    "session_artifacts",
    "session_history",
    "session_store_sql",
    "skill",
    "sql",
    "stop_bash",
    "stop_powershell",
    "store_memory",
    "str_replace_editor",
    "task",
    "task_complete",
    "tool_search_tool",
    "update_todo",
    "view",
    "vote_memory",
    "web_fetch",
    "write_agent",
];

/**
 * Built-in names for which `overridesBuiltInTool: true` does NOT make the custom handler
 * run (the built-in still runs, or the session cannot be created).
 */
export const UNHONOURED_OVERRIDE_TOOL_NAMES: readonly string[] = [
    "catalog_search",
    "extensions_reload",
    "get_context_remaining",
    "invoke_canvas_action",
    "list_canvas_capabilities",
    "list_powershell",
    "local_shell",
    "new_context",
    "open_canvas",
    "powershell",
    "read_powershell",
    "report_dreaming_artifact",
    "report_progress",
    "session_artifacts",
    "session_history",
    "stop_powershell",
    "store_memory",
    "vote_memory",
];

/**
 * Names the model receives in a default session (no custom tools, no optional handlers),
 * by model id. The set depends on the model family.
 */
export const DEFAULT_MODEL_TOOL_NAMES_BY_MODEL: Readonly<Record<string, readonly string[]>> = {
    "claude-sonnet-4.5": [
        "bash",
        "create",
        "edit",
        "glob",
        "grep",
        "list_agents",
        "list_bash",
        "read_agent",
        "read_bash",
        "sql",
        "stop_bash",
        "task",
        "view",
        "web_fetch",
        "write_agent",
    ],
    "gpt-4o": [
        "apply_patch",
        "bash",
        "glob",
        "list_agents",
        "list_bash",
        "read_agent",
        "read_bash",
        "rg",
        "sql",
        "stop_bash",
        "task",
        "view",
        "web_fetch",
        "write_agent",
    ],
};

/** Union of {@link DEFAULT_MODEL_TOOL_NAMES_BY_MODEL} over the measured models. */
export const DEFAULT_MODEL_TOOL_NAMES: readonly string[] = [
    "apply_patch",
    "bash",
    "create",
    "edit",
    "glob",
    "grep",
    "list_agents",
    "list_bash",
    "read_agent",
    "read_bash",
    "rg",
    "sql",
    "stop_bash",
    "task",
    "view",
    "web_fetch",
    "write_agent",
];

/** Built-ins a session option or mode adds to the default set (measured per option). */
export const CONDITIONAL_BUILT_IN_TOOL_NAMES: Readonly<Record<string, readonly string[]>> = {
    onUserInputRequest: ["ask_user"],
    "mode plan + onExitPlanModeRequest": ["exit_plan_mode"],
    "mode autopilot": ["task_complete"],
    manageScheduleEnabled: ["manage_schedule"],
    enableSessionStore: ["session_store_sql"],
    skillDirectories: ["skill"],
    "toolSearch (deferral active)": ["tool_search_tool"],
};
