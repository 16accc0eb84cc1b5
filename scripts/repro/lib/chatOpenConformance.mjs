// The conformance run of workbench.action.chat.open's tool filter: VS Code's own
// computeToolEnablementMap, over VS Code's own ToolSet objects, beside this project's chat-open
// adapter (src/chatOpen), on every rule of the design (seed 000), on catalogs shaped like VS Code's
// real ones, and on the edge cases where the two may part. Each case carries the design's answer,
// written by hand from the rule (null where the design says nothing).
//
// Used by scripts/repro/conformance-chat-open.mjs (every version, writes CONFORMANCE-chat-open.md) and by
// test/vscode/chatOpenConformance.test.ts (the pinned version).

/** Package versions of @codingame/monaco-vscode-api the report covers, oldest first. */
export const WORKBENCH_VERSIONS = [
    "25.1.2",
    "26.2.1",
    "28.4.1",
    "31.0.1",
    "34.1.3",
    "35.0.3",
    "37.6.1",
];

/** The version `npm test` runs. */
export const PINNED_WORKBENCH_VERSION = "37.6.1";

export const REPORT_FILE = "CONFORMANCE-chat-open.md";

// --- catalogs -------------------------------------------------------------------------------------

/**
 * A case's catalog as written here: tools and toolsets by id; a toolset names its members by id.
 *
 * @typedef {{ id: string, toolReferenceName: string, source: "internal" | "mcp" }} CatalogTool
 * @typedef {{ id: string, referenceName: string, tools: string[], toolSets?: string[], source?: "internal" | "mcp" }} CatalogToolSet
 * @typedef {{ tools: CatalogTool[], toolSets: CatalogToolSet[], unlisted?: CatalogTool[] }} Catalog
 */

/**
 * @param {string} id
 * @param {string} toolReferenceName
 * @param {"internal" | "mcp"} [source]
 * @returns {CatalogTool}
 */
const tool = (id, toolReferenceName, source = "internal") => ({ id, toolReferenceName, source });

/** Built-in tools as Copilot Chat registers them (ids and reference names as in VS Code). */
const COPILOT_TOOLS = [
    tool("vscode_editFile", "editFile"),
    tool("vscode_deleteFile", "deleteFile"),
    tool("copilot_readFile", "readFile"),
    tool("copilot_searchCodebase", "codebase"),
    tool("copilot_findFiles", "fileSearch"),
    tool("copilot_fetchWebPage", "fetch"),
    tool("copilot_githubRepo", "githubRepo"),
    tool("runSubagent", "runSubagent"),
    tool("run_in_terminal", "runInTerminal"),
];
const ALL = COPILOT_TOOLS.map((t) => t.id);

/**
 * Copilot Chat's toolsets (`toolset:<extension id>/<name>`) beside VS Code's core ones, whose id is
 * their reference name (`read`, `agent`, `execute`); members by tool id.
 */
/** @type {CatalogToolSet[]} */
const COPILOT_TOOLSETS = [
    {
        id: "toolset:GitHub.copilot-chat/edit",
        referenceName: "edit",
        tools: ["vscode_editFile", "vscode_deleteFile"],
    },
    { id: "read", referenceName: "read", tools: ["copilot_readFile"] },
    {
        id: "toolset:GitHub.copilot-chat/search",
        referenceName: "search",
        tools: ["copilot_searchCodebase", "copilot_findFiles"],
    },
    {
        id: "toolset:GitHub.copilot-chat/web",
        referenceName: "web",
        tools: ["copilot_fetchWebPage", "copilot_githubRepo"],
    },
    { id: "agent", referenceName: "agent", tools: ["runSubagent"] },
    { id: "execute", referenceName: "execute", tools: ["run_in_terminal"] },
];
/**
 * Copilot Chat's catalog, with `extra` tools and toolsets.
 *
 * @param {Partial<Catalog>} [extra]
 * @returns {Catalog}
 */
const copilot = (extra = {}) => ({
    tools: [...COPILOT_TOOLS, ...(extra.tools ?? [])],
    toolSets: [...COPILOT_TOOLSETS, ...(extra.toolSets ?? [])],
});

/** An MCP server labelled "fetch": its toolset's referenceName is the built-in fetch tool's name. */
/** @type {Catalog} */
const MCP_FETCH = {
    tools: [tool("mcp_fetch_fetch", "fetch_url", "mcp")],
    toolSets: [
        {
            id: "mcp.config.usrlocalmcp.fetch",
            referenceName: "fetch",
            tools: ["mcp_fetch_fetch"],
            source: "mcp",
        },
    ],
};
/** An MCP server "github" whose toolset shares a tool with Copilot Chat's web toolset. */
const GITHUB_SET = {
    id: "mcp.config.usrlocalmcp.github",
    referenceName: "github",
    tools: ["copilot_githubRepo"],
};
const EMPTY_SET = { id: "toolset:example.ext/empty", referenceName: "empty", tools: [] };
const OUTER_SET = {
    id: "vscode",
    referenceName: "vscode",
    tools: ["run_in_terminal"],
    toolSets: ["toolset:GitHub.copilot-chat/web"],
};

const without = (/** @type {string[]} */ ...ids) => ALL.filter((id) => !ids.includes(id));

// --- cases ----------------------------------------------------------------------------------------

/**
 * @typedef {{ enabled: string[], toolSets?: Record<string, boolean>, unknown?: string[] } | { error: "EMPTY_INCLUDE" | "NO_TOOLS_ENABLED" }} Expected
 * @typedef {{ id: string, group: string, rule: string, catalog: Catalog, include?: string[], exclude?: string[], design: Expected | null, note?: string }} ConformanceCase
 */

/**
 * What VS Code or the adapter did with a case: the tools and toolsets it enabled, or its error.
 *
 * @typedef {{ error?: undefined, filtered: boolean, enabled: string[], toolSets: Record<string, boolean> | null, unknown: string[], extra: string[], warnings?: string[] }} Enablement
 * @typedef {{ error: { code?: string, message: string } }} Refusal
 * @typedef {Enablement | Refusal} Outcome
 * @typedef {Awaited<ReturnType<typeof import("./vscodeWorkbench.mjs").loadWorkbench>>} Workbench
 * @typedef {(options: object, catalog: object, hooks: object) => any} ChatOpenAdapter this
 *   project's `resolveChatOpenToolEnablement` (src/chatOpen), compiled at run time
 */

/** @type {ConformanceCase[]} */
export const CASES = [
    // The behaviour matrix.
    {
        id: "default",
        group: "Behaviour matrix",
        rule: "Neither option: default behaviour, every tool enabled",
        catalog: copilot(),
        design: { enabled: ALL },
    },
    {
        id: "whitelist",
        group: "Behaviour matrix",
        rule: "Whitelist: only the named toolsets' tools (design example)",
        catalog: copilot(),
        include: ["edit", "search"],
        design: {
            enabled: [
                "vscode_editFile",
                "vscode_deleteFile",
                "copilot_searchCodebase",
                "copilot_findFiles",
            ],
            toolSets: {
                "toolset:GitHub.copilot-chat/edit": true,
                read: false,
                "toolset:GitHub.copilot-chat/search": true,
                "toolset:GitHub.copilot-chat/web": false,
                agent: false,
                execute: false,
            },
        },
    },
    {
        id: "blacklist",
        group: "Behaviour matrix",
        rule: "Blacklist: every tool but the named toolset's (design example)",
        catalog: copilot(),
        exclude: ["web"],
        design: { enabled: without("copilot_fetchWebPage", "copilot_githubRepo") },
    },
    {
        id: "combined",
        group: "Behaviour matrix",
        rule: "Combined: the included toolset minus an excluded tool (design example)",
        catalog: copilot(),
        include: ["edit"],
        exclude: ["deleteFile"],
        design: {
            enabled: ["vscode_editFile"],
            toolSets: {
                "toolset:GitHub.copilot-chat/edit": false,
                read: false,
                "toolset:GitHub.copilot-chat/search": false,
                "toolset:GitHub.copilot-chat/web": false,
                agent: false,
                execute: false,
            },
        },
    },
    {
        id: "add-then-remove",
        group: "Behaviour matrix",
        rule: "Several toolsets included, one member excluded (design example)",
        catalog: copilot(),
        include: ["agent", "read", "web"],
        exclude: ["fetch"],
        design: { enabled: ["copilot_readFile", "copilot_githubRepo", "runSubagent"] },
    },
    // Identifier resolution.
    {
        id: "toolset-by-id",
        group: "Identifier resolution",
        rule: "A toolset by its id affects all its members",
        catalog: copilot(),
        include: ["toolset:GitHub.copilot-chat/search"],
        design: { enabled: ["copilot_searchCodebase", "copilot_findFiles"] },
    },
    {
        id: "toolset-by-reference-name",
        group: "Identifier resolution",
        rule: "A toolset by its referenceName",
        catalog: copilot(),
        exclude: ["search"],
        design: { enabled: without("copilot_searchCodebase", "copilot_findFiles") },
    },
    {
        id: "core-toolset",
        group: "Identifier resolution",
        rule: "A core toolset whose id is its referenceName",
        catalog: copilot(),
        include: ["execute"],
        design: { enabled: ["run_in_terminal"] },
    },
    {
        id: "tool-by-id",
        group: "Identifier resolution",
        rule: "A tool by its id",
        catalog: copilot(),
        include: ["copilot_githubRepo"],
        design: { enabled: ["copilot_githubRepo"] },
    },
    {
        id: "tool-by-reference-name",
        group: "Identifier resolution",
        rule: "A tool by its toolReferenceName",
        catalog: copilot(),
        include: ["runInTerminal"],
        design: { enabled: ["run_in_terminal"] },
    },
    // Edge cases of the design.
    {
        id: "tool-in-both",
        group: "Edge cases of the design",
        rule: "A tool in both lists is excluded",
        catalog: copilot(),
        include: ["editFile", "readFile"],
        exclude: ["editFile"],
        design: { enabled: ["copilot_readFile"] },
    },
    {
        id: "tool-excluded-by-other-name",
        group: "Edge cases of the design",
        rule: "An explicit tool exclusion wins, whichever of its names each list uses",
        catalog: copilot(),
        include: ["editFile", "readFile"],
        exclude: ["vscode_editFile"],
        design: { enabled: ["copilot_readFile"] },
    },
    {
        id: "toolset-in-member-out",
        group: "Edge cases of the design",
        rule: "Toolset included, a member excluded: the other members stay",
        catalog: copilot(),
        include: ["web"],
        exclude: ["githubRepo"],
        design: { enabled: ["copilot_fetchWebPage"] },
    },
    {
        id: "tool-in-toolset-out",
        group: "Edge cases of the design",
        rule: "Tool included, its toolset excluded: the tool is included",
        catalog: copilot(),
        include: ["editFile", "read"],
        exclude: ["edit"],
        design: { enabled: ["vscode_editFile", "copilot_readFile"] },
    },
    {
        id: "toolset-enablement",
        group: "Edge cases of the design",
        rule: "A toolset is enabled when all its members are",
        catalog: copilot(),
        include: ["edit", "read"],
        exclude: ["deleteFile"],
        design: {
            enabled: ["vscode_editFile", "copilot_readFile"],
            toolSets: {
                "toolset:GitHub.copilot-chat/edit": false,
                read: true,
                "toolset:GitHub.copilot-chat/search": false,
                "toolset:GitHub.copilot-chat/web": false,
                agent: false,
                execute: false,
            },
        },
    },
    {
        id: "unknown-include",
        group: "Edge cases of the design",
        rule: "An unknown identifier warns; the rest applies",
        catalog: copilot(),
        include: ["edit", "serach"],
        design: { enabled: ["vscode_editFile", "vscode_deleteFile"], unknown: ["serach"] },
    },
    {
        id: "unknown-exclude",
        group: "Edge cases of the design",
        rule: "An unknown identifier in the exclusions warns",
        catalog: copilot(),
        exclude: ["webb"],
        design: { enabled: ALL, unknown: ["webb"] },
    },
    {
        id: "unknown-proto",
        group: "Edge cases of the design",
        rule: "'__proto__' is just an unknown identifier",
        catalog: copilot(),
        include: ["__proto__", "edit"],
        design: { enabled: ["vscode_editFile", "vscode_deleteFile"], unknown: ["__proto__"] },
    },
    {
        id: "empty-include",
        group: "Edge cases of the design",
        rule: "An empty include list is an error",
        catalog: copilot(),
        include: [],
        design: { error: "EMPTY_INCLUDE" },
    },
    {
        id: "empty-exclude",
        group: "Edge cases of the design",
        rule: "An empty exclude list has no effect",
        catalog: copilot(),
        exclude: [],
        design: { enabled: ALL },
    },
    {
        id: "zero-tools-left",
        group: "Edge cases of the design",
        rule: "A filter that leaves no tool is an error",
        catalog: copilot(),
        exclude: ["edit", "read", "search", "web", "agent", "execute"],
        design: { error: "NO_TOOLS_ENABLED" },
    },
    {
        id: "only-unknown-include",
        group: "Edge cases of the design",
        rule: "An include list of unknown identifiers only leaves no tool: an error",
        catalog: copilot(),
        include: ["nope"],
        design: { error: "NO_TOOLS_ENABLED" },
    },
    // Where the two may part.
    {
        id: "toolset-and-tool-include",
        group: "Names shared between toolsets and tools",
        rule: "One identifier names a toolset (referenceName) and a tool (toolReferenceName), included",
        catalog: copilot(MCP_FETCH),
        include: ["fetch"],
        design: { enabled: ["mcp_fetch_fetch"] },
        note: "An MCP server labelled 'fetch' beside the built-in fetch tool. The design matches a toolset before a tool.",
    },
    {
        id: "toolset-and-tool-exclude",
        group: "Names shared between toolsets and tools",
        rule: "One identifier names a toolset (referenceName) and a tool (toolReferenceName), excluded",
        catalog: copilot(MCP_FETCH),
        exclude: ["fetch"],
        design: { enabled: ALL },
    },
    {
        id: "toolset-id-and-reference-name",
        group: "Names shared between toolsets and tools",
        rule: "One identifier is a toolset's id and another toolset's referenceName",
        catalog: {
            tools: COPILOT_TOOLS,
            toolSets: [
                { id: "search", referenceName: "find", tools: ["copilot_findFiles"] },
                {
                    id: "toolset:GitHub.copilot-chat/search",
                    referenceName: "search",
                    tools: ["copilot_searchCodebase"],
                },
            ],
        },
        include: ["search"],
        design: { enabled: ["copilot_findFiles"] },
        note: "The design matches a toolset's id before a toolset's referenceName.",
    },
    {
        id: "tool-id-and-reference-name",
        group: "Names shared between toolsets and tools",
        rule: "One identifier is a tool's id and another tool's toolReferenceName",
        catalog: {
            tools: [
                tool("textSearch", "grep"),
                tool("copilot_findTextInFiles", "textSearch"),
                ...COPILOT_TOOLS,
            ],
            toolSets: [],
        },
        include: ["textSearch"],
        design: { enabled: ["textSearch"] },
        note: "The design matches a tool's id before a tool's toolReferenceName.",
    },
    {
        id: "shared-tool-reference-name",
        group: "Names shared between toolsets and tools",
        rule: "Two tools share a toolReferenceName (an MCP tool named like a built-in)",
        catalog: {
            tools: [...COPILOT_TOOLS, tool("mcp_github_fetch", "fetch", "mcp")],
            toolSets: COPILOT_TOOLSETS,
        },
        include: ["fetch"],
        design: null,
        note: "The design does not say; both tools carry the name.",
    },
    {
        id: "shared-toolset-reference-name",
        group: "Names shared between toolsets and tools",
        rule: "Two toolsets share a referenceName (an extension's 'read' beside VS Code's)",
        catalog: copilot({
            toolSets: [
                {
                    id: "toolset:example.ext/read",
                    referenceName: "read",
                    tools: ["copilot_searchCodebase"],
                },
            ],
        }),
        include: ["read"],
        design: null,
        note: "The design does not say. VS Code merges only the built-in extension's toolsets into core ones of the same name.",
    },
    // Catalog shapes.
    {
        id: "zero-tools-exclude",
        group: "Catalog shapes",
        rule: "No tools at all, with an exclude list",
        catalog: { tools: [], toolSets: [] },
        exclude: ["web"],
        design: { error: "NO_TOOLS_ENABLED" },
    },
    {
        id: "zero-tools-include",
        group: "Catalog shapes",
        rule: "No tools at all, with an include list",
        catalog: { tools: [], toolSets: [] },
        include: ["web"],
        design: { error: "NO_TOOLS_ENABLED" },
    },
    {
        id: "empty-toolset",
        group: "Catalog shapes",
        rule: "A toolset without members is never enabled",
        catalog: copilot({ toolSets: [EMPTY_SET] }),
        exclude: ["web"],
        design: {
            enabled: without("copilot_fetchWebPage", "copilot_githubRepo"),
            toolSets: {
                "toolset:GitHub.copilot-chat/edit": true,
                read: true,
                "toolset:GitHub.copilot-chat/search": true,
                "toolset:GitHub.copilot-chat/web": false,
                agent: true,
                execute: true,
                "toolset:example.ext/empty": false,
            },
        },
    },
    {
        id: "empty-toolset-only",
        group: "Catalog shapes",
        rule: "A toolset without members as the only inclusion leaves no tool",
        catalog: copilot({ toolSets: [EMPTY_SET] }),
        include: ["empty"],
        design: { error: "NO_TOOLS_ENABLED" },
    },
    {
        id: "two-toolsets-one-excluded",
        group: "Catalog shapes",
        rule: "A tool in two toolsets, one included, the other excluded: excluded",
        catalog: copilot({ toolSets: [GITHUB_SET] }),
        include: ["web"],
        exclude: ["github"],
        design: { enabled: ["copilot_fetchWebPage"] },
    },
    {
        id: "two-toolsets-both-included",
        group: "Catalog shapes",
        rule: "A tool in two toolsets, both included: both toolsets enabled",
        catalog: copilot({ toolSets: [GITHUB_SET] }),
        include: ["web", "github"],
        design: { enabled: ["copilot_fetchWebPage", "copilot_githubRepo"] },
    },
    {
        id: "two-toolsets-tool-named",
        group: "Catalog shapes",
        rule: "A tool in two excluded toolsets, named in the include list: included",
        catalog: copilot({ toolSets: [GITHUB_SET] }),
        include: ["githubRepo", "read"],
        exclude: ["web", "github"],
        design: { enabled: ["copilot_readFile", "copilot_githubRepo"] },
    },
    {
        id: "nested-toolset",
        group: "Catalog shapes",
        rule: "A toolset inside a toolset: including the outer one includes the inner one's tools",
        catalog: copilot({ toolSets: [OUTER_SET] }),
        include: ["vscode"],
        design: { enabled: ["copilot_fetchWebPage", "copilot_githubRepo", "run_in_terminal"] },
    },
    {
        id: "nested-toolset-excluded",
        group: "Catalog shapes",
        rule: "A toolset inside an included toolset, excluded",
        catalog: copilot({ toolSets: [OUTER_SET] }),
        include: ["vscode"],
        exclude: ["web"],
        design: { enabled: ["run_in_terminal"] },
    },
    {
        id: "member-not-listed",
        group: "Catalog shapes",
        rule: "A toolset member missing from the tool list",
        catalog: {
            tools: COPILOT_TOOLS,
            toolSets: [
                ...COPILOT_TOOLSETS.filter((s) => s.referenceName !== "web"),
                {
                    id: "toolset:GitHub.copilot-chat/web",
                    referenceName: "web",
                    tools: [
                        "copilot_fetchWebPage",
                        "copilot_githubRepo",
                        "copilot_openSimpleBrowser",
                    ],
                },
            ],
            unlisted: [tool("copilot_openSimpleBrowser", "openSimpleBrowser")],
        },
        include: ["web"],
        design: null,
        note: "The design does not say; VS Code's tool list and a toolset's members are filtered separately (model, `when` clauses).",
    },
    {
        id: "unlisted-members-only",
        group: "Catalog shapes",
        rule: "A filter whose only enabled tools are toolset members missing from the tool list leaves no tool",
        catalog: {
            ...copilot({
                toolSets: [
                    {
                        id: "toolset:GitHub.copilot-chat/browser",
                        referenceName: "browser",
                        tools: ["copilot_openSimpleBrowser"],
                    },
                ],
            }),
            unlisted: [tool("copilot_openSimpleBrowser", "openSimpleBrowser")],
        },
        include: ["browser"],
        design: { error: "NO_TOOLS_ENABLED" },
        note: "VS Code counts every tool its map enables toward its 'at least one tool' check, also the members missing from `getTools(model)`.",
    },
];

// --- running ----------------------------------------------------------------------------------------

/**
 * Builds one case's catalog as VS Code objects: tool data objects and real ToolSets.
 *
 * @param {Workbench} workbench
 * @param {Catalog} catalog
 */
function buildCatalog(workbench, catalog) {
    const sources = {
        internal: workbench.ToolDataSource.Internal,
        mcp: {
            type: "mcp",
            label: "MCP",
            serverLabel: "MCP",
            instructions: undefined,
            collectionId: "c",
            definitionId: "d",
        },
    };
    const toToolData = (/** @type {CatalogTool} */ t) => ({
        id: t.id,
        toolReferenceName: t.toolReferenceName,
        displayName: t.toolReferenceName,
        modelDescription: `The ${t.toolReferenceName} tool`,
        canBeReferencedInPrompt: true,
        source: sources[t.source],
    });
    const tools = catalog.tools.map(toToolData);
    const byId = new Map(
        [...tools, ...(catalog.unlisted ?? []).map(toToolData)].map((t) => [t.id, t])
    );
    /** @type {any[]} */
    const toolSets = [];
    /** @type {Map<string, unknown>} */
    const toolSetsById = new Map();
    for (const set of catalog.toolSets) {
        const toolSet = workbench.makeToolSet({
            id: set.id,
            referenceName: set.referenceName,
            source: sources[set.source ?? "internal"],
            tools: set.tools.map((id) => byId.get(id)),
            toolSets: (set.toolSets ?? []).map((id) => toolSetsById.get(id)),
        });
        toolSets.push(toolSet);
        toolSetsById.set(set.id, toolSet);
    }
    return { tools, toolSets };
}

/**
 * What VS Code's chat.open does with a case: the handler filters only when `toolsInclude ||
 * toolsExclude` is truthy (checked against the published handler by the caller of this module),
 * then applies computeToolEnablementMap's map.
 *
 * @param {Workbench} workbench
 * @param {ConformanceCase} testCase
 * @returns {Outcome}
 */
function runVsCode(workbench, testCase) {
    const { tools, toolSets } = buildCatalog(workbench, testCase.catalog);
    if (!(testCase.include || testCase.exclude)) {
        return {
            filtered: false,
            enabled: tools.map((t) => t.id),
            toolSets: null,
            unknown: [],
            extra: [],
        };
    }
    let result;
    try {
        result = /** @type {Function} */ (workbench.computeToolEnablementMap)({
            allTools: tools,
            allToolSets: toolSets,
            toolsInclude: testCase.include,
            toolsExclude: testCase.exclude,
        });
    } catch (error) {
        return { error: { message: /** @type {Error} */ (error).message } };
    }
    /** @type {Map<{ id: string }, boolean>} */
    const map = result.enablementMap;
    const listed = new Set([...tools, ...toolSets]);
    /** @type {string[]} */
    const extra = [];
    for (const [item, on] of map) {
        if (!listed.has(item) && on === true) extra.push(item.id);
    }
    return {
        filtered: true,
        enabled: tools.filter((t) => map.get(t) === true).map((t) => t.id),
        toolSets: Object.fromEntries(toolSets.map((s) => [s.id, map.get(s) === true])),
        unknown: [...result.unknownIdentifiers].sort(),
        extra,
    };
}

/**
 * What this project's adapter does with a case, on the same VS Code objects.
 *
 * @param {Workbench} workbench
 * @param {ChatOpenAdapter} resolveChatOpenToolEnablement
 * @param {ConformanceCase} testCase
 * @returns {Outcome}
 */
function runAdapter(workbench, resolveChatOpenToolEnablement, testCase) {
    const { tools, toolSets } = buildCatalog(workbench, testCase.catalog);
    /** @type {{ toolsInclude?: string[], toolsExclude?: string[] }} */
    const options = {};
    if (testCase.include) options.toolsInclude = testCase.include;
    if (testCase.exclude) options.toolsExclude = testCase.exclude;
    let outcome;
    try {
        outcome = resolveChatOpenToolEnablement(
            options,
            { tools, toolSets },
            { onWarning: () => {} }
        );
    } catch (caught) {
        const error = /** @type {Error & { code?: string }} */ (caught);
        return { error: { code: error.code, message: error.message } };
    }
    const { enablement, result } = outcome;
    return {
        filtered: result.mode !== "default",
        enabled: tools.filter((t) => enablement.get(t) === true).map((t) => t.id),
        toolSets: Object.fromEntries(toolSets.map((s) => [s.id, enablement.get(s) === true])),
        unknown: [
            ...new Set(
                result.unknownIdentifiers.map(
                    (/** @type {{ identifier: string }} */ u) => u.identifier
                )
            ),
        ].sort(),
        extra: [],
        warnings: outcome.warnings.map((/** @type {{ code: string }} */ w) => w.code),
    };
}

/**
 * How an outcome departs from the design's answer, or [] when it matches.
 *
 * @param {Outcome} outcome
 * @param {Expected | null} design
 * @returns {string[]}
 */
export function departuresFromDesign(outcome, design) {
    if (design === null) return [];
    if ("error" in design) {
        if (outcome.error === undefined)
            return [`enables ${list(outcome.enabled)} where the design refuses (${design.error})`];
        return outcome.error.code === undefined || outcome.error.code === design.error
            ? []
            : [`refuses with ${outcome.error.code}, the design with ${design.error}`];
    }
    if (outcome.error !== undefined)
        return [
            `refuses ('${outcome.error.message}') where the design enables ${list(design.enabled)}`,
        ];
    const differences = compareEnabled(
        outcome,
        { enabled: design.enabled, extra: [] },
        "the design"
    );
    if (design.toolSets && outcome.toolSets)
        differences.push(...compareToolSets(outcome.toolSets, design.toolSets, "the design"));
    if (design.unknown && list(design.unknown) !== list(outcome.unknown)) {
        differences.push(
            `reports unknown identifiers ${list(outcome.unknown)}, the design ${list(design.unknown)}`
        );
    }
    return differences;
}

/**
 * Compares VS Code's outcome with the adapter's.
 *
 * @param {Outcome} vscode
 * @param {Outcome} adapter
 * @returns {{ verdict: "agree" | "agree, errors worded differently" | "differs", differences: string[] }}
 */
export function compareOutcomes(vscode, adapter) {
    if (vscode.error || adapter.error) {
        if (vscode.error && adapter.error) {
            return { verdict: "agree, errors worded differently", differences: [] };
        }
        const [refuses, accepts, who] = vscode.error
            ? [vscode, adapter, "VS Code"]
            : [adapter, vscode, "the adapter"];
        const other = who === "VS Code" ? "the adapter" : "VS Code";
        return {
            verdict: "differs",
            differences: [
                `${who} refuses ('${refuses.error?.message}'); ${other} enables ${list(/** @type {Enablement} */ (accepts).enabled)}`,
            ],
        };
    }
    const differences = compareEnabled(vscode, adapter, "the adapter", "VS Code");
    if (vscode.toolSets && adapter.toolSets)
        differences.push(
            ...compareToolSets(vscode.toolSets, adapter.toolSets, "the adapter", "VS Code")
        );
    if (list(vscode.unknown) !== list(adapter.unknown)) {
        differences.push(
            `VS Code reports unknown identifiers ${list(vscode.unknown)}, the adapter ${list(adapter.unknown)}`
        );
    }
    return { verdict: differences.length === 0 ? "agree" : "differs", differences };
}

/**
 * @param {{ enabled: string[], extra: string[] }} outcome
 * @param {{ enabled: string[], extra?: string[] }} reference
 * @param {string} referenceName
 * @param {string} [outcomeName]
 */
function compareEnabled(outcome, reference, referenceName, outcomeName = "it") {
    const differences = [];
    const more = outcome.enabled.filter((id) => !reference.enabled.includes(id));
    const fewer = reference.enabled.filter((id) => !outcome.enabled.includes(id));
    const subject = outcomeName === "it" ? "enables" : `${outcomeName} enables`;
    if (more.length > 0)
        differences.push(
            `${subject} ${list(more)} as well, which ${referenceName} leaves disabled`
        );
    if (fewer.length > 0)
        differences.push(
            `${outcomeName === "it" ? "leaves" : `${outcomeName} leaves`} ${list(fewer)} disabled, which ${referenceName} enables`
        );
    if (outcome.extra.length > 0)
        differences.push(
            `${outcomeName === "it" ? "its" : `${outcomeName}'s`} map also enables ${list(outcome.extra)}, which is not in the tool list`
        );
    return differences;
}

/**
 * @param {Record<string, boolean>} outcome
 * @param {Record<string, boolean>} reference
 * @param {string} referenceName
 * @param {string} [outcomeName]
 */
function compareToolSets(outcome, reference, referenceName, outcomeName = "it") {
    const differences = [];
    for (const [id, on] of Object.entries(reference)) {
        if (outcome[id] !== on) {
            differences.push(
                `${outcomeName === "it" ? "marks" : `${outcomeName} marks`} toolset '${id}' ${outcome[id] ? "enabled" : "disabled"}, ${referenceName} ${on ? "enabled" : "disabled"}`
            );
        }
    }
    return differences;
}

const list = (/** @type {readonly string[]} */ ids) =>
    ids.length === 0 ? "none" : ids.map((id) => `'${id}'`).join(", ");

/**
 * Runs every case on one loaded workbench version.
 *
 * @param {Workbench} workbench - from loadWorkbench()
 * @param {ChatOpenAdapter} resolveChatOpenToolEnablement - this project's adapter (src/chatOpen)
 */
export function runConformance(workbench, resolveChatOpenToolEnablement) {
    const facts = {
        packageVersion: workbench.packageVersion,
        vscodeVersion: workbench.vscodeVersion,
        commit: workbench.commit,
        openOptions: workbench.openOptions,
        filterCondition: workbench.filterCondition ?? null,
        applyCall: workbench.applyCall ?? null,
        hasFunction: typeof workbench.computeToolEnablementMap === "function",
    };
    if (!facts.hasFunction) return { facts, cases: [] };
    if (facts.filterCondition !== "opts?.toolsInclude || opts?.toolsExclude") {
        throw new Error(
            `VS Code ${facts.vscodeVersion}: chat.open no longer filters on 'opts?.toolsInclude || opts?.toolsExclude' (found ${facts.filterCondition}); update runVsCode()`
        );
    }
    const cases = CASES.map((testCase) => {
        const vscode = runVsCode(workbench, testCase);
        const adapter = runAdapter(workbench, resolveChatOpenToolEnablement, testCase);
        return {
            id: testCase.id,
            vscode,
            adapter,
            ...compareOutcomes(vscode, adapter),
            vscodeVsDesign: departuresFromDesign(vscode, testCase.design),
            adapterVsDesign: departuresFromDesign(adapter, testCase.design),
        };
    });
    return { facts, cases };
}

// --- the report ---------------------------------------------------------------------------------

/**
 * The result of one version: what the workbench is, and each case's outcomes.
 *
 * @typedef {ReturnType<typeof runConformance>} ConformanceRun
 * @typedef {ConformanceRun["cases"][number]} CaseResult
 */

/**
 * The verdict cell of one case on one version, as the report's table shows it.
 *
 * @param {{ verdict: string }} caseResult
 */
export function verdictCell(caseResult) {
    return caseResult.verdict === "differs" ? "**differs**" : caseResult.verdict;
}

const options = (/** @type {ConformanceCase} */ testCase) =>
    [
        testCase.include
            ? `toolsInclude: [${testCase.include.map((i) => `'${i}'`).join(", ")}]`
            : "",
        testCase.exclude
            ? `toolsExclude: [${testCase.exclude.map((i) => `'${i}'`).join(", ")}]`
            : "",
    ]
        .filter(Boolean)
        .join(", ") || "(neither)";

const designCell = (/** @type {Expected | null} */ design) =>
    design === null
        ? "not specified"
        : "error" in design
          ? `error (${design.error})`
          : list(design.enabled);

/**
 * The whole report, from the results of every version (oldest first).
 *
 * @param {ConformanceRun[]} runs
 */
export function renderReport(runs) {
    const filtered = runs.filter((run) => run.facts.hasFunction);
    const lines = [];
    lines.push("# VS Code's chat.open tool filter, measured");
    lines.push("");
    lines.push(
        "Generated by `npm run conformance:chat-open` (`scripts/repro/conformance-chat-open.mjs`); do not edit. " +
            "It installs published builds of VS Code's workbench code (the npm package " +
            "`@codingame/monaco-vscode-api`, which packages microsoft/vscode's `src/vs` as compiled " +
            "JavaScript) and runs VS Code's own `computeToolEnablementMap`, the function behind " +
            "`workbench.action.chat.open`'s `toolsInclude` / `toolsExclude`, over VS Code's own " +
            "`ToolSet` objects, beside this project's chat-open adapter (`src/chatOpen/`), on " +
            `${CASES.length} cases: every rule of the tool-filtering design, catalogs shaped like VS ` +
            "Code's (Copilot Chat's `toolset:GitHub.copilot-chat/<name>` toolsets beside core " +
            "toolsets whose id is their name, MCP servers), and the cases where the two may part."
    );
    lines.push("");
    lines.push("## Versions");
    lines.push("");
    lines.push(
        "| VS Code | package version | commit | `toolsInclude` / `toolsExclude` | `includeTools` / `excludeTools` | cases: agree | differ |"
    );
    lines.push("| --- | --- | --- | --- | --- | --- | --- |");
    for (const { facts, cases } of runs) {
        const ours =
            facts.openOptions.toolsInclude && facts.openOptions.toolsExclude
                ? "yes"
                : "no (ignored)";
        const theirs =
            facts.openOptions.includeTools || facts.openOptions.excludeTools ? "yes" : "ignored";
        const agree = cases.filter((c) => c.verdict !== "differs").length;
        const differ = cases.length - agree;
        lines.push(
            `| ${facts.vscodeVersion} | ${facts.packageVersion} | \`${facts.commit.slice(0, 8)}\` | ${ours} | ${theirs} | ${facts.hasFunction ? agree : "n/a"} | ${facts.hasFunction ? differ : "n/a"} |`
        );
    }
    lines.push("");
    lines.push(
        "A version without `toolsInclude` in `IChatViewOpenOptions` has no tool filter in " +
            "`workbench.action.chat.open`: both spellings are ignored and the chat keeps the tools " +
            "the picker had. Where it has them, the handler filters when `opts?.toolsInclude || " +
            "opts?.toolsExclude` is truthy (so `toolsInclude: []` and `toolsExclude: []` filter too) " +
            "and applies the result with `chatWidget.input.selectedToolsModel.set(result.enablementMap, " +
            'true)`; unknown identifiers go to VS Code\'s log only. "Agree" counts cases where both ' +
            "enable the same tools and toolsets and report the same unknown identifiers, or both " +
            'refuse (VS Code has one generic error, "Tool filtering resulted in zero enabled tools", ' +
            "where the adapter names the rule: `EMPTY_INCLUDE` or `NO_TOOLS_ENABLED`)."
    );
    lines.push("");
    lines.push("## Case by case");
    lines.push("");
    const versions = filtered.map((run) => run.facts.vscodeVersion);
    lines.push(
        `| case | options | the design enables | adapter vs design | ${versions.join(" | ")} |`
    );
    lines.push(`| --- | --- | --- | --- | ${versions.map(() => "---").join(" | ")} |`);
    let group;
    for (const testCase of CASES) {
        if (testCase.group !== group) {
            group = testCase.group;
            lines.push(`| **${group}** | | | | ${versions.map(() => "").join(" | ")} |`);
        }
        const results = filtered.map((run) => caseOf(run, testCase.id));
        const adapterVsDesign =
            testCase.design === null
                ? "n/a"
                : results[0]?.adapterVsDesign.length === 0
                  ? "as designed"
                  : "**departs**";
        lines.push(
            `| \`${testCase.id}\`: ${testCase.rule} | ${options(testCase)} | ${designCell(testCase.design)} | ${adapterVsDesign} | ${results.map(verdictCell).join(" | ")} |`
        );
    }
    lines.push("");
    lines.push("## How they differ");
    lines.push("");
    const differing = CASES.filter((testCase) =>
        filtered.some((run) => caseOf(run, testCase.id).verdict === "differs")
    );
    if (differing.length === 0) lines.push("On no case.");
    for (const testCase of differing) {
        lines.push(`### \`${testCase.id}\`: ${testCase.rule}`);
        lines.push("");
        lines.push(`Options: ${options(testCase)}.${testCase.note ? ` ${testCase.note}` : ""}`);
        lines.push("");
        // Versions with the same outcome are listed together.
        /** @type {Map<string, { result: CaseResult, versions: string[] }>} */
        const byOutcome = new Map();
        for (const run of filtered) {
            const result = caseOf(run, testCase.id);
            const key = JSON.stringify([result.vscode, result.differences]);
            const same = byOutcome.get(key) ?? { result, versions: [] };
            byOutcome.set(key, same);
            same.versions.push(run.facts.vscodeVersion);
        }
        const adapter = caseOf(/** @type {ConformanceRun} */ (filtered[0]), testCase.id).adapter;
        lines.push(`- The design: ${designCell(testCase.design)}.`);
        lines.push(`- The adapter: ${describe(adapter)}.`);
        for (const { result, versions: same } of byOutcome.values()) {
            lines.push(
                `- VS Code ${same.join(", ")}: ${describe(result.vscode)}. ${result.differences.map(capitalise).join("; ")}.`
            );
        }
        lines.push("");
    }
    return lines.join("\n") + "\n";
}

/**
 * The result of the case `id` in a run (every run has every case).
 *
 * @param {ConformanceRun} run
 * @param {string} id
 * @returns {CaseResult}
 */
function caseOf(run, id) {
    const found = run.cases.find((c) => c.id === id);
    if (found === undefined) throw new Error(`The run has no case '${id}'`);
    return found;
}

/** @param {Outcome} outcome */
function describe(outcome) {
    if (outcome.error)
        return `refuses${outcome.error.code ? ` (${outcome.error.code})` : ""}: '${outcome.error.message}'`;
    const parts = [`enables ${list(outcome.enabled)}`];
    if (outcome.extra.length > 0) parts.push(`and, outside the tool list, ${list(outcome.extra)}`);
    if (outcome.unknown.length > 0) parts.push(`unknown: ${list(outcome.unknown)}`);
    if (outcome.warnings !== undefined && outcome.warnings.length > 0)
        parts.push(`warnings: ${outcome.warnings.join(", ")}`);
    return parts.join("; ");
}

const capitalise = (/** @type {string} */ text) => text.charAt(0).toUpperCase() + text.slice(1);
