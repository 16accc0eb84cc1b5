/**
 * What `scripts/measure/measure-prompt-sections.mjs` measured about one runtime version's system
 * prompt: for each model id, the tool names each section names (the package's naming rule,
 * outside conditions on a tool's availability).
 */
export interface MeasuredPromptSections {
    readonly runtimeVersion: string;
    /** By model id, then by section id (of the SDK's `SYSTEM_MESSAGE_SECTIONS`), sorted names. */
    readonly byModel: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;
    /**
     * The labelled corpus's figures on this runtime's sections (src/cli/conformance/promptCorpus.ts:
     * its configurations on claude-sonnet-4.5 and gpt-4o), when measured: the default
     * `promptAgreement` is `"rewrite"` only on a runtime whose corpus shows no false removal and
     * no unit the labels do not cover.
     */
    readonly corpus?: MeasuredPromptCorpus;
}

/** The labelled corpus's figures on one runtime, as measured. */
export interface MeasuredPromptCorpus {
    /** Units the rewrite removed or edited. */
    readonly edits: number;
    /** Of those, labelled false for the session. */
    readonly correct: number;
    /** Distinct units labelled true for the session: false removals. */
    readonly falseRemovals: number;
    /** Distinct units no label covers. */
    readonly unlabelled: number;
    /** Mentions of tools the sessions lack, outside conditions on availability. */
    readonly mentions: number;
    /** Of those, the ones the rewrite handled. */
    readonly handled: number;
}
