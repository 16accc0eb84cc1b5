import { rmSync } from "node:fs";

// One custom tool named like a built-in, called once by the mock model: what the runtime did with
// it. Shared by the collision conformance suite (conformanceProbe.mjs) and the comparison of two
// runtimes (compareProbe.mjs).

/** The description that marks the probe's custom definition in the model's request. */
export const CUSTOM_DESCRIPTION = "conformance custom definition";
/** How long one probe turn may take. */
export const TURN_TIMEOUT_MS = 20_000;
/** The API key the probes give the mock model (one that never occurs in tool output by chance). */
export const PROBE_KEY = "conformance-key-5d1";

/** @typedef {import("../../../build/esm/mockModel/mockChatModel.js").RecordedTool & { name?: string, description?: string }} OfferedTool */
/** @typedef {Awaited<ReturnType<typeof import("../../../build/esm/mockModel/mockChatModel.js").startMockChatModel>>} Mock */

/** @param {OfferedTool} tool */
export const nameOf = (tool) => tool.function?.name ?? tool.custom?.name ?? tool.name;
/** @param {OfferedTool} tool */
const descriptionOf = (tool) => tool.function?.description ?? tool.description;

/**
 * @param {unknown} error what createSession threw
 * @returns {string} its code (a `SessionToolError`'s), else the start of its message
 */
export const refusalOf = (error) => {
    const { code, message } = /** @type {Error & { code?: string }} */ (error);
    return code ?? String(message).slice(0, 120);
};

/**
 * Removes a probe's base directory. A copilot CLI runs its binary as a child of a loader, and the
 * binary may still write its log into the directory for a moment after the client stopped the
 * loader. `rmSync`'s own `maxRetries` retries only the last `rmdir` (with a linear backoff that
 * sums to minutes), not the files written meanwhile; so the whole removal is tried again, every
 * 250 ms for at most 10 s. A folder still there then is left, and said.
 *
 * @param {string} dir
 * @returns {Promise<void>}
 */
export async function removeProbeDirectory(dir) {
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

/** @param {number} count */
function fillerTools(count) {
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
 * @param {any} client the SDK's client
 * @param {Mock} mock
 * @param {{ approveAll: unknown }} sdk the SDK module
 * @param {string} model
 * @param {string} name
 * @param {boolean} flag whether the tool sets `overridesBuiltInTool: true`
 * @param {(session: any) => void} [onSession] receives each session made
 * @param {object} [extra] more session options
 * @param {number} [fillers] filler tools beside it
 * @returns {Promise<string>}
 */
export async function probeCustomTool(
    client,
    mock,
    sdk,
    model,
    name,
    flag,
    onSession = () => {},
    extra = {},
    fillers = 0
) {
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
            provider: { type: "openai", baseUrl: mock.baseUrl, apiKey: PROBE_KEY },
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
