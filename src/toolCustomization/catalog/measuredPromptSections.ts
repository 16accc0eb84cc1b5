/**
 * What `scripts/measure/measure-prompt-sections.mjs` measured about one runtime version's system
 * prompt: for each model id, the tool names each section names (the package's naming rule,
 * outside conditions on a tool's availability).
 */
export interface MeasuredPromptSections {
    readonly runtimeVersion: string;
    /** By model id, then by section id (of the SDK's `SYSTEM_MESSAGE_SECTIONS`), sorted names. */
    readonly byModel: Readonly<Record<string, Readonly<Record<string, readonly string[]>>>>;
}
