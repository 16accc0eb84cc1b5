import { quoteValue } from "../../shared/formatting.js";
import { describeValue, readList, readOrRefuse, readSentOption } from "./callerInput.js";
import { checkMcpServerConfigs } from "./mcpToolNames.js";
import { SessionToolError } from "../api/sessionToolError.js";

/**
 * One custom agent as read once from `customAgents`: a frozen plain copy of what the caller
 * passed, with its `name` checked, its `tools` a frozen list of non-empty strings (or `null` /
 * left out: all tools), its `prompt` and `model` strings when given, and its `mcpServers` server
 * configs objects. The entries of `tools` are checked against the session's tools later, by the
 * construction (construction/agents.ts), which also expands them for the runtime.
 */
export interface AgentInput {
    readonly name: string;
    readonly tools?: readonly string[] | null;
    readonly prompt?: string;
    readonly model?: string;
    readonly mcpServers?: Readonly<Record<string, unknown>>;
    readonly [option: string]: unknown;
}

/** The agent options of a session config, read once ({@link readAgents}). */
export interface AgentsInput {
    /** `customAgents`, when given. */
    readonly customAgents?: readonly AgentInput[];
    /** `defaultAgent`, when given: a frozen copy, its `excludedTools` a frozen list. */
    readonly defaultAgent?: {
        readonly excludedTools?: readonly string[] | null;
        readonly [option: string]: unknown;
    };
    /** `agent`, when given: the name of one of `customAgents`. */
    readonly agent?: string;
}

const AGENT_EXAMPLE =
    'an array of custom agents, e.g. [{ name: "reviewer", prompt: "Review the diff.", tools: ["toolset:read"] }]';

/**
 * Reads the agent options of a session config (`customAgents`, `defaultAgent`, `agent`) once,
 * before anything is sent: each becomes a frozen plain copy (see `readSentOption`: a getter is
 * read once, a throwing getter, a revoked `Proxy`, a cycle or what JSON cannot carry is refused),
 * and what the runtime would get wrong without a word is refused: `customAgents` that is not an
 * array, an agent that is not an object, has no name or shares its name with another, a `tools`
 * entry that is not a non-empty string, a `prompt` or `model` that is not a string, an MCP server
 * config that is not an object, and an `agent` that names none of `customAgents`.
 *
 * @param config - the session config as the wrap read it once (its agents not read yet)
 * @returns the options read, only those given, frozen
 * @throws SessionToolError `INVALID_CUSTOM_AGENT`, or `INVALID_TOOL_FILTER` for a `tools` /
 *   `excludedTools` entry
 */
export function readAgents(config: {
    readonly customAgents?: unknown;
    readonly defaultAgent?: unknown;
    readonly agent?: unknown;
}): AgentsInput {
    const read: { -readonly [K in keyof AgentsInput]: AgentsInput[K] } = {};
    const { customAgents, defaultAgent, agent } = config;
    if (customAgents !== undefined && customAgents !== null) {
        read.customAgents = readCustomAgents(customAgents);
    }
    if (defaultAgent !== undefined && defaultAgent !== null) {
        read.defaultAgent = readDefaultAgent(defaultAgent);
    }
    if (agent !== undefined) {
        const names = (read.customAgents ?? []).map((each) => each.name);
        if (typeof agent !== "string" || !names.includes(agent)) {
            throw new SessionToolError(
                "INVALID_CUSTOM_AGENT",
                `Invalid agent ${describeValue(agent)}: it must be the name of one of customAgents` +
                    (names.length === 0
                        ? ", and the session defines none. Define the agent in customAgents, or leave agent out."
                        : ` (${names.map(quoteValue).join(", ")}).`),
                typeof agent === "string" ? [agent] : []
            );
        }
        read.agent = agent;
    }
    return Object.freeze(read);
}

/** `customAgents`: read once, each agent checked, names unique. */
function readCustomAgents(value: unknown): readonly AgentInput[] {
    const copy = copied(value, "customAgents", AGENT_EXAMPLE);
    if (!Array.isArray(copy)) {
        throw new SessionToolError(
            "INVALID_CUSTOM_AGENT",
            `Invalid customAgents ${describeValue(copy)}: pass ${AGENT_EXAMPLE}.`,
            ["customAgents"]
        );
    }
    const seen = new Set<string>();
    return Object.freeze(
        copy.map((agent: unknown, position) => {
            const read = readAgent(agent, position);
            if (seen.has(read.name)) {
                throw new SessionToolError(
                    "INVALID_CUSTOM_AGENT",
                    `Invalid customAgents[${position}]: another agent is already named ${quoteValue(read.name)}, and the runtime would keep only one of them. Give each agent its own name.`,
                    [read.name]
                );
            }
            seen.add(read.name);
            return read;
        })
    );
}

/** One agent of the copy of `customAgents`. */
function readAgent(agent: unknown, position: number): AgentInput {
    const where = `customAgents[${position}]`;
    if (!isPlainObject(agent)) {
        throw new SessionToolError(
            "INVALID_CUSTOM_AGENT",
            `Invalid ${where} ${describeValue(agent)}: each agent is an object with a name and a prompt, e.g. { name: "reviewer", prompt: "Review the diff." }.`
        );
    }
    const { name, tools, prompt, model, mcpServers } = agent;
    if (typeof name !== "string" || name.trim().length === 0) {
        throw new SessionToolError(
            "INVALID_CUSTOM_AGENT",
            `Invalid ${where}.name ${describeValue(name)}: every custom agent needs a non-empty name, which the model's task tool and the session option agent use to pick it.`
        );
    }
    const named = `customAgents[${position}] (${quoteValue(name)})`;
    for (const [option, value] of [
        ["prompt", prompt],
        ["model", model],
    ] as const) {
        if (value !== undefined && typeof value !== "string") {
            throw new SessionToolError(
                "INVALID_CUSTOM_AGENT",
                `Invalid ${named}.${option} ${describeValue(value)}: pass a string, or leave it out.`,
                [name]
            );
        }
    }
    if (mcpServers !== undefined && mcpServers !== null) {
        checkMcpServerConfigs(mcpServers, `${named}.mcpServers`);
    }
    return deepFrozen({
        ...agent,
        name,
        ...(tools === undefined ? {} : { tools: toolList(tools, `${named}.tools`, "tools") }),
    }) as AgentInput;
}

/** `defaultAgent`: an object whose `excludedTools` is a list of tool names. */
function readDefaultAgent(value: unknown): NonNullable<AgentsInput["defaultAgent"]> {
    const expected = 'an object such as { excludedTools: ["toolset:execute"] }';
    const copy = copied(value, "defaultAgent", expected);
    if (!isPlainObject(copy)) {
        throw new SessionToolError(
            "INVALID_CUSTOM_AGENT",
            `Invalid defaultAgent ${describeValue(copy)}: pass ${expected}.`,
            ["defaultAgent"]
        );
    }
    const { excludedTools } = copy;
    return deepFrozen<NonNullable<AgentsInput["defaultAgent"]>>({
        ...copy,
        ...(excludedTools === undefined || excludedTools === null
            ? {}
            : {
                  excludedTools: toolList(
                      excludedTools,
                      "defaultAgent.excludedTools",
                      "excludedTools"
                  ) as readonly string[],
              }),
    });
}

/**
 * A tool list of an agent (`tools`, `excludedTools`) of the copy: non-empty strings; `null` stays
 * `null` (all tools).
 */
function toolList(value: unknown, what: string, option: string): readonly string[] | null {
    if (value === null && option === "tools") return null;
    return readList(
        value,
        what,
        "INVALID_TOOL_FILTER",
        "an array of tool names and 'toolset:<name>' entries" +
            (option === "tools" ? ", or null for all tools" : ""),
        (entry, position, present) => {
            if (typeof entry === "string" && entry.length > 0) return entry;
            throw new SessionToolError(
                "INVALID_TOOL_FILTER",
                `Invalid ${what}[${position}] ${present ? describeValue(entry) : "(empty slot)"}: every entry must be a tool name or 'toolset:<name>'.`
            );
        }
    );
}

/** A plain copy of a caller's value (see `readSentOption`), refused as an agent option. */
function copied(value: unknown, what: string, expected: string): unknown {
    return readOrRefuse(
        () => {
            try {
                return readSentOption(value, what, expected);
            } catch (error) {
                if (!SessionToolError.isInstance(error)) throw error;
                throw new SessionToolError("INVALID_CUSTOM_AGENT", error.message, [what], {
                    cause: error,
                });
            }
        },
        "INVALID_CUSTOM_AGENT",
        (reason) => `Invalid ${what}: it cannot be read (${reason}); pass ${expected}.`
    );
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
    return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** A plain copy (see `readSentOption`) frozen all the way down. */
function deepFrozen<T>(value: T): T {
    if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
        Object.values(value).forEach(deepFrozen);
        Object.freeze(value);
    }
    return value;
}
