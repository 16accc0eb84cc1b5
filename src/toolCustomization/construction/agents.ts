// The session's agents in the session's vocabulary: each custom agent's `tools` and
// `defaultAgent.excludedTools` take what `availableTools` / `excludedTools` take, are checked the
// same way and are sent as the runtime's names (the runtime knows no `toolset:` entry: a custom
// agent with `tools: ["toolset:read"]` is offered no tool at all, measured on runtime 1.0.85);
// MCP servers declared on a custom agent get the session's collision check.

import { formatList, quoteValue, suggestionSentence } from "../../shared/formatting.js";
import { closestName } from "../../toolFilter/nameSuggestions.js";
import type { UnknownToolIdentifier } from "../../toolFilter/toolFilter.js";
import { SessionToolError } from "../api/sessionToolError.js";
import type { SessionToolWarning } from "../api/sessionToolWarning.js";
import type { AgentInput, AgentsInput } from "../input/agents.js";
import { parseFilterEntry, unhandledFilterEntry } from "../input/filterEntry.js";
import { refuseMcpShadows } from "../input/mcpToolNames.js";
import { toolNamesInPrompt } from "../prompt/toolMentions.js";
import { checkEntryPrefixes, checkToolSetEntries } from "./filter.js";
import { BUILT_IN_FAMILIES } from "./warnings.js";

/** What the agents' tool lists are checked against: the session's tools and filter. */
export interface AgentToolContext {
    /** The session's toolsets: the defaults and `customToolSets`. */
    readonly toolSets: ReadonlyMap<string, readonly string[]>;
    /** Built-ins of every model family (what a name may mean). */
    readonly builtIns: readonly string[];
    /** The session's custom tools' names. */
    readonly custom: readonly string[];
    /** The session filter's decision for a name: false when the session removes the tool. */
    readonly isEnabled: (name: string) => boolean;
    /** The names of the session's MCP servers. */
    readonly mcpServers: readonly string[];
    /**
     * The built-ins and custom tools a prompt names (`toolNamesInPrompt` over `builtIns` and
     * `custom`); the pipeline gives one that remembers its answers for sessions built alike
     * ({@link agentPromptNames}).
     */
    readonly promptNames?: (prompt: string) => readonly string[];
}

/** At most this many agent prompts' answers are remembered per set of names. */
const MAX_REMEMBERED_PROMPTS = 64;

/**
 * The tools a prompt names among `builtIns` and `custom`, remembering each prompt's answer: a
 * pure function of the prompt's text and the names, which sessions built alike (one enablement,
 * so one catalog and one list of custom tools) share, so each agent's prompt is scanned once
 * per client rather than once per session. The check of what the agent lacks still runs per
 * session, on the agent's tools as given. Bounded: the oldest answers are forgotten first.
 *
 * @param builtIns - the built-ins of every model family
 * @param custom - the session's custom tools' names
 */
export function agentPromptNames(
    builtIns: readonly string[],
    custom: readonly string[]
): (prompt: string) => readonly string[] {
    const names = new Set([...builtIns, ...custom]);
    const answers = new Map<string, readonly string[]>();
    return (prompt) => {
        let named = answers.get(prompt);
        if (named === undefined) {
            named = Object.freeze(toolNamesInPrompt(prompt, names));
            if (answers.size >= MAX_REMEMBERED_PROMPTS) {
                answers.delete(answers.keys().next().value!);
            }
            answers.set(prompt, named);
        }
        return named;
    };
}

/** The agent options to send: tool lists in the runtime's names. */
export type ResolvedAgents = Pick<AgentsInput, "customAgents" | "defaultAgent">;

/**
 * Checks the session's agents against its tools and returns them as the runtime must get them:
 * - in each custom agent's `tools` and in `defaultAgent.excludedTools`, a `toolset:<name>` entry
 *   becomes its members (an entry naming no toolset is refused: the package knows every one), a
 *   `builtin:` / `custom:` pattern becomes the names it matches, `mcp:<server>-<tool>` its bare
 *   name (in an agent's `tools`, `<server>/<tool>`: see `mcpWireName`) and, in an agent's
 *   `tools`, `mcp:*` `<server>/*` for each MCP server the agent has (the
 *   runtime matches no `mcp:` entry there: measured on runtime 1.0.85, `tools: ["mcp:m-probe"]`
 *   offers nothing, `["m-probe"]`, `["m/probe"]` and `["m/*"]` offer `m-probe`), a bare name
 *   stays; entries the
 *   session's own filter refuses (a bare `*`, an unknown source prefix) are refused; `tools: null`
 *   (all tools) stays;
 * - a name that is no built-in and no custom tool of the session warns `UNKNOWN_IDENTIFIERS` (with
 *   a suggestion) and still reaches the runtime, which may know it (an MCP tool);
 * - a tool an agent names that the session's filter removes warns `AGENT_TOOL_WITHHELD`: the
 *   runtime applies the session's exclusions to every agent;
 * - a custom agent's `prompt` that names (by the prompt agreement's naming rule, `toolMentions`) a
 *   tool the agent is not offered warns `PROMPT_NAMES_REMOVED_TOOL`, naming the agent;
 * - a custom tool offered to an agent that a tool of the agent's own `mcpServers` would shadow is
 *   refused (`MCP_TOOL_COLLISION`, naming the agent).
 *
 * @param agents - the agent options as read (`readAgents`)
 * @param context - the session's tools and filter
 * @param onWarning - receives the warnings
 * @returns the options to send, only those given
 * @throws SessionToolError `INVALID_TOOL_FILTER` or `MCP_TOOL_COLLISION`
 */
export function resolveAgents(
    agents: AgentsInput,
    context: AgentToolContext,
    onWarning: (warning: SessionToolWarning) => void
): ResolvedAgents {
    const resolved: { -readonly [K in keyof ResolvedAgents]: ResolvedAgents[K] } = {};
    // `null` (which the reader leaves as given) means none, as `undefined` does.
    if (agents.customAgents !== undefined && agents.customAgents !== null) {
        resolved.customAgents = Object.freeze(
            agents.customAgents.map((agent) => resolveCustomAgent(agent, context, onWarning))
        );
    }
    const { defaultAgent } = agents;
    if (defaultAgent !== undefined && defaultAgent !== null) {
        const { excludedTools } = defaultAgent;
        resolved.defaultAgent =
            excludedTools === undefined || excludedTools === null
                ? defaultAgent
                : Object.freeze({
                      ...defaultAgent,
                      excludedTools: wireNames(
                          excludedTools,
                          "defaultAgent.excludedTools",
                          context,
                          onWarning
                      ).names,
                  });
    }
    return Object.freeze(resolved);
}

/** One custom agent: its tools in the runtime's names, its MCP servers checked. */
function resolveCustomAgent(
    agent: AgentInput,
    context: AgentToolContext,
    onWarning: (warning: SessionToolWarning) => void
): AgentInput {
    const option = `customAgents.${agent.name}.tools`;
    const { tools } = agent;
    const listed =
        tools === undefined || tools === null
            ? undefined
            : wireNames(tools, option, context, onWarning, [
                  ...context.mcpServers,
                  ...Object.keys(agent.mcpServers ?? {}),
              ]);
    if (listed !== undefined) {
        const withheld = listed.named.filter(
            (name) =>
                (context.builtIns.includes(name) || context.custom.includes(name)) &&
                !context.isEnabled(name)
        );
        if (withheld.length > 0) onWarning(withheldWarning(agent.name, option, withheld));
    }
    if (typeof agent.prompt === "string") {
        const lacking = promptNamesLacking(agent.prompt, listed?.names, context);
        if (lacking.length > 0) onWarning(promptWarning(agent.name, lacking));
    }
    // The custom tools the agent is offered: all of the session's, unless it lists its tools.
    const offeredCustom =
        listed === undefined
            ? context.custom
            : context.custom.filter((name) => listed.names.includes(name));
    refuseMcpShadows(offeredCustom, agent.mcpServers, agent.name);
    if (listed === undefined) return agent;
    return Object.freeze({ ...agent, tools: listed.names });
}

/**
 * A tool list of an agent in the runtime's names, and the names it gives explicitly (not through
 * a toolset or a `*` pattern).
 */
function wireNames(
    entries: readonly string[],
    option: string,
    context: AgentToolContext,
    onWarning: (warning: SessionToolWarning) => void,
    mcpServers?: readonly string[]
): { names: readonly string[]; named: readonly string[] } {
    const parsed = entries.map((text) => {
        if (text === "*") {
            throw new SessionToolError(
                "INVALID_TOOL_FILTER",
                `Invalid ${option} entry '*': there is no bare wildcard. Leave tools out (or pass null) for all tools, or use 'builtin:*' or 'custom:*'.`,
                [text]
            );
        }
        return parseFilterEntry(text);
    });
    checkEntryPrefixes(option, parsed);
    checkToolSetEntries(option, parsed, context.toolSets);
    const known = new Set([...context.builtIns, ...context.custom]);
    const names: string[] = [];
    const named: string[] = [];
    const unknown: UnknownToolIdentifier[] = [];
    const unknownName = (identifier: string, among: Iterable<string>) => {
        const suggestion = closestName(identifier, among);
        unknown.push(
            Object.freeze(
                suggestion === undefined
                    ? { option, identifier }
                    : { option, identifier, suggestion }
            )
        );
    };
    for (const entry of parsed) {
        switch (entry.kind) {
            case "toolSet":
                // checkToolSetEntries (above) refused an entry that names no toolset.
                names.push(...context.toolSets.get(entry.name)!);
                continue;
            case "tool":
                if (!known.has(entry.name)) unknownName(entry.text, known);
                names.push(entry.name);
                named.push(entry.name);
                continue;
            case "builtin":
            case "custom": {
                const source = entry.kind === "builtin" ? context.builtIns : context.custom;
                if (entry.name === "*") {
                    names.push(...source);
                } else if (source.includes(entry.name)) {
                    names.push(entry.name);
                    named.push(entry.name);
                } else {
                    unknownName(
                        entry.text,
                        source.map((name) => `${entry.kind}:${name}`)
                    );
                }
                continue;
            }
            case "mcp":
                if (entry.name !== "*") {
                    names.push(mcpWireName(entry.name, mcpServers));
                    named.push(entry.name);
                } else if (mcpServers !== undefined) {
                    names.push(...mcpServers.map((server) => `${server}/*`));
                } else {
                    throw new SessionToolError(
                        "INVALID_TOOL_FILTER",
                        `Invalid ${option} entry 'mcp:*': ` +
                            "the runtime's matching of every MCP tool in this list is not known. " +
                            "Name each MCP tool ('mcp:<server>-<tool>').",
                        [entry.text]
                    );
                }
                continue;
            case "otherPrefix":
                // Refused by checkEntryPrefixes.
                continue;
            default:
                unhandledFilterEntry(entry);
        }
    }
    if (unknown.length > 0) onWarning(unknownWarning(option, unknown));
    return { names: Object.freeze([...new Set(names)]), named: Object.freeze(named) };
}

/**
 * An MCP tool's name in an agent's `tools`: `<server>/<tool>` for a server the session or the
 * agent declares (the longest that prefixes the name), else the bare `<server>-<tool>`. Measured:
 * runtime 1.0.57 (SDK 1.0.0) offers a sub-agent `m-probe` for `["m/probe"]` and nothing for
 * `["m-probe"]`; runtime 1.0.85 offers it for both. In `defaultAgent.excludedTools` (no
 * `mcpServers`) the bare name stays.
 */
function mcpWireName(name: string, mcpServers: readonly string[] | undefined): string {
    let server: string | undefined;
    for (const candidate of mcpServers ?? []) {
        if (name.startsWith(`${candidate}-`) && candidate.length > (server?.length ?? -1)) {
            server = candidate;
        }
    }
    return server === undefined ? name : `${server}/${name.slice(server.length + 1)}`;
}

/**
 * The tools a custom agent's prompt names that the agent is not offered: those its `tools` do
 * not list (a shell tool brings its family: measured on runtime 1.0.85, `tools: ["bash"]` offers
 * `read_bash`, `stop_bash` and `list_bash` too), and those the session's filter removes.
 */
function promptNamesLacking(
    prompt: string,
    listed: readonly string[] | undefined,
    context: AgentToolContext
): readonly string[] {
    const had =
        listed === undefined
            ? undefined
            : new Set([
                  ...listed,
                  ...BUILT_IN_FAMILIES.filter((family) =>
                      family.some((name) => listed.includes(name))
                  ).flat(),
              ]);
    const named =
        context.promptNames?.(prompt) ??
        toolNamesInPrompt(prompt, new Set([...context.builtIns, ...context.custom]));
    return named.filter(
        (name) => !context.isEnabled(name) || (had !== undefined && !had.has(name))
    );
}

function promptWarning(agent: string, lacking: readonly string[]): SessionToolWarning {
    const one = lacking.length === 1;
    return {
        code: "PROMPT_NAMES_REMOVED_TOOL",
        option: `customAgents.${agent}.prompt`,
        identifiers: Object.freeze([...lacking]),
        message: `The prompt of custom agent ${quoteValue(agent)} names ${formatList(lacking)}, which the agent is not offered (its tools do not list ${one ? "it" : "them"}, or the session's filter removes ${one ? "it" : "them"}): the model would be told about a tool it cannot call ("Tool does not exist"). Add ${one ? "it" : "them"} to the agent's tools, or remove the mention from its prompt.`,
    };
}

function unknownWarning(
    option: string,
    unknown: readonly UnknownToolIdentifier[]
): SessionToolWarning {
    const one = unknown.length === 1;
    return {
        code: "UNKNOWN_IDENTIFIERS",
        option,
        identifiers: Object.freeze(unknown.map((entry) => entry.identifier)),
        message:
            `${unknown.length} ${option} ${one ? "entry names" : "entries name"} no built-in and no custom tool of the session: ${formatList(unknown.map((entry) => entry.identifier))}.` +
            suggestionSentence(unknown) +
            (one
                ? " It still reaches the runtime, which may know it (an MCP tool)."
                : " They still reach the runtime, which may know them (MCP tools)."),
    };
}

function withheldWarning(
    agent: string,
    option: string,
    withheld: readonly string[]
): SessionToolWarning {
    const one = withheld.length === 1;
    return {
        code: "AGENT_TOOL_WITHHELD",
        option,
        identifiers: Object.freeze([...withheld]),
        message: `Custom agent ${quoteValue(agent)} lists ${formatList(withheld)}, which the session's availableTools / excludedTools remove: the runtime withholds ${one ? "it" : "them"} from every agent, this one included. To offer ${one ? "it" : "them"} to custom agents but not to the main agent, keep ${one ? "it" : "them"} in the session's tools and list ${one ? "it" : "them"} in defaultAgent.excludedTools; otherwise leave ${one ? "it" : "them"} out of the agent's tools.`,
    };
}
