// The session config as the tool customization types it, shared by the construction and the
// running session (kept apart from both, so neither imports the other for a type).

import type { ResumeSessionConfig, SessionConfig } from "@github/copilot-sdk";
import type { SessionToolConfig } from "./publicTypes.js";

/**
 * A session config with the tool options: typed here rather than taken from the SDK's own
 * `SessionConfig`, so this module type-checks against the SDK as published (whose config does
 * not know `customToolSets` yet), and against the patched SDK alike.
 */
export type ToolSessionConfig = (SessionConfig | ResumeSessionConfig) & SessionToolConfig;

/** The SDK's filter lists after its own normalisation (`ToolSet` to array, `'*'` refused). */
export interface NormalizedToolFilters {
    readonly availableTools?: unknown;
    readonly excludedTools?: unknown;
}
