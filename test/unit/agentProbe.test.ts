/**
 * `conformance --compare`'s decisions about the runtime's built-in sub-agents (agentProbe.ts): a
 * new agent type, a changed sub-agent tool list, and nothing when a side has no probe.
 */
import { describe, expect, it } from "vitest";
import {
    agentDifferences,
    agentLines,
    type AgentProbeResult,
} from "../../src/cli/conformance/agentProbe.js";

const MODEL = "claude-sonnet-4.5";

function probe(
    types: string[],
    explore: string[] | { notStarted: string } = ["bash", "grep", "view"]
): AgentProbeResult {
    return {
        agentTypes: types,
        offered: { "no options": { [MODEL]: { explore, task: ["bash", "task"] } } },
    };
}

describe("agentDifferences", () => {
    it("reports nothing for runtimes whose sub-agents match, or when a side has no probe", () => {
        expect(agentDifferences(probe(["explore", "task"]), probe(["explore", "task"]))).toEqual(
            []
        );
        expect(agentDifferences(undefined, probe(["explore"]))).toEqual([]);
        expect(agentDifferences(probe(["explore"]), undefined)).toEqual([]);
    });

    it("reports an agent type B lists that A did not as NEW_AGENT_TYPE", () => {
        expect(
            agentDifferences(probe(["explore", "task"]), probe(["explore", "rubber-duck", "task"]))
        ).toEqual([
            {
                kind: "NEW_AGENT_TYPE",
                tool: "rubber-duck",
                model: "(any)",
                a: "not listed",
                b: "listed built-in agent",
            },
        ]);
    });

    it("reports each tool a sub-agent gains or loses, per case and model, as SUB_AGENT_TOOLS_CHANGED", () => {
        const differences = agentDifferences(
            probe(["explore", "task"]),
            probe(["explore", "task"], ["bash", "view", "web_fetch"])
        );
        expect(differences.map((d) => [d.kind, d.tool, d.model, d.a, d.b])).toEqual([
            [
                "SUB_AGENT_TOOLS_CHANGED",
                "explore: grep",
                MODEL,
                "offered (no options)",
                "not offered",
            ],
            [
                "SUB_AGENT_TOOLS_CHANGED",
                "explore: web_fetch",
                MODEL,
                "not offered (no options)",
                "offered",
            ],
        ]);
    });

    it("reports a change alike in several cases once, naming the cases", () => {
        const a = probe(["explore"]);
        const b = probe(["explore"], ["bash", "view"]);
        a.offered["excluded"] = { [MODEL]: { explore: ["bash", "grep"] } };
        b.offered["excluded"] = { [MODEL]: { explore: ["bash"] } };
        expect(agentDifferences(a, b)).toEqual([
            {
                kind: "SUB_AGENT_TOOLS_CHANGED",
                tool: "explore: grep",
                model: MODEL,
                a: "offered (no options; excluded)",
                b: "not offered",
            },
        ]);
    });

    it("reports a sub-agent that no longer starts", () => {
        const differences = agentDifferences(
            probe(["explore", "task"]),
            probe(["explore", "task"], { notStarted: "no sub-agent ran" })
        );
        expect(differences).toMatchObject([
            {
                kind: "SUB_AGENT_TOOLS_CHANGED",
                tool: "explore: (sub-agent)",
                b: "not started: no sub-agent ran",
            },
        ]);
    });
});

describe("agentLines", () => {
    it("lists the agent types, then each case's tools per model and type", () => {
        expect(agentLines(probe(["explore", "task"]))).toEqual([
            "Built-in agent types: explore, task.",
            `Sub-agents' tools, no options, ${MODEL}:`,
            "  explore: bash, grep, view",
            "  task: bash, task",
        ]);
        expect(agentLines({ agentTypes: { unavailable: "no task" }, offered: {} })).toEqual([
            "Built-in agent types: not listed (no task).",
        ]);
    });
});
