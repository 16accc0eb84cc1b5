// Measures VS Code's own tool filter of workbench.action.chat.open (computeToolEnablementMap, as
// published for each VS Code release in @codingame/monaco-vscode-api) beside this project's
// chat-open adapter, and writes CONFORMANCE-chat-open.md.
//
//   npm run conformance:chat-open                      # every version of WORKBENCH_VERSIONS
//   npm run conformance:chat-open -- --versions 37.6.1,26.2.1 --out /tmp/report.md --json /tmp/runs.json
//
// Exit status: 0 when the report is written, 3 when a package cannot be installed (offline, or the
// registry lacks the version), 1 for any other failure.
//
// Packages are installed on demand into .cache/vscode-workbench/<version>/ (npm pack, only the
// files needed are kept); nothing is added to node_modules.

import { checkArguments } from "../../build/cli/cliArguments.js";
import { writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { compareVersions } from "../../build/cli/conformance/sdkVersions.js";
import { loadChatOpenAdapter } from "./lib/chatOpenAdapter.mjs";
import {
    CASES,
    REPORT_FILE,
    WORKBENCH_VERSIONS,
    renderReport,
    runConformance,
} from "./lib/chatOpenConformance.mjs";
import {
    WorkbenchUnavailableError,
    installWorkbench,
    loadWorkbench,
} from "./lib/vscodeWorkbench.mjs";
checkArguments(process.argv.slice(2), {
    usage: "Usage: npm run conformance:chat-open [-- [--versions <v1,v2>] [--out <file>] [--json <file>]]",
    flags: { versions: "value", out: "value", json: "value" },
    positionals: 0,
});

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const args = process.argv.slice(2);
const option = (/** @type {string} */ name) => {
    const at = args.indexOf(name);
    return at === -1 ? undefined : args[at + 1];
};
const versions = option("--versions")?.split(",") ?? WORKBENCH_VERSIONS;
const out = option("--out") ?? join(ROOT, REPORT_FILE);
const json = option("--json");

const started = Date.now();
const { resolveChatOpenToolEnablement } = await loadChatOpenAdapter();
const runs = [];
for (const version of versions) {
    let dir;
    try {
        dir = installWorkbench(version, { log: (/** @type {string} */ line) => console.log(line) });
    } catch (error) {
        if (!(error instanceof WorkbenchUnavailableError)) throw error;
        console.error(`cannot install VS Code's workbench package: ${error.message}`);
        process.exit(3);
    }
    const run = runConformance(await loadWorkbench(dir), resolveChatOpenToolEnablement);
    const differ = run.cases.filter((c) => c.verdict === "differs");
    console.log(
        `VS Code ${run.facts.vscodeVersion} (${version}): ` +
            (run.facts.hasFunction
                ? `${run.cases.length - differ.length} agree, ${differ.length} differ${differ.length ? ` (${differ.map((c) => c.id).join(", ")})` : ""}`
                : "no toolsInclude / computeToolEnablementMap")
    );
    runs.push(run);
}
runs.sort((a, b) => compareVersions(a.facts.vscodeVersion, b.facts.vscodeVersion));
writeFileSync(out, renderReport(runs));
if (json !== undefined) {
    const cases = CASES.map(({ id, rule, include, exclude, design }) => ({
        id,
        rule,
        include,
        exclude,
        design,
    }));
    writeFileSync(json, JSON.stringify({ cases, runs }, null, 2) + "\n");
}
console.log(`wrote ${out} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
