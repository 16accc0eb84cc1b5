import { MEASURED_PROMPT_SECTIONS } from "../catalog/generated/promptSectionNames.generated.js";
import { NOTHING_OUTSIDE, type NamesOutside, type PromptTools } from "./promptAgreement.js";

/**
 * The sections of the runtime's prompt the agreement registers transforms for:
 * - undefined (all of them): the runtime, or the model id on it, was not measured
 *   (`scripts/measure/measure-prompt-sections.mjs`), so any section may name any tool; with the
 *   stand-in catalog, only where the session lacks or replaces a tool by the app's decision (its
 *   filter, a custom tool);
 * - none: on the session's model, no section names a tool the session lacks or replaces, and
 *   nothing is unconfirmed; or, with the stand-in catalog (a runtime whose built-ins were not
 *   measured on its delivery), the app's decisions remove and replace nothing, so that the
 *   runtime's prompt and its tools come from the runtime alone, as without the package (a note
 *   about the stand-in's unconfirmed names would be a guess: runtime 1.0.102 offers `skill`,
 *   which the stand-in of its day lacked). The session gets the SDK's own prompt, untouched (no
 *   customize mode, no transforms, no extra requests);
 * - otherwise, every section that names a tool on some model of this runtime: the ones that
 *   disagree now, and those a later `setTools` or `setModel` could make disagree (the runtime
 *   calls the transforms registered at creation again after each; it takes no new ones).
 *
 * @param runtime - `toolResolution.runtime` of the session
 * @param model - the session's model id
 * @param tools - the session's tools as the rewrite sees them
 * @returns section ids, or undefined for all
 */
export function sectionsToAgree(
    runtime: { readonly version: string; readonly catalog: "measured" | "fallback" },
    model: unknown,
    tools: PromptTools
): readonly string[] | undefined {
    // With the stand-in catalog, every name the session lacks is the app's decision.
    if (runtime.catalog !== "measured") return tools.dropped.size === 0 ? NONE : undefined;
    const measured = MEASURED_PROMPT_SECTIONS.find(
        (entry) => entry.runtimeVersion === runtime.version
    );
    if (measured === undefined || typeof model !== "string") return undefined;
    // An own-property check: a model id such as 'constructor' is just an unmeasured id.
    if (!Object.hasOwn(measured.byModel, model)) return undefined;
    const current = Object.values(measured.byModel[model]!);
    const disagrees =
        tools.unconfirmed.length > 0 ||
        current.some((names) => names.some((name) => tools.dropped.has(name)));
    if (!disagrees) return NONE;
    const naming = new Set<string>();
    for (const sections of Object.values(measured.byModel)) {
        for (const [id, names] of Object.entries(sections)) {
            if (names.length > 0) naming.add(id);
        }
    }
    return Object.freeze([...naming]);
}

const NONE: readonly string[] = Object.freeze([]);

/**
 * The mode a session gets when the app sets no `promptAgreement`: `"rewrite"` only where the
 * evidence shows the rewrite removes nothing true, that is on a runtime whose built-ins were
 * measured and whose labelled corpus (its measured prompt sections' `corpus`) shows no false
 * removal and no unit the labels do not cover; elsewhere `"warn"`, with the note (the text
 * stays, the note and the warnings say what the session lacks).
 *
 * @param runtime - `toolResolution.runtime` of the session
 */
export function defaultPromptAgreement(runtime: {
    readonly version: string;
    readonly catalog: "measured" | "fallback";
}): "rewrite" | "warn" {
    if (runtime.catalog !== "measured") return "warn";
    const corpus = MEASURED_PROMPT_SECTIONS.find(
        (entry) => entry.runtimeVersion === runtime.version
    )?.corpus;
    const proven = corpus !== undefined && corpus.falseRemovals === 0 && corpus.unlabelled === 0;
    return proven ? "rewrite" : "warn";
}

/**
 * The tools a session lacks or replaces that sections without a transform name on its model:
 * after a `setTools` or `setModel` of a session that had nothing to agree on at its creation (so
 * none was registered, and the runtime takes none later), what the runtime's instructions now
 * say wrongly. Empty where the transforms cover every section (`agreed` undefined). Where the
 * runtime's texts were not measured (its version, or its catalog a stand-in), the built-ins the
 * session lacks or replaces, not certain.
 *
 * @param agreed - the sections registered ({@link sectionsToAgree}'s answer at creation)
 * @param runtime - `toolResolution.runtime` of the session
 * @param model - the session's model id now
 * @param tools - the session's tools now
 * @returns tool names, sorted, and whether measured texts name them
 */
export function namesOutsideAgreement(
    agreed: readonly string[] | undefined,
    runtime: { readonly version: string; readonly catalog: "measured" | "fallback" },
    model: unknown,
    tools: PromptTools
): NamesOutside {
    if (agreed === undefined) return NOTHING_OUTSIDE;
    const measured =
        runtime.catalog === "measured"
            ? MEASURED_PROMPT_SECTIONS.find((entry) => entry.runtimeVersion === runtime.version)
            : undefined;
    if (measured === undefined) {
        // Every built-in the session lacks, offered to the model by the stand-in or not (the
        // runtime may offer what the stand-in lacks), and the replaced ones (dropped too): whether
        // such a runtime leaves a replaced built-in's own block out is not known either.
        return Object.freeze({
            names: Object.freeze([...tools.droppedBuiltIns].sort()),
            certain: false,
        });
    }
    // An unmeasured model id may be given any model's text.
    const models =
        typeof model === "string" && Object.hasOwn(measured.byModel, model)
            ? [measured.byModel[model]!]
            : Object.values(measured.byModel);
    const covered = new Set(agreed);
    const names = new Set<string>();
    for (const sections of models) {
        for (const [id, named] of Object.entries(sections)) {
            if (covered.has(id)) continue;
            // A replaced built-in loses only its own block, which the runtime leaves out itself
            // (measured for view on 1.0.85): what else names it holds for the app's tool.
            for (const name of named) {
                if (tools.dropped.has(name) && !tools.replaced.includes(name)) names.add(name);
            }
        }
    }
    return Object.freeze({ names: Object.freeze([...names].sort()), certain: true });
}
