// The edits the patch makes to files that @github/copilot-sdk already ships.
//
// Each edit is anchored on an exact piece of upstream text and must match exactly once: when an
// SDK version moves or rewrites an anchor, the build stops and names the edit and the version,
// instead of producing a patch that silently misses a code path. Everything with logic in it
// lives in src/; these edits only wire the compiled modules into the SDK, in two sets: the
// construction checks (src/safetyNet/customToolChecks.ts: duplicate names, the opt-in
// validateTools; src/safetyNet/builtInToolGroups.ts: the BuiltInTools groups), which the upstream
// series carried until it became the two pull requests of upstream/, and the rest of the safety
// net, whose session step runs before the construction checks.

import { validateToolsMember } from "./coreDocs.mjs";

/** Compiled form of src/index.ts inside the SDK's dist folder (re-exported from the root). */
export const EXPORTS_MODULE = "toolCustomization";

/**
 * A compiled src/ module as the SDK's own files reach it: its binding name in client.js and
 * toolSet.js, and its path relative to dist/ (and dist/cjs/).
 */
const module = (id, path) => ({ id, path });

/** The construction checks (src/safetyNet/customToolChecks.ts). */
const CHECKS = module("customToolChecks", "./safetyNet/customToolChecks.js");
/** The built-in tool groups (src/safetyNet/builtInToolGroups.ts). */
const GROUPS = module("builtInToolGroups", "./safetyNet/builtInToolGroups.js");
/** The safety net's session step (src/safetyNet/sessionToolSetup.ts). */
const SETUP = module("sessionToolSetup", "./safetyNet/sessionToolSetup.js");
/** The safety net's `session.setTools` (src/safetyNet/sessionToolUpdate.ts). */
const UPDATE = module("sessionToolUpdate", "./safetyNet/sessionToolUpdate.js");
/** The safety net's toolsets, which `ToolSet.addToolSet` calls (src/safetyNet/defaultToolSets.ts). */
const TOOL_SETS = module("defaultToolSets", "./safetyNet/defaultToolSets.js");

const importOf = ({ id, path }) => `import * as ${id} from "${path}";\n`;
const requireOf = ({ id, path }) => `var ${id} = require("${path}");\n`;

/**
 * The start-up check (compiled from src/patchCheck.ts) reads the installed SDK version from the
 * SDK's package.json, whose location only the root module of each build knows.
 */
const PATCH_CHECK_MODULE = "patchCheck";

/**
 * The step runs after the SDK's own option handling: its own checks of the filter lists
 * (`resolveToolFilterOptions`) come first, and the lists it then sends are the step's.
 */
const prepareCall = (configExpression, resumedSessionId = "") =>
    `    const preparedTools = await ${SETUP.id}.prepareSessionConfig(this, ${configExpression}, (read) => this.resolveToolFilterOptions(read)${resumedSessionId && `, ${resumedSessionId}`});\n` +
    "    config = preparedTools.config;\n";

const attachResolution = `    return ${UPDATE.id}.attachSessionTools(session, preparedTools, this);`;

/**
 * The core's calls in client.js (ESM and CJS alike): duplicate names refused before anything is
 * sent, and the runtime asked to validate the custom tools once the session exists. They come
 * after the safety net's step, whose own checks are stricter and answer first.
 */
function coreClientEdits(sessionClass) {
    return [
        {
            name: "createSession refuses duplicate custom tool names (core)",
            anchor:
                "    const toolFilterOptions = this.resolveToolFilterOptions(config);\n" +
                "    const gitHubTokenProviderRegistrationId = this.registerGitHubTokenProvider(\n" +
                "      config.gitHubTokenProvider,\n" +
                "      localSessionId\n",
            replacement:
                `    ${CHECKS.id}.assertUniqueToolNames(config.tools);\n` +
                "    const toolFilterOptions = this.resolveToolFilterOptions(config);\n" +
                "    const gitHubTokenProviderRegistrationId = this.registerGitHubTokenProvider(\n" +
                "      config.gitHubTokenProvider,\n" +
                "      localSessionId\n",
        },
        {
            name: "createSession has the runtime validate the custom tools (core)",
            anchor:
                "      await this.updateSessionOptionsForMode(session, config);\n" +
                "      this.commitGitHubTokenProvider(returnedSessionId, gitHubTokenProviderRegistrationId);\n",
            replacement:
                "      await this.updateSessionOptionsForMode(session, config);\n" +
                `      await ${CHECKS.id}.validateSessionTools(session, config, () => this.deleteSession(returnedSessionId));\n` +
                "      this.commitGitHubTokenProvider(returnedSessionId, gitHubTokenProviderRegistrationId);\n",
        },
        {
            name: "resumeSession refuses duplicate custom tool names (core)",
            anchor: `    const session = new ${sessionClass}(\n      sessionId,\n`,
            replacement:
                `    ${CHECKS.id}.assertUniqueToolNames(config.tools);\n` +
                `    const session = new ${sessionClass}(\n      sessionId,\n`,
        },
        {
            name: "resumeSession has the runtime validate the custom tools (core)",
            anchor:
                "      await this.updateSessionOptionsForMode(session, config);\n" +
                "      this.commitGitHubTokenProvider(sessionId, gitHubTokenProviderRegistrationId);\n",
            replacement:
                "      await this.updateSessionOptionsForMode(session, config);\n" +
                `      await ${CHECKS.id}.validateSessionTools(session, config, () => session.disconnect());\n` +
                "      this.commitGitHubTokenProvider(sessionId, gitHubTokenProviderRegistrationId);\n",
        },
    ];
}

/** The core's groups in `BuiltInTools` (toolSet.js, ESM and CJS alike). */
const coreBuiltInToolsEdit = {
    name: "BuiltInTools gains the built-in tool groups (core)",
    anchor: '    "skill"\n  ]\n};\n',
    replacement: `    "skill"\n  ],\n  ...${GROUPS.id}.builtInToolGroups\n};\n`,
};

/** The safety net's edits shared by the ESM and CJS builds of client.js. */
function clientBodyEdits(cliVersionExpression, sessionClass) {
    return [
        {
            name: "client constructor keeps the tool options",
            anchor: "      clientInfo: options.clientInfo\n    };\n",
            replacement:
                "      clientInfo: options.clientInfo\n    };\n" +
                `    this.sessionToolState = ${SETUP.id}.createSessionToolState(options, this.isExternalServer || this.resolvedCliPath !== void 0 ? void 0 : ${cliVersionExpression});\n`,
        },
        {
            name: "createSession runs the tool step after its option handling",
            anchor:
                "    const toolFilterOptions = this.resolveToolFilterOptions(config);\n" +
                "    const gitHubTokenProviderRegistrationId = this.registerGitHubTokenProvider(\n" +
                "      config.gitHubTokenProvider,\n" +
                "      localSessionId\n",
            replacement:
                prepareCall("config") +
                "    const toolFilterOptions = this.resolveToolFilterOptions(config);\n" +
                "    const gitHubTokenProviderRegistrationId = this.registerGitHubTokenProvider(\n" +
                "      config.gitHubTokenProvider,\n" +
                "      localSessionId\n",
        },
        {
            name: "createSession exposes the tool resolution",
            anchor: "    return session;\n  }\n  /**\n   * Resumes an existing conversation session",
            replacement: `${attachResolution}\n  }\n  /**\n   * Resumes an existing conversation session`,
        },
        {
            name: "resumeSession runs the tool step before registering anything",
            anchor: `      await this.start();\n    }\n    const session = new ${sessionClass}(\n      sessionId,\n`,
            replacement:
                "      await this.start();\n    }\n" +
                prepareCall("{ ...this.configDefaultsForMode(), ...config }", "sessionId") +
                `    const session = new ${sessionClass}(\n      sessionId,\n`,
        },
        {
            name: "resumeSession exposes the tool resolution",
            anchor: "    return session;\n  }\n  /**\n   * Sends a ping request",
            replacement: `${attachResolution}\n  }\n  /**\n   * Sends a ping request`,
        },
    ];
}

const addToolSetMethod =
    "  /**\n" +
    "   * Adds a toolset: `toolset:<name>`, a default toolset (`read`, `edit`, `search`, `execute`,\n" +
    "   * `web`, `agent`) or one of the session's `customToolSets`.\n" +
    "   */\n" +
    "  addToolSet(name) {\n" +
    `    this.items.push(${TOOL_SETS.id}.toolSetEntry(name));\n` +
    "    return this;\n" +
    "  }\n";

const toolSetBodyEdit = {
    name: "ToolSet gains addToolSet",
    anchor: "  /**\n   * Returns a defensive copy of the accumulated filter strings",
    replacement:
        addToolSetMethod + "  /**\n   * Returns a defensive copy of the accumulated filter strings",
};

/**
 * The construction checks' edits (historically "the core": what the first upstream series added,
 * in compiled form): the custom tool checks in client.js and the built-in tool groups in
 * `BuiltInTools`.
 *
 * @returns {Record<string, object[]>} edits keyed by the path inside the package
 */
export function coreFileEdits() {
    const coreImport = (anchor, line) => ({
        name: `${line.includes("require") ? "cjs " : ""}imports the core module (core)`,
        anchor,
        replacement: anchor + line,
    });
    return {
        "dist/client.js": [
            coreImport(
                'import { defaultJoinSessionPermissionHandler } from "./types.js";\n',
                importOf(CHECKS)
            ),
            ...coreClientEdits("CopilotSession"),
        ],
        "dist/cjs/client.js": [
            coreImport('var import_types = require("./types.js");\n', requireOf(CHECKS)),
            ...coreClientEdits("import_session.CopilotSession"),
        ],
        "dist/toolSet.js": [
            {
                name: "imports the core module (core)",
                anchor: "const VALID_TOOL_NAME = ",
                replacement: importOf(GROUPS) + "const VALID_TOOL_NAME = ",
            },
            coreBuiltInToolsEdit,
        ],
        "dist/cjs/toolSet.js": [
            coreImport("module.exports = __toCommonJS(toolSet_exports);\n", requireOf(GROUPS)),
            coreBuiltInToolsEdit,
        ],
        "dist/types.d.ts": [
            {
                name: "SessionConfigBase gains validateTools (core)",
                anchor: "    tools?: Tool<any>[];\n",
                replacement: "    tools?: Tool<any>[];\n" + validateToolsMember(),
            },
        ],
        "dist/toolSet.d.ts": [
            {
                name: "toolSet.d.ts types the built-in tool groups (core)",
                anchor: "    readonly Isolated: readonly string[];\n};\n",
                replacement: `    readonly Isolated: readonly string[];\n} & typeof import("${GROUPS.path}").builtInToolGroups;\n`,
            },
        ],
    };
}

/**
 * The edits of the whole patch: the safety net's, then the core's, file by file (the core's calls
 * land after the safety net's step, whose stricter checks answer first).
 *
 * @param {string[]} runtimeExportNames names exported at run time by the exports module, for the
 *   CJS index, whose named exports must be listed one by one.
 * @returns {Record<string, object[]>} edits keyed by the path inside the package
 */
export function sdkFileEdits(runtimeExportNames) {
    const edits = safetyNetFileEdits(runtimeExportNames);
    for (const [path, core] of Object.entries(coreFileEdits())) {
        edits[path] = [...(edits[path] ?? []), ...core];
    }
    return edits;
}

/**
 * The safety net's edits to the SDK's existing files.
 *
 * @param {string[]} runtimeExportNames names exported at run time by the exports module, for the
 *   CJS index, whose named exports must be listed one by one.
 * @returns {Record<string, {name: string, anchor: string, replacement: string}[]>} edits keyed
 *   by the path inside the package.
 */
function safetyNetFileEdits(runtimeExportNames) {
    const cjsExportEntries = runtimeExportNames
        .map((name) => `  ${name}: () => import_${EXPORTS_MODULE}.${name},\n`)
        .join("");
    const cjsAnnotations = runtimeExportNames.map((name) => `  ${name},\n`).join("");
    return {
        "dist/client.js": [
            {
                name: "client.js imports the session step",
                anchor: 'import { defaultJoinSessionPermissionHandler } from "./types.js";\n',
                replacement:
                    'import { defaultJoinSessionPermissionHandler } from "./types.js";\n' +
                    importOf(SETUP) +
                    importOf(UPDATE),
            },
            ...clientBodyEdits("COPILOT_CLI_VERSION", "CopilotSession"),
        ],
        "dist/cjs/client.js": [
            {
                name: "cjs client.js requires the session step",
                anchor: 'var import_types = require("./types.js");\n',
                replacement:
                    'var import_types = require("./types.js");\n' +
                    requireOf(SETUP) +
                    requireOf(UPDATE),
            },
            ...clientBodyEdits(
                "import_cliVersion.COPILOT_CLI_VERSION",
                "import_session.CopilotSession"
            ),
        ],
        "dist/toolSet.js": [
            {
                name: "toolSet.js imports the toolset entries",
                anchor: "const VALID_TOOL_NAME = ",
                replacement: importOf(TOOL_SETS) + "const VALID_TOOL_NAME = ",
            },
            toolSetBodyEdit,
        ],
        "dist/cjs/toolSet.js": [
            {
                name: "cjs toolSet.js requires the toolset entries",
                anchor: "module.exports = __toCommonJS(toolSet_exports);\n",
                replacement:
                    "module.exports = __toCommonJS(toolSet_exports);\n" + requireOf(TOOL_SETS),
            },
            toolSetBodyEdit,
        ],
        "dist/toolSet.d.ts": [
            {
                name: "toolSet.d.ts declares addToolSet",
                anchor: "    /**\n     * Returns a defensive copy of the accumulated filter strings",
                replacement:
                    "    /**\n" +
                    "     * Adds a toolset entry, `toolset:<name>`: a default toolset (`read`, `edit`, `search`,\n" +
                    "     * `execute`, `web`, `agent`) or a name of the session's `customToolSets`.\n" +
                    "     *\n" +
                    "     * @param name The toolset's name.\n" +
                    "     * @experimental\n" +
                    "     */\n" +
                    "    addToolSet(name: string): ToolSet;\n" +
                    "    /**\n     * Returns a defensive copy of the accumulated filter strings",
            },
        ],
        "dist/index.js": [
            {
                name: "index.js re-exports the tool customization API",
                append:
                    `export * from "./${EXPORTS_MODULE}.js";\n` +
                    `import { useSdkManifest as useToolCustomizationSdkManifest } from "./${PATCH_CHECK_MODULE}.js";\n` +
                    'useToolCustomizationSdkManifest(new URL("../package.json", import.meta.url));\n',
            },
        ],
        "dist/cjs/index.js": [
            {
                name: "cjs index.js lists the tool customization exports",
                anchor: "__export(index_exports, {\n",
                replacement: "__export(index_exports, {\n" + cjsExportEntries,
            },
            {
                name: "cjs index.js requires the tool customization module",
                anchor: 'var import_types2 = require("./types.js");\n',
                replacement:
                    'var import_types2 = require("./types.js");\n' +
                    `var import_${EXPORTS_MODULE} = require("./${EXPORTS_MODULE}.js");\n` +
                    `require("./${PATCH_CHECK_MODULE}.js").useSdkManifest(require("node:path").join(__dirname, "..", "..", "package.json"));\n`,
            },
            {
                name: "cjs index.js annotates the exports for ESM importers",
                anchor: "0 && (module.exports = {\n",
                replacement: "0 && (module.exports = {\n" + cjsAnnotations,
            },
        ],
        "dist/index.d.ts": [
            {
                name: "index.d.ts re-exports the tool customization API",
                anchor: 'export type * from "./generated/session-events.js";\n',
                replacement:
                    'export type * from "./generated/session-events.js";\n' +
                    `export * from "./${EXPORTS_MODULE}.js";\n`,
            },
        ],
        "dist/types.d.ts": [
            {
                name: "types.d.ts imports the option types",
                anchor: "export interface CopilotClientOptions {\n",
                replacement:
                    `import type { SessionToolClientOptions, SessionToolConfig } from "${SETUP.path}";\n` +
                    "export interface CopilotClientOptions extends SessionToolClientOptions {\n",
            },
            {
                name: "SessionConfigBase gains customToolSets",
                anchor: "export interface SessionConfigBase {\n",
                replacement: "export interface SessionConfigBase extends SessionToolConfig {\n",
            },
        ],
        "dist/session.d.ts": [
            {
                name: "CopilotSession exposes toolResolution",
                anchor: "export declare class CopilotSession {\n    readonly sessionId: string;\n",
                replacement:
                    "export declare class CopilotSession {\n    readonly sessionId: string;\n" +
                    "    /**\n" +
                    "     * How this session's tools were resolved at construction: the tools and toolsets\n" +
                    "     * enabled, the built-ins custom tools replace, and what went to the runtime.\n" +
                    "     * Undefined for sessions that createSession or resumeSession did not construct.\n" +
                    "     *\n" +
                    "     * @experimental\n" +
                    "     */\n" +
                    `    readonly toolResolution: import("${SETUP.path}").SessionToolResolution | undefined;\n` +
                    "    /**\n" +
                    "     * Changes this session's custom tools and filter while it runs, with the checks of\n" +
                    "     * construction; refused updates (a `SessionToolError`) change nothing. Options left\n" +
                    "     * out stay; `null` removes one. The model sees the new set from its next request on.\n" +
                    "     * Each runtime request waits at most `timeout` ms (default 30000); a failed or late\n" +
                    "     * one puts the previous tools back.\n" +
                    "     *\n" +
                    "     * @returns the new `toolResolution`\n" +
                    "     * @experimental\n" +
                    "     */\n" +
                    `    setTools(update: import("${UPDATE.path}").SessionToolUpdate, timeout?: number): Promise<import("${SETUP.path}").SessionToolResolution>;\n`,
            },
        ],
    };
}

/**
 * Applies anchored edits to a file's text; each anchor must occur exactly once.
 *
 * @param {string} path path inside the package, for messages
 * @param {string} text the upstream file text
 * @param {({name: string, anchor: string, replacement: string} | {name: string, append: string})[]} edits
 *   anchored replacements, or text to add at the end of the file
 * @param {string} [version] the SDK version being patched, for messages
 * @param {string} [editsFile] where the edits are written, for messages
 * @returns {string} the edited text
 */
export function applyEdits(
    path,
    text,
    edits,
    version = "this version",
    editsFile = "scripts/lib/sdkEdits.mjs"
) {
    let result = text;
    for (const edit of edits) {
        if (edit.append !== undefined) {
            result += edit.append;
            continue;
        }
        const first = result.indexOf(edit.anchor);
        if (first === -1 || result.indexOf(edit.anchor, first + 1) !== -1) {
            const count = first === -1 ? "no match" : "more than one match";
            throw new Error(
                `Patch edit '${edit.name}' expects its anchor exactly once in ${path} of @github/copilot-sdk ${version}, but found ${count}. ` +
                    `The SDK changed here: update the anchor in ${editsFile} (see CONTRIBUTING.md).`
            );
        }
        result =
            result.slice(0, first) + edit.replacement + result.slice(first + edit.anchor.length);
    }
    return result;
}
