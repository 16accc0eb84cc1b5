// The edits the upstream series makes to files github/copilot-sdk already has (nodejs/src), per
// stage of the series. Like sdkEdits.mjs, each edit is anchored on upstream text that must occur
// exactly once; all logic lives in the new modules generated from src/.

/** The stages of the series, in order; a stage's patch adds what it names to the ones before. */
export const STAGES = ["resolver", "construction", "toolsets"];

/** The last line of the license header every upstream source file starts with. */
const LICENSE_END =
    " *--------------------------------------------------------------------------------------------*/\n";

const indexAnchor = 'export { BuiltInTools, ToolSet } from "./toolSet.js";\n';

/**
 * @param {string} stage one of {@link STAGES}
 * @returns {Record<string, {name: string, anchor: string, replacement: string}[]>} edits by path
 *   under nodejs/src, for that stage alone (earlier stages' edits are already in the tree)
 */
export function upstreamEdits(stage) {
    if (stage === "resolver") {
        return {
            "index.ts": [
                {
                    name: "index.ts exports the tool filter resolver",
                    anchor: indexAnchor,
                    replacement:
                        indexAnchor +
                        "export {\n" +
                        "    resolveToolFilter,\n" +
                        "    ToolFilterError,\n" +
                        "    type ResolveToolFilterSettings,\n" +
                        "    type ToolFilterCatalog,\n" +
                        "    type ToolFilterErrorCode,\n" +
                        "    type ToolFilterMode,\n" +
                        "    type ToolFilterOptionKey,\n" +
                        "    type ToolFilterOptions,\n" +
                        "    type ToolFilterResult,\n" +
                        "    type ToolFilterTool,\n" +
                        "    type ToolFilterToolSet,\n" +
                        "    type ToolFilterWarning,\n" +
                        "    type ToolFilterWarningCode,\n" +
                        "    type UnknownToolIdentifier,\n" +
                        '} from "./toolFilter.js";\n',
                },
            ],
        };
    }
    if (stage === "construction") {
        return {
            "index.ts": [
                {
                    name: "index.ts exports the session tool error and types",
                    anchor: indexAnchor,
                    replacement:
                        indexAnchor +
                        'export { SessionToolError, type SessionToolErrorCode } from "./sessionToolError.js";\n' +
                        'export type { SessionToolWarning, SessionToolWarningCode } from "./sessionToolWarning.js";\n' +
                        'export type { BuiltInToolCollisionPolicy } from "./builtInToolOverrides.js";\n' +
                        'export type { SessionToolClientOptions, SessionToolResolution } from "./sessionToolSetup.js";\n',
                },
            ],
            "client.ts": [
                {
                    name: "client.ts imports the session tool step",
                    anchor: 'import { ToolSet } from "./toolSet.js";\n',
                    replacement:
                        'import { ToolSet } from "./toolSet.js";\n' +
                        "import {\n" +
                        "    attachSessionToolResolution,\n" +
                        "    createSessionToolState,\n" +
                        "    prepareSessionTools,\n" +
                        "    type SessionToolState,\n" +
                        '} from "./sessionToolSetup.js";\n',
                },
                {
                    name: "CopilotClient declares the tool state",
                    anchor: "    private isExternalServer: boolean = false;\n",
                    replacement:
                        "    private isExternalServer: boolean = false;\n" +
                        "    /** @internal Checks and filters of session tools; see sessionToolSetup.ts. */\n" +
                        "    sessionToolState: SessionToolState;\n",
                },
                {
                    name: "the constructor checks the tool options",
                    anchor: '            mode: options.mode ?? "copilot-cli",\n        };\n',
                    replacement:
                        '            mode: options.mode ?? "copilot-cli",\n        };\n' +
                        "        // The runtime's version is not known here, so the tool step asks it once per client.\n" +
                        "        this.sessionToolState = createSessionToolState(options, undefined);\n",
                },
                {
                    name: "createSession runs the tool step after its option handling",
                    anchor: "        config.systemMessage = this.getSystemMessageConfigForMode(config.systemMessage);\n\n        // For cloud sessions",
                    replacement:
                        "        config.systemMessage = this.getSystemMessageConfigForMode(config.systemMessage);\n" +
                        "        const preparedTools = await prepareSessionTools(\n" +
                        "            this,\n" +
                        "            config,\n" +
                        "            this.resolveToolFilterOptions(config)\n" +
                        "        );\n" +
                        "        config = preparedTools.config;\n\n        // For cloud sessions",
                },
                {
                    name: "createSession exposes the tool resolution",
                    anchor: "            throw e;\n        }\n\n        return session;\n    }\n\n    /**\n     * Resumes an existing",
                    replacement:
                        "            throw e;\n        }\n\n        return attachSessionToolResolution(session, preparedTools);\n    }\n\n    /**\n     * Resumes an existing",
                },
                {
                    name: "resumeSession runs the tool step before registering anything",
                    anchor: "        // Create and register the session before issuing the RPC so that\n",
                    replacement:
                        "        const preparedTools = await prepareSessionTools(\n" +
                        "            this,\n" +
                        "            { ...this.configDefaultsForMode(), ...config },\n" +
                        "            this.resolveToolFilterOptions(config)\n" +
                        "        );\n" +
                        "        config = preparedTools.config;\n\n" +
                        "        // Create and register the session before issuing the RPC so that\n",
                },
                {
                    name: "resumeSession exposes the tool resolution",
                    anchor: "            this.sessions.delete(sessionId);\n            throw e;\n        }\n\n        return session;\n    }\n",
                    replacement:
                        "            this.sessions.delete(sessionId);\n            throw e;\n        }\n\n        return attachSessionToolResolution(session, preparedTools);\n    }\n",
                },
            ],
            "types.ts": [
                {
                    name: "types.ts imports the tool option types",
                    anchor: 'import type { ToolSet } from "./toolSet.js";\n',
                    replacement:
                        'import type { ToolSet } from "./toolSet.js";\n' +
                        'import type { SessionToolClientOptions } from "./sessionToolSetup.js";\n',
                },
                {
                    name: "CopilotClientOptions gains builtInToolCollisions and onToolWarning",
                    anchor: "export interface CopilotClientOptions {\n",
                    replacement:
                        "export interface CopilotClientOptions extends SessionToolClientOptions {\n",
                },
            ],
            "session.ts": [
                {
                    name: "CopilotSession exposes toolResolution",
                    anchor: "export class CopilotSession {\n",
                    replacement:
                        "export class CopilotSession {\n" +
                        "    /**\n" +
                        "     * How this session's tools were resolved at construction: the tools enabled, the\n" +
                        "     * built-ins custom tools replace, and what went to the runtime. Set by\n" +
                        "     * `createSession` and `resumeSession`.\n" +
                        "     *\n" +
                        "     * @experimental\n" +
                        "     */\n" +
                        '    declare readonly toolResolution: import("./sessionToolSetup.js").SessionToolResolution | undefined;\n',
                },
            ],
        };
    }
    return {
        "index.ts": [
            {
                name: "index.ts exports the default toolsets and the session option type",
                anchor: indexAnchor,
                replacement:
                    indexAnchor +
                    'export { DEFAULT_TOOL_SETS } from "./defaultToolSets.js";\n' +
                    'export type { SessionToolConfig } from "./sessionToolSetup.js";\n',
            },
        ],
        "types.ts": [
            {
                name: "types.ts imports the session option type",
                anchor: 'import type { SessionToolClientOptions } from "./sessionToolSetup.js";\n',
                replacement:
                    'import type { SessionToolClientOptions, SessionToolConfig } from "./sessionToolSetup.js";\n',
            },
            {
                name: "SessionConfigBase gains customToolSets",
                anchor: "export interface SessionConfigBase {\n",
                replacement: "export interface SessionConfigBase extends SessionToolConfig {\n",
            },
        ],
        "toolSet.ts": [
            {
                name: "toolSet.ts imports the toolset entry",
                anchor: LICENSE_END,
                replacement:
                    LICENSE_END + '\nimport { toolSetEntry } from "./defaultToolSets.js";\n',
            },
            {
                name: "ToolSet gains addToolSet",
                anchor: "    /**\n     * Returns a defensive copy of the accumulated filter strings",
                replacement:
                    "    /**\n" +
                    "     * Adds a toolset entry, `toolset:<name>`: a default toolset (`read`, `edit`,\n" +
                    "     * `search`, `execute`, `web`, `agent`) or a name of the session's `customToolSets`.\n" +
                    "     *\n" +
                    "     * @param name The toolset's name.\n" +
                    "     * @experimental\n" +
                    "     */\n" +
                    "    addToolSet(name: string): ToolSet {\n" +
                    "        this.items.push(toolSetEntry(name));\n" +
                    "        return this;\n" +
                    "    }\n\n" +
                    "    /**\n     * Returns a defensive copy of the accumulated filter strings",
            },
        ],
    };
}
