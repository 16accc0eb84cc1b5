// What the runtime's own instructions say about tools a session lacks, before and after the
// package's rewrite (`promptAgreement`), for the conformance suite (conformanceProbe.ts) and the
// comparison of two runtimes (compareProbe.ts). It runs on a patched SDK: the session's
// `toolResolution.prompt.mentions` is the package's report, made by the package's one naming rule
// on the sections as the runtime hands them to the transforms (before) and on what the package
// returns (after), so this probe applies no rule of its own.

import {
    type Mock,
    type ProbedClient,
    type ProbedSdk,
    probeProvider,
    refusalOf,
    TURN_TIMEOUT_MS,
} from "./customToolProbe.js";

/** One mention, as the package reports it (`PromptToolMention`). */
export interface ProbedMention {
    section: string;
    name: string;
    reason: "not-offered" | "replaced";
    excerpt: string;
}

/** A case of the prompt probe: a session config whose prompt names tools the session lacks. */
export interface PromptScenario {
    label: string;
    config: () => object;
}

/**
 * What one case showed on one model:
 * - `before` / `after`: the mentions in the runtime's sections and in what the package returned;
 * - `notBuilt`: the runtime never asked for the sections (no transform ran), so nothing was
 *   rewritten;
 * - `refused`: createSession threw.
 */
export type PromptScenarioResult = { label: string; model: string } & (
    | { before: ProbedMention[]; after: ProbedMention[]; builds: number }
    | { notBuilt: string }
    | { refused: string }
);

/** The cases: the excluded view/grep/glob, a replaced view, a narrowed allowlist. */
export const PROMPT_SCENARIOS: readonly PromptScenario[] = [
    {
        label: "excludedTools ['view', 'grep', 'glob']",
        config: () => ({ excludedTools: ["view", "grep", "glob"] }),
    },
    {
        label: "a custom view replacing the built-in",
        config: () => ({
            tools: [
                {
                    name: "view",
                    description: "Shows a database record by its id.",
                    parameters: { type: "object", properties: { id: { type: "string" } } },
                    skipPermission: true,
                    overridesBuiltInTool: true,
                    handler: async () => "record",
                },
            ],
        }),
    },
    {
        label: "availableTools ['toolset:search']",
        config: () => ({ availableTools: ["toolset:search"] }),
    },
];

/** The patched session's report, as far as the probe reads it. */
type ReportingSession = {
    toolResolution?: {
        prompt?: { builds: number; mentions?: { before: ProbedMention[]; after: ProbedMention[] } };
    };
};

/**
 * Runs each case on each model: one session, one turn with the mock model, then the session's
 * `toolResolution.prompt`.
 *
 * @param client - a client of the patched SDK
 * @param sdk - the patched SDK module
 * @param mock - the mock model
 * @param models - the model ids
 */
export async function probePromptScenarios(
    client: ProbedClient,
    sdk: Pick<ProbedSdk, "approveAll">,
    mock: Mock,
    models: readonly string[]
): Promise<PromptScenarioResult[]> {
    const results: PromptScenarioResult[] = [];
    for (const model of models) {
        for (const scenario of PROMPT_SCENARIOS) {
            const { label } = scenario;
            let session;
            try {
                session = await client.createSession({
                    model,
                    provider: probeProvider(mock),
                    onPermissionRequest: sdk.approveAll,
                    // Set: the default is "warn" where the runtime's corpus does not prove it.
                    promptAgreement: "rewrite",
                    ...scenario.config(),
                } as Parameters<typeof client.createSession>[0]);
            } catch (error) {
                results.push({ label, model, refused: refusalOf(error) });
                continue;
            }
            try {
                await session.sendAndWait({ prompt: "hello" }, TURN_TIMEOUT_MS).catch(() => {});
                const report = (session as ReportingSession).toolResolution?.prompt;
                results.push(
                    report?.mentions === undefined
                        ? {
                              label,
                              model,
                              notBuilt:
                                  "the runtime did not ask for its sections (no transform ran)",
                          }
                        : {
                              label,
                              model,
                              before: report.mentions.before.map(plain),
                              after: report.mentions.after.map(plain),
                              builds: report.builds,
                          }
                );
            } finally {
                await session.disconnect().catch(() => {});
            }
        }
    }
    return results;
}

/** A mention as plain JSON (the report's objects are frozen). */
const plain = ({ section, name, reason, excerpt }: ProbedMention): ProbedMention => ({
    section,
    name,
    reason,
    excerpt,
});
