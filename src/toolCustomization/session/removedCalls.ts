// An answer for every call of a tool that a change took away while a turn ran: the runtime may
// still hand such a call to this client (it was on its way when `setTools` removed the tool), and
// without an answer the turn would wait forever.

import { quoteValue } from "../../shared/formatting.js";
import type { RunningSession, SessionEventLike, SessionRecord } from "./record.js";

/** How long a call of a removed tool waits for another client's answer before ours, in ms. */
export const REMOVED_ANSWER_DELAY = 200;

/**
 * Follows `external_tool.requested` / `external_tool.completed`: the SDK's handlers take the
 * names they have; a name this session removed while a turn ran gets an error result naming the
 * tool, unless another client answers it first. Other names are not this client's to answer.
 */
export function answerRemovedCalls(
    record: SessionRecord,
    session: RunningSession,
    event: SessionEventLike
): void {
    const data = event.data as { requestId?: unknown; toolName?: unknown } | undefined;
    const requestId = data?.requestId;
    if (typeof requestId !== "string") return;
    const { completedRequests } = record.calls;
    if (event.type === "external_tool.completed") {
        if (record.removed.size > 0) completedRequests.add(requestId);
        return;
    }
    const toolName = data?.toolName;
    if (event.type !== "external_tool.requested" || typeof toolName !== "string") return;
    if (!record.removed.has(toolName) || record.disconnected.signal.aborted) return;
    const timer = setTimeout(() => {
        const answered = completedRequests.delete(requestId);
        if (answered || record.disconnected.signal.aborted) return;
        if (!record.removed.has(toolName)) return;
        session.rpc.tools
            .handlePendingToolCall({
                requestId,
                error:
                    `Tool ${quoteValue(toolName)} was removed from this session (session.setTools) ` +
                    `before this call ran, so it is not available; use the tools offered now.`,
            })
            .catch(() => {});
    }, REMOVED_ANSWER_DELAY);
    timer.unref?.();
}
