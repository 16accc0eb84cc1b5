// The edits the patch makes to files that @github/copilot-sdk already ships.
//
// Each edit is anchored on an exact piece of upstream text and must match exactly once: when a
// new SDK version moves or rewrites an anchor, the build stops and names the edit, instead of
// producing a patch that silently misses a code path. Everything with logic in it lives in src/;
// these edits only wire the compiled modules into the SDK's client, index and typings.

/** Compiled form of src/index.ts inside the SDK's dist folder (re-exported from the root). */
export const EXPORTS_MODULE = "toolCustomization";

/** The module the client calls into (compiled from src/sessionToolSetup.ts). */
const SETUP_MODULE = "sessionToolSetup";

const createSessionHook = [
    "  async createSession(config) {",
    `    const preparedTools = await ${SETUP_MODULE}.prepareSessionTools(this, config, "createSession");`,
    "    config = preparedTools.config;",
].join("\n");

const resumeSessionHook = [
    "  async resumeSessionInternal(sessionId, config, factories, extensionOptions) {",
    `    const preparedTools = await ${SETUP_MODULE}.prepareSessionTools(this, config, "resumeSession");`,
    "    config = preparedTools.config;",
].join("\n");

const attachResolution = `    return ${SETUP_MODULE}.attachSessionToolResolution(session, preparedTools);`;

/** Edits shared by the ESM and CJS builds of client.js (esbuild prints both bodies alike). */
const clientBodyEdits = [
    {
        name: "client constructor keeps the tool options",
        anchor: "      clientInfo: options.clientInfo\n    };\n",
        replacement:
            "      clientInfo: options.clientInfo\n    };\n" +
            `    this.sessionToolState = ${SETUP_MODULE}.createSessionToolState(options);\n`,
    },
    {
        name: "createSession runs the tool setup first",
        anchor: "  async createSession(config) {",
        replacement: createSessionHook,
    },
    {
        name: "createSession exposes the tool resolution",
        anchor: "    return session;\n  }\n  /**\n   * Resumes an existing conversation session",
        replacement: `${attachResolution}\n  }\n  /**\n   * Resumes an existing conversation session`,
    },
    {
        name: "resumeSession runs the tool setup first",
        anchor: "  async resumeSessionInternal(sessionId, config, factories, extensionOptions) {",
        replacement: resumeSessionHook,
    },
    {
        name: "resumeSession exposes the tool resolution",
        anchor: "    return session;\n  }\n  /**\n   * Sends a ping request",
        replacement: `${attachResolution}\n  }\n  /**\n   * Sends a ping request`,
    },
];

/**
 * Returns the edits for the SDK's existing files.
 *
 * @param {string[]} runtimeExportNames names exported at run time by the exports module, for the
 *   CJS index, whose named exports must be listed one by one.
 * @returns {Record<string, {name: string, anchor: string, replacement: string}[]>} edits keyed
 *   by the path inside the package.
 */
export function sdkFileEdits(runtimeExportNames) {
    const cjsExportEntries = runtimeExportNames
        .map((name) => `  ${name}: () => import_${EXPORTS_MODULE}.${name},\n`)
        .join("");
    const cjsAnnotations = runtimeExportNames.map((name) => `  ${name},\n`).join("");
    return {
        "dist/client.js": [
            {
                name: "client.js imports the tool setup",
                anchor: 'import { defaultJoinSessionPermissionHandler } from "./types.js";\n',
                replacement:
                    'import { defaultJoinSessionPermissionHandler } from "./types.js";\n' +
                    `import * as ${SETUP_MODULE} from "./${SETUP_MODULE}.js";\n`,
            },
            ...clientBodyEdits,
        ],
        "dist/cjs/client.js": [
            {
                name: "cjs client.js requires the tool setup",
                anchor: 'var import_types = require("./types.js");\n',
                replacement:
                    'var import_types = require("./types.js");\n' +
                    `var ${SETUP_MODULE} = require("./${SETUP_MODULE}.js");\n`,
            },
            ...clientBodyEdits,
        ],
        "dist/index.js": [
            {
                name: "index.js re-exports the tool customization API",
                anchor: "  isFactoryRunTerminal\n};\n",
                replacement:
                    "  isFactoryRunTerminal\n};\n" + `export * from "./${EXPORTS_MODULE}.js";\n`,
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
                    `var import_${EXPORTS_MODULE} = require("./${EXPORTS_MODULE}.js");\n`,
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
                    `import type { SessionToolClientOptions, SessionToolConfig, CustomToolDeclarationOptions } from "./${SETUP_MODULE}.js";\n` +
                    "export interface CopilotClientOptions extends SessionToolClientOptions {\n",
            },
            {
                name: "SessionConfigBase gains includeTools, excludeTools and toolSets",
                anchor: "export interface SessionConfigBase {\n",
                replacement: "export interface SessionConfigBase extends SessionToolConfig {\n",
            },
            {
                name: "Tool gains declarationOnly",
                anchor: "export interface Tool<TArgs = unknown> {\n",
                replacement:
                    "export interface Tool<TArgs = unknown> extends CustomToolDeclarationOptions {\n",
            },
        ],
        "dist/session.d.ts": [
            {
                name: "CopilotSession exposes toolResolution",
                anchor: "export declare class CopilotSession {\n    readonly sessionId: string;\n",
                replacement:
                    "export declare class CopilotSession {\n    readonly sessionId: string;\n" +
                    "    /**\n" +
                    "     * How this session's tools were resolved at construction: which tools and toolsets\n" +
                    "     * are enabled, which custom tools override built-ins, and what went to the runtime.\n" +
                    "     * Undefined for sessions that createSession or resumeSession did not construct.\n" +
                    "     */\n" +
                    `    readonly toolResolution: import("./${SETUP_MODULE}.js").SessionToolResolution | undefined;\n`,
            },
        ],
    };
}

/**
 * Applies anchored edits to a file's text; each anchor must occur exactly once.
 *
 * @param {string} path path inside the package, for messages
 * @param {string} text the upstream file text
 * @param {{name: string, anchor: string, replacement: string}[]} edits
 * @returns {string} the edited text
 */
export function applyEdits(path, text, edits) {
    let result = text;
    for (const edit of edits) {
        const first = result.indexOf(edit.anchor);
        if (first === -1 || result.indexOf(edit.anchor, first + 1) !== -1) {
            const count = first === -1 ? 0 : "more than one";
            throw new Error(
                `Patch edit '${edit.name}' expects its anchor exactly once in ${path} but found ${count}. ` +
                    "The SDK changed here: update the anchor in scripts/lib/sdkEdits.mjs (see CONTRIBUTING.md)."
            );
        }
        result =
            result.slice(0, first) + edit.replacement + result.slice(first + edit.anchor.length);
    }
    return result;
}
