// The session options of 0.1.0, refused with what to use instead.

import { quoteValue } from "../../shared/formatting.js";
import { SessionToolError } from "../api/sessionToolError.js";

/** Session options of 0.1.0 that JavaScript callers may still pass, and what replaced them. */
const REMOVED_OPTIONS: readonly (readonly [
    string,
    "INVALID_TOOL_FILTER" | "INVALID_TOOL_SET",
    string,
])[] = [
    [
        "includeTools",
        "INVALID_TOOL_FILTER",
        "use availableTools (toolsets are written 'toolset:<name>', e.g. availableTools: ['toolset:read', 'lint'])",
    ],
    [
        "excludeTools",
        "INVALID_TOOL_FILTER",
        "use excludedTools (toolsets are written 'toolset:<name>', e.g. excludedTools: ['toolset:execute'])",
    ],
    [
        "toolSets",
        "INVALID_TOOL_SET",
        "use customToolSets, an object of toolset names to tool names (e.g. customToolSets: { quality: " +
            '["lint", "format"] }), and name them in availableTools as \'toolset:quality\'',
    ],
];

/**
 * Refuses the 0.1.0 names of the filter options: TypeScript rejects them, but in JavaScript they
 * would be ignored silently and the session would get every tool.
 */
export function refuseRemovedOptions(config: object): void {
    for (const [option, code, instead] of REMOVED_OPTIONS) {
        const value: unknown = (config as Record<string, unknown>)[option];
        if (value === undefined) continue;
        throw new SessionToolError(
            code,
            `The session option ${option} (${quoteValue(value)}) was removed in 0.2.0 and would be ignored: ${instead}.`,
            [option]
        );
    }
}
