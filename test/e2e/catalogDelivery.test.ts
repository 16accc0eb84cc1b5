/**
 * One runtime version, two deliveries: the release under test bundles a runtime, and the
 * `@github/copilot` CLI of the same version may offer other built-ins (the CLI 1.0.85 offers
 * `skill` in a default session; SDK 1.0.14's bundled 1.0.85 does not). A client of the release
 * given that CLI through `RuntimeConnection.forStdio({ path })` must not take the bundled
 * runtime's measurements for it: the catalog falls back, the default promptAgreement is 'warn',
 * and the `<skill>` block the model is given stays. Runs when COPILOT_SAME_VERSION_CLI names the
 * CLI's native binary of the bundled runtime's version (for SDK 1.0.14: `npm install --prefix
 * /tmp/cli-1.0.85 @github/copilot@1.0.85`, then
 * `/tmp/cli-1.0.85/node_modules/@github/copilot-linux-x64/copilot`); the CLI's own update to a
 * newer cached version is switched off (COPILOT_AUTO_UPDATE=false).
 */
import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { CopilotClient, RuntimeConnection, type SessionToolWarning } from "@github/copilot-sdk";
import { CLAUDE_MODEL, e2eRig, testCleanups, type Defer } from "../support/e2eHarness.js";
import { contentText, toolNameOf } from "../support/mockModel.js";
import { describeNoLeftovers } from "../support/noLeftovers.js";
import { runtimeOfReleaseUnderTest } from "../support/rawMeasurements.js";

const cli = process.env.COPILOT_SAME_VERSION_CLI;

/** A rig whose client runs the CLI at `cli`, its own update to a newer cached version off. */
function cliRig(defer: Defer, onToolWarning: (warning: SessionToolWarning) => void) {
    return e2eRig(
        defer,
        (baseDirectory) =>
            new CopilotClient({
                baseDirectory,
                onToolWarning,
                connection: RuntimeConnection.forStdio({
                    path: cli!,
                    env: { ...process.env, COPILOT_AUTO_UPDATE: "false" } as Record<string, string>,
                }),
            })
    );
}

describe.skipIf(cli === undefined || !existsSync(cli))(
    "built-in catalog: the CLI of the bundled runtime's version",
    () => {
        it("falls back, warns by default, and keeps the <skill> block of a session excluding glob", async ({
            onTestFinished,
        }) => {
            const defer = testCleanups(onTestFinished);
            const warnings: SessionToolWarning[] = [];
            const rig = await cliRig(defer, (warning) => warnings.push(warning));
            const session = await rig.client.createSession({
                ...rig.base(CLAUDE_MODEL),
                excludedTools: ["glob"],
            });
            const version = runtimeOfReleaseUnderTest();
            expect((await rig.client.getStatus()).version).toBe(version);
            const from = rig.model.requests.length;
            await session.sendAndWait({ prompt: "hello" });
            const request = rig.model.requests[from]!;
            const system = request.messages.find((message) => message.role === "system")?.content;
            const prompt = contentText((system ?? "") as never);
            const offered = (request.tools ?? []).map(toolNameOf);

            expect(session.toolResolution!.runtime.catalog).toBe("fallback");
            expect(warnings.filter((w) => w.code === "CATALOG_FALLBACK")).toEqual([
                expect.objectContaining({
                    message: expect.stringContaining(
                        `runtime ${version} was measured only as the runtime an SDK release bundles`
                    ),
                }),
            ]);
            // The CLI offers skill, and its block in the prompt is true for this session.
            expect(offered).toContain("skill");
            expect(offered).not.toContain("glob");
            expect(prompt).toContain("<skill>");
            expect(session.toolResolution!.prompt!.mode).toBe("warn");
            await session.disconnect();
        }, 120_000);

        it("leaves a session that removes and replaces nothing to the runtime: no transform runs, no note", async ({
            onTestFinished,
        }) => {
            const defer = testCleanups(onTestFinished);
            const rig = await cliRig(defer, () => {});
            const session = await rig.client.createSession({
                ...rig.base(CLAUDE_MODEL),
                tools: [{ name: "lookup", description: "Look up a record", handler: () => "ok" }],
            });
            const from = rig.model.requests.length;
            await session.sendAndWait({ prompt: "hello" });
            const request = rig.model.requests[from]!;
            const system = request.messages.find((message) => message.role === "system")?.content;
            const prompt = contentText((system ?? "") as never);

            expect(session.toolResolution!.runtime.catalog).toBe("fallback");
            // No transform was registered, so none ran: no report, and the runtime's text as is.
            expect(session.toolResolution!.prompt).toBe(undefined);
            expect(prompt).toContain("<skill>");
            expect(prompt).not.toContain("<tool_availability>");
            await session.disconnect();
        }, 120_000);
    }
);

describeNoLeftovers();
