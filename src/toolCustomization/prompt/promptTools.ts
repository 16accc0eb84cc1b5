import { modelFacingBuiltIns, type BuiltInToolCatalog } from "../catalog/builtInToolCatalog.js";
import type { PromptTools } from "./promptAgreement.js";

/** What the session's construction decided, as the prompt's view of the tools needs it. */
export interface PromptToolFacts {
    /** The runtime's catalog the session was built with. */
    readonly catalog: BuiltInToolCatalog;
    /** The names of the session's custom tools, sent or not. */
    readonly customTools: readonly string[];
    /** The tools the runtime offers the model at the start (built-ins and custom tools). */
    readonly enabledTools: readonly string[];
    /** The enablement of every tool the catalog says the model is offered, by name. */
    readonly toolEnablement: ReadonlyMap<string, boolean>;
    /** Built-ins whose offer the measurements cannot tell for the session's model. */
    readonly uncertainBuiltIns: readonly string[];
    /** The built-ins custom tools replace. */
    readonly replaced: readonly string[];
    /** The app's filter decision for a name: false when availableTools / excludedTools remove it. */
    readonly isEnabled: (name: string) => boolean;
}

/**
 * What the rewrite of the runtime's instructions needs: the names to recognise, those to drop,
 * and for the note, the built-ins the session lacks, the replaced ones and those it cannot
 * confirm. A tool counts as absent only when the package knows it is:
 * - on a runtime whose built-ins were measured: the model's measured set does not hold it (a
 *   name whose offer the measurements cannot tell for the model is not dropped), or the app's
 *   filter removes it, or a custom tool replaces it;
 * - on a runtime that was not measured (catalog `"fallback"`): only the app's filter or a custom
 *   tool can say so. The stand-in measurements' word that the model is not offered a built-in
 *   (runtime 1.0.102 offers `skill`, which they lack) drives no removal: those names are
 *   `unconfirmed`, kept in the text and named in the note.
 *
 * @param facts - the session's construction, as decided
 * @returns the prompt's view of the session's tools, frozen
 */
export function promptToolsOf(facts: PromptToolFacts): PromptTools {
    const { catalog, enabledTools, toolEnablement, uncertainBuiltIns, replaced } = facts;
    const names = new Set([...catalog.builtIns, ...facts.customTools]);
    // A built-in the model may have is not dropped: its text may describe a tool it has.
    const on = new Set([...enabledTools, ...uncertainBuiltIns]);
    const measured = catalog.source === "measured";
    const certainlyAbsent = (name: string) =>
        !on.has(name) && (measured || !facts.isEnabled(name) || !catalog.builtIns.has(name));
    const dropped = new Set([...names].filter(certainlyAbsent));
    replaced.forEach((name) => dropped.add(name));
    const missing = [...toolEnablement]
        .filter(([name, isOn]) => !isOn && dropped.has(name) && !replaced.includes(name))
        .filter(([name]) => catalog.builtIns.has(name))
        .map(([name]) => name);
    const unconfirmed = measured
        ? uncertainBuiltIns.filter((name) => !replaced.includes(name))
        : modelFacingBuiltIns(catalog).filter(
              (name) => !on.has(name) && !dropped.has(name) && !replaced.includes(name)
          );
    return Object.freeze({
        names,
        dropped,
        missing: Object.freeze(missing),
        replaced: Object.freeze([...replaced]),
        droppedBuiltIns: Object.freeze([...dropped].filter((name) => catalog.builtIns.has(name))),
        unconfirmed: Object.freeze(unconfirmed),
    });
}
