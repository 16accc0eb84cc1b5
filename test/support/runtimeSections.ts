/**
 * The runtime's own system prompt, captured when a test runs (not committed: they are the
 * runtime's words): a session whose `systemMessage` customizes every section the SDK lists
 * (`SYSTEM_MESSAGE_SECTIONS`) with a transform that records the section's text and returns it
 * unchanged, with the package's own agreement off, sends one message to the mock model; the
 * mock model records the request, whose first `system` message is the whole prompt.
 */
import {
    CopilotClient,
    SYSTEM_MESSAGE_SECTIONS,
    type SessionConfig,
    type SystemMessageSection,
} from "@github/copilot-sdk";
import { e2eRig, type Defer } from "./e2eHarness.js";
import { contentText, toolNameOf } from "./mockModel.js";

/** What one capture saw. */
export interface CapturedPrompt {
    /** By section id, the text the runtime handed the transform (the latest call). */
    readonly sections: ReadonlyMap<string, string>;
    /** The whole system prompt of the first request. */
    readonly system: string;
    /** The tool names of the first request. */
    readonly tools: readonly string[];
    /** The runtime's version, as the client reports it. */
    readonly runtimeVersion: string;
}

/** The section ids the SDK under test lists. */
export const SECTION_IDS = Object.keys(SYSTEM_MESSAGE_SECTIONS) as SystemMessageSection[];

/**
 * Captures the runtime's sections and prompt for a session with `options`.
 *
 * @param defer - the test's clean-ups
 * @param modelId - the model id
 * @param options - more session options (filters, tools)
 * @param clientOptions - more client options (a `connection` to another runtime)
 */
export async function captureRuntimePrompt(
    defer: Defer,
    modelId: string,
    options: Partial<SessionConfig> = {},
    clientOptions: Record<string, unknown> = {}
): Promise<CapturedPrompt> {
    const rig = await e2eRig(
        defer,
        (baseDirectory) =>
            new CopilotClient({ baseDirectory, onToolWarning: () => {}, ...clientOptions })
    );
    const sections = new Map<string, string>();
    const overrides = Object.fromEntries(
        SECTION_IDS.map((id) => [
            id,
            {
                action: (text: string) => {
                    sections.set(id, text);
                    return text;
                },
            },
        ])
    );
    const session = await rig.client.createSession({
        ...rig.base(modelId),
        ...options,
        promptAgreement: "off",
        systemMessage: { mode: "customize", sections: overrides },
    } as SessionConfig);
    defer(() => session.disconnect());
    await session.sendAndWait({ prompt: "hello" });
    const request = rig.model.requests[0]!;
    const system = request.messages.find((message) => message.role === "system");
    const status = (await rig.client.getStatus()) as { version?: string };
    return {
        sections,
        system: system === undefined ? "" : contentText(system.content),
        tools: (request.tools ?? []).map(toolNameOf),
        runtimeVersion: String(status.version),
    };
}
