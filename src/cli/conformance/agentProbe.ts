// The runtime's built-in sub-agents, for the conformance suite and `conformance --compare`: each
// built-in agent type the runtime lists, and the tools its sub-agent is offered under the
// conformance cases (no options, and the prompt probe's cases, promptProbe.ts), on a patched SDK.
// The mock model calls the runtime's `task` tool for each type; the sub-agent's first request,
// whose user message is the task's prompt, shows what the sub-agent is offered.
//
// Kept in a module of its own, beside the probes it runs with (compareProbe.ts,
// conformanceProbe.ts), and its comparison with it ({@link agentDifferences}).

import {
    startMockModel,
    toolNameOf,
    turnUserText,
    userPrompt,
    type MockModel,
} from "copilot-sdk-tool-override/mock-model";
import {
    type ProbedClient,
    type ProbedSdk,
    probeProvider,
    refusalOf,
    TURN_TIMEOUT_MS,
} from "./customToolProbe.js";
import { PROMPT_SCENARIOS, type PromptScenario } from "./promptProbe.js";

/** The sub-agent's first message: the `prompt` of the probe's task call. */
const SUBTASK = "AGENT-PROBE sub-task";

/** The XML block the package's task-prompt note opens with (taskPromptNote.ts). */
const NOTE_BLOCK = "<tool_availability>";

/** The cases: a session without options, then the prompt probe's. */
export const AGENT_CASES: readonly PromptScenario[] = [
    { label: "no options", config: () => ({}) },
    ...PROMPT_SCENARIOS,
];

/**
 * What a runtime's built-in sub-agents are offered:
 * - `agentTypes`: the built-in agent types the `task` tool offers a session without options,
 *   sorted; `{ unavailable }` when the runtime offers no `task` tool or no list of types;
 * - `offered[case][model][agent type]`: the tools of the sub-agent's first request, sorted, or
 *   `{ notStarted }` when no sub-agent ran (the session lacks `task`, say), or `{ refused }`;
 * - `taskNote`: with `promptAgreement: 'rewrite'` set and `excludedTools: ['view', 'grep', 'glob']`,
 *   whether the first agent type's sub-agent got the package's note in its first message
 *   (`{ notStarted }` when no sub-agent ran); absent when no type is listed.
 */
export interface AgentProbeResult {
    agentTypes: string[] | { unavailable: string };
    taskNote?: boolean | { notStarted: string };
    offered: Record<
        string,
        Record<string, Record<string, string[] | { notStarted: string } | { refused: string }>>
    >;
}

/** A difference between two runtimes' sub-agents, in runtimeComparison.ts's terms. */
export interface AgentDifference {
    kind: "NEW_AGENT_TYPE" | "SUB_AGENT_TOOLS_CHANGED";
    /** the agent type (and, for a changed list, the tool) */
    tool: string;
    model: string;
    a: string;
    b: string;
}

/**
 * The built-in agent types the runtime offers a session without options: the `agent_type` enum of
 * its `task` tool, as the model's first request carries it (what the model is told it may start).
 * `session.rpc.agent.list({ includeBuiltInAgents: true })` answers no agent on runtime 1.0.85.
 */
async function listAgentTypes(
    client: ProbedClient,
    sdk: Pick<ProbedSdk, "approveAll">,
    mock: MockModel,
    model: string
): Promise<string[] | { unavailable: string }> {
    let session;
    try {
        session = await client.createSession({
            model,
            provider: probeProvider(mock),
            onPermissionRequest: sdk.approveAll,
        });
        const first = mock.requests.length;
        await session.sendAndWait({ prompt: "hello" }, TURN_TIMEOUT_MS);
        const task = (mock.requests[first]?.tools ?? []).find(
            (tool) => toolNameOf(tool) === "task"
        );
        if (task === undefined) return { unavailable: "the session is offered no task tool" };
        const parameters = task.function?.parameters as
            { properties?: { agent_type?: { enum?: unknown } } } | undefined;
        const types = parameters?.properties?.agent_type?.enum;
        if (!Array.isArray(types)) return { unavailable: "the task tool's agent_type has no enum" };
        return types.filter((name): name is string => typeof name === "string").sort();
    } catch (error) {
        return { unavailable: refusalOf(error) };
    } finally {
        await session?.disconnect().catch(() => {});
    }
}

/**
 * Runs every case on every model for every built-in agent type the runtime lists: one session per
 * case and model, one turn per agent type in which the model delegates to it.
 *
 * @param client - a client of the patched SDK
 * @param sdk - the patched SDK module
 * @param models - the model ids
 */
export async function probeAgents(
    client: ProbedClient,
    sdk: Pick<ProbedSdk, "approveAll">,
    models: readonly string[]
): Promise<AgentProbeResult> {
    const mock = await startMockModel({
        toolCall: (request) => {
            const text = userPrompt(request);
            const delegated = /^delegate (\S+)$/.exec(text.trim());
            if (delegated === null) return undefined;
            return {
                name: "task",
                arguments: {
                    agent_type: delegated[1],
                    name: "probe",
                    description: "probe the sub-agent",
                    prompt: SUBTASK,
                    mode: "sync",
                },
            };
        },
        listModels: false,
    });
    try {
        const agentTypes = await listAgentTypes(client, sdk, mock, models[0] ?? "");
        const result: AgentProbeResult = { agentTypes, offered: {} };
        if (!Array.isArray(agentTypes)) return result;
        result.taskNote = await probeTaskNote(client, sdk, mock, models[0] ?? "", agentTypes[0]);
        for (const scenario of AGENT_CASES) {
            const byModel: AgentProbeResult["offered"][string] = {};
            result.offered[scenario.label] = byModel;
            for (const model of models) {
                byModel[model] = await probeCase(client, sdk, mock, model, scenario, agentTypes);
            }
        }
        return result;
    } finally {
        await mock.close();
    }
}

/**
 * Whether the package's note reaches a sub-agent's first message: one session lacking `view`,
 * `grep` and `glob` with `promptAgreement: 'rewrite'` set, delegating to `agent`.
 */
async function probeTaskNote(
    client: ProbedClient,
    sdk: Pick<ProbedSdk, "approveAll">,
    mock: MockModel,
    model: string,
    agent: string | undefined
): Promise<boolean | { notStarted: string }> {
    if (agent === undefined) return { notStarted: "no agent type listed" };
    let session;
    try {
        session = await client.createSession({
            model,
            provider: probeProvider(mock),
            onPermissionRequest: sdk.approveAll,
            excludedTools: ["view", "grep", "glob"],
            promptAgreement: "rewrite",
        } as Parameters<typeof client.createSession>[0]);
        const first = mock.requests.length;
        await session.sendAndWait({ prompt: `delegate ${agent}` }, TURN_TIMEOUT_MS).catch(() => {});
        const sub = mock.requests
            .slice(first)
            .find((request) => userPrompt(request).includes(SUBTASK));
        if (sub === undefined) return { notStarted: "no sub-agent ran" };
        return turnUserText(sub).includes(NOTE_BLOCK);
    } catch (error) {
        return { notStarted: refusalOf(error) };
    } finally {
        await session?.disconnect().catch(() => {});
    }
}

/** One case on one model: the tools each agent type's sub-agent is offered. */
async function probeCase(
    client: ProbedClient,
    sdk: Pick<ProbedSdk, "approveAll">,
    mock: MockModel,
    model: string,
    scenario: PromptScenario,
    agentTypes: readonly string[]
): Promise<Record<string, string[] | { notStarted: string } | { refused: string }>> {
    const byAgent: Record<string, string[] | { notStarted: string } | { refused: string }> = {};
    let session;
    try {
        session = await client.createSession({
            ...scenario.config(),
            model,
            provider: probeProvider(mock),
            onPermissionRequest: sdk.approveAll,
        });
    } catch (error) {
        for (const agent of agentTypes) byAgent[agent] = { refused: refusalOf(error) };
        return byAgent;
    }
    try {
        for (const agent of agentTypes) {
            const first = mock.requests.length;
            await session
                .sendAndWait({ prompt: `delegate ${agent}` }, TURN_TIMEOUT_MS)
                .catch(() => {});
            const sub = mock.requests
                .slice(first)
                .find((request) => userPrompt(request).includes(SUBTASK));
            const offersTask = (mock.requests[first]?.tools ?? []).some(
                (tool) => toolNameOf(tool) === "task"
            );
            byAgent[agent] =
                sub !== undefined
                    ? (sub.tools ?? []).map(toolNameOf).sort()
                    : { notStarted: offersTask ? "no sub-agent ran" : "the session has no task" };
        }
    } finally {
        await session.disconnect().catch(() => {});
    }
    return byAgent;
}

/**
 * The differences between runtime A's and B's sub-agents: an agent type B lists that A did not
 * (`NEW_AGENT_TYPE`, once), and, per case, model and agent type probed on both, each tool one
 * sub-agent is offered and the other is not (`SUB_AGENT_TOOLS_CHANGED`, `tool` being
 * `<agent>: <tool>`, once for all the cases where it changed alike, which `a` names). Nothing
 * when either side has no probe.
 */
export function agentDifferences(
    a: AgentProbeResult | undefined,
    b: AgentProbeResult | undefined
): AgentDifference[] {
    if (a === undefined || b === undefined) return [];
    const differences: AgentDifference[] = [];
    const changed = new Map<
        string,
        {
            kind: "SUB_AGENT_TOOLS_CHANGED";
            tool: string;
            model: string;
            was: string;
            b: string;
            cases: string[];
        }
    >();
    const typesA = Array.isArray(a.agentTypes) ? new Set(a.agentTypes) : undefined;
    if (typesA !== undefined && Array.isArray(b.agentTypes)) {
        for (const agent of b.agentTypes.filter((name) => !typesA.has(name))) {
            differences.push({
                kind: "NEW_AGENT_TYPE",
                tool: agent,
                model: "(any)",
                a: "not listed",
                b: "listed built-in agent",
            });
        }
    }
    for (const [label, byModelB] of Object.entries(b.offered)) {
        const byModelA = a.offered[label];
        if (byModelA === undefined) continue;
        for (const [model, byAgentB] of Object.entries(byModelB)) {
            for (const [agent, toolsB] of Object.entries(byAgentB)) {
                const toolsA = byModelA[model]?.[agent];
                if (toolsA === undefined) continue;
                const listA = Array.isArray(toolsA) ? toolsA : [];
                const listB = Array.isArray(toolsB) ? toolsB : [];
                const inA = new Set(listA);
                const inB = new Set(listB);
                const change = (tool: string, was: string, now: string) => {
                    // One difference per agent, tool, model and change, naming every case.
                    const key = JSON.stringify([agent, tool, model, was, now]);
                    const found = changed.get(key);
                    if (found !== undefined) {
                        found.cases.push(label);
                        return;
                    }
                    const difference = {
                        kind: "SUB_AGENT_TOOLS_CHANGED" as const,
                        tool: `${agent}: ${tool}`,
                        model,
                        was,
                        b: now,
                        cases: [label],
                    };
                    changed.set(key, difference);
                };
                if (Array.isArray(toolsA) !== Array.isArray(toolsB)) {
                    change("(sub-agent)", describe(toolsA), describe(toolsB));
                    continue;
                }
                for (const tool of listA.filter((name) => !inB.has(name))) {
                    change(tool, "offered", "not offered");
                }
                for (const tool of listB.filter((name) => !inA.has(name))) {
                    change(tool, "not offered", "offered");
                }
            }
        }
    }
    for (const { kind, tool, model, was, b: now, cases } of changed.values()) {
        differences.push({ kind, tool, model, a: `${was} (${cases.join("; ")})`, b: now });
    }
    return differences;
}

function describe(side: string[] | { notStarted: string } | { refused: string }): string {
    if (Array.isArray(side)) return `started, ${side.length} tools`;
    return "notStarted" in side ? `not started: ${side.notStarted}` : `refused: ${side.refused}`;
}

/**
 * The probe as report lines: the agent types, then per case and model each type's tools.
 *
 * @param result - the probe's result; undefined when none ran
 */
export function agentLines(result: AgentProbeResult | undefined): string[] {
    if (result === undefined) return [];
    const { agentTypes } = result;
    if (!Array.isArray(agentTypes)) {
        return [`Built-in agent types: not listed (${agentTypes.unavailable}).`];
    }
    const lines = [`Built-in agent types: ${agentTypes.join(", ") || "(none)"}.`];
    if (result.taskNote !== undefined) {
        const note = result.taskNote;
        lines.push(
            "Task-prompt note (promptAgreement 'rewrite', excludedTools view/grep/glob): " +
                (note === true
                    ? "in the sub-agent's first message."
                    : note === false
                      ? "not added."
                      : `not measured (${note.notStarted}).`)
        );
    }
    for (const [label, byModel] of Object.entries(result.offered)) {
        for (const [model, byAgent] of Object.entries(byModel)) {
            lines.push(`Sub-agents' tools, ${label}, ${model}:`);
            for (const [agent, tools] of Object.entries(byAgent)) {
                lines.push(
                    `  ${agent}: ${Array.isArray(tools) ? tools.join(", ") || "(none)" : describe(tools)}`
                );
            }
        }
    }
    return lines;
}

/**
 * The probe as a section of CONFORMANCE.md: the lines of {@link agentLines} after a heading, or
 * nothing when no probe ran (an unpatched run).
 */
export function agentReportLines(result: AgentProbeResult | undefined): string[] {
    if (result === undefined) return [];
    return [
        "",
        "Built-in sub-agents (patched, the default promptAgreement; tools of each agent type's first " +
            "request when the model delegates to it with the task tool, per case and model):",
        "",
        "```text",
        ...agentLines(result),
        "```",
    ];
}
