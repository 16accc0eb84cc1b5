/**
 * What the installed SDK release can do, on its own runtime: `session.setTools` changes the tools
 * on a release with the runtime request `session.tools.set`, and on one without it is refused
 * with `UNSUPPORTED_BY_RELEASE`, naming the release and the request, before anything is sent. Run
 * on the pinned release by `vitest`, and on the oldest and the newest served release by
 * `npm run test:release -- <version>` (part of `npm test`).
 */
import { describe, expect, it } from "vitest";
import { CopilotClient, SessionToolError } from "@github/copilot-sdk";
import { CLAUDE_MODEL, e2eRig, recordingTool, testCleanups } from "../support/e2eHarness.js";
import { describeNoLeftovers } from "../support/noLeftovers.js";
import { RELEASE_UNDER_TEST } from "../support/rawMeasurements.js";

/** The served releases whose RPC has session.tools.set (written by hand from their files). */
const RELEASES_WITH_TOOLS_SET: readonly string[] = [
    "1.0.13-preview.4",
    "1.0.13",
    "1.0.14",
    "1.0.15-preview.0",
    "1.0.15-preview.4",
];

describe(`session.setTools on @github/copilot-sdk ${RELEASE_UNDER_TEST}`, () => {
    it(
        RELEASES_WITH_TOOLS_SET.includes(RELEASE_UNDER_TEST)
            ? "changes the tools the model is offered next"
            : "is refused as UNSUPPORTED_BY_RELEASE, naming the release, and sends nothing",
        async ({ onTestFinished }) => {
            const defer = testCleanups(onTestFinished);
            const { client, model, base } = await e2eRig(
                defer,
                (baseDirectory) => new CopilotClient({ baseDirectory, onToolWarning: () => {} })
            );
            const lint = recordingTool("lint");
            const format = recordingTool("format");
            const session = await client.createSession({ ...base(CLAUDE_MODEL), tools: [lint] });
            const update = session.setTools({ tools: [format] });

            if (RELEASES_WITH_TOOLS_SET.includes(RELEASE_UNDER_TEST)) {
                const resolution = await update;
                expect(resolution.wire.tools).toEqual(["format"]);
                await session.sendAndWait({ prompt: "Hello." });
                expect(model.toolNamesOf(0)).toContain("format");
                expect(model.toolNamesOf(0)).not.toContain("lint");
                return;
            }
            const error = await update.then(
                () => undefined,
                (caught: unknown) => caught
            );
            expect(SessionToolError.isInstance(error)).toBe(true);
            expect(error).toMatchObject({
                code: "UNSUPPORTED_BY_RELEASE",
                toolNames: ["session.tools.set"],
            });
            expect((error as Error).message).toContain(
                `which @github/copilot-sdk ${RELEASE_UNDER_TEST} does not have`
            );
            // The session keeps its tools: the model is still offered lint.
            expect(session.toolResolution?.wire.tools).toEqual(["lint"]);
            await session.sendAndWait({ prompt: "Hello." });
            expect(model.toolNamesOf(0)).toContain("lint");
            expect(model.toolNamesOf(0)).not.toContain("format");
        }
    );
});

describeNoLeftovers();
