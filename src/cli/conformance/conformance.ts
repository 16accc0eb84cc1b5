#!/usr/bin/env node
// npm run conformance: what every supported @github/copilot-sdk release does with custom tools
// named like built-ins, and with toolset filters, unpatched and patched, against its own real
// runtime (offline, mock model on 127.0.0.1). Writes CONFORMANCE.md.
//
// npm run conformance -- --compare <runtime A> <runtime B> [--tools <names> | --app <module>]
//     [--json]
// compares two runtimes for an app's tools instead (conformanceCompare.ts).
//
// npm run conformance -- --runtime <copilot CLI> [--sdk <version>] [--names-from <file>]
//     [--out <file>]
// probes an external runtime instead (for example node_modules/.bin/copilot of
// `npm install @github/copilot@<version>`), driven by the pinned SDK version (or --sdk) unpatched
// and patched, through `RuntimeConnection.forStdio({ path })`. The names probed are the
// measurements of that runtime version if data/measured-built-in-tools/ has them (or the
// discovery output named with --names-from), else every measured name of every version; the
// runtime's own tools.list is added in every case. Its section goes to --out <file>, or replaces
// that runtime's section of CONFORMANCE.md (appended if it has none), leaving the rest as it is.
//
// Each version is installed with its runtime into .cache/sdk/<version> (the project's own
// node_modules stays as it is); the patched copy lives in .cache/conformance/<version>, the SDK
// folder copied and patched with patch-package, everything else linked to the unpatched install.

import { checkArguments } from "../cliArguments.js";
import { execFileSync } from "node:child_process";
import { optionValue, runtimeOption } from "./externalRuntime.js";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { ProbeResult } from "./conformanceProbe.js";
import { HIDDEN_BUILT_INS } from "./hiddenBuiltIns.js";
import { isPatchedGap, patchedGaps } from "./patchedGaps.js";
import { readMeasurements } from "./measuredCatalog.js";
import { patchedCopy } from "./patchedInstall.js";
import { installSdkVersion, nodeFor, sdkRelease } from "./sdkVersions.js";
import { pinnedVersion, requestedVersions, ROOT, supportedVersions } from "./servedReleases.js";
import { writePromptAgreement, type PromptAgreementMeasurement } from "./promptAgreementData.js";
import { promptAgreementLines, promptAgreementSummary } from "./promptReport.js";
import { promptCorpusLines, promptCorpusSummary } from "./corpusReport.js";
import { agentReportLines } from "./agentProbe.js";
import { subAgentSummary, writeSubAgents, type SubAgentMeasurement } from "./subAgentData.js";
if (process.argv.includes("--compare")) {
    // npm run conformance -- --compare <runtime A> <runtime B> ...: see conformanceCompare.ts.
    const { runComparison } = await import("./conformanceCompare.js");
    process.exit(await runComparison(process.argv.slice(2)));
}
checkArguments(process.argv.slice(2), {
    usage:
        "Usage: npm run conformance [-- --sdk <version>] | [-- --runtime <copilot CLI> [--sdk <version>] " +
        "[--names-from <file>] [--out <file>]]",
    flags: { runtime: "value", sdk: "value", "names-from": "value", out: "value" },
    positionals: 0,
});

const PROBE = join(dirname(fileURLToPath(import.meta.url)), "conformanceProbe.js");
const REPORT = join(ROOT, "CONFORMANCE.md");
const started = performance.now();

const args = process.argv.slice(2);
/** An external CLI to probe instead of each version's bundled runtime. */
const externalRuntime = (() => {
    try {
        return runtimeOption(args);
    } catch (error) {
        // A --runtime that names nothing runnable is a usage error: its message, exit 2.
        console.error(error instanceof Error ? error.message : String(error));
        process.exit(2);
    }
})();
const outFile = optionValue(args, "out");
const namesFrom = optionValue(args, "names-from");
if (externalRuntime === undefined && (outFile ?? namesFrom) !== undefined) {
    throw new Error("--out and --names-from go with --runtime <copilot CLI>.");
}

/**
 * The names the discovery measured for an SDK version's runtime, plus the hidden ones; for a
 * release whose runtime was not measured, every name measured on any runtime.
 */
function namesFor(version: string): string[] {
    const measurements = readMeasurements();
    const own = measurements.find((m) => m.sdkVersion === version);
    const measured = (own === undefined ? measurements : [own]).flatMap((m) => m.builtIns);
    return [...new Set([...measured, ...HIDDEN_BUILT_INS])].sort();
}

/**
 * The version an external CLI reports (`copilot --version`: "GitHub Copilot CLI 1.0.102.").
 */
function cliVersion(cliPath: string) {
    const text = execFileSync(cliPath, ["--version"], { encoding: "utf8" });
    const match = /(\d+\.\d+\.\d+(?:-[0-9A-Za-z]+(?:\.[0-9A-Za-z]+)*)?)/.exec(text);
    return match?.[1];
}

/**
 * The names to probe on an external runtime, and where they come from: the discovery's output
 * named with --names-from, else the measurements of that runtime version, else every measured
 * name of every version (the probe adds the runtime's tools.list to each).
 */
function namesForRuntime(cliPath: string): { names: string[]; source: string } {
    const measurements = readMeasurements();
    const version = cliVersion(cliPath);
    const own =
        namesFrom !== undefined
            ? JSON.parse(readFileSync(namesFrom, "utf8"))
            : measurements.find((m) => m.runtimeVersion === version);
    const names = (own === undefined ? measurements : [own]).flatMap((m) => m.builtIns);
    const source =
        namesFrom !== undefined
            ? `the discovery output ${namesFrom}`
            : own !== undefined
              ? `the measurements of runtime ${version}`
              : `no measurements of runtime ${version ?? "(unknown version)"}: ` +
                `every name measured on runtimes ${measurements.map((m) => m.runtimeVersion).join(", ")}`;
    return { names: [...new Set([...names, ...HIDDEN_BUILT_INS])].sort(), source };
}

/**
 * Runs the probe (conformanceProbe.ts, compiled) on one SDK install with `node`.
 *
 * @param cliPath - an external runtime, if any
 */
function probe(
    node: string,
    sdkDir: string,
    names: string[],
    cliPath: string | undefined
): ProbeResult {
    const out = join(
        tmpdir(),
        `conformance-${process.pid}-${Math.random().toString(36).slice(2)}.json`
    );
    const extra = cliPath === undefined ? [] : [cliPath];
    try {
        execFileSync(node, [PROBE, sdkDir, JSON.stringify(names), out, ...extra], {
            stdio: ["ignore", "inherit", "inherit"],
        });
        return JSON.parse(readFileSync(out, "utf8"));
    } finally {
        rmSync(out, { force: true });
    }
}

const LABELS: Record<string, string> = {
    "custom-runs": "custom handler runs",
    "built-in-answers": "**built-in silently answers**",
    "fails-at-send": "fails at first send",
    dropped: "**tool dropped**",
    "duplicate-definitions": "**two definitions**",
};
const label = (outcome: string) =>
    outcome.startsWith("refused:") ? `refused: ${outcome.slice(8)}` : (LABELS[outcome] ?? outcome);
/**
 * Both models' outcomes, once when they agree.
 */
const both = (byModel: ProbeResult["names"], name: string, key: "noFlag" | "flag") => {
    const [claude = "—", gpt = "—"] = Object.values(byModel).map(
        (names) => names[name]?.[key] ?? "—"
    );
    return claude === gpt ? label(claude) : `${label(claude)} (Claude) / ${label(gpt)} (GPT)`;
};

type ProbeKey = "noFlag" | "flag";

/**
 * The names probed on the first model.
 */
const probedNames = (result: ProbeResult) => Object.keys(Object.values(result.names)[0] ?? {});

/**
 * How many names have an outcome matching `predicate`, on any model, for any of `keys`.
 */
function count(
    result: ProbeResult,
    keys: ProbeKey | ProbeKey[],
    predicate: (outcome: string) => boolean
) {
    const names = probedNames(result);
    return names.filter((name) =>
        Object.values(result.names).some((byName) =>
            [keys].flat().some((key) => {
                const outcomes = byName[name];
                return outcomes !== undefined && predicate(outcomes[key]);
            })
        )
    ).length;
}

/**
 * The names a built-in answered (or that were dropped) through the patched SDK, for the text.
 */
function silentNames(patched: ProbeResult) {
    const names = probedNames(patched).filter((name) =>
        Object.values(patched.names).some((byName) =>
            (["noFlag", "flag"] as ProbeKey[]).some((key) =>
                isPatchedGap((byName[name] as { noFlag: string; flag: string })[key])
            )
        )
    );
    return names.length === 0 ? "" : ` (${names.map((name) => `\`${name}\``).join(", ")})`;
}

const sections: string[] = [];
/** By SDK version, the prompt cases' summary of the bundled runtimes run now. */
const promptMeasured = new Map<string, PromptAgreementMeasurement>();
/** By SDK version, the agent probe's summary of the bundled runtimes run now. */
const subAgentsMeasured = new Map<string, SubAgentMeasurement>();
/** Per runtime run, the labelled corpus's figures line (corpusReport.ts). */
const corpusSummaries: (string | undefined)[] = [];
const headlines: {
    version: string;
    runtime: string;
    external: boolean;
    names: number;
    unpatchedFails: number;
    unpatchedSilent: number;
    unpatchedFlagSilent: number;
    patchedRuns: number;
    patchedRefused: number;
    patchedSilent: number;
    /** Every case of the section the patch let through (patchedGaps.ts), tool search included. */
    gaps: string[];
}[] = [];
const versions = externalRuntime === undefined ? requestedVersions(args) : sdkForRuntime();
/** The SDK that drives an external runtime: --sdk <version> (a supported one), else the pinned. */
function sdkForRuntime() {
    return args.includes("--sdk") ? requestedVersions(args) : [pinnedVersion()];
}
const runtimeNames = externalRuntime === undefined ? undefined : namesForRuntime(externalRuntime);
for (const version of versions) {
    console.error(`${version}: installing`);
    const unpatchedDir = await installSdkVersion(version);
    const patchedDir = patchedCopy(version, unpatchedDir, "conformance");
    // The patched copy is scratch: removed when the process ends, whichever way it ends.
    const patchedApp = dirname(dirname(dirname(patchedDir)));
    process.once("exit", () => rmSync(patchedApp, { recursive: true, force: true }));
    // Releases whose runtime is the @github/copilot dependency start it with the app's Node,
    // which must be 22 for them (data/sdk-releases.json).
    const node = externalRuntime === undefined ? await nodeFor(version) : process.execPath;
    const names = runtimeNames?.names ?? namesFor(version);
    if (runtimeNames !== undefined) console.error(`names from ${runtimeNames.source}`);
    console.error(`${version}: probing ${names.length} names, unpatched`);
    const unpatched = probe(node, unpatchedDir, names, externalRuntime);
    console.error(`${version}: probing ${names.length} names, patched`);
    const patched = probe(node, patchedDir, names, externalRuntime);
    /** The runtime's tools.list can add names to an external runtime's probe. */
    const probed = [...new Set([unpatched, patched].flatMap(probedNames))].sort();

    const silent = (outcome: string) => outcome === "built-in-answers" || outcome === "dropped";
    const headline = {
        version,
        runtime: unpatched.runtimeVersion,
        external: externalRuntime !== undefined,
        names: probed.length,
        unpatchedFails: count(unpatched, "noFlag", (o) => o === "fails-at-send"),
        unpatchedSilent: count(unpatched, "noFlag", silent),
        unpatchedFlagSilent: count(unpatched, "flag", silent),
        patchedRuns: count(patched, "noFlag", (o) => o === "custom-runs"),
        patchedRefused: count(patched, "noFlag", (o) => o.startsWith("refused:")),
        patchedSilent: count(patched, ["noFlag", "flag"], isPatchedGap),
        gaps: patchedGaps(patched),
    };
    headlines.push(headline);
    const models = Object.keys(patched.names);
    if (externalRuntime === undefined) {
        promptMeasured.set(version, {
            runtimeVersion: patched.runtimeVersion,
            ...promptAgreementSummary(patched.prompt ?? []),
        });
        subAgentsMeasured.set(version, subAgentSummary(patched.runtimeVersion, patched.agents));
    }
    const rows = probed.map(
        (name) =>
            `| \`${name}\` | ${both(unpatched.names, name, "noFlag")} | ${both(unpatched.names, name, "flag")} ` +
            `| ${both(patched.names, name, "noFlag")} | ${both(patched.names, name, "flag")} |`
    );
    const filterRows = unpatched.filters.map((scenario, index) => {
        const seen = (s: ProbeResult["filters"][number]) =>
            "refused" in s
                ? `refused: ${s.refused}`
                : s.seen.map((tools) => tools.join(", ") || "(none)").join(" → ");
        const patchedScenario = patched.filters[index] as ProbeResult["filters"][number];
        return `| ${scenario.label} | ${seen(scenario)} | ${seen(patchedScenario)} |`;
    });
    const heading =
        externalRuntime === undefined
            ? `## @github/copilot-sdk ${version} (runtime ${unpatched.runtimeVersion})`
            : `## @github/copilot-sdk ${version} with the external runtime ${unpatched.runtimeVersion}`;
    sections.push(
        [
            heading,
            "",
            ...(externalRuntime === undefined
                ? []
                : [
                      `Generated by \`npm run conformance -- --runtime <copilot CLI>\`: ` +
                          `the SDK's client connected to a copilot CLI ${unpatched.runtimeVersion} with \`connection: ` +
                          `RuntimeConnection.forStdio({ path })\` instead of its bundled runtime. Names probed: ` +
                          `${runtimeNames?.source}, the six hidden built-ins, and the runtime's \`tools.list\`. ` +
                          (patched.catalog === "fallback"
                              ? "The patched SDK has no measurements of this runtime: its sessions used " +
                                "the runtime's `tools.list` and the newest measurements, refused every " +
                                "name some measured runtime does not honour, and warned `CATALOG_FALLBACK`."
                              : "The patched SDK had measurements of this runtime " +
                                `(\`toolResolution.runtime.catalog\`: ${patched.catalog ?? "not reported"}).`),
                      "",
                  ]),
            `${headline.names} names probed on claude-sonnet-4.5 and gpt-4o. Unpatched, ` +
                `a custom tool without the flag fails at the first send for ${headline.unpatchedFails} names and is ` +
                `silently answered by the built-in (or dropped) for ${headline.unpatchedSilent}; ` +
                `with \`overridesBuiltInTool: true\` the built-in still answers (or the tool is dropped) ` +
                `for ${headline.unpatchedFlagSilent}. Patched: the custom handler runs for ${headline.patchedRuns}, ` +
                `construction refuses ${headline.patchedRefused}, ` +
                `and a built-in answers for ${headline.patchedSilent}${silentNames(patched)}. ` +
                `A name counts in every column where either model shows that outcome, so the counts can add up to more than the names.`,
            "",
            "| name | unpatched, no flag | unpatched, `overridesBuiltInTool: true` | patched, " +
                "no flag | patched, `overridesBuiltInTool: true` |",
            "| --- | --- | --- | --- | --- |",
            ...rows,
            `| \`tool_search_tool\`, tool search deferring tools | — | ` +
                `${label(unpatched.toolSearch.deferring)} | — | ${label(patched.toolSearch.deferring)} |`,
            `| \`tool_search_tool\`, \`toolSearch: { enabled: ` +
                `true }\` only | — | ${label(unpatched.toolSearch.enabledOnly)} | — | ${label(patched.toolSearch.enabledOnly)} |`,
            "",
            "Filters (claude-sonnet-4.5; tools in the model's request):",
            "",
            "| options | unpatched | patched |",
            "| --- | --- | --- |",
            ...filterRows,
            "",
            ...promptAgreementLines(patched.prompt ?? [], models),
            ...promptCorpusLines(patched.corpus),
            ...agentReportLines(patched.agents),
        ].join("\n")
    );
    corpusSummaries.push(
        promptCorpusSummary(`${version} (runtime ${patched.runtimeVersion})`, patched.corpus)
    );
}

const minutes = ((performance.now() - started) / 60000).toFixed(1);

const INTRO = [
    ...(externalRuntime === undefined
        ? [
              "Generated by `npm run conformance` (do not edit). For every supported SDK release and its own",
              "bundled runtime (and, in the sections marked external, for a copilot CLI the SDK was pointed",
              "at with `npm run conformance -- --runtime <path>`),",
          ]
        : [
              "Generated by `npm run conformance -- --runtime <path>` (do not edit). For a copilot CLI the",
              "SDK drives instead of its bundled runtime,",
          ]),
    "offline with a mock model: what happens to a custom tool named like each",
    "built-in name the discovery measured for that runtime (the six hidden built-ins it once missed,",
    "`semantic_search`, `grep_search`, `search_code_subagent`, `lexical_code_search`,",
    "`semantic_code_search` and `extensions_manage`, are always probed and are among the counted",
    "names), and to toolset filters, without and with this project's patch. Outcomes: the custom",
    "handler runs; construction refuses (`refused: <code>`); the first send fails; the built-in",
    "silently answers the call; the tool is dropped (the model never sees it).",
    "",
    "`refused: <code>`: with the patch, the `SessionToolError` code; without it, `createSession`",
    "itself failed and `-32603` is the JSON-RPC error code (internal error) with which the runtime",
    "answers `session.create` for a tool name it reserves.",
    "",
    "Every name is probed on two models; a name counts in every column where any model shows that",
    "outcome, so a name the built-in answers on one model and that fails at send on the other",
    "counts in both columns, and a row's columns can add up to more than its names.",
    "",
    "Prompt agreement, per release with the patch (`promptAgreement: 'rewrite'`, set): for",
    "excluded `view`/`grep`/`glob`, a custom `view` replacing the built-in and `availableTools`",
    "narrowed to `toolset:search`, each place where the runtime's instructions name a tool the",
    "session does not offer or a built-in a custom tool replaces (the package's naming rule), with",
    "its section and an excerpt: before, in the sections as the runtime handed them to the",
    "customize-mode transforms; after, in what the package returned (its note, which names them",
    "on purpose, aside). The README's compatibility table reads the totals from",
    "data/prompt-agreement.json, and the built-in sub-agents' summary (agent types, whether the",
    "task-prompt note reached a sub-agent) from data/sub-agents.json.",
];
const HEADLINE_HEADER = [
    "| SDK | runtime | names | unpatched: fails at send | unpatched: " +
        "built-in answers or dropped | unpatched with flag: built-in answers or dropped | patched: " +
        "custom runs | patched: refused | patched: built-in answers |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
];
const headlineRow = (h: (typeof headlines)[number]) =>
    `| ${h.version} | ${h.runtime}${h.external ? " (external)" : ""} | ${h.names} | ${h.unpatchedFails} ` +
    `| ${h.unpatchedSilent} | ${h.unpatchedFlagSilent} | ${h.patchedRuns} | ${h.patchedRefused} | ${h.patchedSilent} |`;

/** The markers around an external runtime's section in CONFORMANCE.md. */
const blockStart = (runtime: string) => `<!-- external runtime ${runtime}: begin -->`;
const blockEnd = (runtime: string) => `<!-- external runtime ${runtime}: end -->`;
const EXTERNAL_BLOCK =
    /<!-- external runtime (\S+): begin -->[\s\S]*?<!-- external runtime \1: end -->\n?/g;
const existing = existsSync(REPORT) ? readFileSync(REPORT, "utf8") : "";

let written;
if (externalRuntime === undefined) {
    // The bundled runtimes' report, one row and section per served release: the releases run
    // now replace theirs, the others keep what an earlier run wrote (or say they were not run),
    // and sections of external runtimes written earlier stay.
    const kept = existing.match(EXTERNAL_BLOCK) ?? [];
    const bundledPart = existing.replace(EXTERNAL_BLOCK, "");
    const summary = bundledPart.split(/^## /m)[0] ?? "";
    const earlierRows = new Map(
        [...summary.matchAll(/^\| (\d+\.\d+\.\d+\S*) \| .*$/gm)]
            .filter((m) => !m[0].includes("not run yet"))
            .map((m) => [m[1], m[0]])
    );
    const earlierSections = new Map(
        [
            ...bundledPart.matchAll(
                /^## @github\/copilot-sdk (\S+) \(runtime [^\n]*\n[\s\S]*?(?=^## |^<!-- |(?![\s\S]))/gm
            ),
        ].map((m) => [m[1], m[0].trimEnd()])
    );
    const ran = new Map(headlines.map((h, index) => [h.version, { h, section: sections[index] }]));
    const notRun = (version: string) => {
        const release = sdkRelease(version);
        return (
            `| ${version} | ${release.runtimeVersion} | not run yet: ` +
            `\`npm run conformance -- --sdk ${version}\` (a few minutes) | | | | | | |`
        );
    };
    const report = [
        "# Collision conformance",
        "",
        ...INTRO,
        "",
        ...HEADLINE_HEADER,
        ...supportedVersions().map((version) =>
            ran.has(version)
                ? headlineRow((ran.get(version) as { h: (typeof headlines)[number] }).h)
                : (earlierRows.get(version) ?? notRun(version))
        ),
        "",
        ...supportedVersions().flatMap((version) => {
            const section = ran.get(version)?.section ?? earlierSections.get(version);
            return section === undefined ? [] : [section, ""];
        }),
        ...kept.map((block) => block.trimEnd()).flatMap((block) => [block, ""]),
    ].join("\n");
    writeFileSync(REPORT, report);
    writePromptAgreement(promptMeasured, supportedVersions());
    writeSubAgents(subAgentsMeasured, supportedVersions());
    written = REPORT;
} else {
    const runtime = (headlines[0] as (typeof headlines)[number]).runtime;
    const block = [
        blockStart(runtime),
        "",
        ...HEADLINE_HEADER,
        ...headlines.map(headlineRow),
        "",
        sections[0],
        "",
        blockEnd(runtime),
        "",
    ].join("\n");
    if (outFile !== undefined) {
        writeFileSync(
            outFile,
            [`# Collision conformance: runtime ${runtime}`, "", ...INTRO, "", block].join("\n")
        );
        written = resolve(outFile);
    } else {
        const others = existing.replace(EXTERNAL_BLOCK, (found, version) =>
            version === runtime ? "" : found
        );
        writeFileSync(REPORT, `${others.trimEnd()}\n\n${block}`);
        written = REPORT;
    }
}
console.error(`wrote ${written} in ${minutes} min`);
for (const [version, measured] of promptMeasured) {
    console.error(
        `${version} (runtime ${measured.runtimeVersion}): ` +
            `prompt agreement ${measured.holds ? "holds" : "does not hold"}, mentions ${measured.before} before, ` +
            `${measured.after} after the rewrite`
    );
}
for (const summary of corpusSummaries) if (summary !== undefined) console.error(summary);
for (const [version, { runtimeVersion, agentTypes, taskNote }] of subAgentsMeasured) {
    console.error(
        `${version} (runtime ${runtimeVersion}): sub-agents ` +
            (Array.isArray(agentTypes)
                ? agentTypes.join(", ") || "(none)"
                : agentTypes.unavailable) +
            `; task-prompt note ${typeof taskNote === "boolean" ? taskNote : taskNote.notMeasured}`
    );
}
// Every case of a section counts, not only the summary's per-name column: a custom
// tool_search_tool dropped under tool search is in no name's row.
const gaps = headlines.flatMap((h) =>
    h.gaps.map(
        (gap) => `${h.version} (runtime ${h.runtime}${h.external ? ", external" : ""}): ${gap}`
    )
);
if (gaps.length > 0) {
    console.error(
        `through the PATCHED SDK a built-in answered a custom tool's call, or the runtime dropped ` +
            `the tool, in ${gaps.length} cases (see ${written}):\n  ${gaps.join("\n  ")}`
    );
    process.exitCode = 1;
}
