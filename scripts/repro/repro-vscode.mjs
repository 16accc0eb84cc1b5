// Reproduces the reports of patches/vscode/issues/ against VS Code's own code as published on the
// npm registry (@codingame/monaco-vscode-api, VS Code's src/vs compiled; installed on demand into
// .cache/vscode-workbench/<version>/), in Node, with no VS Code window.
//
//   npm run repro:vscode -- --list
//   npm run repro:vscode -- <name> [--package <version of @codingame/monaco-vscode-api>]
//   npm run repro:vscode -- toolsinclude-later-tools --with-proposed-fix
//
// --with-proposed-fix runs the reproduction on the published ChatSelectedTools with the report's
// proposed change applied (a patched copy in the cache), to show that it fixes the bug.
//
// Exit status: 0 when the published build shows the reported defect, 1 when it does not (the bug
// no longer reproduces), 2 for a usage error, 3 when the package cannot be installed.

import { checkArguments } from "../../build/cli/cliArguments.js";
import { PINNED_WORKBENCH_VERSION } from "./lib/chatOpenConformance.mjs";
import {
    WorkbenchUnavailableError,
    installWorkbench,
    loadWorkbench,
} from "./lib/vscodeWorkbench.mjs";

const USAGE =
    "Usage: npm run repro:vscode -- <name> [--package <version>]   (--list shows the names)";
checkArguments(process.argv.slice(2), {
    usage: USAGE,
    flags: { list: "switch", "with-proposed-fix": "switch", package: "value" },
    positionals: 1,
});

/**
 * The loaded workbench (`loadWorkbench`); the members it takes from VS Code's modules are not
 * typed.
 *
 * @typedef {import("./lib/chatOpenConformance.mjs").Workbench} Workbench
 */

/**
 * Tool data as an extension's package.json contributes it (the fields filtering reads).
 *
 * @param {Workbench} workbench
 * @param {string} id
 * @param {string} toolReferenceName
 * @param {unknown} [source] the tool's source, VS Code's internal one by default
 */
function toolData(workbench, id, toolReferenceName, source) {
    return {
        id,
        toolReferenceName,
        displayName: toolReferenceName,
        modelDescription: `The ${toolReferenceName} tool`,
        canBeReferencedInPrompt: true,
        source: source ?? workbench.ToolDataSource.Internal,
    };
}

const MCP_SOURCE = {
    type: "mcp",
    label: "MCP",
    serverLabel: "MCP",
    instructions: undefined,
    collectionId: "c",
    definitionId: "d",
};

const CASES = [
    {
        name: "toolsinclude-later-tools",
        report: "01-toolsinclude-whitelist-later-tools.md",
        title: "A toolsInclude whitelist does not hold for tools and toolsets registered later",
        expected:
            "after toolsInclude: ['edit'], a tool or toolset registered later stays disabled in the chat's tool selection",
        /**
         * @param {Workbench} workbench
         * @param {{ proposedFix: boolean }} options
         */
        async run(workbench, { proposedFix }) {
            const { ChatSelectedTools, observableValue, InMemoryStorageService, path } =
                await workbench.loadChatSelectedTools({ proposedFix });
            const steps = [
                `ChatSelectedTools from ${path}${proposedFix ? " (the published file with the proposed fix applied)" : ""}`,
            ];
            const editFile = toolData(workbench, "vscode_editFile", "editFile");
            const deleteFile = toolData(workbench, "vscode_deleteFile", "deleteFile");
            const readFile = toolData(workbench, "copilot_readFile", "readFile");
            const edit = workbench.makeToolSet({
                id: "edit",
                referenceName: "edit",
                tools: [editFile, deleteFile],
            });
            const read = workbench.makeToolSet({
                id: "read",
                referenceName: "read",
                tools: [readFile],
            });

            // The tools service as ChatSelectedTools reads it: observable tool and toolset lists.
            const tools = observableValue("tools", [editFile, deleteFile, readFile]);
            const toolSets = observableValue("toolSets", [edit, read]);
            const toolsService = {
                observeTools: () => tools,
                getToolSetsForModel: (
                    /** @type {unknown} */ _model,
                    /** @type {unknown} */ reader
                ) => (reader ? toolSets.read(reader) : toolSets.get()),
                getTools: () => tools.get(),
            };
            const mode = observableValue("mode", { id: "agent", kind: "agent", name: "Agent" });
            const languageModel = observableValue("languageModel", undefined);
            const selected = new ChatSelectedTools(
                mode,
                languageModel,
                toolsService,
                new InMemoryStorageService(),
                undefined
            );
            const enabled = () =>
                Object.entries(selected.userSelectedTools.get())
                    .filter(([, on]) => on)
                    .map(([id]) => id);

            // What workbench.action.chat.open does with { toolsInclude: ['edit'] }.
            const result = /** @type {Function} */ (workbench.computeToolEnablementMap)({
                allTools: [...tools.get()],
                allToolSets: [...toolSets.get()],
                toolsInclude: ["edit"],
                toolsExclude: undefined,
            });
            // The handler's call; with the proposed fix it also passes `!opts.toolsInclude`.
            if (proposedFix) selected.set(result.enablementMap, true, false);
            else selected.set(result.enablementMap, true);
            steps.push(`chat.open { toolsInclude: ['edit'] }: enabled tools ${list(enabled())}`);

            // An MCP server starts afterwards: its tool and toolset are registered.
            const createIssue = toolData(
                workbench,
                "mcp_github_create_issue",
                "create_issue",
                MCP_SOURCE
            );
            const github = workbench.makeToolSet({
                id: "mcp.config.usrlocalmcp.github",
                referenceName: "github",
                source: MCP_SOURCE,
                tools: [createIssue],
            });
            // And an extension registers a tool of its own, outside any toolset.
            const deploy = toolData(workbench, "ext_deploy", "deploy", {
                type: "extension",
                label: "Deployer",
                extensionId: { value: "example.deployer" },
            });
            tools.set([...tools.get(), createIssue, deploy], undefined);
            toolSets.set([...toolSets.get(), github], undefined);
            const after = enabled();
            const entries = selected.entriesMap.get();
            steps.push(
                `an MCP server 'github' and an extension tool 'deploy' register: enabled tools ${list(after)}; toolset 'github' ${entries.get(github) ? "enabled" : "disabled"}`
            );
            const leaked = after.filter((id) => id === createIssue.id || id === deploy.id);
            return {
                steps,
                defect: leaked.length > 0,
                actual:
                    leaked.length > 0
                        ? `the whitelist admits ${list(leaked)}, registered after the command`
                        : "tools registered later stay disabled",
            };
        },
    },
    {
        name: "toolset-and-tool-name",
        report: "02-identifier-names-toolset-and-tool.md",
        title: "An identifier that names a toolset and a tool is applied to both",
        expected:
            "toolsInclude: ['fetch'] enables the toolset named 'fetch' (matched first, as documented for the option) or reports the ambiguity",
        /** @param {Workbench} workbench */
        async run(workbench) {
            const fetchTool = toolData(workbench, "copilot_fetchWebPage", "fetch");
            const readFile = toolData(workbench, "copilot_readFile", "readFile");
            const mcpFetch = toolData(workbench, "mcp_fetch_fetch", "fetch_url", MCP_SOURCE);
            const web = workbench.makeToolSet({
                id: "web",
                referenceName: "web",
                tools: [fetchTool],
            });
            const read = workbench.makeToolSet({
                id: "read",
                referenceName: "read",
                tools: [readFile],
            });
            const fetchServer = workbench.makeToolSet({
                id: "mcp.config.usrlocalmcp.fetch",
                referenceName: "fetch",
                source: MCP_SOURCE,
                tools: [mcpFetch],
            });
            const allTools = [fetchTool, readFile, mcpFetch];
            const allToolSets = [web, read, fetchServer];
            /** @type {string[]} */
            const steps = [];
            const computeToolEnablementMap = /** @type {Function} */ (
                workbench.computeToolEnablementMap
            );
            /** @param {{ toolsInclude?: string[], toolsExclude?: string[] }} options */
            const enabledBy = (options) => {
                const { enablementMap, unknownIdentifiers } = computeToolEnablementMap({
                    allTools,
                    allToolSets,
                    toolsInclude: undefined,
                    toolsExclude: undefined,
                    ...options,
                });
                const on = allTools.filter((t) => enablementMap.get(t) === true).map((t) => t.id);
                steps.push(
                    `${JSON.stringify(options)}: enabled tools ${list(on)}; unknown identifiers ${list(unknownIdentifiers)}`
                );
                return on;
            };
            const included = enabledBy({ toolsInclude: ["fetch"] });
            enabledBy({ toolsExclude: ["fetch"] });
            const defect = included.includes(fetchTool.id) && included.includes(mcpFetch.id);
            return {
                steps,
                defect,
                actual: defect
                    ? "toolsInclude: ['fetch'] enables the MCP server's toolset and the built-in fetch tool, silently"
                    : `toolsInclude: ['fetch'] enables ${list(included)}`,
            };
        },
    },
];

const list = (/** @type {readonly string[]} */ ids) =>
    ids.length === 0 ? "none" : ids.map((id) => `'${id}'`).join(", ");

const args = process.argv.slice(2);
if (args.includes("--list")) {
    for (const c of CASES) {
        console.log(
            `${c.name}  ${c.title}\n${" ".repeat(c.name.length)}  patches/vscode/issues/${c.report}`
        );
    }
    process.exit(0);
}
const proposedFix = args.includes("--with-proposed-fix");
const packageAt = args.indexOf("--package");
const version = packageAt === -1 ? PINNED_WORKBENCH_VERSION : args[packageAt + 1];
const names = args.filter(
    (arg, at) => !arg.startsWith("--") && (packageAt === -1 || at !== packageAt + 1)
);
const reproCase = CASES.find((c) => c.name === names[0]);
if (names.length !== 1 || reproCase === undefined || version === undefined) {
    console.error(names.length === 1 ? `Unknown reproduction '${names[0]}'. ${USAGE}` : USAGE);
    process.exit(2);
}

let dir;
try {
    dir = installWorkbench(version, { log: (line) => console.log(line) });
} catch (error) {
    if (!(error instanceof WorkbenchUnavailableError)) throw error;
    console.error(`cannot install VS Code's workbench package: ${error.message}`);
    process.exit(3);
}
const workbench = await loadWorkbench(dir);
console.log(`${reproCase.name}: ${reproCase.title}`);
console.log(`report: patches/vscode/issues/${reproCase.report}`);
console.log(
    `VS Code ${workbench.vscodeVersion} (commit ${workbench.commit}), as published in @codingame/monaco-vscode-api@${workbench.packageVersion}`
);
if (workbench.computeToolEnablementMap === undefined) {
    console.log("verdict: NOT reproduced: this build has no toolsInclude / toolsExclude");
    process.exit(1);
}
console.log(`expected: ${reproCase.expected}`);
if (proposedFix && reproCase.name !== "toolsinclude-later-tools") {
    console.error(`--with-proposed-fix applies to toolsinclude-later-tools only. ${USAGE}`);
    process.exit(2);
}
const outcome = await reproCase.run(workbench, { proposedFix });
for (const step of outcome.steps) console.log(`  ${step}`);
console.log(`${outcome.defect ? "DEFECT" : "OK"}: ${outcome.actual}`);
console.log(
    outcome.defect
        ? `verdict: reproduced on VS Code ${workbench.vscodeVersion}`
        : proposedFix
          ? "verdict: NOT reproduced with the proposed fix: the fix holds"
          : "verdict: NOT reproduced: VS Code behaves as expected; update the report"
);
process.exit(outcome.defect ? 0 : 1);
