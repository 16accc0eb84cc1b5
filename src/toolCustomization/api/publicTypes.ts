// The public types of the tool customization: the options it adds to the SDK's client and
// session, and what a session reports (`toolResolution`, `onToolAnswered`, `previewModel`). The
// modules that implement them import these; `publicApi.ts` exports them.

import type { SessionToolError } from "./sessionToolError.js";
import type { SessionToolWarning } from "./sessionToolWarning.js";
import type { ToolFilterMode, UnknownToolIdentifier } from "../../toolFilter/toolFilter.js";
import type { SessionConfig } from "@github/copilot-sdk";

/**
 * What happens when a custom tool has the name of a built-in tool and does not set
 * `overridesBuiltInTool`: `"override"` replaces the built-in, `"error"` refuses the session.
 *
 * @public
 */
export type BuiltInToolCollisionPolicy = "override" | "error";

/**
 * Client options of the tool setup (part of `CopilotClientOptions`).
 *
 * @public
 */
export interface SessionToolClientOptions {
    /**
     * What happens when a custom tool has a built-in tool's name and does not set
     * `overridesBuiltInTool`: `"override"` replaces the built-in, `"error"` refuses the session.
     */
    builtInToolCollisions?: BuiltInToolCollisionPolicy;
    /** Receives the warnings of session construction. Default: `console.warn` of the message. */
    onToolWarning?: (warning: SessionToolWarning) => void;
    /**
     * Makes a tool filter that names nothing an error instead of a warning: with `true`,
     * `createSession`, `resumeSession` and `session.setTools` throw a `SessionToolError` with the
     * warning's code (`UNKNOWN_IDENTIFIERS`, `NO_TOOLS_ENABLED`, `EMPTY_TOOL_SET`) before anything
     * is sent, instead of starting a session with fewer tools (or none). Default `false`: such
     * names still reach the runtime, which may know them (MCP tools).
     */
    strictToolFilters?: boolean;
    /**
     * The fail-closed preset for production: with `true`, the client refuses, before anything is
     * sent, every session the package can tell is not what the app meant. It sets
     * `builtInToolCollisions: "error"` (a custom tool replaces a built-in only with
     * `overridesBuiltInTool: true`), `strictToolFilters: true` (a filter entry that names nothing
     * refuses the session) and `validateTools: true` for every session (the runtime checks the
     * custom tools before `createSession`/`resumeSession` returns). An option that contradicts it
     * (`builtInToolCollisions: "override"`, `strictToolFilters: false`, a session's
     * `validateTools: false`) is refused, not silently overruled. Default `false`.
     *
     * @example
     * ```typescript
     * const client = new CopilotClient({ failClosed: true });
     * ```
     */
    failClosed?: boolean;
}

/**
 * Session options of the tool setup (part of `SessionConfigBase`).
 *
 * @public
 */
export interface SessionToolConfig {
    /**
     * Named groups of tools that `availableTools` and `excludedTools` refer to as
     * `toolset:<name>`, next to the default toolsets (`read`, `edit`, `search`, `execute`, `web`,
     * `agent`); a name of a default toolset replaces it for this session.
     *
     * @example
     * ```typescript
     * await client.createSession({
     *     tools: [lint, format],
     *     customToolSets: { quality: ["lint", "format"] },
     *     availableTools: ["toolset:read", "toolset:quality"],
     *     onPermissionRequest: approveAll,
     * });
     * ```
     */
    customToolSets?: Record<string, string[]>;
    /**
     * Whether the package makes the runtime's own instructions agree with the session's tools,
     * through the SDK's `systemMessage` section transforms (customize mode), each time the
     * runtime builds them (the first turn, after `setTools`, after `setModel`):
     * - `"rewrite"`: what recommends or describes a tool the session does not offer
     *   goes, in the smallest unit that leaves true text: a list of tools (or a ranking, or
     *   "**X** instead of ..." pairs) loses the name, a sentence goes only when all it says is
     *   about absent tools, a sentence conditional on the tool's absence stays, markup stays
     *   whole; of a built-in a custom tool replaces, only the built-in's own block goes. A short
     *   note says which tools named elsewhere the session lacks and which names are the app's own;
     * - `"warn"`: the text stays; a `RUNTIME_PROMPT_NAMES_MISSING_TOOL` warning says what the
     *   rewrite would remove;
     * - `"off"`: nothing is added to the `systemMessage`.
     * Unset, it is `"rewrite"` on a measured runtime whose labelled corpus shows no false removal,
     * and `"warn"` with the note elsewhere (docs/runtime-checks.md).
     * What changed is in `session.toolResolution.prompt`. With `systemMessage: { mode: 'replace' }`
     * the app owns the whole prompt and nothing is rewritten.
     *
     * @defaultValue `"rewrite"` where the runtime's corpus proves it, else `"warn"` with the note
     * @beta
     */
    promptAgreement?: PromptAgreementMode;
}

/**
 * See {@link SessionToolConfig.promptAgreement}.
 *
 * @beta
 */
export type PromptAgreementMode = "rewrite" | "warn" | "off";

/**
 * One change of a section of the runtime's instructions (made by `"rewrite"`, or that `"warn"`
 * would make).
 *
 * @beta
 */
export interface PromptSectionEdit {
    /** The section's id, one of the SDK's `SYSTEM_MESSAGE_SECTIONS`. */
    readonly section: string;
    /** The tools the text named that the session does not offer, or whose built-in it replaces. */
    readonly names: readonly string[];
    /** `"removed"`: a block, line or sentence; `"rewritten"`: a list of tool names lost items. */
    readonly action: "removed" | "rewritten";
    /** The text concerned, at most 160 characters. */
    readonly excerpt: string;
}

/**
 * One place where a section of the runtime's instructions names (by the package's naming rule) a
 * tool the session does not offer, or a built-in a custom tool replaces.
 *
 * @beta
 */
export interface PromptToolMention {
    /** The section's id, one of the SDK's `SYSTEM_MESSAGE_SECTIONS`. */
    readonly section: string;
    /** The tool named. */
    readonly name: string;
    /** `"not-offered"`: the session does not offer it; `"replaced"`: a custom tool replaces the built-in. */
    readonly reason: "not-offered" | "replaced";
    /** The text around the name, within its line, at most about 100 characters. */
    readonly excerpt: string;
}

/**
 * What the package did to the runtime's instructions at their latest build, as
 * `session.toolResolution.prompt`.
 *
 * @beta
 */
export interface PromptAgreementReport {
    readonly mode: PromptAgreementMode;
    /** How often the runtime asked for the sections (once per build of its instructions). */
    readonly builds: number;
    /** The edits of the latest build, by section in the order the runtime sent them. */
    readonly edits: readonly PromptSectionEdit[];
    /** The note appended (to `last_instructions`), or undefined when none was needed. */
    readonly note: string | undefined;
    /**
     * Built-ins the session may lack that the package cannot confirm absent: on a runtime it has
     * no measurements of (`toolResolution.runtime.catalog` `"fallback"`), those its stand-in
     * measurements say the model is not offered; for a model id it has no measurements of, those
     * that differ between the runtime's tool families. What the instructions say about them is
     * kept; the note names them.
     */
    readonly unconfirmed: readonly string[];
    /**
     * The mentions of tools the session lacks or replaces at the latest build: `before`, in the
     * sections as the runtime handed them over; `after`, in the sections the package returned (the
     * note aside; in `"warn"` mode the text is kept, so the same as `before`).
     */
    readonly mentions: {
        readonly before: readonly PromptToolMention[];
        readonly after: readonly PromptToolMention[];
    };
}

/**
 * How a session's tools were resolved at construction or at its last `session.setTools`, as
 * `session.toolResolution`. Deeply immutable.
 *
 * @public
 */
export interface SessionToolResolution {
    /**
     * Which filter options were given: none (`"default"`), `availableTools` (`"include"`),
     * `excludedTools` (`"exclude"`), or both (`"combined"`).
     */
    readonly mode: ToolFilterMode;
    /**
     * The tools the runtime offers the model at the start: the model's built-ins and those the
     * session's options switch on, that the filter keeps and no custom tool replaces, then the
     * custom tools sent.
     */
    readonly enabledTools: readonly string[];
    /** Enablement of every tool in {@link SessionToolResolution.enabledTools} and of every filtered-out one, by name. */
    readonly toolEnablement: ReadonlyMap<string, boolean>;
    /** Enablement of every toolset, by toolset name (`edit`, or a name of `customToolSets`). */
    readonly toolSetEnablement: ReadonlyMap<string, boolean>;
    /** The toolsets of the session and their members, by toolset name. */
    readonly toolSets: ReadonlyMap<string, readonly string[]>;
    /** Built-ins the runtime adds when the session switches to plan or autopilot mode. */
    readonly modeTools: Readonly<Record<"plan" | "autopilot", readonly string[]>>;
    /** Built-in tools that custom tools of the same name replace. */
    readonly overriddenBuiltInTools: readonly string[];
    /**
     * Built-ins the filter keeps and no custom tool replaces whose offer the measurements cannot
     * tell for the session's model: empty for a model id measured on the session's runtime; for
     * any other id (or none: the runtime's default model), the names that differ between the
     * runtime's tool families (such as `create`, `edit`, `grep` against `apply_patch`, `rg`).
     * {@link SessionToolResolution.enabledTools} lists the runtime's set for ids it does not
     * know; the model may be offered these instead. The prompt agreement keeps what the runtime's
     * instructions say about them.
     */
    readonly uncertainBuiltIns: readonly string[];
    /** `availableTools` / `excludedTools` entries that named no known tool or toolset. */
    readonly unknownIdentifiers: readonly UnknownToolIdentifier[];
    /** Warnings reported while constructing the session (or applying its last `setTools`). */
    readonly warnings: readonly SessionToolWarning[];
    /** The runtime version whose measured built-ins were used, and whether they were its own. */
    readonly runtime: { readonly version: string; readonly catalog: "measured" | "fallback" };
    /**
     * The session's latest tool calls (at most `MAX_RECORDED_CALLS`, oldest first) and what
     * answered each, as `onToolAnswered` received them; empty before the first call and in a
     * `session.previewModel` answer.
     */
    readonly calls: readonly ToolAnswer[];
    /**
     * What `promptAgreement` did to the runtime's instructions at their latest build; undefined
     * before the runtime first built them, with `promptAgreement: 'off'`, in replace mode, for a
     * session whose model's measured instructions name no tool it lacks or replaces (it gets the
     * SDK's own prompt: no transforms), and in a `session.previewModel` answer.
     *
     * @beta
     */
    readonly prompt?: PromptAgreementReport;
    /** What was sent to the runtime. */
    readonly wire: {
        readonly tools: readonly string[];
        readonly availableTools: readonly string[] | undefined;
        readonly excludedTools: readonly string[] | undefined;
    };
}

/**
 * What `session.setTools` changes. An option left out (or `undefined`) stays as it is; `null`
 * removes it: no custom tools, no `availableTools` (every tool allowed), no `excludedTools`, no
 * `customToolSets`.
 *
 * @public
 */
export interface SessionToolUpdate {
    /** The custom tools, replacing the current ones (their handlers too). */
    tools?: SessionConfig["tools"] | null;
    /** The allowlist, as at construction (tool names, `toolset:<name>`, patterns, a ToolSet). */
    availableTools?: SessionConfig["availableTools"] | null;
    /** The denylist, as at construction. */
    excludedTools?: SessionConfig["excludedTools"] | null;
    /** Named groups for `toolset:<name>`, as at construction. */
    customToolSets?: SessionToolConfig["customToolSets"] | null;
}

/**
 * What answered a tool call: the app's handler (a custom tool: the SDK ran its handler, or the
 * runtime handed the call to a client), a built-in of the runtime, or an MCP server; for
 * `answeredBy` also `"none"`, a call refused before anything ran (its permission was denied).
 *
 * @public
 */
export type ToolAnswerer = "handler" | "built-in" | "mcp";

/**
 * The agent of a session that made a tool call, from the runtime's own events
 * (`subagent.started`, `subagent.selected`, and the call's `parentToolCallId`):
 * - `main`: the session's main agent (the runtime's default agent);
 * - `custom`: one of the session's `customAgents`, by `name`: started by the `task` call
 *   `taskCallId`, or the session's selected agent (option `agent`, or `session.rpc.agent.select`),
 *   which then has no `taskCallId`;
 * - `built-in`: a sub-agent of the runtime's own (`explore`, `general-purpose`, ...), by its type
 *   `name`, started by the `task` call `taskCallId`;
 * - `unknown`: a sub-agent whose start the session did not see (it began before a resume).
 *
 * @public
 */
export type ToolCallAgent =
    | { readonly kind: "main" }
    | { readonly kind: "custom"; readonly name: string; readonly taskCallId?: string }
    | { readonly kind: "built-in"; readonly name: string; readonly taskCallId: string }
    | { readonly kind: "unknown"; readonly taskCallId: string };

/**
 * One tool call of a session, as `onToolAnswered` receives it and `toolResolution.calls` lists
 * it: which tool the model called, what the session's tools say should answer it, and what did.
 *
 * @public
 */
export interface ToolAnswer {
    /** The tool's name, as the model called it (an MCP tool's as `<server>-<tool>`). */
    readonly toolName: string;
    /** The runtime's id of the call. */
    readonly toolCallId: string;
    /**
     * What answered, from the runtime's events for the call: `"mcp"` when its
     * `tool.execution_start` names an MCP server, `"handler"` when the runtime handed the call to
     * a client (`external_tool.requested`), whose handler answered it, `"none"` when the call's
     * permission was denied (`permission.completed` with a result other than an approval),
     * `"built-in"` otherwise: a call that failed in the runtime before it reached a client counts
     * as the built-in's, so that a custom tool's call fails closed.
     */
    readonly answeredBy: ToolAnswerer | "none";
    /** The MCP server that answered, when one did. */
    readonly mcpServer?: string;
    /**
     * What the session's tools say should answer: `"handler"` for the custom tools sent
     * (`toolResolution.wire.tools`), `"mcp"` for a name under a configured MCP server
     * (`<server>-...`), `"built-in"` for any other.
     */
    readonly expected: ToolAnswerer;
    /** Whether the runtime reported the call as successful. */
    readonly success: boolean;
    /** The agent that made the call: the main agent, a custom agent or a built-in sub-agent. */
    readonly agent: ToolCallAgent;
}

/**
 * Session option of the call attribution (part of `SessionConfigBase`).
 *
 * @public
 */
export interface CallAttributionConfig {
    /**
     * Called once per tool call the session sees, when the call completes, with what answered
     * it. When a built-in or an MCP server answered a custom tool's call, the session fails
     * closed: the turn is aborted and every later `send` rejects with a `SessionToolError`
     * (`CALL_ANSWERED_ELSEWHERE`). An exception thrown here is reported with `console.error`
     * and changes nothing.
     *
     * @example
     * ```typescript
     * await client.createSession({
     *     tools: [viewTool],
     *     onToolAnswered: ({ toolName, answeredBy, expected }) =>
     *         metrics.count(`tool.${toolName}.${answeredBy}`, { expected }),
     *     onPermissionRequest: approveAll,
     * });
     * ```
     */
    onToolAnswered?: (answer: ToolAnswer) => void;
}

/**
 * A custom tool of the session that has a built-in's name on the model previewed.
 *
 * @beta
 */
export interface ModelToolCollision {
    /** The custom tool's name (the built-in's). */
    readonly tool: string;
    /** Whether the model is offered the built-in (else it is one the runtime hides but runs). */
    readonly offered: boolean;
    /**
     * Whether the custom tool replaces the built-in there: it is sent with
     * `overridesBuiltInTool: true` and the runtime honours that override for the name.
     */
    readonly replaced: boolean;
}

/**
 * What `session.setModel(model)` would leave, from `session.previewModel(model)`. Nothing is
 * changed to find it out.
 *
 * @beta
 */
export interface ModelPreview {
    /** The model previewed. */
    readonly model: string;
    /** The session's model now (undefined: the runtime's default). */
    readonly currentModel: string | undefined;
    /** The session's `toolResolution` after the switch; undefined when it would be refused. */
    readonly resolution: SessionToolResolution | undefined;
    /** Built-ins the new model is offered that the current one is not, as far as measured. */
    readonly builtInsAdded: readonly string[];
    /** Built-ins the current model is offered that the new one is not, as far as measured. */
    readonly builtInsRemoved: readonly string[];
    /**
     * Built-ins that may appear or go with the switch, which the measurements cannot tell: the
     * names that differ between the runtime's tool families, when either model id was not
     * measured on the session's runtime (see {@link SessionToolResolution.uncertainBuiltIns});
     * empty when both were.
     */
    readonly builtInsUncertain: readonly string[];
    /** The session's custom tools that have a built-in's name on the new model. */
    readonly collisions: readonly ModelToolCollision[];
    /**
     * Custom tools whose calls a built-in could answer after the switch: a collision the custom
     * tool does not replace (sent with `overridesBuiltInTool: false`, or an override the runtime
     * does not honour for the name).
     */
    readonly ignoredOverrides: readonly string[];
    /** Whether the runtime listed its built-ins for the new model (`tools.list({ model })`). */
    readonly runtimeListed: boolean;
    /** What `setModel(model)` would throw (`MODEL_SWITCH_REFUSED`), when it would refuse. */
    readonly refusal: SessionToolError | undefined;
}
