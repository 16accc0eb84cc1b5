// What one runtime does with the tools an app relies on, for `conformance --compare`: run in a
// child process per runtime, so that each gets its own SDK instances.
//
// Usage:
//   node compareProbe.js <sdk dir> <copilot CLI> <json list of tool names> <out.json>
//       [<patched sdk dir> [<app module>]]
// Writes a {@link CompareProbeResult}. The SDK at <sdk dir> (unpatched) drives the runtime at
// <copilot CLI> (`RuntimeConnection.forStdio`), offline, with the mock model on 127.0.0.1; the
// patched SDK at <patched sdk dir> runs the prompt probe's cases (promptProbe.ts) and, with an app
// module, the app's session config.

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { connectionTo } from "./externalRuntime.js";
import {
    type Mock,
    type ProbedClient,
    type ProbedSdk,
    probeClientOptions,
    nameOf,
    probeProvider,
    probeCustomTool,
    refusalOf,
    removeProbeDirectory,
    TURN_TIMEOUT_MS,
} from "./customToolProbe.js";
import { startMockChatModel } from "copilot-sdk-tool-override/mock-model";
import { probePromptScenarios, type PromptScenarioResult } from "./promptProbe.js";
import { probePromptCorpus, type CorpusRun } from "./corpusProbe.js";
import { probeAgents, type AgentProbeResult } from "./agentProbe.js";

/** The two model families whose built-ins differ. */
export const COMPARE_MODELS = ["claude-sonnet-4.5", "gpt-4o"] as const;

export interface CompareProbeResult {
    /** `status.get`'s version */
    runtimeVersion: string;
    /** `tools.list({})` */
    listed: string[];
    /** `tools.list({ model })`, by model */
    listedByModel: Record<string, string[]>;
    /**
     * the tools of a session without custom tools, as the model saw them in its first request, by
     * model
     */
    offered: Record<string, string[]>;
    /**
     * per model, per app tool name, the outcome without and with `overridesBuiltInTool: true` (see
     * customToolProbe.ts)
     */
    names: Record<string, Record<string, { noFlag: string; flag: string }>>;
    /** the app's session config on the patched SDK: the tools the model saw, by model */
    app: Record<string, { seen: string[] } | { refused: string }> | undefined;
    /** the prompt probe's cases on the patched SDK (promptProbe.ts); absent without one */
    prompt?: PromptScenarioResult[];
    /** the labelled corpus on the patched SDK (corpusProbe.ts); absent without one */
    corpus?: CorpusRun;
    /** the built-in sub-agents on the patched SDK (agentProbe.ts); absent without one */
    agents?: AgentProbeResult;
}

/**
 * The tools in the model's first request of a session made with `config`.
 */
async function seenTools(
    client: ProbedClient,
    sdk: ProbedSdk,
    mock: Mock,
    model: string,
    config: object
): Promise<{ seen: string[] } | { refused: string }> {
    let session;
    try {
        session = await client.createSession({
            ...config,
            model,
            provider: probeProvider(mock),
            onPermissionRequest: sdk.approveAll,
        });
    } catch (error) {
        return { refused: refusalOf(error) };
    }
    try {
        const first = mock.requests.length;
        await session.sendAndWait({ prompt: "hello" }, TURN_TIMEOUT_MS).catch(() => {});
        return {
            seen: ((mock.requests[first]?.tools ?? []).map(nameOf) as string[]).sort(),
        };
    } finally {
        await session.disconnect().catch(() => {});
    }
}

/**
 * The session config an app module exports: `sessionConfig`, else its default export.
 */
export async function appSessionConfig(modulePath: string): Promise<Record<string, unknown>> {
    const module = await import(pathToFileURL(resolve(modulePath)).href);
    const config = module.sessionConfig ?? module.default;
    if (config === null || typeof config !== "object") {
        throw new Error(
            `--app '${modulePath}' exports no session config: ` +
                `export it as \`sessionConfig\` or as the default export (an object such as { tools, availableTools }).`
        );
    }
    return config;
}

/**
 * Runs `work` with a client of `sdk` connected to the CLI, on a fresh base directory.
 *
 * @template T
 */
async function withClient<T>(
    sdk: ProbedSdk,
    cliPath: string,
    work: (client: ProbedClient) => Promise<T>
): Promise<T> {
    const base = mkdtempSync(join(tmpdir(), "conformance-compare-"));
    const client = new sdk.CopilotClient(
        probeClientOptions({ ...connectionTo(sdk, cliPath), baseDirectory: base })
    );
    try {
        await client.start();
        return await work(client);
    } finally {
        await client.stop().catch(() => {});
        await removeProbeDirectory(base);
    }
}

const namesIn = (listing: unknown) =>
    (listing as { tools?: { name: string }[] }).tools?.map((tool) => tool.name).sort() ?? [];

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
    const [sdkDir = "", cliPath = "", namesJson = "[]", outFile = "", patchedDir, appModule] =
        process.argv.slice(2);
    const sdk = await import(pathToFileURL(join(sdkDir, "dist", "index.js")).href);
    const names: string[] = JSON.parse(namesJson);
    const mock = await startMockChatModel();
    try {
        const result: CompareProbeResult = await withClient(sdk, cliPath, async (client) => {
            const found: CompareProbeResult = {
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
                const byName: Record<string, { noFlag: string; flag: string }> = {};
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
        if (patchedDir !== undefined) {
            const patched = await import(pathToFileURL(join(patchedDir, "dist", "index.js")).href);
            const config = appModule === undefined ? undefined : await appSessionConfig(appModule);
            await withClient(patched, cliPath, async (client) => {
                result.prompt = await probePromptScenarios(client, patched, mock, COMPARE_MODELS);
                result.corpus = await probePromptCorpus(client, patched, mock, COMPARE_MODELS);
                result.agents = await probeAgents(client, patched, COMPARE_MODELS);
                if (config === undefined) return;
                const byModel: Record<string, { seen: string[] } | { refused: string }> = {};
                for (const model of COMPARE_MODELS) {
                    byModel[model] = await seenTools(client, patched, mock, model, config);
                }
                result.app = byModel;
            });
        }
        writeFileSync(outFile, JSON.stringify(result, null, 2));
    } finally {
        await mock.close();
    }
}
