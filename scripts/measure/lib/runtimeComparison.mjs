// What changed, for an app, between two runtimes probed by compareProbe.mjs: the decision of
// `conformance --compare`, a pure function of the two probe results.

/**
 * Kinds of difference that fail the comparison (exit 1):
 * - `NEW_BUILT_IN`: B has a built-in named like one of the app's tools and A had none;
 * - `OVERRIDE_NOT_HONOURED`: with `overridesBuiltInTool: true`, the app's tool answered on A and
 *   does not on B;
 * - `FILTER_CHANGED`: the app's session config offers the model other tools on B;
 * - `TOOL_DROPPED`: a built-in offered on A (in a session without custom tools), or one of the
 *   app's tools that answered on A, is gone on B.
 *
 * @typedef {"NEW_BUILT_IN" | "OVERRIDE_NOT_HONOURED" | "FILTER_CHANGED" | "TOOL_DROPPED"} DifferenceKind
 */

/**
 * @typedef {object} Difference
 * @property {DifferenceKind} kind
 * @property {string} tool the tool name
 * @property {string} model the model id on which it changed
 * @property {string} a what runtime A did
 * @property {string} b what runtime B does
 */

/** @typedef {import("./compareProbe.mjs").CompareProbeResult} CompareProbeResult */

/** Outcomes that show a built-in of the name: it conflicts, answers, or takes the tool's place. */
const BUILT_IN_OUTCOMES = new Set(["fails-at-send", "built-in-answers", "dropped"]);

/**
 * Whether the runtime has a built-in named `name` for `model`: listed, offered, or seen answering
 * (or refusing) a custom tool of the name without the flag.
 *
 * @param {CompareProbeResult} result
 * @param {string} model
 * @param {string} name
 * @returns {string | undefined} how it shows, or undefined when it has none
 */
function builtInEvidence(result, model, name) {
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
 * @param {CompareProbeResult} a
 * @param {CompareProbeResult} b
 * @param {readonly string[]} tools the app's tool names
 * @returns {{ differences: Difference[], added: Record<string, string[]> }} the failing
 *   differences, and (for information) the built-ins B offers that A did not, by model
 */
export function compareRuntimes(a, b, tools) {
    /** @type {Difference[]} */
    const differences = [];
    /** @type {Record<string, string[]>} */
    const added = {};
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
                const describe = (/** @type {typeof appA} */ side) =>
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
    return { differences, added };
}

/**
 * The comparison as a table for people.
 *
 * @param {{ a: { spec: string, version: string }, b: { spec: string, version: string }, tools: readonly string[], differences: Difference[], added: Record<string, string[]>, observed?: { a: CompareProbeResult["names"], b: CompareProbeResult["names"] } }} report
 * @returns {string}
 */
export function formatComparison(report) {
    const { a, b, tools, differences, added } = report;
    const lines = [
        `Runtime A: ${a.spec} (${a.version})`,
        `Runtime B: ${b.spec} (${b.version})`,
        `App tools: ${tools.length === 0 ? "(none)" : tools.join(", ")}`,
        "",
    ];
    if (differences.length === 0) {
        lines.push("Nothing the app relies on changed.");
    } else {
        const header = ["difference", "tool", "model", "A", "B"];
        /** @type {string[][]} */
        const rows = [header, ...differences.map((d) => [d.kind, d.tool, d.model, d.a, d.b])];
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
                    /** @type {Record<string, Record<string, { noFlag: string, flag: string }>>} */ names
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
    const newOnes = Object.entries(added).filter(([, names]) => names.length > 0);
    if (newOnes.length > 0) {
        lines.push("", "Built-ins B offers that A did not (for information):");
        for (const [model, names] of newOnes) lines.push(`  ${model}: ${names.join(", ")}`);
    }
    return lines.join("\n");
}
