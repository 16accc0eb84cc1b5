/**
 * The built-in sub-agents' summary per release (src/cli/conformance/subAgentData.ts), the data
 * file `npm run conformance` writes it to, its line in CONFORMANCE.md (agentLines) and the README
 * table's cell (scripts/patch/lib/compatibilityTable.mjs). Expected values are written by hand.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { agentLines, type AgentProbeResult } from "../../src/cli/conformance/agentProbe.js";
import {
    readSubAgents,
    subAgentSummary,
    writeSubAgents,
    type SubAgentMeasurement,
} from "../../src/cli/conformance/subAgentData.js";
import { subAgentCell } from "../../scripts/patch/lib/compatibilityTable.mjs";

const probe = (taskNote: AgentProbeResult["taskNote"]): AgentProbeResult => ({
    agentTypes: ["explore", "task"],
    taskNote,
    offered: {},
});

describe("subAgentSummary", () => {
    it("keeps the agent types and whether the note reached the sub-agent", () => {
        expect(subAgentSummary("1.0.85", probe(true))).toEqual({
            runtimeVersion: "1.0.85",
            agentTypes: ["explore", "task"],
            taskNote: true,
        });
        expect(subAgentSummary("1.0.57", probe(false)).taskNote).toBe(false);
    });

    it("says why the note was not measured: no sub-agent ran, no type listed, no probe", () => {
        expect(
            subAgentSummary("1.0.57", probe({ notStarted: "no sub-agent ran" })).taskNote
        ).toEqual({ notMeasured: "no sub-agent ran" });
        expect(
            subAgentSummary("1.0.57", { agentTypes: { unavailable: "no task" }, offered: {} })
        ).toEqual({
            runtimeVersion: "1.0.57",
            agentTypes: { unavailable: "no task" },
            taskNote: { notMeasured: "no task" },
        });
        expect(subAgentSummary("1.0.57", undefined).taskNote).toEqual({
            notMeasured: "no agent probe ran",
        });
    });
});

describe("data/sub-agents.json", () => {
    let dir: string | undefined;
    afterEach(() => {
        if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
    });

    it("replaces the releases run now, keeps the others, and lists them in release order", () => {
        dir = mkdtempSync(join(tmpdir(), "sub-agents-"));
        const file = join(dir, "sub-agents.json");
        const entry = (runtimeVersion: string, taskNote: boolean): SubAgentMeasurement => ({
            runtimeVersion,
            agentTypes: ["task"],
            taskNote,
        });
        const order = ["1.0.0", "1.0.14", "1.0.15"];
        writeSubAgents(
            new Map([
                ["1.0.14", entry("1.0.85", false)],
                ["1.0.0", entry("1.0.57", false)],
            ]),
            order,
            file
        );
        writeSubAgents(new Map([["1.0.14", entry("1.0.85", true)]]), order, file);
        expect([...readSubAgents(file)]).toEqual([
            ["1.0.0", entry("1.0.57", false)],
            ["1.0.14", entry("1.0.85", true)],
        ]);
        expect(JSON.parse(readFileSync(file, "utf8")).generatedBy).toBe("npm run conformance");
    });
});

describe("the sub-agents in the report and the README's table", () => {
    it("CONFORMANCE.md says whether the note reached the sub-agent", () => {
        expect(agentLines(probe(true))[1]).toBe(
            "Task-prompt note (promptAgreement 'rewrite', excludedTools view/grep/glob): in the sub-agent's first message."
        );
        expect(agentLines(probe(false))[1]).toBe(
            "Task-prompt note (promptAgreement 'rewrite', excludedTools view/grep/glob): not added."
        );
        expect(agentLines(probe({ notStarted: "no sub-agent ran" }))[1]).toBe(
            "Task-prompt note (promptAgreement 'rewrite', excludedTools view/grep/glob): not measured (no sub-agent ran)."
        );
    });

    it("the table's cell counts the types and says 'note' only where the note reached one", () => {
        const summary = (taskNote: SubAgentMeasurement["taskNote"]): SubAgentMeasurement => ({
            runtimeVersion: "1.0.85",
            agentTypes: [
                "code-review",
                "explore",
                "general-purpose",
                "research",
                "security-review",
                "task",
            ],
            taskNote,
        });
        expect(subAgentCell(summary(true))).toBe("6 types; note");
        expect(subAgentCell(summary(false))).toBe("6 types");
        expect(subAgentCell(summary({ notMeasured: "no sub-agent ran" }))).toBe("6 types");
        expect(
            subAgentCell({ runtimeVersion: "1.0.57", agentTypes: ["task"], taskNote: false })
        ).toBe("1 type");
        expect(
            subAgentCell({
                runtimeVersion: "1.0.57",
                agentTypes: { unavailable: "no task" },
                taskNote: { notMeasured: "no task" },
            })
        ).toBe("none listed");
        expect(subAgentCell(undefined)).toBe("not measured");
    });
});
