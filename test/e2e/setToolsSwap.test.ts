/**
 * The adversarial cases of issue 27 on the real runtime and the mock model.
 *
 * 1. Same-name swap during a turn: setTools replaces the custom `view` with another custom
 *    `view` (another definition) while the model keeps calling `view`. Measured before the fix,
 *    on 1.0.14: one `session.tools.set` whose list always holds `view` with a changed definition
 *    let the built-in answer 6 of 11 calls (the runtime replaces a changed definition with a
 *    gap); the same request with an unchanged `view` answered 0 of 11 with the built-in. So such
 *    a change is refused mid-turn (SESSION_BUSY) and applied between turns.
 * 2. The stale idle: message 2 sent on `assistant.turn_end`, tools changed on `session.idle`:
 *    no change of `view`'s owner or definition is accepted while message 2 runs.
 *
 * Asserted: 0 calls answered by the built-in `view` (it would read a marker file the custom
 * tools never read), 0 turns that never end, and every refusal a SESSION_BUSY SessionToolError.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CopilotClient, SessionToolError } from "@github/copilot-sdk";
import {
    CLAUDE_MODEL,
    e2eRig,
    recordingTool,
    temporaryBaseDirectory,
    testCleanups,
    type Defer,
} from "../support/e2eHarness.js";
import type { MockModel } from "../support/mockModel.js";
import { describeNoLeftovers } from "../support/noLeftovers.js";

const TURNS = Number(process.env.SWAP_TURNS ?? 6);

async function viewRig(defer: Defer) {
    const marker = `BUILT-IN-VIEW-READ-${Math.random().toString(36).slice(2)}`;
    const markerFile = join(temporaryBaseDirectory(defer), "marker.txt");
    writeFileSync(markerFile, `${marker}\n`);
    const call = { name: "view", arguments: { path: markerFile } };
    const rig = await e2eRig(
        defer,
        (baseDirectory) => new CopilotClient({ baseDirectory, onToolWarning: () => {} }),
        {
            toolCall: () => call,
            // Up to four calls of view per turn.
            followUp: (request) =>
                request.messages.filter((message) => message.role === "tool").length < 4
                    ? call
                    : undefined,
        }
    );
    return { ...rig, marker };
}

/** Calls of `view` in the model's answers, and those the built-in answered. */
function viewAnswers(model: MockModel, marker: string): { calls: number; builtIn: number } {
    let calls = 0;
    let builtIn = 0;
    for (let index = 0; index < model.requests.length; index++) {
        const made = model.toolCallsOf(index).filter((name) => name === "view").length;
        if (made === 0) continue;
        calls += made;
        const texts = model.toolResultsOf(index + 1).map((result) => result.text);
        builtIn += texts.filter((text) => text.includes(marker)).length;
    }
    return { calls, builtIn };
}

function countRefusal(error: unknown, refused: { busy: number; other: unknown[] }): void {
    if (error instanceof SessionToolError && error.code === "SESSION_BUSY") refused.busy++;
    else refused.other.push(error);
}

describe("issue 27 on the real runtime", () => {
    it(`lets no built-in answer while setTools swaps a custom view for another, over ${TURNS} turns`, async ({
        onTestFinished,
    }) => {
        const defer = testCleanups(onTestFinished);
        const { client, model, base, marker } = await viewRig(defer);
        const first = recordingTool("view");
        const second = { ...recordingTool("view"), description: "Custom view, second form." };
        const session = await client.createSession({ ...base(CLAUDE_MODEL), tools: [first] });
        const refused = { busy: 0, other: [] as unknown[] };
        let applied = 0;
        let hung = 0;
        for (let turn = 0; turn < TURNS; turn++) {
            let running = true;
            const done = session
                .sendAndWait({ prompt: `turn ${turn}` }, 30_000)
                .then(
                    () => undefined,
                    () => void hung++
                )
                .finally(() => (running = false));
            let flip = false;
            while (running) {
                flip = !flip;
                await session.setTools({ tools: [flip ? second : first] }).then(
                    () => void applied++,
                    (error: unknown) => countRefusal(error, refused)
                );
                await new Promise((resolve) => setTimeout(resolve, 2));
            }
            await done;
            // Between turns the swap is applied.
            await session.setTools({ tools: [turn % 2 === 0 ? second : first] });
            applied++;
        }
        const { calls, builtIn } = viewAnswers(model, marker);
        console.log(
            `same-name swap: ${TURNS} turns, ${applied} applied, ${refused.busy} refused as SESSION_BUSY, ${calls} view calls, ${builtIn} answered by the built-in, ${hung} hung`
        );
        expect({ builtIn, hung, other: refused.other }).toEqual({ builtIn: 0, hung: 0, other: [] });
        expect(calls).toBeGreaterThanOrEqual(TURNS);
        expect(refused.busy).toBeGreaterThan(0);
    }, 300_000);

    it("accepts no change of view's owner while message 2 runs after turn 1's late idle", async ({
        onTestFinished,
    }) => {
        const defer = testCleanups(onTestFinished);
        const { client, model, base, marker } = await viewRig(defer);
        const view = recordingTool("view");
        const session = await client.createSession({ ...base(CLAUDE_MODEL), tools: [view] });
        const refused = { busy: 0, other: [] as unknown[] };
        let acceptedWhileRunning = 0;
        let sentSecond = false;
        let secondTaken = false;
        let turnsOpen = 0;
        // Message 2 runs from its send until its last turn ends.
        const secondRuns = () => turnsOpen > 0 || (sentSecond && !secondTaken);
        session.on("user.message", (event) => {
            if (event.data.content === "second") secondTaken = true;
        });
        session.on("assistant.turn_start", () => void turnsOpen++);
        session.on("assistant.turn_end", () => {
            turnsOpen--;
            if (sentSecond) return;
            sentSecond = true;
            void session.send({ prompt: "second" });
        });
        const changes: Promise<void>[] = [];
        session.on("session.idle", () => {
            // The app changes tools on each idle: the owner of view flips.
            const tools = session.toolResolution!.overriddenBuiltInTools.length > 0 ? [] : [view];
            const running = secondRuns();
            changes.push(
                session.setTools({ tools }).then(
                    () => {
                        if (running || secondRuns()) acceptedWhileRunning++;
                    },
                    (error: unknown) => countRefusal(error, refused)
                )
            );
        });
        await session.sendAndWait({ prompt: "first" }, 30_000);
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        await Promise.all(changes);
        const { builtIn } = viewAnswers(model, marker);
        expect({ acceptedWhileRunning, builtIn, other: refused.other }).toEqual({
            acceptedWhileRunning: 0,
            builtIn: 0,
            other: [],
        });
    }, 120_000);
});

describeNoLeftovers();
