// The labelled corpus (promptCorpus.ts) run through the patched package on one runtime, for
// `conformance` (precision and recall per runtime) and `conformance --compare` (a unit the labels
// do not cover is a difference of its own). Each configuration is a real session with
// `promptAgreement: 'rewrite'`: the lacked built-ins excluded, the replaced ones given a custom
// tool with `overridesBuiltInTool`; one turn with the mock model, then the session's
// `toolResolution.prompt` gives the units the package removed or edited and the mentions before
// and after. The probe applies no rule of its own.

import {
    CORPUS_CONFIGS,
    corpusKey,
    scoreCorpus,
    type CorpusEdit,
    type CorpusFigures,
} from "./promptCorpus.js";
import {
    type Mock,
    type ProbedClient,
    type ProbedSdk,
    probeProvider,
    TURN_TIMEOUT_MS,
} from "./customToolProbe.js";

/** A unit no label covers, where it was seen. */
export interface UnlabelledUnit {
    /** The corpus key (configuration, section, action, hash). */
    readonly key: string;
    readonly model: string;
    /** The dropped names it named. */
    readonly names: readonly string[];
    readonly excerpt: string;
}

/** The corpus on one runtime: its figures, and the units no label covers. */
export interface CorpusRun {
    readonly figures: CorpusFigures;
    readonly unlabelled: readonly UnlabelledUnit[];
    /** Configurations a model refused or the runtime did not build, as "model: config: why". */
    readonly notRun: readonly string[];
}

/** The patched session's report, as far as the probe reads it. */
type CorpusSession = {
    toolResolution?: {
        prompt?: {
            edits: readonly { section: string; action: string; excerpt: string; names: string[] }[];
            mentions: { before: readonly unknown[]; after: readonly unknown[] };
        };
    };
};

/**
 * Runs the corpus's configurations on each model.
 *
 * @param client - a client of the patched SDK
 * @param sdk - the patched SDK module
 * @param mock - the mock model
 * @param models - the model ids
 */
export async function probePromptCorpus(
    client: ProbedClient,
    sdk: Pick<ProbedSdk, "approveAll">,
    mock: Mock,
    models: readonly string[]
): Promise<CorpusRun> {
    const edits: (CorpusEdit & { model: string; names: readonly string[] })[] = [];
    const notRun: string[] = [];
    let mentions = 0;
    let left = 0;
    for (const model of models) {
        for (const [config, lacks, replaces] of CORPUS_CONFIGS) {
            let session;
            try {
                session = await client.createSession({
                    model,
                    provider: probeProvider(mock),
                    onPermissionRequest: sdk.approveAll,
                    promptAgreement: "rewrite",
                    ...(lacks.length > 0 ? { excludedTools: [...lacks] } : {}),
                    ...(replaces.length > 0 ? { tools: replaces.map(replacing) } : {}),
                } as Parameters<ProbedClient["createSession"]>[0]);
            } catch (error) {
                notRun.push(`${model}: ${config}: refused (${String(error)})`);
                continue;
            }
            try {
                await session.sendAndWait({ prompt: "hello" }, TURN_TIMEOUT_MS).catch(() => {});
                const report = (session as CorpusSession).toolResolution?.prompt;
                // Nothing to agree on (no transform registered) is no edit and no mention.
                if (report === undefined) continue;
                mentions += report.mentions.before.length;
                left += report.mentions.after.length;
                for (const { section, action, excerpt, names } of report.edits) {
                    edits.push({ config, section, action, excerpt, model, names: [...names] });
                }
            } finally {
                await session.disconnect().catch(() => {});
            }
        }
    }
    const figures = scoreCorpus(edits, mentions, left);
    const unlabelledKeys = new Set(figures.unlabelled.map((unit) => unit.split(": ")[0]));
    const seen = new Set<string>();
    const unlabelled: UnlabelledUnit[] = [];
    for (const edit of edits) {
        const key = corpusKey(edit);
        if (!unlabelledKeys.has(key) || seen.has(`${edit.model}|${key}`)) continue;
        seen.add(`${edit.model}|${key}`);
        unlabelled.push({ key, model: edit.model, names: edit.names, excerpt: edit.excerpt });
    }
    return { figures, unlabelled, notRun };
}

/** A custom tool replacing the built-in `name`. */
function replacing(name: string): object {
    return {
        name,
        description: "Replaces the built-in of this name (conformance corpus).",
        parameters: { type: "object", properties: {} },
        skipPermission: true,
        overridesBuiltInTool: true,
        handler: async () => "custom",
    };
}
