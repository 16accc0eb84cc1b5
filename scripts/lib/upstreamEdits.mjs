// The edits the upstream series makes to files github/copilot-sdk already has (under nodejs/),
// per patch. Like sdkEdits.mjs, each edit is anchored on upstream text that must occur exactly
// once. The code lives in the new modules, copied whole from src/core/; these edits only call
// them, and document the behaviour where upstream documents its options (types.ts, README.md).

import { validateToolsMember } from "./coreDocs.mjs";

/**
 * The patches of the series, in order: each adds one core module and its tests (file names under
 * src/core/ and test/core/), and makes its edits.
 */
export const PATCHES = [
    {
        stage: "construction-checks",
        modules: ["customToolChecks.ts"],
        tests: ["customToolChecks.test.ts"],
    },
    {
        stage: "tool-groups",
        modules: ["builtInToolGroups.ts"],
        tests: ["builtInToolGroups.test.ts"],
    },
];

/**
 * @param {string} stage the `stage` of one of {@link PATCHES}
 * @returns {Record<string, {name: string, anchor: string, replacement: string}[]>} edits by path
 *   under nodejs/, for that patch alone (earlier patches' edits are already in the tree)
 */
export function upstreamEdits(stage) {
    if (stage === "construction-checks") {
        // The check runs once the session has its mode's options, so the runtime builds the
        // tool list the session will really have.
        return {
            "src/client.ts": [
                {
                    name: "client.ts imports the custom tool checks",
                    anchor: 'import { CopilotSession } from "./session.js";\n',
                    replacement:
                        'import { assertUniqueToolNames, validateSessionTools } from "./customToolChecks.js";\n' +
                        'import { CopilotSession } from "./session.js";\n',
                },
                {
                    name: "createSession refuses duplicate tool names first",
                    anchor: "    async createSession(config: SessionConfig): Promise<CopilotSession> {\n",
                    replacement:
                        "    async createSession(config: SessionConfig): Promise<CopilotSession> {\n" +
                        "        assertUniqueToolNames(config.tools);\n",
                },
                {
                    name: "createSession has the runtime validate the custom tools",
                    anchor:
                        "            await this.updateSessionOptionsForMode(session, config);\n" +
                        "        } catch (e) {\n" +
                        "            if (registeredId !== undefined) {\n",
                    replacement:
                        "            await this.updateSessionOptionsForMode(session, config);\n" +
                        "            await validateSessionTools(session, config, () =>\n" +
                        "                this.deleteSession(returnedSessionId)\n" +
                        "            );\n" +
                        "        } catch (e) {\n" +
                        "            if (registeredId !== undefined) {\n",
                },
                {
                    name: "resumeSession refuses duplicate tool names first",
                    anchor:
                        "        extensionOptions?: ExtensionJoinOptions\n" +
                        "    ): Promise<CopilotSession> {\n" +
                        "        if (!this.connection) {\n",
                    replacement:
                        "        extensionOptions?: ExtensionJoinOptions\n" +
                        "    ): Promise<CopilotSession> {\n" +
                        "        assertUniqueToolNames(config.tools);\n" +
                        "        if (!this.connection) {\n",
                },
                {
                    name: "resumeSession has the runtime validate the custom tools",
                    anchor:
                        "            await this.updateSessionOptionsForMode(session, config);\n" +
                        "        } catch (e) {\n" +
                        "            this.sessions.delete(sessionId);\n",
                    replacement:
                        "            await this.updateSessionOptionsForMode(session, config);\n" +
                        "            await validateSessionTools(session, config, () => session.disconnect());\n" +
                        "        } catch (e) {\n" +
                        "            this.sessions.delete(sessionId);\n",
                },
            ],
            "src/types.ts": [
                {
                    name: "overridesBuiltInTool says where a clash fails",
                    anchor:
                        "     * of the same name. If not set and the name clashes with a built-in tool, the runtime\n" +
                        "     * will return an error.\n",
                    replacement:
                        "     * of the same name. If not set and the name clashes with a built-in tool, the runtime\n" +
                        "     * will return an error: at the first `send`, or in `createSession` / `resumeSession`\n" +
                        "     * with {@link SessionConfigBase.validateTools}.\n",
                },
                {
                    name: "tools says names must be unique",
                    anchor:
                        "     * Tools exposed to the CLI server. Tools without a handler are declaration-only\n" +
                        "     * and must be resolved by the consumer via pending external tool request RPCs.\n",
                    replacement:
                        "     * Tools exposed to the CLI server. Tools without a handler are declaration-only\n" +
                        "     * and must be resolved by the consumer via pending external tool request RPCs.\n" +
                        "     *\n" +
                        "     * Names must be unique: a repeated name rejects `createSession` / `resumeSession`\n" +
                        "     * before anything is sent.\n",
                },
                {
                    name: "SessionConfigBase gains validateTools",
                    anchor: "    tools?: Tool<any>[];\n",
                    replacement: "    tools?: Tool<any>[];\n\n" + validateToolsMember(),
                },
            ],
            "README.md": [
                {
                    name: "README says when a clash with a built-in fails",
                    anchor: "This flag signals that you intend to replace the built-in tool with your custom implementation.\n",
                    replacement:
                        "This flag signals that you intend to replace the built-in tool with your custom implementation.\n" +
                        "\n" +
                        "The runtime checks this when it first builds the session's tools, at the first `send`. Set `validateTools: true` in the session config to have `createSession` / `resumeSession` ask it right away, so a clash rejects the call (and the new session is removed) instead of failing every `send`. Two tools with the same name are rejected before anything is sent.\n",
                },
            ],
        };
    }
    if (stage === "tool-groups") {
        return {
            "src/toolSet.ts": [
                {
                    name: "toolSet.ts imports the built-in tool groups",
                    anchor: "const VALID_TOOL_NAME = ",
                    replacement:
                        'import { builtInToolGroups } from "./builtInToolGroups.js";\n\n' +
                        "const VALID_TOOL_NAME = ",
                },
                {
                    name: "BuiltInTools gains the groups",
                    anchor: '        "skill",\n    ] as readonly string[],\n} as const;\n',
                    replacement:
                        '        "skill",\n    ] as readonly string[],\n' +
                        "    ...builtInToolGroups,\n" +
                        "} as const;\n",
                },
            ],
            "src/types.ts": [
                {
                    name: "availableTools points to the built-in tool groups",
                    anchor:
                        "     * name form (exact match across any source). Build this list with\n" +
                        "     * {@link ToolSet} for type safety and readable intent.\n",
                    replacement:
                        "     * name form (exact match across any source). Build this list with\n" +
                        "     * {@link ToolSet} for type safety and readable intent; {@link BuiltInTools}\n" +
                        "     * groups built-in names by capability (`Read`, `Edit`, `Search`, `Execute`,\n" +
                        "     * `Web`, `Agent`, beside `Isolated`) for {@link ToolSet.addBuiltIn}.\n",
                },
            ],
            "README.md": [
                {
                    name: "README introduces the built-in tool groups",
                    anchor: "#### Overriding Built-in Tools\n",
                    replacement:
                        "#### Choosing Built-in Tools by Capability\n" +
                        "\n" +
                        "`BuiltInTools` groups built-in tool names by what they let the model do: `Read`, `Edit`, `Search`, `Execute` (shell), `Web` and `Agent` (sub-agents), beside `Isolated`. Each group lists the names the runtime has for that capability across model families (GPT models edit with `apply_patch`, Claude models with `edit` and `create`), so a filter keeps its meaning when the session switches models. Pass them through `ToolSet.addBuiltIn`, for `availableTools` or `excludedTools`.\n" +
                        "\n" +
                        "```ts\n" +
                        "const session = await client.createSession({\n" +
                        "    onPermissionRequest: approveAll,\n" +
                        "    // Read and search the workspace; no edits, no shell, no network.\n" +
                        "    availableTools: new ToolSet().addBuiltIn(BuiltInTools.Read).addBuiltIn(BuiltInTools.Search),\n" +
                        "});\n" +
                        "```\n" +
                        "\n" +
                        "#### Overriding Built-in Tools\n",
                },
            ],
        };
    }
    throw new Error(`Unknown stage '${stage}'.`);
}
