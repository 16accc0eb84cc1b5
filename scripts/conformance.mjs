#!/usr/bin/env node
// npm run conformance: what every supported @github/copilot-sdk release does with custom tools
// named like built-ins, and with toolset filters, unpatched and patched, against its own real
// runtime (offline, mock model on 127.0.0.1). Writes CONFORMANCE.md.
//
// Each version is installed with its runtime into .cache/sdk/<version> (the project's own
// node_modules stays as it is); the patched copy lives in .cache/conformance/<version>, the SDK
// folder copied and patched with patch-package, everything else linked to the unpatched install.

import { execFileSync } from "node:child_process";
import {
    cpSync,
    existsSync,
    mkdirSync,
    readdirSync,
    readFileSync,
    rmSync,
    symlinkSync,
    writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { runPatchPackage } from "./lib/applyPatch.mjs";
import { installSdkVersion } from "./lib/sdkVersions.mjs";
import { PACKAGE_NAME, patchFilePath, ROOT, supportedVersions } from "./lib/sdkPatch.mjs";

/** Built-ins the runtime hides and the name discovery once missed; always probed. */
const HIDDEN_BUILT_INS = [
    "semantic_search",
    "grep_search",
    "search_code_subagent",
    "lexical_code_search",
    "semantic_code_search",
    "extensions_manage",
];
const PROBE = join(ROOT, "scripts", "lib", "conformanceProbe.mjs");
const started = performance.now();

/** The names the discovery measured for a runtime version, plus the hidden ones. */
function namesFor(version) {
    const data = join(ROOT, "scripts", "data", "measured-built-in-tools", `${version}.json`);
    const measured = existsSync(data) ? JSON.parse(readFileSync(data, "utf8")).builtIns : [];
    return [...new Set([...measured, ...HIDDEN_BUILT_INS])].sort();
}

/** A patched copy of an installed SDK, sharing the rest of the install through links. */
function patchedCopy(version, sdkDir) {
    const app = join(ROOT, ".cache", "conformance", version);
    rmSync(app, { recursive: true, force: true });
    const modules = dirname(dirname(sdkDir));
    const target = join(app, "node_modules");
    mkdirSync(join(target, "@github"), { recursive: true });
    for (const entry of readdirSync(modules)) {
        if (entry === "@github" || entry.startsWith(".")) continue;
        symlinkSync(join(modules, entry), join(target, entry));
    }
    for (const entry of readdirSync(join(modules, "@github"))) {
        if (entry === "copilot-sdk") continue;
        symlinkSync(join(modules, "@github", entry), join(target, "@github", entry));
    }
    cpSync(sdkDir, join(target, "@github", "copilot-sdk"), { recursive: true });
    writeFileSync(
        join(app, "package.json"),
        JSON.stringify({
            name: "conformance",
            private: true,
            dependencies: { [PACKAGE_NAME]: version },
        })
    );
    mkdirSync(join(app, "patches"));
    cpSync(patchFilePath(version), join(app, "patches", patchFilePath(version).split("/").pop()));
    runPatchPackage(app);
    return join(target, "@github", "copilot-sdk");
}

function probe(sdkDir, names) {
    const out = join(
        tmpdir(),
        `conformance-${process.pid}-${Math.random().toString(36).slice(2)}.json`
    );
    execFileSync(process.execPath, [PROBE, sdkDir, JSON.stringify(names), out], {
        stdio: ["ignore", "inherit", "inherit"],
    });
    const result = JSON.parse(readFileSync(out, "utf8"));
    rmSync(out);
    return result;
}

const LABELS = {
    "custom-runs": "custom handler runs",
    "built-in-answers": "**built-in silently answers**",
    "fails-at-send": "fails at first send",
    dropped: "**tool dropped**",
    "duplicate-definitions": "**two definitions**",
};
const label = (outcome) =>
    outcome.startsWith("refused:") ? `refused: ${outcome.slice(8)}` : (LABELS[outcome] ?? outcome);
/** Both models' outcomes, once when they agree. */
const both = (byModel, name, key) => {
    const [claude, gpt] = Object.values(byModel).map((names) => names[name][key]);
    return claude === gpt ? label(claude) : `${label(claude)} (Claude) / ${label(gpt)} (GPT)`;
};

/** How many names have an outcome matching `predicate`, on any model, for any of `keys`. */
function count(result, keys, predicate) {
    const names = Object.keys(Object.values(result.names)[0]);
    return names.filter((name) =>
        Object.values(result.names).some((byName) =>
            [keys].flat().some((key) => predicate(byName[name][key]))
        )
    ).length;
}

const sections = [];
const headlines = [];
for (const version of supportedVersions()) {
    console.error(`${version}: installing`);
    const unpatchedDir = await installSdkVersion(version);
    const patchedDir = patchedCopy(version, unpatchedDir);
    const names = namesFor(version);
    console.error(`${version}: probing ${names.length} names, unpatched`);
    const unpatched = probe(unpatchedDir, names);
    console.error(`${version}: probing ${names.length} names, patched`);
    const patched = probe(patchedDir, names);

    const silent = (outcome) => outcome === "built-in-answers" || outcome === "dropped";
    const headline = {
        version,
        runtime: unpatched.runtimeVersion,
        names: names.length,
        unpatchedFails: count(unpatched, "noFlag", (o) => o === "fails-at-send"),
        unpatchedSilent: count(unpatched, "noFlag", silent),
        unpatchedFlagSilent: count(unpatched, "flag", silent),
        patchedRuns: count(patched, "noFlag", (o) => o === "custom-runs"),
        patchedRefused: count(patched, "noFlag", (o) => o.startsWith("refused:")),
        patchedSilent: count(
            patched,
            ["noFlag", "flag"],
            (o) => o !== "custom-runs" && !o.startsWith("refused:")
        ),
    };
    headlines.push(headline);
    const rows = names.map(
        (name) =>
            `| \`${name}\` | ${both(unpatched.names, name, "noFlag")} | ${both(unpatched.names, name, "flag")} | ${both(patched.names, name, "noFlag")} | ${both(patched.names, name, "flag")} |`
    );
    const filterRows = unpatched.filters.map((scenario, index) => {
        const patchedScenario = patched.filters[index];
        const seen = (s) =>
            s.refused
                ? `refused: ${s.refused}`
                : s.seen.map((tools) => tools.join(", ") || "(none)").join(" → ");
        return `| ${scenario.label} | ${seen(scenario)} | ${seen(patchedScenario)} |`;
    });
    sections.push(
        [
            `## @github/copilot-sdk ${version} (runtime ${unpatched.runtimeVersion})`,
            "",
            `${headline.names} names probed on claude-sonnet-4.5 and gpt-4o. Unpatched, a custom tool without the flag fails at the first send for ${headline.unpatchedFails} names and is silently answered by the built-in (or dropped) for ${headline.unpatchedSilent}; with \`overridesBuiltInTool: true\` the built-in still answers (or the tool is dropped) for ${headline.unpatchedFlagSilent}. Patched: the custom handler runs for ${headline.patchedRuns}, construction refuses ${headline.patchedRefused}, and a built-in answers for ${headline.patchedSilent}.`,
            "",
            "| name | unpatched, no flag | unpatched, `overridesBuiltInTool: true` | patched, no flag | patched, `overridesBuiltInTool: true` |",
            "| --- | --- | --- | --- | --- |",
            ...rows,
            `| \`tool_search_tool\`, tool search deferring tools | — | ${label(unpatched.toolSearch.deferring)} | — | ${label(patched.toolSearch.deferring)} |`,
            `| \`tool_search_tool\`, \`toolSearch: { enabled: true }\` only | — | ${label(unpatched.toolSearch.enabledOnly)} | — | ${label(patched.toolSearch.enabledOnly)} |`,
            "",
            "Filters (claude-sonnet-4.5; tools in the model's request):",
            "",
            "| options | unpatched | patched |",
            "| --- | --- | --- |",
            ...filterRows,
        ].join("\n")
    );
}

const minutes = ((performance.now() - started) / 60000).toFixed(1);
const report = [
    "# Collision conformance",
    "",
    "Generated by `npm run conformance` (do not edit). For every supported SDK release and its own",
    "bundled runtime, offline with a mock model: what happens to a custom tool named like each",
    "built-in the discovery knows (plus six hidden ones), and to toolset filters, without and",
    "with this project's patch. Outcomes: the custom handler runs; construction refuses (with the",
    "`SessionToolError` code); the first send fails; the built-in silently answers the call; the",
    "tool is dropped (the model never sees it).",
    "",
    "| SDK | runtime | names | unpatched: fails at send | unpatched: built-in answers or dropped | unpatched with flag: built-in answers or dropped | patched: custom runs | patched: refused | patched: built-in answers |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...headlines.map(
        (h) =>
            `| ${h.version} | ${h.runtime} | ${h.names} | ${h.unpatchedFails} | ${h.unpatchedSilent} | ${h.unpatchedFlagSilent} | ${h.patchedRuns} | ${h.patchedRefused} | ${h.patchedSilent} |`
    ),
    "",
    ...sections.flatMap((section) => [section, ""]),
].join("\n");
writeFileSync(join(ROOT, "CONFORMANCE.md"), report);
execFileSync(
    process.execPath,
    [join(ROOT, "node_modules", "prettier", "bin", "prettier.cjs"), "--write", "CONFORMANCE.md"],
    {
        cwd: ROOT,
        stdio: "ignore",
    }
);
console.error(`wrote CONFORMANCE.md in ${minutes} min`);
if (headlines.some((h) => h.patchedSilent > 0)) {
    console.error(
        "a built-in answered a custom tool's call through the PATCHED SDK: see CONFORMANCE.md"
    );
    process.exitCode = 1;
}
