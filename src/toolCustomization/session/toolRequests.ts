// One run of a custom tool's handler per tool request. Measured with runtime 1.0.85 (the runtime
// SDK 1.0.14 bundles): each call a sub-agent makes of a custom tool reaches the client as two
// `external_tool.requested` events with one request id, tool name and call id (the main agent's
// calls come once; runtime 1.0.102 sends one). The SDK skips the second only while the first
// handler runs; once that one answered, it runs the handler again, and the runtime refuses the
// second answer (`success: false`). A request id the runtime gave for the same tool and call is
// one request, so the second is not run; anything else differing is left to the SDK.

import type { SessionRecord } from "./record.js";

/** How many request ids a session object remembers (the latest ones). */
export const REMEMBERED_TOOL_REQUESTS = 256;

/**
 * Whether the SDK should run the handler for a tool request: false when this session object's
 * handlers already took a request of this id for the same tool and call.
 *
 * @param record - the session's record
 * @param requestId - the runtime's id of the pending request
 * @param toolName - the tool the request is for
 * @param toolCallId - the model's id of the call
 */
export function takesToolRequest(
    record: SessionRecord,
    requestId: unknown,
    toolName: unknown,
    toolCallId: unknown
): boolean {
    if (typeof requestId !== "string" || typeof toolName !== "string") return true;
    const call = `${toolName}\u0000${typeof toolCallId === "string" ? toolCallId : ""}`;
    const { toolRequests } = record;
    const taken = toolRequests.get(requestId);
    if (taken !== undefined) return taken !== call;
    toolRequests.set(requestId, call);
    if (toolRequests.size > REMEMBERED_TOOL_REQUESTS) {
        toolRequests.delete(toolRequests.keys().next().value as string);
    }
    return true;
}
