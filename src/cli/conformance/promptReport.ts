// The prompt probe's results (promptProbe.ts) as the conformance report writes them, and as
// `conformance --compare` compares them: pure functions of the results.

import type { ProbedMention, PromptScenarioResult } from "./promptProbe.js";

/** The mentions before and after the rewrite, summed over a release's cases and models. */
export interface PromptAgreementSummary {
    /** Whether every case was rewritten and left no mention (`after` 0, nothing unbuilt). */
    holds: boolean;
    before: number;
    after: number;
    /** Cases (on a model) where the runtime never asked for its sections. */
    notBuilt: number;
    /** Cases (on a model) createSession refused. */
    refused: number;
}

/**
 * Sums a release's prompt results.
 *
 * @param results - the prompt probe's results of one runtime
 */
export function promptAgreementSummary(
    results: readonly PromptScenarioResult[]
): PromptAgreementSummary {
    const summary = { holds: false, before: 0, after: 0, notBuilt: 0, refused: 0 };
    for (const result of results) {
        if ("before" in result) {
            summary.before += result.before.length;
            summary.after += result.after.length;
        } else if ("notBuilt" in result) {
            summary.notBuilt++;
        } else {
            summary.refused++;
        }
    }
    summary.holds =
        results.length > 0 &&
        summary.after === 0 &&
        summary.notBuilt === 0 &&
        summary.refused === 0;
    return summary;
}

/** "view 7, grep 7, glob 6": how often each name occurs, in order of first occurrence. */
export function countsByName(mentions: readonly ProbedMention[]): string {
    const counts = new Map<string, number>();
    for (const { name } of mentions) counts.set(name, (counts.get(name) ?? 0) + 1);
    return [...counts].map(([name, count]) => `${name} ${count}`).join(", ");
}

/** A table cell's text: no line breaks, `|` escaped, `<` written as an entity (not HTML). */
const cell = (text: string) =>
    text.replace(/\s+/g, " ").replaceAll("|", "\\|").replaceAll("<", "&lt;");

/**
 * The rows of a mention table: one per case, section, tool and excerpt, with the models that
 * showed it (all of them, or some).
 */
function mentionRows(
    results: readonly PromptScenarioResult[],
    side: "before" | "after",
    models: readonly string[]
): string[] {
    const rows = new Map<string, { key: string[]; models: string[] }>();
    for (const result of results) {
        if (!(side in result)) continue;
        const mentions = (result as Record<typeof side, ProbedMention[]>)[side];
        for (const mention of mentions) {
            const key = [
                result.label,
                mention.section,
                mention.name,
                mention.reason,
                mention.excerpt,
            ];
            const id = JSON.stringify(key);
            const row = rows.get(id) ?? { key, models: [] };
            if (!row.models.includes(result.model)) row.models.push(result.model);
            rows.set(id, row);
        }
    }
    return [...rows.values()].map(
        ({ key: [label, section, name, reason, excerpt], models: on }) => {
            const where = on.length === models.length ? "all" : on.join(", ");
            return `| ${cell(label!)} | ${where} | \`${section}\` | \`${name}\` (${reason}) | ${cell(excerpt!)} |`;
        }
    );
}

/**
 * The prompt-agreement part of a release's section of CONFORMANCE.md.
 *
 * @param results - the prompt probe's results (patched SDK)
 * @param models - the models probed, in order
 */
export function promptAgreementLines(
    results: readonly PromptScenarioResult[],
    models: readonly string[]
): string[] {
    const summary = promptAgreementSummary(results);
    const outcome = (result: PromptScenarioResult): [string, string] =>
        "before" in result
            ? [
                  `${result.before.length}${result.before.length === 0 ? "" : ` (${countsByName(result.before)})`}`,
                  `${result.after.length}${result.after.length === 0 ? "" : ` (${countsByName(result.after)})`}`,
              ]
            : "notBuilt" in result
              ? [`not rewritten: ${result.notBuilt}`, "—"]
              : [`refused: ${result.refused}`, "—"];
    const before = mentionRows(results, "before", models);
    const after = mentionRows(results, "after", models);
    const header = [
        "| case | models | section | tool | excerpt |",
        "| --- | --- | --- | --- | --- |",
    ];
    return [
        `Prompt agreement (patched, \`promptAgreement: 'rewrite'\`): ` +
            `${summary.holds ? "holds" : "does not hold"}; ` +
            `${summary.before} mentions of tools the session lacks or replaces in the runtime's sections as the ` +
            `transforms received them, ${summary.after} in what the package returned (its note ` +
            `aside)${summary.notBuilt > 0 ? `; ${summary.notBuilt} cases not rewritten` : ""}${summary.refused > 0 ? `; ${summary.refused} cases refused` : ""}.`,
        "",
        "| case | model | mentions before | mentions after |",
        "| --- | --- | --- | --- |",
        ...results.map((result) => {
            const [was, is] = outcome(result);
            return `| ${cell(result.label)} | ${result.model} | ${was} | ${is} |`;
        }),
        "",
        "Mentions before the rewrite:",
        "",
        ...(before.length === 0 ? ["(none)"] : [...header, ...before]),
        "",
        "Mentions left after the rewrite:",
        "",
        ...(after.length === 0 ? ["(none)"] : [...header, ...after]),
    ];
}

/** A mention as one line of text: `section: name (reason) "excerpt"`. */
export const mentionText = (mention: ProbedMention) =>
    `${mention.section}: ${mention.name} (${mention.reason}) "${mention.excerpt}"`;

/** One mention `b` has that `a` lacks (see {@link newPromptMentions}). */
export interface NewPromptMention {
    label: string;
    model: string;
    mention: ProbedMention;
    /** How it shows on `b`. */
    b: string;
}

/**
 * The mentions in `b`'s results that `a`'s results lack, per case and model, on one side
 * (`before`: the runtime's text; `after`: what the model receives), compared by section, name,
 * reason and excerpt. Where `b` did not rewrite a case `a` rewrote, each tool `a` saw mentioned
 * before reaches the model: it counts as new after.
 */
export function newPromptMentions(
    a: readonly PromptScenarioResult[],
    b: readonly PromptScenarioResult[],
    side: "before" | "after"
): NewPromptMention[] {
    const found: NewPromptMention[] = [];
    for (const resultB of b) {
        const { label, model } = resultB;
        const resultA = a.find((r) => r.label === label && r.model === model);
        if (resultA === undefined || !("before" in resultA)) continue;
        if (!("before" in resultB)) {
            if (side === "before") continue;
            const why = "notBuilt" in resultB ? resultB.notBuilt : `refused: ${resultB.refused}`;
            const firstByName = new Map<string, ProbedMention>();
            for (const mention of resultA.before) {
                if (!firstByName.has(mention.name)) firstByName.set(mention.name, mention);
            }
            for (const mention of firstByName.values()) {
                found.push({
                    label,
                    model,
                    mention,
                    b: `not rewritten (${why}): ${mentionText(mention)}`,
                });
            }
            continue;
        }
        const inA = new Set(resultA[side].map(mentionText));
        for (const mention of resultB[side]) {
            if (!inA.has(mentionText(mention))) {
                found.push({ label, model, mention, b: mentionText(mention) });
            }
        }
    }
    return found;
}
