/**
 * Built-in names that `tools.list` does not show (they come from the generated lists in
 * src/builtInToolNames.generated.ts), against the real runtime: with the patched SDK a custom
 * tool of such a name either really overrides the built-in or is refused at construction, never
 * silently replaced by the built-in; the unpatched SDK shows the custom definition to the model
 * and runs the built-in.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { CopilotClient, SessionToolError, approveAll } from "@github/copilot-sdk";
import { CopilotClient as UnpatchedClient } from "copilot-sdk-unpatched";
import {
    CLAUDE_MODEL,
    GPT_MODEL,
    cleanupStack,
    mockModel,
    providerFor,
    recordingTool,
    sessionDirectories,
    temporaryBaseDirectory,
} from "../support/e2eHarness.js";
import { describeNoLeftovers } from "../support/noLeftovers.js";
import {
    FORBIDDEN_CUSTOM_TOOL_NAMES,
    UNHONOURED_OVERRIDE_TOOL_NAMES,
} from "../../src/builtInToolNames.generated.js";

/**
 * What the patched SDK must do with a custom tool of a reserved name: refuse it at construction
 * when the generated lists say the runtime ignores (or forbids) its override, else override it
 * for real. The e2e run checks those lists against the runtime.
 */
type Outcome = "overrides" | "refused";
const REFUSED_NAMES: ReadonlySet<string> = new Set([
    ...UNHONOURED_OVERRIDE_TOOL_NAMES,
    ...FORBIDDEN_CUSTOM_TOOL_NAMES,
]);
const outcomeFor = (name: string): Outcome => (REFUSED_NAMES.has(name) ? "refused" : "overrides");

/** [name, model, expected outcome]: a representative set of the unlisted reserved names. */
const RESERVED: readonly [string, string, Outcome][] = (
    [
        ["sql", CLAUDE_MODEL],
        ["update_todo", CLAUDE_MODEL],
        ["ask_user", CLAUDE_MODEL],
        ["skill", CLAUDE_MODEL],
        ["read_file", CLAUDE_MODEL],
        ["str_replace_editor", CLAUDE_MODEL],
        ["powershell", CLAUDE_MODEL],
        ["read_powershell", CLAUDE_MODEL],
        ["catalog_search", CLAUDE_MODEL],
        ["apply_patch", GPT_MODEL],
    ] as const
).map(([name, model]) => [name, model, outcomeFor(name)]);

describe("reserved names that tools.list omits, patched SDK (real runtime)", () => {
    const { defer, run } = cleanupStack();
    afterEach(run);
    let baseDirectory: string;
    let client: CopilotClient;

    beforeEach(() => {
        baseDirectory = temporaryBaseDirectory(defer);
        client = new CopilotClient({ baseDirectory, onToolWarning: () => {} });
        defer(() => client.stop());
    });

    it.each(RESERVED)(
        "a custom '%s' on %s: %s, never the silent built-in",
        async (name, modelId, expected) => {
            const local = cleanupStack();
            try {
                const model = await mockModel(local.defer, { toolCall: { name, arguments: {} } });
                const tool = recordingTool(name);
                const sessionsBefore = sessionDirectories(baseDirectory);

                const outcome = await client
                    .createSession({
                        model: modelId,
                        provider: providerFor(model),
                        onPermissionRequest: approveAll,
                        tools: [tool],
                    })
                    .then(
                        (session) => ({ session }),
                        (error: unknown) => ({ error })
                    );

                if ("error" in outcome) {
                    expect(outcome.error).toBeInstanceOf(SessionToolError);
                    expect((outcome.error as SessionToolError).code).toBe("UNSUPPORTED_OVERRIDE");
                    expect((outcome.error as SessionToolError).toolNames).toEqual([name]);
                    expect(model.requests).toEqual([]);
                    expect(sessionDirectories(baseDirectory)).toEqual(sessionsBefore);
                    expect(expected).toBe("refused");
                    return;
                }
                const reply = await outcome.session.sendAndWait({ prompt: `Call ${name}.` });
                const definitions = model.toolDefinitionsOf(0, name);
                expect(definitions).toHaveLength(1);
                expect(definitions[0]?.function?.description).toBe(tool.description);
                expect(tool.calls).toHaveLength(1);
                expect(model.toolResultsOf(1).map((result) => result.text)).toEqual([tool.result]);
                expect(reply?.data.content).toBe(`tool said: ${tool.result}`);
                expect(expected).toBe("overrides");
            } finally {
                await local.run();
            }
        }
    );
});

describe("reserved names that tools.list omits, unpatched SDK (control)", () => {
    const { defer, run } = cleanupStack();
    afterEach(run);
    let client: UnpatchedClient;

    beforeEach(() => {
        client = new UnpatchedClient({ baseDirectory: temporaryBaseDirectory(defer) });
        defer(() => client.stop());
    });

    it.each([
        ["update_todo", /"todos": Required/],
        ["read_file", /No file path provided/],
    ])(
        "shows the model the custom '%s', but its call runs the built-in",
        async (name, builtInAnswer) => {
            const local = cleanupStack();
            try {
                const model = await mockModel(local.defer, { toolCall: { name, arguments: {} } });
                const tool = recordingTool(name);
                const session = await client.createSession({
                    model: CLAUDE_MODEL,
                    provider: providerFor(model),
                    onPermissionRequest: approveAll,
                    tools: [tool],
                });

                await session.sendAndWait({ prompt: `Call ${name}.` });

                const definitions = model.toolDefinitionsOf(0, name);
                expect(definitions).toHaveLength(1);
                expect(definitions[0]?.function?.description).toBe(tool.description);
                expect(tool.calls).toEqual([]);
                const [result] = model.toolResultsOf(1);
                expect(result?.text).not.toContain(tool.result);
                expect(result?.text).toMatch(builtInAnswer);
            } finally {
                await local.run();
            }
        }
    );
});

describeNoLeftovers();
