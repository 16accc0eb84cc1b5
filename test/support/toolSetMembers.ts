/**
 * The members of the default toolsets the tests expect, written by hand once from the measured
 * built-ins (every name here is one some measured runtime has), so that the tests that restate
 * them cannot drift apart. The code's own `DEFAULT_TOOL_SETS` is compared against these, never
 * the reverse.
 */

/** `toolset:edit`: the file-editing built-ins of every model family. */
export const EDIT_MEMBERS: readonly string[] = [
    "edit",
    "create",
    "apply_patch",
    "str_replace_editor",
];

/** `toolset:execute`: every shell-capable built-in ever measured. */
export const EXECUTE_MEMBERS: readonly string[] = [
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
];

/** `toolset:agent`: the sub-agent built-ins. */
export const AGENT_MEMBERS: readonly string[] = [
    "task",
    "read_agent",
    "list_agents",
    "write_agent",
];
