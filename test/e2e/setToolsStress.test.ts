/**
 * setTools under load on the real runtime and the mock model, on a Claude and a GPT model: the
 * tools change while the model keeps calling them, mid-turn and between turns. Config A has a
 * custom `view` replacing the built-in; config B has none, so the built-in `view` answers; both
 * exclude `bash`, which neither allows. `lint`, a plain custom tool, comes and goes mid-turn.
 * Asserted: 0 calls answered by the built-in `view` in a request that offered the custom `view`
 * (the built-in would read a marker file the custom tool never reads), 0 requests offering
 * `bash`, 0 turns that never end.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { CopilotClient } from "@github/copilot-sdk";
import {
    CLAUDE_MODEL,
    GPT_MODEL,
    e2eRig,
    recordingTool,
    temporaryBaseDirectory,
    testCleanups,
} from "../support/e2eHarness.js";
import { descriptionOf, toolNameOf, type RecordedChatRequest } from "../support/mockModel.js";
import { describeNoLeftovers } from "../support/noLeftovers.js";

const TURNS = Number(process.env.SET_TOOLS_STRESS_TURNS ?? 100);

describe.concurrent.each([CLAUDE_MODEL, GPT_MODEL])("setTools under load on %s", (modelId) => {
    it(`keeps every call with its tool over ${TURNS} turns of changes`, async ({
        onTestFinished,
    }) => {
        const view = recordingTool("view");
        const lint = recordingTool("lint");
        // What the built-in view would answer: the content of this file. The custom view never
        // reads files, so the marker in a tool result means the built-in answered.
        const marker = `BUILT-IN-VIEW-READ-${Math.random().toString(36).slice(2)}`;
        const markerFile = join(temporaryBaseDirectory(testCleanups(onTestFinished)), "marker.txt");
        writeFileSync(markerFile, `${marker}\n`);
        const { client, model, base } = await e2eRig(
            testCleanups(onTestFinished),
            (baseDirectory) => new CopilotClient({ baseDirectory, onToolWarning: () => {} }),
            {
                // The model calls every tool of interest it is offered.
                toolCall: (request) =>
                    (request.tools ?? [])
                        .map(toolNameOf)
                        .filter((name) => name === "view" || name === "lint" || name === "bash")
                        .map((name) => ({ name, arguments: { path: markerFile } })),
            }
        );
        const configA = { tools: [view, lint], excludedTools: ["bash"] };
        const configB = { tools: [lint], excludedTools: ["bash"] };
        const session = await client.createSession({ ...base(modelId), ...configA });
        let applied = 0;
        let busy = 0;
        let hung = 0;
        const change = (update: object) =>
            session.setTools(update).then(
                () => void applied++,
                (error: { code?: string }) => {
                    if (error.code !== "SESSION_BUSY") throw error;
                    busy++;
                }
            );
        // Each change flips between A and B: mid-turn it changes who answers `view` (refused
        // with SESSION_BUSY unless the turn already ended), between turns it is applied.
        let current = configA;
        const flip = () => {
            const target = current === configA ? configB : configA;
            return change(target).then(() => {
                current = target;
            });
        };
        for (let turn = 0; turn < TURNS; turn++) {
            const done = session.sendAndWait({ prompt: `turn ${turn}` }, 20_000).then(
                () => "ok",
                () => "hung"
            );
            await new Promise((resolve) => setTimeout(resolve, turn % 13));
            // Mid-turn: the override goes and comes back (without the SESSION_BUSY refusal,
            // this is what let the built-in answer calls made with the custom definition),
            // and the plain tool changes.
            await flip();
            await flip();
            await change({ tools: turn % 3 === 0 ? [view] : [view, lint] });
            if ((await done) !== "ok") hung++;
            // Between turns: the override comes and goes.
            await flip();
        }
        const requests = model.requests as RecordedChatRequest[];
        let offeredBuiltIn = 0;
        let hijacked = 0;
        for (const [index, request] of requests.entries()) {
            const tools = request.tools ?? [];
            for (const tool of tools) {
                const name = toolNameOf(tool);
                if (name === "bash") offeredBuiltIn++;
            }
            // A request that offered the custom view and called it: its result must be the
            // custom handler's, or an error that says the tool is gone; never the built-in's.
            const customView = tools.some(
                (tool) => toolNameOf(tool) === "view" && descriptionOf(tool) === view.description
            );
            if (!customView || !model.toolCallsOf(index).includes("view")) continue;
            const results = model.toolResultsOf(index + 1).map((result) => result.text);
            if (results.some((text) => text.includes(marker))) {
                hijacked++;
            }
        }
        console.log(
            `${modelId}: ${TURNS} turns, ${applied} changes applied, ${busy} refused as SESSION_BUSY, ${view.calls.length} custom view calls, ${hijacked} hijacked, ${offeredBuiltIn} built-ins offered that no config allows, ${hung} hung`
        );
        expect({ hijacked, offeredBuiltIn, hung }).toEqual({
            hijacked: 0,
            offeredBuiltIn: 0,
            hung: 0,
        });
        expect(view.calls.length).toBeGreaterThan(TURNS / 4);
        expect(applied).toBeGreaterThan(TURNS);
    }, 300_000);
});

describeNoLeftovers();
