/**
 * The call attribution as a state machine over the events of any number of interleaved calls:
 * whatever the order of `tool.execution_start`, `external_tool.requested`, `permission.completed`
 * and `tool.execution_complete`, each completed call is reported once,
 * with the answer its own events show, and the session closes exactly when a custom tool's call
 * was answered by a built-in or an MCP server. fast-check prints the seed of a failing run.
 */
import { describe, expect, it } from "vitest";
import fc from "fast-check";
import {
    attachCallAttribution,
    MAX_RECORDED_CALLS,
    withRecordedCalls,
    type ToolAnswer,
} from "../../src/safetyNet/callAttribution.js";

type Handler = (event: { data?: unknown }) => void;

/** A session double with the public surface the attribution uses. */
function fakeSession(customTools: readonly string[]) {
    const handlers = new Map<string, Handler[]>();
    let aborts = 0;
    const session = {
        sessionId: "s1",
        toolResolution: { wire: { tools: customTools } },
        on(type: string, handler: Handler) {
            handlers.set(type, [...(handlers.get(type) ?? []), handler]);
            return () => {};
        },
        abort: async () => {
            aborts++;
        },
        send: async () => "sent",
    };
    return {
        session,
        aborts: () => aborts,
        emit: (type: string, data: unknown) => handlers.get(type)?.forEach((h) => h({ data })),
    };
}

/** One call's story: its tool, what happens to it, and in which order its events come. */
interface CallStory {
    readonly tool: "lint" | "view" | "adv-probe";
    readonly route: "requested" | "mcp" | "built-in" | "denied";
    readonly completes: boolean;
}

const story = fc.record<CallStory>({
    tool: fc.constantFrom("lint", "view", "adv-probe"),
    route: fc.constantFrom("requested", "mcp", "built-in", "denied"),
    completes: fc.boolean(),
});

describe("call attribution: property", () => {
    it("reports each completed call once with its own answer, and closes the session exactly on a custom tool answered elsewhere", async () => {
        await fc.assert(
            fc.asyncProperty(
                fc.array(story, { maxLength: 30 }),
                fc.infiniteStream(fc.nat()),
                async (calls, picks) => {
                    const reported: ToolAnswer[] = [];
                    const fake = fakeSession(["lint"]);
                    attachCallAttribution(fake.session, (answer) => reported.push(answer), ["adv"]);
                    // Each call's events in order; calls interleave as the stream picks.
                    const queues = calls.map((call, index) => {
                        const id = `c${index}`;
                        const steps: (() => unknown)[] = [
                            () =>
                                fake.emit("tool.execution_start", {
                                    toolCallId: id,
                                    toolName: call.tool,
                                    ...(call.route === "mcp" ? { mcpServerName: "adv" } : {}),
                                }),
                        ];
                        if (call.route === "requested") {
                            steps.push(() =>
                                fake.emit("external_tool.requested", {
                                    toolCallId: id,
                                    requestId: `r${index}`,
                                    toolName: call.tool,
                                })
                            );
                        }
                        if (call.route === "denied") {
                            steps.push(() =>
                                fake.emit("permission.completed", {
                                    toolCallId: id,
                                    result: { kind: "denied-interactively-by-user" },
                                })
                            );
                        }
                        if (call.completes) {
                            steps.push(() =>
                                fake.emit("tool.execution_complete", {
                                    toolCallId: id,
                                    success: true,
                                })
                            );
                        }
                        return steps;
                    });
                    const cursor = picks[Symbol.iterator]();
                    for (;;) {
                        const open = queues.filter((queue) => queue.length > 0);
                        if (open.length === 0) break;
                        await open[cursor.next().value % open.length]!.shift()!();
                    }

                    const expected = calls.flatMap((call, index) => {
                        if (!call.completes) return [];
                        const answeredBy =
                            call.route === "mcp"
                                ? "mcp"
                                : call.route === "requested"
                                  ? "handler"
                                  : call.route === "denied"
                                    ? "none"
                                    : "built-in";
                        const expectedBy =
                            call.tool === "lint"
                                ? "handler"
                                : call.tool === "adv-probe"
                                  ? "mcp"
                                  : "built-in";
                        return [
                            {
                                toolName: call.tool,
                                toolCallId: `c${index}`,
                                answeredBy,
                                expected: expectedBy,
                            },
                        ];
                    });
                    expect(
                        reported.map(({ toolName, toolCallId, answeredBy, expected: e }) => ({
                            toolName,
                            toolCallId,
                            answeredBy,
                            expected: e,
                        }))
                    ).toEqual(
                        // Reports come in completion order; compare as sets of ids.
                        expect.arrayContaining(expected)
                    );
                    expect(reported).toHaveLength(expected.length);
                    const closes = expected.some(
                        (a) =>
                            a.expected === "handler" &&
                            (a.answeredBy === "built-in" || a.answeredBy === "mcp")
                    );
                    const sent = await fake.session.send().then(
                        () => "sent",
                        (error: { code?: string }) => error.code
                    );
                    expect(sent).toBe(closes ? "CALL_ANSWERED_ELSEWHERE" : "sent");
                    expect(fake.aborts() > 0).toBe(closes);
                }
            ),
            { numRuns: 300 }
        );
    });

    it(`keeps at most ${MAX_RECORDED_CALLS} calls, the latest`, () => {
        const fake = fakeSession([]);
        attachCallAttribution(fake.session, undefined, []);
        for (let i = 0; i < MAX_RECORDED_CALLS + 5; i++) {
            fake.emit("tool.execution_start", { toolCallId: `c${i}`, toolName: "view" });
            fake.emit("tool.execution_complete", { toolCallId: `c${i}`, success: true });
        }
        // The record is reached through the session's resolution view.
        const resolution = withRecordedCalls(fake.session, { calls: [] } as never);
        expect(resolution.calls).toHaveLength(MAX_RECORDED_CALLS);
        expect(resolution.calls[0]?.toolCallId).toBe("c5");
        expect(resolution.calls.at(-1)?.toolCallId).toBe(`c${MAX_RECORDED_CALLS + 4}`);
    });
});
