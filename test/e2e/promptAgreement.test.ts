/**
 * promptAgreement on the real runtime with the mock model recording the system prompt: for
 * excluded view/grep/glob, a replaced view, availableTools narrowed to one toolset, a setTools
 * that removes a tool mid-session and a setModel between a Claude and a GPT model, the prompt the
 * model receives recommends no tool the session lacks (by the naming rule, in every section the
 * SDK addresses) and carries the note naming what it lacks. The same run without the package's
 * agreement ('off') shows the mentions are there to remove, so each case can fail. With
 * COPILOT_EXTERNAL_RUNTIME set to a copilot binary (e.g. 1.0.102 from `npm install --prefix
 * /tmp/copilot-1.0.102 @github/copilot@1.0.102`), the cases also run on it through
 * `RuntimeConnection.forStdio`. Name the native binary
 * (`node_modules/@github/copilot-linux-x64/copilot`), not the `.bin/copilot` launcher: the
 * launcher's child outlives the client's stop for a moment and still writes its log into the
 * test's directory when the directory is removed.
 */
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CopilotClient, RuntimeConnection, type SessionConfig } from "@github/copilot-sdk";
import { CopilotClient as UnpatchedClient } from "copilot-sdk-unpatched";
import {
    CLAUDE_MODEL,
    GPT_MODEL,
    cleanupStack,
    e2eRig,
    recordingTool,
    testCleanups,
    twoClientRig,
    type E2eRig,
} from "../support/e2eHarness.js";
import { contentText, toolNameOf } from "../support/mockModel.js";
import { describeNoLeftovers } from "../support/noLeftovers.js";
import { MEASURED_PROMPT_SECTIONS } from "../../src/toolCustomization/catalog/generated/promptSectionNames.generated.js";
import { toolMentions } from "../../src/toolCustomization/prompt/toolMentions.js";
import { MEASURED_BUILT_IN_TOOLS } from "../../src/toolCustomization/catalog/generated/measuredBuiltInTools.generated.js";

const NAMES = new Set(MEASURED_BUILT_IN_TOOLS.flatMap((measured) => measured.builtIns));
const external = process.env.COPILOT_EXTERNAL_RUNTIME;
const RUNTIMES: readonly (readonly [string, Record<string, unknown>])[] = [
    ["bundled", {}],
    ...(external !== undefined && existsSync(external)
        ? ([["external", { connection: RuntimeConnection.forStdio({ path: external }) }]] as const)
        : []),
];

/** The system prompts of the model's requests, in order. */
function systemPrompts(requests: readonly unknown[]) {
    type Request = { messages: { role: string; content: unknown }[] };
    return (requests as Request[]).map((request) =>
        contentText(
            (request.messages.find((message) => message.role === "system")?.content ?? "") as never
        )
    );
}

/**
 * The names of `missing` the prompt names by the rule, outside a condition on their availability
 * ("If the ask_user tool is not available, ..." is true without it).
 */
const mentioned = (prompt: string, missing: ReadonlySet<string>) =>
    [
        ...new Set(
            toolMentions(prompt, NAMES)
                .filter((m) => missing.has(m.name) && m.conditional !== true)
                .map((m) => m.name)
        ),
    ].sort();

/** One client (one runtime) and mock model per runtime; the cases take turns on it. */
type Rig = E2eRig<CopilotClient>;

/** The requests the model received from `from` on. */
const requestsFrom = (rig: Rig, from: number) => rig.model.requests.slice(from);

async function firstPrompt(
    rig: Rig,
    config: Partial<SessionConfig>
): Promise<{ prompt: string; offered: string[] }> {
    const session = await rig.client.createSession({
        ...rig.base(config.model ?? CLAUDE_MODEL),
        ...config,
    } as SessionConfig);
    const from = rig.model.requests.length;
    try {
        await session.sendAndWait({ prompt: "hello" });
    } finally {
        await session.disconnect();
    }
    const request = rig.model.requests[from]!;
    return {
        prompt: systemPrompts([request])[0]!,
        offered: (request.tools ?? []).map(toolNameOf),
    };
}

interface PromptCase {
    readonly label: string;
    readonly config: () => Partial<SessionConfig>;
    /** The built-ins the prompt must not recommend. */
    readonly missing: readonly string[];
    /** Expected in the note. */
    readonly note: string;
    /** Text of the runtime's that names a dropped tool and is true for the session: kept. */
    readonly kept?: readonly string[];
    /** Text that must go (a replaced built-in's own block). */
    readonly gone?: readonly string[];
}

const CASES: readonly PromptCase[] = [
    {
        label: "excluded view, grep and glob",
        config: () => ({ excludedTools: ["view", "grep", "glob"] }),
        missing: ["view", "grep", "glob"],
        note: "does not offer the tools",
    },
    {
        // The built-in's own block goes; when to call a tool named view, and that its calls run
        // in parallel, hold for the app's view too (promptRewrite.ts).
        label: "a custom view replacing the built-in",
        config: () => ({ tools: [{ ...recordingTool("view"), overridesBuiltInTool: true }] }),
        missing: [],
        note: "The tool view is this application's own: follow its description",
        kept: ["make 3 view tool calls in one response", "**view** instead of"],
        gone: ["<view>\n"],
    },
    {
        label: "an excluded view (grep and glob offered)",
        config: () => ({ excludedTools: ["view"] }),
        missing: ["view"],
        note: "does not offer the tool view: where any instruction names it,",
        kept: [
            "**grep** instead of commands such as `grep`/`rg` and **glob** instead of `find`/`ls`.",
            "If the ask_user tool is not available, present the follow-up options",
        ],
    },
    {
        label: "an excluded bash (glob and grep offered)",
        config: () => ({ excludedTools: ["bash"] }),
        missing: ["bash"],
        note: "does not offer the tool bash: where any instruction names it,",
        kept: [
            "For code, prefer: available code intelligence > available LSP > glob > grep with a glob.",
        ],
    },
    {
        label: "availableTools narrowed to toolset:search",
        config: () => ({ availableTools: ["toolset:search"] }),
        missing: ["view", "edit", "create", "bash"],
        note: "does not offer the tools",
    },
];

describe.each(RUNTIMES)("promptAgreement on the %s runtime", (_label, clientOptions) => {
    const cleanups = cleanupStack();
    let rig: Rig;
    beforeAll(async () => {
        rig = await e2eRig(
            cleanups.defer,
            (baseDirectory) =>
                new CopilotClient({ baseDirectory, onToolWarning: () => {}, ...clientOptions })
        );
    });
    afterAll(() => cleanups.run());

    it.for(CASES)(
        "$label: no mention of what the session lacks, and the note",
        async (testCase) => {
            const missing = new Set(testCase.missing);
            const off = await firstPrompt(rig, {
                ...testCase.config(),
                promptAgreement: "off",
            });
            // The runtime's own text names them: the case can fail.
            if (missing.size > 0) expect(mentioned(off.prompt, missing).length).toBeGreaterThan(0);
            const on = await firstPrompt(rig, { promptAgreement: "rewrite", ...testCase.config() });
            console.log(
                `${_label} ${testCase.label}: mentions before ${JSON.stringify(mentioned(off.prompt, missing))}, after (outside the note) ${JSON.stringify(mentioned(on.prompt.split("<tool_availability>")[0]!, missing))}; prompt ${off.prompt.length} -> ${on.prompt.length} characters`
            );
            // The note names what the session lacks; outside it, nothing recommends a missing tool
            // (a mention no transform reached would have to be covered by the note).
            expect(on.prompt).toContain(testCase.note);
            const noteText = on.prompt.slice(on.prompt.indexOf("<tool_availability>"));
            const outside = on.prompt.replace(noteText, "");
            const left = mentioned(outside, missing);
            for (const name of left) expect(noteText).toContain(name);
            expect(left).toEqual([]);
            // Each kept text is 1.0.85's wording: held where the runtime wrote it.
            for (const text of testCase.kept ?? []) {
                if (off.prompt.includes(text)) expect(outside, text).toContain(text);
            }
            for (const text of testCase.gone ?? []) expect(outside, text).not.toContain(text);
        }
    );

    it("unset, the mode follows the runtime's evidence: 'rewrite' where its corpus proves it, else 'warn' with the note", async ({
        onTestFinished,
    }) => {
        const lacks = new Set(["view", "grep", "glob"]);
        const session = await rig.client.createSession({
            ...rig.base(CLAUDE_MODEL),
            excludedTools: [...lacks],
        });
        onTestFinished(() => session.disconnect());
        const from = rig.model.requests.length;
        await session.sendAndWait({ prompt: "hello" });
        const [prompt] = systemPrompts(requestsFrom(rig, from));
        const { runtime, prompt: report } = session.toolResolution!;
        const corpus = MEASURED_PROMPT_SECTIONS.find(
            (entry) => entry.runtimeVersion === runtime.version
        )?.corpus;
        const proven =
            runtime.catalog === "measured" &&
            corpus !== undefined &&
            corpus.falseRemovals === 0 &&
            corpus.unlabelled === 0;
        console.log(`${_label}: runtime ${runtime.version} (${runtime.catalog}): ${report!.mode}`);
        expect(report!.mode).toBe(proven ? "rewrite" : "warn");
        expect(prompt).toContain("does not offer the tools glob, grep and view");
        const left = mentioned(prompt!.split("<tool_availability>")[0]!, lacks);
        if (proven) expect(left).toEqual([]);
        else expect(left.length).toBeGreaterThan(0);
    });

    it("a tool the package cannot confirm absent drives no removal, and the note names it", async ({
        onTestFinished,
    }) => {
        const session = await rig.client.createSession({
            ...rig.base(CLAUDE_MODEL),
            excludedTools: ["glob"],
            promptAgreement: "rewrite",
        });
        onTestFinished(() => session.disconnect());
        const from = rig.model.requests.length;
        await session.sendAndWait({ prompt: "hello" });
        const [prompt] = systemPrompts(requestsFrom(rig, from));
        const offered = new Set((rig.model.requests[from]!.tools ?? []).map(toolNameOf));
        const resolution = session.toolResolution!;
        const report = resolution.prompt!;
        console.log(
            `${_label}: catalog ${resolution.runtime.catalog} (${resolution.runtime.version}); unconfirmed ${JSON.stringify(report.unconfirmed)}; edits ${JSON.stringify(report.edits.map((edit) => edit.names))}`
        );
        // Nothing the session offers is edited out, whatever the catalog says.
        for (const edit of report.edits) {
            for (const name of edit.names) expect(offered.has(name), name).toBe(false);
        }
        if (resolution.runtime.catalog === "measured") {
            expect(report.unconfirmed).toEqual([]);
            return;
        }
        // An unmeasured runtime: only the app's exclusion drives a removal.
        expect(new Set(report.edits.flatMap((edit) => edit.names))).toEqual(new Set(["glob"]));
        expect(report.unconfirmed.length).toBeGreaterThan(0);
        expect(prompt).toMatch(/This session may not offer the tools? /);
        if (offered.has("skill") && prompt!.includes("<available_skills>")) {
            expect(prompt!.split("<skill>").length).toBe(prompt!.split("</skill>").length);
        }
    });

    it("a setTools that removes a tool mid-session: the next prompt no longer recommends it", async ({
        onTestFinished,
    }) => {
        // Created lacking glob, so the transforms are registered (a session with nothing to
        // agree on gets none, and a later change cannot add them).
        const session = await rig.client.createSession({
            ...rig.base(CLAUDE_MODEL),
            excludedTools: ["glob"],
            promptAgreement: "rewrite",
        });
        onTestFinished(() => session.disconnect());
        const from = rig.model.requests.length;
        await session.sendAndWait({ prompt: "hello" });
        if (typeof (session.rpc as { tools?: { set?: unknown } }).tools?.set !== "function") return;
        await session.setTools({ excludedTools: ["view"] });
        await session.sendAndWait({ prompt: "again" });
        const prompts = systemPrompts(requestsFrom(rig, from));
        expect(mentioned(prompts[0]!, new Set(["view"]))).toEqual(["view"]);
        expect(mentioned(prompts.at(-1)!, new Set(["view"]))).toEqual([]);
        expect(prompts.at(-1)).toContain(
            "does not offer the tool view: where any instruction names it,"
        );
    });

    it("a setModel from a Claude to a GPT model: the GPT prompt names no Claude-only tool", async ({
        onTestFinished,
    }) => {
        const session = await rig.client.createSession({
            ...rig.base(CLAUDE_MODEL),
            excludedTools: ["glob"],
            promptAgreement: "rewrite",
        });
        onTestFinished(() => session.disconnect());
        const from = rig.model.requests.length;
        await session.sendAndWait({ prompt: "hello" });
        await session.setModel(GPT_MODEL);
        await session.sendAndWait({ prompt: "again" });
        const prompts = systemPrompts(requestsFrom(rig, from));
        const offered = new Set((rig.model.requests.at(-1)!.tools ?? []).map(toolNameOf));
        const lacking = new Set([...NAMES].filter((name) => !offered.has(name)));
        const last = prompts.at(-1)!;
        const noteAt = last.indexOf("<tool_availability>");
        const left = mentioned(noteAt < 0 ? last : last.slice(0, noteAt), lacking);
        const { runtime, prompt } = session.toolResolution!;
        console.log(
            `${_label} setModel: after the switch the prompt names ${JSON.stringify(left)} of the tools the GPT request lacks (catalog ${runtime.catalog}; unconfirmed ${JSON.stringify(prompt?.unconfirmed)})`
        );
        if (runtime.catalog === "measured") {
            expect(left).toEqual([]);
        } else {
            // A runtime the package has not measured: what it cannot confirm absent is kept in
            // the text, and the note names it.
            for (const name of left) expect(prompt!.unconfirmed, name).toContain(name);
            expect(last.slice(noteAt)).toContain("This session may not offer the tools");
        }
    });
});

/**
 * Whether the package measured which sections of `runtimeVersion`'s prompt name tools
 * (data/prompt-section-names/): elsewhere it registers every section's transform.
 */
function sectionsMeasured(runtimeVersion: string): boolean {
    return existsSync(
        new URL(`../../data/prompt-section-names/runtime-${runtimeVersion}.json`, import.meta.url)
    );
}

describe("a session with nothing to agree on", () => {
    it("gets the SDK's own prompt, byte for byte, and no transform is registered", async ({
        onTestFinished,
    }) => {
        const defer = testCleanups(onTestFinished);
        const rig = await e2eRig(
            defer,
            (baseDirectory) => new CopilotClient({ baseDirectory, onToolWarning: () => {} })
        );
        // In a release run (the library form, `npm run test:release`) "copilot-sdk-unpatched" is
        // the pinned release, with another runtime: the release's own client is the class the
        // wrap extends.
        const Plain =
            process.env.COPILOT_SDK_RELEASE === undefined
                ? UnpatchedClient
                : (Object.getPrototypeOf(CopilotClient) as typeof UnpatchedClient);
        const plain = await e2eRig(defer, (baseDirectory) => new Plain({ baseDirectory }));
        await rig.client.start();
        const { version } = await rig.client.getStatus();
        // Measured only for some runtimes (1.0.85): elsewhere every transform is registered.
        if (!sectionsMeasured(version)) return;
        const prompts: string[] = [];
        for (const [each, client] of [
            [rig, rig.client],
            [plain, plain.client],
        ] as const) {
            const session = await client.createSession({
                ...each.base(CLAUDE_MODEL),
            } as never);
            defer(() => session.disconnect());
            await session.sendAndWait({ prompt: "hello" });
            // The session's own folder and id differ; nothing else may.
            prompts.push(
                systemPrompts(each.model.requests)[0]!
                    .replaceAll(each.baseDirectory, "<base>")
                    .replaceAll(session.sessionId, "<session>")
            );
            if (client === rig.client) {
                const resolution = (session as { toolResolution?: { prompt?: unknown } })
                    .toolResolution!;
                // No transform ran: no report, as with promptAgreement 'off'.
                expect(resolution.prompt).toBe(undefined);
            }
        }
        expect(prompts[0]).toBe(prompts[1]);
    });

    it("warns when a later setTools makes the instructions name a tool it no longer offers", async ({
        onTestFinished,
    }) => {
        const defer = testCleanups(onTestFinished);
        const warnings: { code: string; identifiers?: readonly string[] }[] = [];
        const rig = await e2eRig(
            defer,
            (baseDirectory) =>
                new CopilotClient({
                    baseDirectory,
                    onToolWarning: (warning: { code: string }) => void warnings.push(warning),
                } as never)
        );
        await rig.client.start();
        if (!sectionsMeasured((await rig.client.getStatus()).version)) return;
        const session = await rig.client.createSession({ ...rig.base(CLAUDE_MODEL) });
        defer(() => session.disconnect());
        await session.sendAndWait({ prompt: "hello" });
        if (typeof (session.rpc as { tools?: { set?: unknown } }).tools?.set !== "function") return;
        await session.setTools({ excludedTools: ["view"] });
        await session.setTools({ excludedTools: ["view"], availableTools: null });
        const told = warnings.filter((w) => w.code === "RUNTIME_PROMPT_NAMES_MISSING_TOOL");
        expect(told.map((w) => w.identifiers)).toEqual([["view"]]);
    });
});

describe("promptAgreement with a second client on the same session", () => {
    it("the client that resumed last decides: its transforms build the prompt, for its tools", async ({
        onTestFinished,
    }) => {
        const defer = testCleanups(onTestFinished);
        const rig = await twoClientRig(defer);
        const { other } = rig;
        const a = await rig.client.createSession({
            ...rig.base(CLAUDE_MODEL),
            excludedTools: ["view"],
            promptAgreement: "rewrite",
        });
        defer(() => a.disconnect());
        await a.sendAndWait({ prompt: "hello" });
        expect(a.toolResolution!.prompt!.builds).toBe(1);
        const b = await other.resumeSession(a.sessionId, {
            ...rig.base(CLAUDE_MODEL),
            excludedTools: ["grep"],
            promptAgreement: "rewrite",
        });
        defer(() => b.disconnect());
        await b.sendAndWait({ prompt: "again" });
        const prompts = systemPrompts(rig.model.requests);
        const last = prompts.at(-1)!;
        const offered = new Set((rig.model.requests.at(-1)!.tools ?? []).map(toolNameOf));
        const lacking = new Set([...NAMES].filter((name) => !offered.has(name)));
        console.log(
            `second client: builds A ${a.toolResolution?.prompt?.builds}, B ${b.toolResolution?.prompt?.builds}; last request offers view ${offered.has("view")}, grep ${offered.has("grep")}; the last prompt names ${JSON.stringify(mentioned(last.split("<tool_availability>")[0]!, lacking))} of what it lacks`
        );
        // B's resume sent B's transforms and B's tools: B's object built the prompt for them.
        expect(offered.has("grep")).toBe(false);
        expect(offered.has("view")).toBe(true);
        expect(b.toolResolution!.prompt!.builds).toBe(1);
        expect(a.toolResolution!.prompt!.builds).toBe(1);
        expect(mentioned(last.split("<tool_availability>")[0]!, lacking)).toEqual([]);
        expect(last).toContain("does not offer the tool grep: where any instruction names it,");
    });
});

describeNoLeftovers();
