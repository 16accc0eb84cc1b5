import { formatList, quoteValue } from "../../shared/formatting.js";
import { readOrRefuse, readSentOption } from "./callerInput.js";
import { SessionToolError } from "../api/sessionToolError.js";

/**
 * A custom tool that a tool of one of the session's MCP servers would shadow: the runtime names
 * MCP tools `<server>-<tool>` (measured: server `adv`, tool `lint` is `adv-lint`), and when a
 * custom tool has such a name the model is offered only the MCP definition and the MCP server
 * answers (measured on 1.0.14 and 1.0.15-preview.4, 6 of 6).
 */
export interface McpShadow {
    /** The custom tool's name. */
    readonly tool: string;
    /** The MCP server whose tools may take that name. */
    readonly server: string;
}

const MCP_SERVERS_EXAMPLE =
    'an object of server names to server configs, e.g. { lint: { command: "node", args: ["lint.js"], tools: ["*"] } }';

/**
 * Reads the session's `mcpServers` once ({@link readSentOption}): a plain copy, which the SDK
 * sends, whose every server config is an object.
 *
 * @param mcpServers - the option as the caller passed it (not modified)
 * @returns the copy
 * @throws SessionToolError `INVALID_SESSION_OPTION`
 */
export function readMcpServers(mcpServers: unknown): unknown {
    const servers = readSentOption(mcpServers, "mcpServers", MCP_SERVERS_EXAMPLE);
    if (servers === undefined || servers === null) return servers;
    checkMcpServerConfigs(servers, "mcpServers");
    return servers;
}

/**
 * Refuses an `mcpServers` copy (see `readSentOption`) that is not an object of server configs,
 * each an object.
 *
 * @param servers - the copy, neither undefined nor null
 * @param what - the option's place for messages: `mcpServers`, or a custom agent's
 * @throws SessionToolError `INVALID_SESSION_OPTION`, or `INVALID_CUSTOM_AGENT` for an agent's
 */
export function checkMcpServerConfigs(servers: unknown, what: string): void {
    const code = what === "mcpServers" ? "INVALID_SESSION_OPTION" : "INVALID_CUSTOM_AGENT";
    const isConfig = (value: unknown) =>
        value !== null && typeof value === "object" && !Array.isArray(value);
    if (!isConfig(servers)) {
        throw new SessionToolError(
            code,
            `Invalid ${what} ${quoteValue(servers)}: pass ${MCP_SERVERS_EXAMPLE}.`,
            [what]
        );
    }
    for (const [server, config] of Object.entries(servers as Record<string, unknown>)) {
        if (isConfig(config)) continue;
        throw new SessionToolError(
            code,
            `Invalid config ${quoteValue(config)} of MCP server ${quoteValue(server)}` +
                `${what === "mcpServers" ? "" : ` in ${what}`}: ` +
                `pass an object with its command or url, e.g. { command: "node", args: ["lint.js"], tools: ["*"] }.`,
            [what]
        );
    }
}

/**
 * The custom tools that tools of the session's `mcpServers` may shadow: those named
 * `<server>-<rest>` for a configured server whose `tools` list includes `<rest>` or takes every
 * tool (`"*"`, or no list). The server's own tool list is not known before the runtime connects
 * to it, so a server that takes every tool claims every name under its prefix: fail closed.
 *
 * @param customNames - the custom tools' names
 * @param mcpServers - the session's `mcpServers` option as given (not modified)
 * @returns the shadowed tools, in the order of `customNames`
 * @throws SessionToolError `INVALID_CUSTOM_TOOL` when `mcpServers` cannot be read
 */
export function mcpShadows(
    customNames: readonly string[],
    mcpServers: unknown
): readonly McpShadow[] {
    if (mcpServers === undefined || mcpServers === null || customNames.length === 0) return [];
    const servers = readOrRefuse(
        () => {
            if (typeof mcpServers !== "object") return [];
            return Object.keys(mcpServers).map((server): [string, unknown] => {
                const config = (mcpServers as Record<string, unknown>)[server];
                const tools =
                    config !== null && typeof config === "object"
                        ? (config as { tools?: unknown }).tools
                        : undefined;
                return [server, Array.isArray(tools) ? [...(tools as unknown[])] : tools];
            });
        },
        "INVALID_CUSTOM_TOOL",
        (reason) =>
            `The session's mcpServers cannot be read (${reason}): pass a plain object of server configs.`
    );
    const shadows: McpShadow[] = [];
    for (const tool of customNames) {
        for (const [server, tools] of servers) {
            const prefix = `${server}-`;
            if (!tool.startsWith(prefix)) continue;
            const rest = tool.slice(prefix.length);
            const takesAll = !Array.isArray(tools) || tools.includes("*");
            if (takesAll || tools.includes(rest)) {
                shadows.push({ tool, server });
                break;
            }
        }
    }
    return shadows;
}

/**
 * Refuses custom tools that an MCP tool of the session would shadow, naming each tool and its
 * server (and the custom agent, for a server declared on one: `agent`).
 *
 * @throws SessionToolError `MCP_TOOL_COLLISION`
 */
export function refuseMcpShadows(
    customNames: readonly string[],
    mcpServers: unknown,
    agent?: string
): void {
    const shadows = mcpShadows(customNames, mcpServers);
    if (shadows.length === 0) return;
    const of = agent === undefined ? "" : ` of custom agent ${quoteValue(agent)}`;
    const described = shadows.map(
        ({ tool, server }) => `${quoteValue(tool)} (MCP server ${quoteValue(server)}${of})`
    );
    const tools = shadows.map(({ tool }) => tool);
    throw new SessionToolError(
        "MCP_TOOL_COLLISION",
        `${tools.length === 1 ? "Custom tool" : "Custom tools"} ${described.join(", ")} would be shadowed: ` +
            `the runtime names MCP tools '<server>-<tool>', ` +
            `offers the model the MCP tool instead and lets the server answer its calls. ` +
            `Rename ${tools.length === 1 ? "it" : "them"} (e.g. ${quoteValue(tools[0]!.replace(/-/g, "_"))}), ` +
            `or leave the tool out of the server's tools list (${formatList(tools)}).`,
        tools
    );
}
