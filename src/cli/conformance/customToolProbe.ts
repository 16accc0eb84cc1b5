import { rmSync } from "node:fs";
import type * as Sdk from "@github/copilot-sdk";
import type { RecordedTool, startMockChatModel } from "copilot-sdk-tool-override/mock-model";

// One custom tool named like a built-in, called once by the mock model: what the runtime did with
// it. Shared by the collision conformance suite (conformanceProbe.ts) and the comparison of two
// runtimes (compareProbe.ts).

/** The description that marks the probe's custom definition in the model's request. */
export const CUSTOM_DESCRIPTION = "conformance custom definition";
/** How long one probe turn may take. */
export const TURN_TIMEOUT_MS = 20_000;
/** The API key the probes give the mock model (one that never occurs in tool output by chance). */
const PROBE_KEY = "conformance-key-5d1";

export type OfferedTool = RecordedTool & {
    name?: string;
    description?: string;
};
export type Mock = Awaited<ReturnType<typeof startMockChatModel>>;

/** The BYOK provider option that points a probe's session at the mock model. */
export function probeProvider(mock: Pick<Mock, "baseUrl">): {
    type: "openai";
    baseUrl: string;
    apiKey: string;
} {
    return { type: "openai", baseUrl: mock.baseUrl, apiKey: PROBE_KEY };
}

/**
 * The SDK under test, as the pinned release types it: the probes drive whichever release is
 * installed, whose members they use are the public ones every 1.0 release has. The package's
 * additions (`toolResolution`, the patch marker) are optional here: an unpatched release lacks them.
 */
export type ProbedSdk = typeof Sdk & { TOOL_CUSTOMIZATION_PATCH?: unknown };
/** A client of the SDK under test. */
export type ProbedClient = Sdk.CopilotClient;
/** The options of a client of the SDK under test. */
export type ProbedClientOptions = Sdk.CopilotClientOptions;
/** A session of the SDK under test, with what the patched SDK adds to it where it does. */
export type ProbedSession = Sdk.CopilotSession & {
    toolResolution?: { enabledTools?: readonly string[]; runtime?: { catalog?: string } };
};

/**
 * The SDK client's options, with the patched SDK's `onToolWarning` (an unpatched release ignores
 * it): the probes keep the package's warnings out of their output.
 */
export function probeClientOptions(
    options: ProbedClientOptions
): ProbedClientOptions & { onToolWarning: () => void } {
    return { ...options, onToolWarning: () => {} };
}

export const nameOf = (tool: OfferedTool) => tool.function?.name ?? tool.custom?.name ?? tool.name;
const descriptionOf = (tool: OfferedTool) => tool.function?.description ?? tool.description;

/**
 * @param error - what createSession threw
 * @returns its code (a `SessionToolError`'s), else the start of its message
 */
export const refusalOf = (error: unknown): string => {
    const { code, message } = error as Error & { code?: string };
    return code ?? String(message).slice(0, 120);
};

/**
 * Removes a probe's base directory. A copilot CLI runs its binary as a child of a loader, and the
 * binary may still write its log into the directory for a moment after the client stopped the
 * loader. `rmSync`'s own `maxRetries` retries only the last `rmdir` (with a linear backoff that
 * sums to minutes), not the files written meanwhile; so the whole removal is tried again, every
 * 250 ms for at most 10 s. A folder still there then is left, and said.
 */
export async function removeProbeDirectory(dir: string): Promise<void> {
    for (let attempt = 1; ; attempt++) {
        try {
            rmSync(dir, { recursive: true, force: true });
            return;
        } catch (error) {
            if (attempt >= 40) {
                console.error(
                    `could not remove the probe's base directory ${dir}: ${error instanceof Error ? error.message : error}`
                );
                return;
            }
            await new Promise((done) => setTimeout(done, 250));
        }
    }
}

function fillerTools(count: number) {
    return Array.from({ length: count }, (_, i) => ({
        name: `conformance_filler_${i}`,
        description: "filler",
        handler: async () => "filler",
    }));
}

/**
 * One custom tool named `name`, called once by the model. Outcome:
 * - `refused:<code or message>`: createSession threw;
 * - `fails-at-send`: the turn failed (the runtime's conflict error, ...);
 * - `dropped`: the model never saw the custom definition;
 * - `built-in-answers`: the model saw it, but the handler never ran;
 * - `custom-runs`: the model saw exactly one definition, the custom one, and the handler ran;
 * - `duplicate-definitions`: the handler ran, but the model saw two definitions of the name.
 *
 * @param client - the SDK's client
 * @param sdk - the SDK module
 * @param flag - whether the tool sets `overridesBuiltInTool: true`
 * @param onSession - receives each session made
 * @param extra - more session options
 * @param fillers - filler tools beside it
 */
export async function probeCustomTool(
    client: ProbedClient,
    mock: Mock,
    sdk: Pick<ProbedSdk, "approveAll">,
    model: string,
    name: string,
    flag: boolean,
    onSession: (session: ProbedSession) => void = () => {},
    extra: object = {},
    fillers: number = 0
): Promise<string> {
    let ran = false;
    const tool = {
        name,
        description: CUSTOM_DESCRIPTION,
        parameters: { type: "object", properties: {} },
        skipPermission: true,
        handler: async () => {
            ran = true;
            return "custom handler ran";
        },
        ...(flag ? { overridesBuiltInTool: true } : {}),
    };
    let session;
    try {
        session = await client.createSession({
            model,
            provider: probeProvider(mock),
            onPermissionRequest: sdk.approveAll,
            tools: [tool, ...fillerTools(fillers)],
            ...extra,
        });
    } catch (error) {
        return `refused:${refusalOf(error)}`;
    }
    onSession(session);
    const first = mock.requests.length;
    mock.toolCalls = [name];
    try {
        await session.sendAndWait({ prompt: "call the tool" }, TURN_TIMEOUT_MS);
    } catch {
        if (mock.requests.length === first) return "fails-at-send";
    } finally {
        mock.toolCalls = undefined;
        await session.disconnect().catch(() => {});
    }
    const definitions = (mock.requests[first]?.tools ?? []).filter((t) => nameOf(t) === name);
    if (!definitions.some((t) => descriptionOf(t) === CUSTOM_DESCRIPTION)) return "dropped";
    if (!ran) return "built-in-answers";
    return definitions.length === 1 ? "custom-runs" : "duplicate-definitions";
}
