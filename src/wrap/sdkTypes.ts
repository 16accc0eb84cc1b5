// The wrap's additions to the SDK's public types, as declaration merging: src/ is typed against
// the SDK as published plus these, and the patch ships this module (its declaration file names
// the SDK's root module relatively) so that an app sees the same types.

import type {
    CallAttributionConfig,
    ModelPreview,
    SessionToolClientOptions,
    SessionToolConfig,
    SessionToolResolution,
    SessionToolUpdate,
} from "../toolCustomization/api/publicTypes.js";

declare module "@github/copilot-sdk" {
    interface CopilotClientOptions extends SessionToolClientOptions {}

    interface SessionConfigBase extends SessionToolConfig, CallAttributionConfig {
        /**
         * When true, `createSession` / `resumeSession` ask the runtime to build and validate
         * the session's tool list before they return, so a custom tool the runtime refuses (a
         * built-in tool's name without {@link Tool.overridesBuiltInTool}) rejects the call, and the
         * session is removed, instead of failing every `send`. The runtime checks the built-ins it
         * lists; one it hides can still answer a custom tool of its name. With MCP servers
         * configured, the check waits for them to start. Sessions without custom tools send
         * nothing extra.
         *
         * @default false
         */
        validateTools?: boolean;
    }

    interface CopilotSession {
        /**
         * How this session's tools were resolved at construction: the tools and toolsets
         * enabled, the built-ins custom tools replace, and what went to the runtime.
         * Undefined for sessions that createSession or resumeSession did not construct.
         *
         * @public
         */
        readonly toolResolution: SessionToolResolution | undefined;
        /**
         * Changes this session's custom tools and filter while it runs, with the checks of
         * construction; refused updates (a `SessionToolError`) change nothing. Options left
         * out stay; `null` removes one. The model sees the new set from its next request on.
         * Each runtime request waits at most `timeout` ms (default 30000); a failed or late
         * one puts the previous tools back. On an SDK release without the runtime request
         * `session.tools.set` it is refused (`UNSUPPORTED_BY_RELEASE`).
         *
         * @returns the new `toolResolution`
         * @public
         */
        setTools(update: SessionToolUpdate, timeout?: number): Promise<SessionToolResolution>;
    }

    interface CopilotSession {
        /**
         * What `setModel(model)` would leave: the resolved tools, the built-ins that appear and
         * go, the custom tools that collide with the new model's built-ins, and whether the
         * switch would be refused. Changes nothing.
         *
         * @example
         * ```typescript
         * const preview = await session.previewModel("gpt-4o");
         * if (preview.refusal) console.error(preview.refusal.message);
         * else console.log("new built-ins:", preview.builtInsAdded);
         * ```
         * @beta
         */
        previewModel(model: string): Promise<ModelPreview>;
    }

    interface ToolSet {
        /**
         * Adds a toolset entry, `toolset:<name>`: a default toolset (`read`, `edit`, `search`,
         * `execute`, `web`, `agent`) or a name of the session's `customToolSets`.
         *
         * @param name The toolset's name.
         * @public
         */
        addToolSet(name: string): ToolSet;
    }
}
