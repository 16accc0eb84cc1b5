// What one runtime does with the tools an app relies on, for `conformance --compare`: run in a
// child process per runtime, so that each gets its own SDK instances.
//
// Usage:
//   node compareProbe.mjs <sdk dir> <copilot CLI> <json list of tool names> <out.json>
//       [<app module> <patched sdk dir>]
// Writes a {@link CompareProbeResult}. The SDK at <sdk dir> (unpatched) drives the runtime at
// <copilot CLI> (`RuntimeConnection.forStdio`), offline, with the mock model on 127.0.0.1; with an
// app module, the app's session config also runs on the patched SDK at <patched sdk dir>.

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { connectionTo } from "./externalRuntime.mjs";
import {
    nameOf,
    PROBE_KEY,
    probeCustomTool,
    refusalOf,
    removeProbeDirectory,
    TURN_TIMEOUT_MS,
} from "./customToolProbe.mjs";
import { startMockChatModel } from "../../../build/esm/mockModel/mockChatModel.js";

/** The two model families whose built-ins differ. */
export const COMPARE_MODELS = /** @type {const} */ (["claude-sonnet-4.5", "gpt-4o"]);

/**
 * @typedef {object} CompareProbeResult
 * @property {string} runtimeVersion `status.get`'s version
 * @property {string[]} listed `tools.list({})`
 * @property {Record<string, string[]>} listedByModel `tools.list({ model })`, by model
 * @property {Record<string, string[]>} offered the tools of a session without custom tools, as
 *   the model saw them in its first request, by model
 * @property {Record<string, Record<string, { noFlag: string, flag: string }>>} names per model,
 *   per app tool name, the outcome without and with `overridesBuiltInTool: true` (see
 *   customToolProbe.mjs)
 * @property {Record<string, { seen: string[] } | { refused: string }> | undefined} app the app's
 *   session config on the patched SDK: the tools the model saw, by model
 */

/**
 * The tools in the model's first request of a session made with `config`.
 *
 * @param {any} client
 * @param {any} sdk
 * @param {import("./customToolProbe.mjs").Mock} mock
 * @param {string} model
 * @param {object} config
 * @returns {Promise<{ seen: string[] } | { refused: string }>}
 */
async function seenTools(client, sdk, mock, model, config) {
    let session;
    try {
        session = await client.createSession({
            ...config,
            model,
            provider: { type: "openai", baseUrl: mock.baseUrl, apiKey: PROBE_KEY },
            onPermissionRequest: sdk.approveAll,
        });
    } catch (error) {
        return { refused: refusalOf(error) };
    }
    try {
        const first = mock.requests.length;
        await session.sendAndWait({ prompt: "hello" }, TURN_TIMEOUT_MS).catch(() => {});
        return {
            seen: /** @type {string[]} */ ((mock.requests[first]?.tools ?? []).map(nameOf)).sort(),
        };
    } finally {
        await session.disconnect().catch(() => {});
    }
}

/**
 * The session config an app module exports: `sessionConfig`, else its default export.
 *
 * @param {string} modulePath
 * @returns {Promise<Record<string, unknown>>}
 */
export async function appSessionConfig(modulePath) {
    const module = await import(pathToFileURL(resolve(modulePath)).href);
    const config = module.sessionConfig ?? module.default;
    if (config === null || typeof config !== "object") {
        throw new Error(
            `--app '${modulePath}' exports no session config: export it as \`sessionConfig\` or as the default export (an object such as { tools, availableTools }).`
        );
    }
    return config;
}

/**
 * Runs `work` with a client of `sdk` connected to the CLI, on a fresh base directory.
 *
 * @template T
 * @param {any} sdk
 * @param {string} cliPath
 * @param {(client: any) => Promise<T>} work
 * @returns {Promise<T>}
 */
async function withClient(sdk, cliPath, work) {
    const base = mkdtempSync(join(tmpdir(), "conformance-compare-"));
    const client = new sdk.CopilotClient({
        ...connectionTo(sdk, cliPath),
        baseDirectory: base,
        onToolWarning: () => {},
    });
    try {
        await client.start();
        return await work(client);
    } finally {
        await client.stop().catch(() => {});
        await removeProbeDirectory(base);
    }
}

/** @param {unknown} listing */
const namesIn = (listing) =>
    /** @type {{ tools?: { name: string }[] }} */ (listing).tools
        ?.map((tool) => tool.name)
        .sort() ?? [];

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
    const [sdkDir = "", cliPath = "", namesJson = "[]", outFile = "", appModule, patchedDir] =
        process.argv.slice(2);
    const sdk = await import(pathToFileURL(join(sdkDir, "dist", "index.js")).href);
    /** @type {string[]} */
    const names = JSON.parse(namesJson);
    const mock = await startMockChatModel();
    try {
        /** @type {CompareProbeResult} */
        const result = await withClient(sdk, cliPath, async (client) => {
            /** @type {CompareProbeResult} */
            const found = {
                runtimeVersion: (await client.getStatus()).version,
                listed: namesIn(await client.rpc.tools.list({})),
                listedByModel: {},
                offered: {},
                names: {},
                app: undefined,
            };
            for (const model of COMPARE_MODELS) {
                found.listedByModel[model] = namesIn(await client.rpc.tools.list({ model }));
                const offered = await seenTools(client, sdk, mock, model, {});
                found.offered[model] = "seen" in offered ? offered.seen : [];
                /** @type {Record<string, { noFlag: string, flag: string }>} */
                const byName = {};
                for (const name of names) {
                    byName[name] = {
                        noFlag: await probeCustomTool(client, mock, sdk, model, name, false),
                        flag: await probeCustomTool(client, mock, sdk, model, name, true),
                    };
                }
                found.names[model] = byName;
            }
            return found;
        });
        if (appModule !== undefined && patchedDir !== undefined) {
            const patched = await import(pathToFileURL(join(patchedDir, "dist", "index.js")).href);
            const config = await appSessionConfig(appModule);
            result.app = await withClient(patched, cliPath, async (client) => {
                /** @type {Record<string, { seen: string[] } | { refused: string }>} */
                const byModel = {};
                for (const model of COMPARE_MODELS) {
                    byModel[model] = await seenTools(client, patched, mock, model, config);
                }
                return byModel;
            });
        }
        writeFileSync(outFile, JSON.stringify(result, null, 2));
    } finally {
        await mock.close();
    }
}
