// data/sub-agents.json: per SDK release, a summary of the runtime's built-in sub-agents as the
// conformance run's agent probe (agentProbe.ts) measured them with the patch: the agent types the
// `task` tool offers, and whether the prompt agreement's note reached a sub-agent's first message.
// The README's compatibility table reads it (scripts/patch/lib/compatibilityTable.mjs); the tools
// of each type are in CONFORMANCE.md. A release run again replaces its entry, the others stay.

import { join } from "node:path";
import type { AgentProbeResult } from "./agentProbe.js";
import { readReleaseData, writeReleaseData } from "./releaseDataFile.js";
import { ROOT } from "./servedReleases.js";

export const SUB_AGENT_DATA = join(ROOT, "data", "sub-agents.json");

/**
 * One release's summary: its runtime; the built-in agent types, or why none is listed; whether
 * the task-prompt note reached the sub-agent (`taskNote`), or why that was not measured.
 */
export interface SubAgentMeasurement {
    runtimeVersion: string;
    agentTypes: string[] | { unavailable: string };
    taskNote: boolean | { notMeasured: string };
}

/**
 * The summary of one agent probe.
 *
 * @param runtimeVersion - the runtime probed
 * @param result - the probe's result; undefined when none ran
 */
export function subAgentSummary(
    runtimeVersion: string,
    result: AgentProbeResult | undefined
): SubAgentMeasurement {
    if (result === undefined) {
        return {
            runtimeVersion,
            agentTypes: { unavailable: "no agent probe ran" },
            taskNote: { notMeasured: "no agent probe ran" },
        };
    }
    const note = result.taskNote;
    return {
        runtimeVersion,
        agentTypes: result.agentTypes,
        taskNote:
            typeof note === "boolean"
                ? note
                : {
                      notMeasured:
                          note?.notStarted ??
                          (Array.isArray(result.agentTypes)
                              ? "not probed"
                              : result.agentTypes.unavailable),
                  },
    };
}

/**
 * The summaries by SDK version (empty when the file does not exist yet).
 *
 * @param file - the data file (default: the repository's)
 */
export function readSubAgents(file: string = SUB_AGENT_DATA): Map<string, SubAgentMeasurement> {
    return readReleaseData<SubAgentMeasurement>(file);
}

/**
 * Writes the summaries of the releases run now over the earlier ones.
 *
 * @param measured - by SDK version, the releases run now
 * @param order - the served releases, in release order (the file lists them so)
 * @param file - the data file (default: the repository's)
 */
export function writeSubAgents(
    measured: ReadonlyMap<string, SubAgentMeasurement>,
    order: readonly string[],
    file: string = SUB_AGENT_DATA
): void {
    writeReleaseData(file, measured, order);
}
