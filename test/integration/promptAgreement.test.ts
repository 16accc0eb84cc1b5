/**
 * promptAgreement through the real patched client against a fake runtime: what goes on the wire
 * for each mode of the app's systemMessage, and what the section transforms return when the
 * runtime asks for them (the fake runtime cannot call back, so the test hands the sections to the
 * SDK's own dispatcher, `session._handleSystemMessageTransform`, which is what the SDK runs on the
 * runtime's `systemMessage.transform` request). Expected texts are written by hand.
 */
import { describe, expect, it } from "vitest";
import { SessionToolError, approveAll } from "@github/copilot-sdk";
import { fakeRuntimeClients, runtimeTransform } from "../support/fakeRuntimeClient.js";

const MODEL = "claude-sonnet-4.5";
const handler = async (): Promise<string> => "custom result";
const fake = fakeRuntimeClients();

/** Sections as the runtime might write them (written for this test, in the runtime's style). */
const SECTIONS = {
    tool_efficiency:
        "* Use grep, glob, view, edit yourself.\n* Make 3 view tool calls at once.\n* Keep going.",
    tool_instructions: "<view>\nRead files.\n</view>\n<bash>\nRun commands.\n</bash>",
    last_instructions: "Finish the task.",
};

const transform = runtimeTransform;

const wireSystemMessage = (
    runtime: { paramsOf(method: string): Record<string, unknown>[] },
    method = "session.create"
) => runtime.paramsOf(method).at(-1)?.systemMessage as Record<string, unknown> | undefined;

describe("promptAgreement: 'rewrite' (the default)", () => {
    it("sends a transform for every section and rewrites them for the tools in force", async () => {
        const { runtime, client } = await fake.setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            excludedTools: ["view", "grep", "glob"],
        });
        const wire = wireSystemMessage(runtime)!;
        expect(wire.mode).toBe("customize");
        expect(Object.values(wire.sections as object).every((s) => s.action === "transform")).toBe(
            true
        );
        expect(Object.keys(wire.sections as object)).toContain("tool_instructions");
        expect(session.toolResolution!.prompt).toBeUndefined();

        const { sections } = await transform(session, SECTIONS);
        expect(sections.tool_efficiency!.content).toBe("* Use edit yourself.\n* Keep going.");
        expect(sections.tool_instructions!.content).toBe("<bash>\nRun commands.\n</bash>");
        expect(sections.last_instructions!.content).toBe(
            "Finish the task.\n\n<tool_availability>\nThis session does not offer the tools glob, grep and view: where any instruction names them, use the tools you are given instead.\n</tool_availability>"
        );
        const report = session.toolResolution!.prompt!;
        expect(report.mode).toBe("rewrite");
        expect(report.builds).toBe(1);
        expect(report.edits.map((e) => [e.section, e.action, e.names])).toEqual([
            ["tool_efficiency", "rewritten", ["grep", "glob", "view"]],
            ["tool_efficiency", "removed", ["view"]],
            ["tool_instructions", "removed", ["view"]],
        ]);
        expect(report.note).toContain("glob, grep and view");
        // Every mention of the three in the text as the runtime gave it, none in what the
        // package returned (the note names them on purpose and is not counted).
        const missing = (name: string, section: string, excerpt: string) => ({
            section,
            name,
            reason: "not-offered",
            excerpt,
        });
        const list = "* Use grep, glob, view, edit yourself.";
        expect(report.mentions.before).toEqual([
            missing("grep", "tool_efficiency", list),
            missing("glob", "tool_efficiency", list),
            missing("view", "tool_efficiency", list),
            missing("view", "tool_efficiency", "* Make 3 view tool calls at once."),
            missing("view", "tool_instructions", "<view>"),
            missing("view", "tool_instructions", "</view>"),
        ]);
        expect(report.mentions.after).toEqual([]);
        // Asked again for the same tools: the same text, a new build.
        const again = await transform(session, SECTIONS);
        expect(again.sections).toEqual(sections);
        expect(session.toolResolution!.prompt!.builds).toBe(2);
    });

    it("follows setTools: a custom view replaces the built-in, and the note says so", async () => {
        // As an app's client connects: it cannot tell the runtime's delivery, so the runtime
        // counts as unmeasured (the stand-in catalog).
        const { client } = await fake.setUp({}, {}, "as-connected");
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            // Set: unset, an unmeasured runtime gets 'warn' (below).
            promptAgreement: "rewrite",
            // The app's decision: with it, every section gets a transform.
            excludedTools: ["glob"],
        });
        const before = await transform(session, SECTIONS);
        expect(before.sections.tool_efficiency!.content).toBe(
            "* Use grep, view, edit yourself.\n* Make 3 view tool calls at once.\n* Keep going."
        );
        expect(before.sections.tool_instructions!.content).toBe(SECTIONS.tool_instructions);
        // The stand-in catalog confirms no absence but the app's: the note says which tools it
        // could not confirm.
        expect(session.toolResolution!.runtime.catalog).toBe("fallback");
        expect(before.sections.last_instructions!.content).toContain(
            "This session may not offer the tools "
        );
        await session.setTools({
            tools: [
                { name: "view", description: "Show a record", handler, overridesBuiltInTool: true },
            ],
        });
        const after = await transform(session, SECTIONS);
        expect(after.sections.tool_instructions!.content).toBe("<bash>\nRun commands.\n</bash>");
        // When to call a tool named view, and its parallel calls, hold for the app's view too;
        // glob stays excluded.
        expect(after.sections.tool_efficiency!.content).toBe(
            before.sections.tool_efficiency!.content
        );
        expect(after.sections.last_instructions!.content).toContain(
            "The tool view is this application's own: follow its description"
        );
        const { mentions } = session.toolResolution!.prompt!;
        expect(mentions.before.map((m) => [m.section, m.name, m.reason])).toEqual([
            ["tool_efficiency", "glob", "not-offered"],
            ["tool_instructions", "view", "replaced"],
            ["tool_instructions", "view", "replaced"],
        ]);
        expect(mentions.after).toEqual([]);
    });
});

describe("promptAgreement unset: the default follows the evidence", () => {
    it("is 'rewrite' on a measured runtime whose labelled corpus shows no false removal", async () => {
        const { client } = await fake.setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            excludedTools: ["view", "grep", "glob"],
        });
        expect(session.toolResolution!.runtime).toEqual({ version: "1.0.85", catalog: "measured" });
        const { sections } = await transform(session, SECTIONS);
        expect(sections.tool_instructions!.content).toBe("<bash>\nRun commands.\n</bash>");
        expect(session.toolResolution!.prompt!.mode).toBe("rewrite");
    });

    it("sends the SDK's own prompt where the runtime is not known and the app removes and replaces nothing; a later override warns that the instructions may name it", async () => {
        const { runtime, client, warnings } = await fake.setUp({}, {}, "as-connected");
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [{ name: "lookup", description: "Look up a record", handler }],
        });
        expect(session.toolResolution!.runtime.catalog).toBe("fallback");
        // No customize mode, no transforms: the runtime's prompt and tools are the runtime's own.
        expect(wireSystemMessage(runtime)).toBeUndefined();
        expect(session.toolResolution!.prompt).toBeUndefined();
        expect(warnings.filter((w) => w.code === "RUNTIME_PROMPT_NAMES_MISSING_TOOL")).toEqual([]);

        await session.setTools({
            tools: [
                { name: "view", description: "Show a record", handler, overridesBuiltInTool: true },
            ],
        });
        const warned = warnings.filter((w) => w.code === "RUNTIME_PROMPT_NAMES_MISSING_TOOL");
        expect(warned.map((w) => w.identifiers)).toEqual([["view"]]);
        expect(warned[0]!.message).toContain(
            "The runtime's instructions may name (this runtime's texts were not measured)"
        );
    });

    it("warns after a later exclusion of a built-in the stand-in does not offer the model, on a runtime not known", async () => {
        const { client, warnings } = await fake.setUp({}, {}, "as-connected");
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            tools: [{ name: "lookup", description: "Look up a record", handler }],
        });
        expect(session.toolResolution!.runtime.catalog).toBe("fallback");
        // The stand-in offers skill only with skillDirectories; the runtime may offer it anyway.
        expect(session.toolResolution!.enabledTools).not.toContain("skill");
        await session.setTools({ excludedTools: ["skill", "lookup"] });
        const warned = warnings.filter((w) => w.code === "RUNTIME_PROMPT_NAMES_MISSING_TOOL");
        // The custom tool is the app's own: no runtime text names it.
        expect(warned.map((w) => w.identifiers)).toEqual([["skill"]]);
    });

    it("adds no task-prompt hook with the stand-in catalog, even in rewrite mode", async () => {
        const { runtime, client } = await fake.setUp({}, {}, "as-connected");
        for (const excludedTools of [undefined, ["glob"]]) {
            const session = await client.createSession({
                model: MODEL,
                onPermissionRequest: approveAll,
                promptAgreement: "rewrite",
                tools: [{ name: "lookup", description: "Look up a record", handler }],
                ...(excludedTools === undefined ? {} : { excludedTools }),
            });
            expect(session.toolResolution!.runtime.catalog).toBe("fallback");
            // Its version is the stand-in's, whose task prompt was measured; this runtime's was not.
            expect(runtime.paramsOf("session.create").at(-1)?.hooks).toBeFalsy();
        }
    });

    it("is 'warn' with the note where the runtime is not known: the text stays, a warning says so", async () => {
        const { client, warnings } = await fake.setUp({}, {}, "as-connected");
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            excludedTools: ["glob"],
        });
        expect(session.toolResolution!.runtime.catalog).toBe("fallback");
        await session.setTools({
            tools: [
                { name: "view", description: "Show a record", handler, overridesBuiltInTool: true },
            ],
        });
        const { sections } = await transform(session, SECTIONS);
        expect(sections.tool_instructions!.content).toBe(SECTIONS.tool_instructions);
        expect(sections.last_instructions!.content).toContain(
            "The tool view is this application's own: follow its description"
        );
        const report = session.toolResolution!.prompt!;
        expect(report.mode).toBe("warn");
        expect(report.edits.map((e) => [e.section, e.action, e.names])).toEqual([
            ["tool_efficiency", "rewritten", ["glob"]],
            ["tool_instructions", "removed", ["view"]],
        ]);
        const warned = warnings.filter((w) => w.code === "RUNTIME_PROMPT_NAMES_MISSING_TOOL");
        // glob at the first build, view after the change.
        expect(warned.map((w) => w.identifiers)).toEqual([["glob"], ["view"]]);
        expect(warned[0]!.message).toContain("'warn' is the default on this runtime");
    });
});

describe("promptAgreement: a client remembers its rewrites", () => {
    it("gives each session the rewrite for its own tools, on one client, in any order", async () => {
        const { client } = await fake.setUp();
        const withoutView = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            excludedTools: ["view"],
        });
        const withoutBash = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            excludedTools: ["bash"],
        });
        const everything = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
        });
        for (let round = 0; round < 2; round++) {
            const a = await transform(withoutView, SECTIONS);
            expect(a.sections.tool_instructions!.content).toBe("<bash>\nRun commands.\n</bash>");
            expect(a.sections.tool_efficiency!.content).toBe(
                "* Use grep, glob, edit yourself.\n* Keep going."
            );
            const b = await transform(withoutBash, SECTIONS);
            expect(b.sections.tool_instructions!.content).toBe("<view>\nRead files.\n</view>\n");
            expect(b.sections.tool_efficiency!.content).toBe(SECTIONS.tool_efficiency);
            expect(b.sections.last_instructions!.content).toContain(
                "does not offer the tool bash: where any instruction names it,"
            );
            const c = await transform(everything, SECTIONS);
            expect(c.sections.tool_instructions!.content).toBe(SECTIONS.tool_instructions);
            expect(c.sections.last_instructions!.content).toBe(SECTIONS.last_instructions);
            // Each session's report lists its own edits, however its answer was found.
            expect(
                withoutBash.toolResolution!.prompt!.edits.map((e) => [e.section, e.names])
            ).toEqual([["tool_instructions", ["bash"]]]);
            // Nothing to agree on (the client knows its runtime by now): no transform, no report.
            expect(everything.toolResolution!.prompt).toBe(undefined);
        }
        // A changed text is rewritten, not answered from an earlier build.
        const changed = await transform(withoutBash, {
            ...SECTIONS,
            tool_instructions: "<bash>\nRun.\n</bash>\n<view>\nShow.\n</view>",
        });
        expect(changed.sections.tool_instructions!.content).toBe("<view>\nShow.\n</view>");
    });
});

describe("promptAgreement with the app's systemMessage", () => {
    it("keeps append mode's content, as customize mode's content", async () => {
        const { runtime, client } = await fake.setUp();
        await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            excludedTools: ["view"],
            systemMessage: { mode: "append", content: "Be brief." },
        });
        const wire = wireSystemMessage(runtime)!;
        expect(wire.mode).toBe("customize");
        expect(wire.content).toBe("Be brief.");
    });

    it("runs the package's rewrite first, then the app's transform; leaves a section the app replaces", async () => {
        const { runtime, client } = await fake.setUp();
        const seen: string[] = [];
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            excludedTools: ["view"],
            systemMessage: {
                mode: "customize",
                sections: {
                    tool_efficiency: {
                        action: (text: string) => {
                            seen.push(text);
                            return `${text}\nApp line.`;
                        },
                    },
                    tool_instructions: { action: "replace", content: "The app's <view> text." },
                    guidelines: { action: "append", content: "App guideline." },
                },
            },
        });
        const wire = wireSystemMessage(runtime)!;
        expect((wire.sections as Record<string, unknown>).tool_instructions).toEqual({
            action: "replace",
            content: "The app's <view> text.",
        });
        const { sections } = await transform(session, {
            tool_efficiency: SECTIONS.tool_efficiency,
            guidelines: "Use view/edit for files.",
        });
        expect(seen).toEqual(["* Use grep, glob, edit yourself.\n* Keep going."]);
        expect(sections.tool_efficiency!.content).toBe(
            "* Use grep, glob, edit yourself.\n* Keep going.\nApp line."
        );
        expect(sections.guidelines!.content).toBe("Use edit for files.\nApp guideline.");
    });

    it("reports the mentions in the text sent, after the app's transform, and warns once when it names a dropped tool again", async () => {
        const { client, warnings } = await fake.setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            excludedTools: ["view"],
            systemMessage: {
                mode: "customize",
                sections: {
                    tool_efficiency: {
                        action: async (text: string) =>
                            `${text}\nAlways read files with the **view** tool.`,
                    },
                },
            },
        });
        for (let round = 0; round < 2; round++) {
            const { sections } = await transform(session, {
                tool_efficiency: SECTIONS.tool_efficiency,
            });
            expect(sections.tool_efficiency!.content).toContain("with the **view** tool.");
            const { after } = session.toolResolution!.prompt!.mentions;
            expect(after.map((m) => [m.section, m.name])).toEqual([["tool_efficiency", "view"]]);
        }
        const named = warnings.filter((w) => w.code === "PROMPT_NAMES_REMOVED_TOOL");
        expect(named.map((w) => w.identifiers)).toEqual([["view"]]);
        expect(named[0]!.message).toContain("section 'tool_efficiency'");
    });

    it("adds nothing in replace mode, or with promptAgreement: 'off'", async () => {
        const { runtime, client } = await fake.setUp();
        await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            systemMessage: { mode: "replace", content: "All mine." },
        });
        expect(wireSystemMessage(runtime)).toEqual({ mode: "replace", content: "All mine." });
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            promptAgreement: "off",
        });
        expect(wireSystemMessage(runtime)).toBeUndefined();
        await transform(session, SECTIONS);
        expect(session.toolResolution!.prompt).toBeUndefined();
    });
});

describe("promptAgreement: 'warn'", () => {
    it("keeps the text and warns once with what the rewrite would remove", async () => {
        const { client, warnings } = await fake.setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            excludedTools: ["view"],
            promptAgreement: "warn",
        });
        const { sections } = await transform(session, SECTIONS);
        expect(sections.tool_efficiency!.content).toBe(SECTIONS.tool_efficiency);
        expect(sections.last_instructions!.content).toBe(SECTIONS.last_instructions);
        await transform(session, SECTIONS);
        const warned = warnings.filter((w) => w.code === "RUNTIME_PROMPT_NAMES_MISSING_TOOL");
        expect(warned.map((w) => w.identifiers)).toEqual([["view"]]);
        expect(session.toolResolution!.prompt!.edits.length).toBe(3);
        // The text is kept: what is left is what was there.
        const { mentions } = session.toolResolution!.prompt!;
        expect(mentions.before.length).toBe(4);
        expect(mentions.after).toEqual(mentions.before);
    });
});

describe("promptAgreement: resumeSession and bad values", () => {
    it("sends the transforms on resume too", async () => {
        const { runtime, client } = await fake.setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
        });
        await client.resumeSession(session.sessionId, {
            onPermissionRequest: approveAll,
            excludedTools: ["grep"],
        });
        expect(wireSystemMessage(runtime, "session.resume")?.mode).toBe("customize");
    });

    it("refuses a promptAgreement that is not 'rewrite', 'warn' or 'off', before session.create", async () => {
        const { runtime, client } = await fake.setUp();
        const outcome = await client
            .createSession({
                model: MODEL,
                onPermissionRequest: approveAll,
                promptAgreement: "on" as never,
            })
            .then(
                () => "accepted",
                (error: unknown) => error
            );
        expect(outcome).toBeInstanceOf(SessionToolError);
        expect(outcome).toMatchObject({
            code: "INVALID_SESSION_OPTION",
            toolNames: ["promptAgreement"],
        });
        expect(runtime.paramsOf("session.create")).toEqual([]);
    });
});

describe("promptAgreement: defined outcomes", () => {
    const appTransform = (action: (text: string) => string | Promise<string>) => ({
        mode: "customize" as const,
        sections: { tool_efficiency: { action } },
    });

    it.for([
        [
            "throws",
            () => {
                throw new Error("app bug");
            },
        ],
        ["rejects", () => Promise.reject(new Error("app bug"))],
    ] as const)(
        "an app transform that %s: the section goes as the rewrite left it, warned once per section",
        async ([, action]) => {
            const { client, warnings } = await fake.setUp();
            const session = await client.createSession({
                model: MODEL,
                onPermissionRequest: approveAll,
                excludedTools: ["view", "grep", "glob"],
                systemMessage: appTransform(action),
            });
            for (let build = 0; build < 2; build++) {
                const { sections } = await transform(session, SECTIONS);
                // Not the runtime's text (which the SDK alone would send): the agreed one.
                expect(sections.tool_efficiency!.content).toBe(
                    "* Use edit yourself.\n* Keep going."
                );
            }
            const failed = warnings.filter((w) => w.code === "PROMPT_TRANSFORM_FAILED");
            expect(failed).toEqual([
                expect.objectContaining({
                    identifiers: ["tool_efficiency"],
                    message: expect.stringContaining(
                        "The app's systemMessage transform of section 'tool_efficiency' threw (app bug); the section was sent as the package's rewrite left it"
                    ),
                }),
            ]);
            expect(session.toolResolution!.prompt!.mentions.after).toEqual([]);
        }
    );

    it("an app transform that returns: its text goes, after the package's rewrite", async () => {
        const { client, warnings } = await fake.setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            excludedTools: ["view"],
            systemMessage: appTransform(async (text) => `${text}\nApp.`),
        });
        const { sections } = await transform(session, SECTIONS);
        expect(sections.tool_efficiency!.content).toBe(
            "* Use grep, glob, edit yourself.\n* Keep going.\nApp."
        );
        expect(warnings.filter((w) => w.code === "PROMPT_TRANSFORM_FAILED")).toEqual([]);
    });

    it("a second build (the runtime asks again for a section): the report is the new build's", async () => {
        const { client } = await fake.setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            excludedTools: ["view"],
        });
        await transform(session, SECTIONS);
        expect(session.toolResolution!.prompt!.mentions.before.length).toBe(4);
        const { sections } = await transform(session, {
            tool_efficiency: "Read with **view**. Then think.",
        });
        expect(sections.tool_efficiency!.content).toBe("Then think.");
        const report = session.toolResolution!.prompt!;
        expect(report.builds).toBe(2);
        expect(report.edits).toEqual([
            {
                section: "tool_efficiency",
                names: ["view"],
                action: "removed",
                excerpt: "Read with **view**.",
            },
        ]);
        expect(report.mentions).toEqual({
            before: [
                {
                    section: "tool_efficiency",
                    name: "view",
                    reason: "not-offered",
                    excerpt: "Read with **view**. Then think.",
                },
            ],
            after: [],
        });
        // No last_instructions in this build: no note in it.
        expect(report.note).toBeUndefined();
        // A request for sections this build has not had yet belongs to it (runtime 1.0.85 sends
        // one build's sections in two requests).
        await transform(session, { guidelines: "Use **view**." });
        expect(session.toolResolution!.prompt!.builds).toBe(2);
        expect(session.toolResolution!.prompt!.edits.map((e) => e.section)).toEqual([
            "tool_efficiency",
            "guidelines",
        ]);
    });

    it("an app transform that waits (I/O) mid-build does not split the build", async () => {
        const { client } = await fake.setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            excludedTools: ["view"],
            systemMessage: appTransform(async (text) => {
                await new Promise((resolve) => setTimeout(resolve, 20));
                return text;
            }),
        });
        await transform(session, SECTIONS);
        const report = session.toolResolution!.prompt!;
        expect(report.builds).toBe(1);
        expect(report.edits.map((e) => e.section)).toEqual([
            "tool_efficiency",
            "tool_efficiency",
            "tool_instructions",
        ]);
    });

    it.for(["append", "replace", "customize"] as const)(
        "a 10 MB systemMessage of one a_a_a… token in %s mode: createSession goes through (no RangeError)",
        async (mode) => {
            const { runtime, client } = await fake.setUp();
            const token = "a_".repeat(5 * 1024 * 1024);
            const systemMessage =
                mode === "customize"
                    ? {
                          mode,
                          sections: { guidelines: { action: "append" as const, content: token } },
                      }
                    : { mode, content: token };
            const session = await client.createSession({
                model: MODEL,
                onPermissionRequest: approveAll,
                excludedTools: ["view"],
                systemMessage,
            });
            expect(session.sessionId).toBeTypeOf("string");
            expect(runtime.paramsOf("session.create")).toHaveLength(1);
            if (mode === "replace") return;
            // The runtime's own section of that size is rewritten in bounded time and stack.
            const { sections } = await transform(session, { guidelines: token });
            expect(sections.guidelines!.content.startsWith("a_a_")).toBe(true);
        }
    );
});
