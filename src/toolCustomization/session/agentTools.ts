// The agents' tool lists across a change of the session's tools. The runtime takes each custom
// agent's `tools` and `defaultAgent.excludedTools` at `createSession` / `resumeSession` and has no
// request to change them (`session.tools.set` and `session.options.update` carry neither), and the
// package sends them as the runtime's names, expanded from `toolset:` entries and `custom:*` /
// `builtin:*` patterns. Measured on runtime 1.0.85 (test/e2e/subAgentChanges.test.ts): after a
// `setTools` that adds `fmt` to `customToolSets.quality`, a custom agent listing
// `toolset:quality` is still offered `lint` alone; the built-in sub-agents and a custom agent
// without `tools` are offered the session's tools as they are after the change (the new custom
// tool, the replaced built-in, without what the change excluded). So a change that would make an
// agent's entries name other tools than those the runtime holds is refused.

import { formatList } from "../../shared/formatting.js";
import { SessionToolError } from "../api/sessionToolError.js";
import type { ToolConfig } from "./record.js";

type AgentOptions = {
    readonly customAgents?: unknown;
    readonly defaultAgent?: unknown;
};

/**
 * The agents' tool lists as a session config sends them, by option name.
 *
 * @param config - a prepared session config (its agents in the runtime's names)
 */
export function agentToolsOf(config: AgentOptions): ReadonlyMap<string, readonly string[]> {
    const lists = new Map<string, readonly string[]>();
    if (Array.isArray(config.customAgents)) {
        for (const agent of config.customAgents as { name?: unknown; tools?: unknown }[]) {
            if (Array.isArray(agent.tools)) {
                lists.set(`customAgents.${String(agent.name)}.tools`, agent.tools as string[]);
            }
        }
    }
    const excluded = (config.defaultAgent as { excludedTools?: unknown } | undefined)
        ?.excludedTools;
    if (Array.isArray(excluded)) lists.set("defaultAgent.excludedTools", excluded as string[]);
    return lists;
}

/**
 * Refuses a change after which an agent's entries would name tools other than the runtime holds
 * for it. A name the list loses because the change removes that custom tool from the session is
 * no difference: the runtime's list still names it, and no agent is offered a tool the session
 * no longer has.
 *
 * @param before - the tools in force
 * @param after - the tools the change would leave
 * @throws SessionToolError `AGENT_TOOLS_FIXED`, naming the options and the tools
 */
export function refuseAgentToolChange(before: ToolConfig, after: ToolConfig): void {
    const kept = new Set(after.tools.map((tool) => tool.name));
    const removed = new Set(
        before.tools.map((tool) => tool.name).filter((name) => !kept.has(name))
    );
    const changed: string[] = [];
    const names = new Set<string>();
    for (const [option, sent] of before.agentTools) {
        const now = new Set(after.agentTools.get(option) ?? sent);
        const then = new Set(sent);
        const gained = [...now].filter((name) => !then.has(name));
        const lost = [...then].filter((name) => !now.has(name) && !removed.has(name));
        if (gained.length + lost.length === 0) continue;
        changed.push(option);
        for (const name of [...gained, ...lost]) names.add(name);
    }
    if (changed.length === 0) return;
    throw new SessionToolError(
        "AGENT_TOOLS_FIXED",
        `session.setTools would change the tools ${formatList(changed)} name (${formatList([...names])}), ` +
            "but the runtime keeps each agent's tool list as createSession sent it and offers no request " +
            "to change it. Resume the session with the new options (resumeSession sends the agents again), " +
            "or list the tools by name in the agent.",
        [...names]
    );
}
