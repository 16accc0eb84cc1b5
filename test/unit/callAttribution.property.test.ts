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
    followCallEvent,
    MAX_RECORDED_CALLS,
    newCallRecord,
} from "../../src/toolCustomization/session/attribution.js";
import { failureOf } from "../../src/toolCustomization/session/record.js";
import type { ToolAnswer, ToolAnswerer } from "../../src/toolCustomization/api/publicTypes.js";

/**
 * A session's attribution record fed events as the installer feeds them; `custom` is the set of
 * custom tools in force (mutable, as `setTools` changes it).
 */
function fakeSession(
    custom: Set<string>,
    onToolAnswered?: (answer: ToolAnswer) => unknown,
    mcpServers: readonly string[] = []
) {
    let aborts = 0;
    const session = {
        sessionId: "s1",
        abort: async () => {
            aborts++;
        },
    };
    const calls = newCallRecord(onToolAnswered as (answer: ToolAnswer) => void, mcpServers);
    const expectedOf = (name: string): ToolAnswerer =>
        custom.has(name)
            ? "handler"
            : mcpServers.some((server) => name.startsWith(`${server}-`))
              ? "mcp"
              : "built-in";
    return {
        session,
        calls,
        aborts: () => aborts,
        failed: () => failureOf(session)?.code,
        emit: (type: string, data: unknown) =>
            followCallEvent(calls, expectedOf, session, { type, data }),
    };
}

/** One call's story: its tool, what happens to it, and in which order its events come. */
interface CallStory {
    readonly tool: "lint" | "view" | "adv-probe";
    readonly route:
        | "requested"
        | "mcp"
        | "built-in"
        | "denied"
        | "hook-denied"
        | "bad-arguments"
        | "no-such-tool";
    readonly completes: boolean;
}

const story = fc.record<CallStory>({
    tool: fc.constantFrom("lint", "view", "adv-probe"),
    route: fc.constantFrom(
        "requested",
        "mcp",
        "built-in",
        "denied",
        "hook-denied",
        "bad-arguments",
        "no-such-tool"
    ),
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
                    const fake = fakeSession(new Set(["lint"]), (answer) => reported.push(answer), [
                        "adv",
                    ]);
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
                            // As runtime 1.0.85 completes a call it refused before anything ran.
                            const refusal =
                                call.route === "hook-denied"
                                    ? {
                                          error: {
                                              message: "Denied by preToolUse hook: no",
                                              code: "denied",
                                          },
                                      }
                                    : call.route === "bad-arguments"
                                      ? {
                                            error: { message: "Unexpected token", code: "failure" },
                                            toolTelemetry: {
                                                properties: { wasSyntaxError: "true" },
                                            },
                                        }
                                      : call.route === "no-such-tool"
                                        ? {
                                              error: {
                                                  message: `Tool '${call.tool}' does not exist.`,
                                                  code: "failure",
                                              },
                                          }
                                        : undefined;
                            steps.push(() =>
                                fake.emit("tool.execution_complete", {
                                    toolCallId: id,
                                    success: refusal === undefined,
                                    ...refusal,
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
                                  : call.route === "built-in"
                                    ? "built-in"
                                    : "none";
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
                    expect(fake.failed()).toBe(closes ? "CALL_ANSWERED_ELSEWHERE" : undefined);
                    expect(fake.aborts() > 0).toBe(closes);
                }
            ),
            { numRuns: 300 }
        );
    });

    it(`keeps at most ${MAX_RECORDED_CALLS} calls, the latest`, () => {
        const fake = fakeSession(new Set());
        for (let i = 0; i < MAX_RECORDED_CALLS + 5; i++) {
            fake.emit("tool.execution_start", { toolCallId: `c${i}`, toolName: "view" });
            fake.emit("tool.execution_complete", { toolCallId: `c${i}`, success: true });
        }
        expect(fake.calls.answers).toHaveLength(MAX_RECORDED_CALLS);
        expect(fake.calls.answers[0]?.toolCallId).toBe("c5");
        expect(fake.calls.answers.at(-1)?.toolCallId).toBe(`c${MAX_RECORDED_CALLS + 4}`);
    });

    it("decides who should answer when the call starts: a tool added during the call is not expected to answer it", () => {
        const custom = new Set(["lint"]);
        const fake = fakeSession(custom);
        fake.emit("tool.execution_start", { toolCallId: "c1", toolName: "fmt" });
        // lint's handler adds fmt (setTools) while fmt's call is on its way.
        custom.add("fmt");
        fake.emit("tool.execution_complete", {
            toolCallId: "c1",
            success: false,
            error: { message: "Tool 'fmt' does not exist.", code: "failure" },
        });
        expect(fake.calls.answers[0]).toMatchObject({ expected: "built-in", answeredBy: "none" });
        expect(fake.failed()).toBeUndefined();
    });

    it("closes the session when a built-in answers a call of a custom tool removed during the call", () => {
        const custom = new Set(["view"]);
        const fake = fakeSession(custom);
        fake.emit("tool.execution_start", { toolCallId: "c1", toolName: "view" });
        custom.delete("view");
        fake.emit("tool.execution_complete", { toolCallId: "c1", success: true });
        expect(fake.calls.answers[0]).toMatchObject({
            expected: "handler",
            answeredBy: "built-in",
        });
        expect(fake.failed()).toBe("CALL_ANSWERED_ELSEWHERE");
        expect(fake.aborts()).toBe(1);
    });

    it("reports an onToolAnswered that rejects, as one that throws, without an unhandled rejection", async () => {
        const errors: unknown[] = [];
        const original = console.error;
        console.error = (...args: unknown[]) => void errors.push(args);
        const unhandled: unknown[] = [];
        const onUnhandled = (reason: unknown) => void unhandled.push(reason);
        process.on("unhandledRejection", onUnhandled);
        try {
            const fake = fakeSession(new Set(), async () => {
                throw new Error("metrics down");
            });
            fake.emit("tool.execution_start", { toolCallId: "c1", toolName: "view" });
            fake.emit("tool.execution_complete", { toolCallId: "c1", success: true });
            await new Promise((resolve) => setTimeout(resolve, 20));
            expect(errors).toHaveLength(1);
            expect(unhandled).toEqual([]);
        } finally {
            console.error = original;
            process.off("unhandledRejection", onUnhandled);
        }
    });
});
