// What changed, for an app, between two runtimes probed by compareProbe.ts: the decision of
// `conformance --compare`, a pure function of the two probe results.

import type { CompareProbeResult } from "./compareProbe.js";
import { agentDifferences } from "./agentProbe.js";
import {
    newPromptMentions,
    type NewPromptMention,
    type PromptAgreementSummary,
} from "./promptReport.js";

/**
 * Kinds of difference that fail the comparison (exit 1):
 * - `NEW_BUILT_IN`: B has a built-in named like one of the app's tools and A had none;
 * - `OVERRIDE_NOT_HONOURED`: with `overridesBuiltInTool: true`, the app's tool answered on A and
 *   does not on B;
 * - `FILTER_CHANGED`: the app's session config offers the model other tools on B;
 * - `TOOL_DROPPED`: a built-in offered on A (in a session without custom tools), or one of the
 *   app's tools that answered on A, is gone on B;
 * - `NEW_PROMPT_MENTION`: in a case of the prompt probe (promptProbe.ts, patched SDK), the
 *   instructions the model receives on B still name a tool the session lacks or replaces where
 *   they did not on A (a mention the package's rewrite left, or a case B did not rewrite);
 * - `UNLABELLED_PROMPT_EDIT`: in the labelled corpus (corpusProbe.ts, patched SDK), the package's
 *   rewrite removes or edits a unit of B's runtime text that no label covers (promptCorpus.ts) and
 *   that it did not on A: nothing says the edit removes only what is false for the session, so an
 *   upgrade cannot start removing unlabelled text unseen. Its `tool` is the unit's corpus key.
 * - `NEW_AGENT_TYPE`: B lists a built-in agent type (a sub-agent the `task` tool starts) that A
 *   did not; `SUB_AGENT_TOOLS_CHANGED`: under a case of the agent probe (agentProbe.ts), a
 *   built-in sub-agent is offered a tool on one runtime and not on the other.
 */
export type DifferenceKind =
    | "NEW_BUILT_IN"
    | "OVERRIDE_NOT_HONOURED"
    | "FILTER_CHANGED"
    | "TOOL_DROPPED"
    | "NEW_PROMPT_MENTION"
    | "UNLABELLED_PROMPT_EDIT"
    | "NEW_AGENT_TYPE"
    | "SUB_AGENT_TOOLS_CHANGED";

export interface Difference {
    kind: DifferenceKind;
    /** the tool name */
    tool: string;
    /** the model id on which it changed */
    model: string;
    /** what runtime A did */
    a: string;
    /** what runtime B does */
    b: string;
}

/**
 * A difference reviewed and accepted, as an entry of the file `conformance --compare --accept`
 * reads: `{ "accepted": [{ "code": "NEW_BUILT_IN", "tool": "apply_patch", "model": "gpt-4o",
 * "reason": "..." }] }`. `model` is optional (any model); `reason` is for the reviewer.
 */
export interface AcceptedDifference {
    readonly code: DifferenceKind;
    readonly tool: string;
    readonly model?: string;
    readonly reason?: string;
}

const DIFFERENCE_KINDS: ReadonlySet<string> = new Set<DifferenceKind>([
    "NEW_BUILT_IN",
    "OVERRIDE_NOT_HONOURED",
    "FILTER_CHANGED",
    "TOOL_DROPPED",
    "NEW_PROMPT_MENTION",
    "UNLABELLED_PROMPT_EDIT",
    "NEW_AGENT_TYPE",
    "SUB_AGENT_TOOLS_CHANGED",
]);

/**
 * Reads a reviewed-differences file's content.
 *
 * @param text - the file's text
 * @param file - its path, for the messages
 * @returns the entries
 * @throws Error naming the entry and what to write instead
 */
export function readAcceptedDifferences(text: string, file: string): AcceptedDifference[] {
    let parsed: unknown;
    try {
        parsed = JSON.parse(text);
    } catch (error) {
        throw new Error(
            `--accept '${file}' is not JSON (${error instanceof Error ? error.message : String(error)}): ` +
                `write { "accepted": [{ "code": "NEW_BUILT_IN", "tool": "apply_patch", "reason": "..." }] }.`,
            { cause: error }
        );
    }
    const accepted = (parsed as { accepted?: unknown } | null)?.accepted;
    if (!Array.isArray(accepted)) {
        throw new Error(
            `--accept '${file}' has no "accepted" list: write { "accepted": [{ "code": "NEW_BUILT_IN", "tool": ` +
                `"apply_patch", "reason": "..." }] }.`
        );
    }
    return accepted.map((entry: unknown, index) => {
        const { code, tool, model, reason } = (entry ?? {}) as Record<string, unknown>;
        const where = `--accept '${file}', entry ${index}`;
        if (typeof code !== "string" || !DIFFERENCE_KINDS.has(code)) {
            throw new Error(
                `${where}: code ${JSON.stringify(code)} is not a difference's code; use one of ${[...DIFFERENCE_KINDS].join(", ")}.`
            );
        }
        if (typeof tool !== "string" || tool === "") {
            throw new Error(`${where}: "tool" must name the tool the difference is about.`);
        }
        if (model !== undefined && typeof model !== "string") {
            throw new Error(`${where}: "model", when given, is a model id.`);
        }
        if (reason !== undefined && typeof reason !== "string") {
            throw new Error(`${where}: "reason", when given, is text.`);
        }
        return {
            code: code as DifferenceKind,
            tool,
            ...(model === undefined ? {} : { model }),
            ...(reason === undefined ? {} : { reason }),
        };
    });
}

/**
 * Splits differences into those a reviewed-differences entry accepts (same code and tool, and
 * model when the entry names one) and the rest, which fail the comparison.
 */
export function acceptDifferences(
    differences: readonly Difference[],
    accepted: readonly AcceptedDifference[]
): { accepted: Difference[]; unaccepted: Difference[] } {
    const isAccepted = (difference: Difference) =>
        accepted.some(
            (entry) =>
                entry.code === difference.kind &&
                entry.tool === difference.tool &&
                (entry.model === undefined || entry.model === difference.model)
        );
    return {
        accepted: differences.filter(isAccepted),
        unaccepted: differences.filter((difference) => !isAccepted(difference)),
    };
}

/**
 * The reviewed-differences entries that accept none of the differences found: stale after the
 * difference went away, or mistyped (another code, tool or model). Reported, so that a review
 * that accepts nothing is seen, not mistaken for one that holds.
 */
export function unmatchedAcceptances(
    differences: readonly Difference[],
    accepted: readonly AcceptedDifference[]
): AcceptedDifference[] {
    return accepted.filter(
        (entry) =>
            !differences.some(
                (difference) =>
                    entry.code === difference.kind &&
                    entry.tool === difference.tool &&
                    (entry.model === undefined || entry.model === difference.model)
            )
    );
}

/** Outcomes that show a built-in of the name: it conflicts, answers, or takes the tool's place. */
const BUILT_IN_OUTCOMES = new Set(["fails-at-send", "built-in-answers", "dropped"]);

/**
 * Whether the runtime has a built-in named `name` for `model`: listed, offered, or seen answering
 * (or refusing) a custom tool of the name without the flag.
 *
 * @returns how it shows, or undefined when it has none
 */
function builtInEvidence(
    result: CompareProbeResult,
    model: string,
    name: string
): string | undefined {
    if (result.offered[model]?.includes(name)) return "offered built-in";
    if (result.listedByModel[model]?.includes(name)) return "listed built-in";
    const outcome = result.names[model]?.[name]?.noFlag;
    if (outcome !== undefined && (BUILT_IN_OUTCOMES.has(outcome) || outcome.startsWith("refused:")))
        return `built-in (custom tool without the flag: ${outcome})`;
    return undefined;
}

/**
 * The differences that matter to an app between runtime A and runtime B.
 *
 * @param tools - the app's tool names
 * @returns the failing differences, and (for information) the built-ins B offers that A did not,
 *   by model, and the mentions B's runtime text has that A's had not (which the package's rewrite
 *   removed, else they are differences)
 */
export function compareRuntimes(
    a: CompareProbeResult,
    b: CompareProbeResult,
    tools: readonly string[]
): {
    differences: Difference[];
    added: Record<string, string[]>;
    promptMentionsAdded: NewPromptMention[];
} {
    const differences: Difference[] = [];
    const added: Record<string, string[]> = {};
    const models = Object.keys(a.offered).filter((model) => model in b.offered);
    for (const model of models) {
        for (const name of tools) {
            const before = builtInEvidence(a, model, name);
            const after = builtInEvidence(b, model, name);
            if (before === undefined && after !== undefined) {
                differences.push({
                    kind: "NEW_BUILT_IN",
                    tool: name,
                    model,
                    a: "no built-in",
                    b: after,
                });
            }
            const flagA = a.names[model]?.[name]?.flag;
            const flagB = b.names[model]?.[name]?.flag;
            if (flagA === "custom-runs" && flagB !== undefined && flagB !== "custom-runs") {
                differences.push({
                    kind: flagB === "dropped" ? "TOOL_DROPPED" : "OVERRIDE_NOT_HONOURED",
                    tool: name,
                    model,
                    a: "override honoured (custom handler runs)",
                    b: flagB,
                });
            }
        }
        const offeredB = new Set(b.offered[model]);
        for (const name of a.offered[model] ?? []) {
            if (!offeredB.has(name)) {
                differences.push({
                    kind: "TOOL_DROPPED",
                    tool: name,
                    model,
                    a: "offered",
                    b: "not offered",
                });
            }
        }
        const offeredA = new Set(a.offered[model]);
        added[model] = (b.offered[model] ?? []).filter((name) => !offeredA.has(name));
        const appA = a.app?.[model];
        const appB = b.app?.[model];
        if (appA !== undefined && appB !== undefined) {
            const seenA = "seen" in appA ? appA.seen : [];
            const seenB = "seen" in appB ? appB.seen : [];
            if ("refused" in appA || "refused" in appB) {
                const describe = (side: typeof appA) =>
                    "refused" in side
                        ? `refused: ${side.refused}`
                        : `offers ${side.seen.length} tools`;
                if (describe(appA) !== describe(appB)) {
                    differences.push({
                        kind: "FILTER_CHANGED",
                        tool: "(session config)",
                        model,
                        a: describe(appA),
                        b: describe(appB),
                    });
                }
                continue;
            }
            const inB = new Set(seenB);
            const inA = new Set(seenA);
            for (const name of seenA.filter((name) => !inB.has(name))) {
                differences.push({
                    kind: "FILTER_CHANGED",
                    tool: name,
                    model,
                    a: "offered",
                    b: "not offered",
                });
            }
            for (const name of seenB.filter((name) => !inA.has(name))) {
                differences.push({
                    kind: "FILTER_CHANGED",
                    tool: name,
                    model,
                    a: "not offered",
                    b: "offered",
                });
            }
        }
    }
    for (const { label, model, mention, b: shown } of newPromptMentions(
        a.prompt ?? [],
        b.prompt ?? [],
        "after"
    )) {
        differences.push({
            kind: "NEW_PROMPT_MENTION",
            tool: mention.name,
            model,
            a: `not named after the rewrite (${label})`,
            b: shown,
        });
    }
    differences.push(...unlabelledPromptEdits(a, b));
    differences.push(...agentDifferences(a.agents, b.agents));
    return {
        differences,
        added,
        promptMentionsAdded: newPromptMentions(a.prompt ?? [], b.prompt ?? [], "before"),
    };
}

/**
 * `UNLABELLED_PROMPT_EDIT`: the units of B's corpus run no label covers, by model, that A's run
 * did not have (same key and model). None when B ran no corpus (no patched SDK).
 */
export function unlabelledPromptEdits(a: CompareProbeResult, b: CompareProbeResult): Difference[] {
    const onA = new Set((a.corpus?.unlabelled ?? []).map((unit) => `${unit.model}|${unit.key}`));
    return (b.corpus?.unlabelled ?? [])
        .filter((unit) => !onA.has(`${unit.model}|${unit.key}`))
        .map((unit) => ({
            kind: "UNLABELLED_PROMPT_EDIT" as const,
            tool: unit.key,
            model: unit.model,
            a: a.corpus === undefined ? "corpus not run" : "no such edit, or a labelled one",
            b: `an edit no label covers (of ${unit.names.join(", ")}): "${unit.excerpt}"`,
        }));
}

/**
 * The comparison as a table for people.
 */
export function formatComparison(report: {
    a: { spec: string; version: string; sdk?: string };
    b: { spec: string; version: string; sdk?: string };
    tools: readonly string[];
    differences: Difference[];
    accepted?: Difference[];
    added: Record<string, string[]>;
    observed?: { a: CompareProbeResult["names"]; b: CompareProbeResult["names"] };
    prompt?: { a: PromptAgreementSummary; b: PromptAgreementSummary };
    promptMentionsAdded?: NewPromptMention[];
}): string {
    const { a, b, tools, differences, added } = report;
    const accepted = report.accepted ?? [];
    const lines = [
        `Runtime A: ${a.spec} (${a.version}${a.sdk === undefined ? "" : `, driven by SDK ${a.sdk}`})`,
        `Runtime B: ${b.spec} (${b.version}${b.sdk === undefined ? "" : `, driven by SDK ${b.sdk}`})`,
        `App tools: ${tools.length === 0 ? "(none)" : tools.join(", ")}`,
        "",
    ];
    for (const d of accepted) {
        lines.push(`Accepted (--accept): ${d.kind} ${d.tool} on ${d.model}: ${d.a} -> ${d.b}`);
    }
    if (accepted.length > 0) lines.push("");
    if (differences.length === 0) {
        lines.push(
            accepted.length === 0
                ? "Nothing the app relies on changed."
                : "Nothing else the app relies on changed."
        );
    } else {
        const header = ["difference", "tool", "model", "A", "B"];
        const rows: string[][] = [
            header,
            ...differences.map((d) => [d.kind, d.tool, d.model, d.a, d.b]),
        ];
        const widths = header.map((_, column) =>
            Math.max(...rows.map((row) => (row[column] ?? "").length))
        );
        for (const [index, row] of rows.entries()) {
            lines.push(
                row
                    .map((cell, column) => cell.padEnd(widths[column] ?? 0))
                    .join("  ")
                    .trimEnd()
            );
            if (index === 0) lines.push(widths.map((width) => "-".repeat(width)).join("  "));
        }
        lines.push(
            "",
            `${differences.length} ${differences.length === 1 ? "difference" : "differences"} the app relies on: exit 1.`
        );
    }
    if (report.observed !== undefined && tools.length > 0) {
        lines.push("", "The app's tools, without the flag / with overridesBuiltInTool: true:");
        for (const [model, byName] of Object.entries(report.observed.a)) {
            for (const name of tools) {
                const side = (
                    names: Record<string, Record<string, { noFlag: string; flag: string }>>
                ) => {
                    const outcome = names[model]?.[name];
                    return outcome === undefined
                        ? "not probed"
                        : `${outcome.noFlag} / ${outcome.flag}`;
                };
                if (byName[name] === undefined) continue;
                lines.push(
                    `  ${name} on ${model}: A ${side(report.observed.a)}; B ${side(report.observed.b)}`
                );
            }
        }
    }
    if (report.prompt !== undefined) {
        const side = (summary: PromptAgreementSummary) =>
            `${summary.before} before, ${summary.after} ` +
            `after${summary.notBuilt > 0 ? `, ${summary.notBuilt} cases not rewritten` : ""}${summary.refused > 0 ? `, ${summary.refused} refused` : ""}`;
        lines.push(
            "",
            `Prompt agreement (mentions of tools a session lacks or replaces, ` +
                `before / after the package's rewrite): A ${side(report.prompt.a)}; B ${side(report.prompt.b)}.`
        );
    }
    const mentionsAdded = report.promptMentionsAdded ?? [];
    if (mentionsAdded.length > 0) {
        lines.push(
            "",
            "Mentions in B's runtime text that A's lacked, removed by the rewrite (for information):"
        );
        for (const { label, model, b: shown } of mentionsAdded) {
            lines.push(`  ${label}, ${model}: ${shown}`);
        }
    }
    const newOnes = Object.entries(added).filter(([, names]) => names.length > 0);
    if (newOnes.length > 0) {
        lines.push("", "Built-ins B offers that A did not (for information):");
        for (const [model, names] of newOnes) lines.push(`  ${model}: ${names.join(", ")}`);
    }
    return lines.join("\n");
}
