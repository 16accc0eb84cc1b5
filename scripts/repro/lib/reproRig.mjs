// What the bug-report reproductions (scripts/repro/repro.mjs) run on: one installed SDK, patched or
// not, with its real bundled runtime in a temporary base directory, and the project's mock chat
// model on 127.0.0.1. No account and no network: the sessions use the mock model as a BYOK
// provider.

import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/**
 * The SDK copies a reproduction runs on: the npm alias, never patched (the SDK as published,
 * which is what the reports are about); and the installed @github/copilot-sdk with this
 * project's whole patch, for contrast.
 */
export const SDKS = [
    {
        label: "unpatched",
        get directory() {
            return join(ROOT, "node_modules", "copilot-sdk-unpatched");
        },
        description: "copilot-sdk-unpatched, the SDK as published",
    },
    {
        label: "patched",
        get directory() {
            return join(ROOT, "node_modules", "@github", "copilot-sdk");
        },
        description: "@github/copilot-sdk with this project's patch",
    },
];

/** The model that is offered `view`, `edit`, `grep` (Claude family). */
export const CLAUDE = "claude-sonnet-4.5";
/** The model that is offered `apply_patch`, `rg` (GPT family). */
export const GPT = "gpt-4o";

const TURN_TIMEOUT_MS = 20_000;

/** @typedef {import("../../../build/esm/mockModel/mockChatModel.js").RecordedTool & { name?: string, description?: string }} OfferedTool */
/** @param {OfferedTool} tool */
const nameOf = (tool) => tool.function?.name ?? tool.custom?.name ?? tool.name;
/** @param {OfferedTool} tool */
const descriptionOf = (tool) => tool.function?.description ?? tool.description;
/** @param {unknown} content a message's content: a string or content parts */
const textOf = (content) =>
    typeof content === "string"
        ? content
        : /** @type {{ text?: string }[]} */ (content ?? [])
              .map((part) => part.text ?? "")
              .join("");

/**
 * The SDK of a reproduction, loaded at run time from its install (patched or not): its types
 * are not checked here.
 *
 * @typedef {any} SdkClient
 * @typedef {any} SdkSession
 */

/**
 * What a failed SDK call throws: an Error, with the patch's `code` on a `SessionToolError`.
 *
 * @typedef {Error & { code?: string }} SdkError
 */

/**
 * What a turn did: the error of a failed send, the tool definitions the model was offered, and
 * the tool results the model got back.
 *
 * @typedef {object} TurnOutcome
 * @property {SdkError | undefined} error
 * @property {boolean} reachedModel
 * @property {{ name: string | undefined, description: string | undefined }[]} offered
 * @property {(name: string) => { name: string | undefined, description: string | undefined }[]} definitionsOf
 * @property {string[]} results
 */

/**
 * What a scenario runs on: one started client of one SDK and the mock model.
 *
 * @typedef {object} ReproRig
 * @property {string} sdkVersion
 * @property {string} runtimeVersion
 * @property {boolean} patched
 * @property {{ code?: string, message: string }[]} warnings the patch's tool warnings
 * @property {SdkClient} client
 * @property {any} sdk the SDK's module (its exports), for a scenario that needs another client
 * @property {() => number} sessionsOnDisk
 * @property {(modelId: string, config?: object) => Promise<{ session?: SdkSession, error?: SdkError }>} createSession
 * @property {(session: SdkSession, calls?: string[]) => Promise<TurnOutcome>} turn
 */

/**
 * A custom tool whose description says which one it is and whose handler records that it ran.
 *
 * @param {string} name - the tool name
 * @param {string} tag - a label that tells two tools of one name apart
 * @param {object} [extra] - more tool fields, such as `overridesBuiltInTool: true`
 */
export function taggedTool(name, tag, extra = {}) {
    const tool = {
        name,
        description: `Custom tool ${tag}: the app's own implementation.`,
        parameters: { type: "object", properties: {} },
        skipPermission: true,
        calls: 0,
        handler: async () => {
            tool.calls += 1;
            return `custom handler ${tag} ran`;
        },
        ...extra,
    };
    return tool;
}

/**
 * Starts a client of one SDK on a fresh base directory and hands it to `body`; stops the
 * client and removes the directory afterwards, whatever happens.
 *
 * @param {{ directory: string }} sdk - one of {@link SDKS}
 * @param {{ baseUrl: string, toolCalls?: string[], requests: import("../../../build/esm/mockModel/mockChatModel.js").RecordedChatRequest[] }} model - the mock model
 * @param {(rig: ReproRig) => Promise<T>} body - the scenario
 * @returns {Promise<T>}
 * @template T
 */
export async function withRuntime(sdk, model, body) {
    const module = await import(pathToFileURL(join(sdk.directory, "dist", "index.js")).href);
    const { version } = JSON.parse(readFileSync(join(sdk.directory, "package.json"), "utf8"));
    const patched = module.TOOL_CUSTOMIZATION_PATCH !== undefined;
    /** @type {ReproRig["warnings"]} */
    const warnings = [];
    const baseDirectory = mkdtempSync(join(tmpdir(), "copilot-repro-"));
    // COPILOT_EXTERNAL_RUNTIME: a copilot binary to run instead of the SDK's own runtime.
    const external = process.env.COPILOT_EXTERNAL_RUNTIME;
    const client = new module.CopilotClient({
        baseDirectory,
        ...(external ? { connection: module.RuntimeConnection.forStdio({ path: external }) } : {}),
        ...(patched
            ? {
                  onToolWarning: (/** @type {ReproRig["warnings"][number]} */ warning) =>
                      warnings.push(warning),
              }
            : {}),
    });
    try {
        await client.start();
        const runtimeVersion = (await client.getStatus()).version;
        return await body({
            sdkVersion: version,
            runtimeVersion,
            patched,
            warnings,
            client,
            sdk: module,
            /** The sessions the runtime keeps on disk (session-state/<id>) in this base directory. */
            sessionsOnDisk() {
                const states = join(baseDirectory, "session-state");
                return existsSync(states) ? readdirSync(states).length : 0;
            },
            /**
             * `createSession` with the mock model; resolves to `{ session }` or `{ error }`.
             * Sessions end with the client, when `body` returns.
             */
            async createSession(modelId, config = {}) {
                try {
                    const session = await client.createSession({
                        model: modelId,
                        provider: {
                            type: "openai",
                            baseUrl: model.baseUrl,
                            apiKey: "repro-provider-key-41c7",
                        },
                        onPermissionRequest: module.approveAll,
                        ...config,
                    });
                    return { session };
                } catch (error) {
                    return { error: /** @type {SdkError} */ (error) };
                }
            },
            /**
             * One user turn in which the mock model calls each of `calls` once. Resolves to
             * what the runtime did: the error of a failed send, the tool definitions the model
             * was offered, and the tool results the model got back.
             */
            async turn(session, calls = []) {
                const first = model.requests.length;
                model.toolCalls = calls;
                /** @type {SdkError | undefined} */
                let error;
                try {
                    await session.sendAndWait({ prompt: "Use your tools now." }, TURN_TIMEOUT_MS);
                } catch (caught) {
                    error = /** @type {SdkError} */ (caught);
                } finally {
                    model.toolCalls = undefined;
                }
                const offered = /** @type {OfferedTool[]} */ (
                    model.requests[first]?.tools ?? []
                ).map((tool) => ({
                    name: nameOf(tool),
                    description: descriptionOf(tool),
                }));
                const results = (model.requests[first + 1]?.messages ?? [])
                    .filter((message) => message.role === "tool")
                    .map((message) => textOf(message.content));
                return {
                    error,
                    reachedModel: model.requests.length > first,
                    offered,
                    definitionsOf: (name) => offered.filter((tool) => tool.name === name),
                    results,
                };
            },
        });
    } finally {
        await client.stop().catch(() => {});
        rmSync(baseDirectory, { recursive: true, force: true });
    }
}

/**
 * The first line of an error message, shortened for a one-line verdict.
 *
 * @param {unknown} error
 */
export function shortError(error) {
    const text = String(error instanceof Error ? error.message : error).split("\n")[0] ?? "";
    return text.length > 240 ? `${text.slice(0, 237)}...` : text;
}
