/**
 * Evaluates the runtime's own `availableTools`/`excludedTools` patterns (`builtin:view`,
 * `custom:*`, `mcp:*`, bare names) against a session's known tools, so that a session built with
 * those options can report its enablement map too. Mirrors the runtime's documented rule: a tool
 * is enabled when it matches `availableTools` (or that is unset) and matches no `excludedTools`.
 *
 * @param tools - the session's known tools with their source
 * @param availableTools - the caller's allow patterns, if any
 * @param excludedTools - the caller's deny patterns, if any
 * @returns enablement keyed by tool name, in the order of `tools`
 */
export function evaluateRuntimeToolFilter(
    tools: readonly { readonly name: string; readonly source: "builtin" | "custom" }[],
    availableTools: readonly string[] | undefined,
    excludedTools: readonly string[] | undefined
): Map<string, boolean> {
    const matches = (patterns: readonly string[], name: string, source: string): boolean =>
        patterns.some(
            (pattern) =>
                pattern === name || pattern === `${source}:${name}` || pattern === `${source}:*`
        );
    const enablement = new Map<string, boolean>();
    for (const { name, source } of tools) {
        const allowed = availableTools === undefined || matches(availableTools, name, source);
        enablement.set(name, allowed && !matches(excludedTools ?? [], name, source));
    }
    return enablement;
}
