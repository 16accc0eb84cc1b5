// The scenarios of the collision conformance suite, run against one installed SDK (patched or
// not) and its real bundled runtime, with a mock OpenAI-style model on 127.0.0.1.
//
// Usage (a child process per SDK, so each imports its own copy):
//   node conformanceProbe.js <sdk dir> <json list of tool names> <out.json> [<copilot CLI>]
// Writes { runtimeVersion, names: { [model]: { [name]: { noFlag, flag } } }, filters: [...] },
// and on a patched SDK the prompt probe's cases (promptProbe.ts) as `prompt`.
// With a CLI path, the SDK drives that runtime (`RuntimeConnection.forStdio`) instead of its
// bundled one, and the names the runtime lists (`tools.list`) are probed too, so that a built-in
// newer than every measurement is not missed.

import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { connectionTo } from "./externalRuntime.js";
import { startMockChatModel } from "copilot-sdk-tool-override/mock-model";
import { probePromptScenarios, type PromptScenarioResult } from "./promptProbe.js";
import { probePromptCorpus, type CorpusRun } from "./corpusProbe.js";
import { CORPUS_MODELS } from "./promptCorpus.js";
import { probeAgents, type AgentProbeResult } from "./agentProbe.js";
import {
    type Mock,
    type ProbedClient,
    type ProbedSdk,
    type ProbedSession,
    probeClientOptions,
    nameOf,
    probeProvider,
    probeCustomTool,
    refusalOf,
    removeProbeDirectory,
    TURN_TIMEOUT_MS,
} from "./customToolProbe.js";

const [sdkDir = "", namesJson = "[]", outFile = "", cliPath] = process.argv.slice(2);
/**
 * The SDK under test, loaded from its install: its types are those of whichever release it is,
 * so they are not checked here.
 */
const sdk: ProbedSdk = await import(pathToFileURL(join(sdkDir, "dist", "index.js")).href);
const { CopilotClient, approveAll } = sdk;
const patched = sdk.TOOL_CUSTOMIZATION_PATCH !== undefined;
const MODELS = ["claude-sonnet-4.5", "gpt-4o"] as const;
/** Where the patched SDK took its built-in names from (`toolResolution.runtime.catalog`). */
let catalog: string | undefined;

/**
 * What the probe writes to its output file (JSON), for conformance.ts: per
 * model, per name, the outcome without and with the flag; the tool-search probes; the filter
 * scenarios; and where the patched SDK took its built-in names from.
 */
export interface ProbeResult {
    patched: boolean;
    runtimeVersion: string;
    names: Record<string, Record<string, { noFlag: string; flag: string }>>;
    filters: ({ label: string } & (
        { refused: string } | { seen: string[][]; enabledTools: readonly string[] | undefined }
    ))[];
    toolSearch: { deferring: string; enabledOnly: string };
    catalog: string | undefined;
    /** The patched SDK only: the prompt probe's cases (promptProbe.ts). */
    prompt?: PromptScenarioResult[];
    /** The patched SDK only: the labelled corpus on this runtime (corpusProbe.ts). */
    corpus?: CorpusRun;
    /** The patched SDK only: the built-in sub-agents under the cases (agentProbe.ts). */
    agents?: AgentProbeResult;
}

/**
 * {@link probeCustomTool} with this probe's SDK; notes where the patched SDK took its built-in
 * names from.
 */
const probe = (
    client: ProbedClient,
    mock: Mock,
    model: string,
    name: string,
    flag: boolean,
    extra: object = {},
    fillers: number = 0
) =>
    probeCustomTool(
        client,
        mock,
        sdk,
        model,
        name,
        flag,
        (session) => {
            catalog ??= session.toolResolution?.runtime?.catalog;
        },
        extra,
        fillers
    );

/**
 * Which tools the model is offered under a filter, and what toolResolution says.
 *
 * @param client - the SDK's client
 * @param config - the filter options
 * @param switchTo - a model to switch to for a second turn
 */
async function filterScenario(
    client: ProbedClient,
    mock: Mock,
    model: string,
    config: object,
    switchTo: string | undefined
): Promise<
    { refused: string } | { seen: string[][]; enabledTools: readonly string[] | undefined }
> {
    let session;
    try {
        session = await client.createSession({
            model,
            provider: probeProvider(mock),
            onPermissionRequest: approveAll,
            ...config,
        });
    } catch (error) {
        return { refused: refusalOf(error) };
    }
    try {
        const seen: string[][] = [];
        for (const next of [undefined, switchTo]) {
            if (next === undefined && seen.length > 0) break;
            if (next !== undefined) await session.setModel(next);
            const first = mock.requests.length;
            await session.sendAndWait({ prompt: "hello" }, TURN_TIMEOUT_MS).catch(() => {});
            seen.push(((mock.requests[first]?.tools ?? []).map(nameOf) as string[]).sort());
            if (switchTo === undefined) break;
        }
        return { seen, enabledTools: (session as ProbedSession).toolResolution?.enabledTools };
    } finally {
        await session.disconnect().catch(() => {});
    }
}

const FILTERS: { label: string; config: object; switchTo?: string }[] = [
    { label: "availableTools ['toolset:edit']", config: { availableTools: ["toolset:edit"] } },
    {
        label: "availableTools ['toolset:edit'], then setModel('gpt-4o')",
        config: { availableTools: ["toolset:edit"] },
        switchTo: "gpt-4o",
    },
    { label: "excludedTools ['toolset:execute']", config: { excludedTools: ["toolset:execute"] } },
    {
        label: "availableTools ['toolset:read', 'toolset:search'], excludedTools ['grep']",
        config: { availableTools: ["toolset:read", "toolset:search"], excludedTools: ["grep"] },
    },
    { label: "availableTools []", config: { availableTools: [] } },
];

const base = mkdtempSync(join(tmpdir(), "conformance-"));
const mock = await startMockChatModel();
const client = new CopilotClient(
    probeClientOptions({
        ...(cliPath === undefined ? {} : connectionTo(sdk, cliPath)),
        baseDirectory: base,
    })
);
try {
    await client.start();
    const result: Omit<ProbeResult, "catalog" | "toolSearch"> & Partial<ProbeResult> = {
        patched,
        runtimeVersion: (await client.getStatus()).version,
        names: {},
        filters: [],
    };
    const names = new Set<string>(JSON.parse(namesJson));
    if (cliPath !== undefined) {
        for (const tool of (await client.rpc.tools.list({})).tools) names.add(tool.name);
    }
    for (const model of MODELS) {
        const byName: Record<string, { noFlag: string; flag: string }> = {};
        result.names[model] = byName;
        for (const name of [...names].sort()) {
            byName[name] = {
                noFlag: await probe(client, mock, model, name, false),
                flag: await probe(client, mock, model, name, true),
            };
        }
    }
    // The runtime keeps a custom tool-search tool only while tool search defers tools.
    result.toolSearch = {
        deferring: await probe(
            client,
            mock,
            MODELS[0],
            "tool_search_tool",
            true,
            { toolSearch: { enabled: true, deferThreshold: 1 } },
            2
        ),
        enabledOnly: await probe(client, mock, MODELS[0], "tool_search_tool", true, {
            toolSearch: { enabled: true },
        }),
    };
    for (const scenario of FILTERS) {
        result.filters.push({
            label: scenario.label,
            ...(await filterScenario(client, mock, MODELS[0], scenario.config, scenario.switchTo)),
        });
    }
    // What the runtime's instructions say of tools a session lacks, before and after the
    // package's rewrite: the patched SDK reports it.
    if (patched) result.prompt = await probePromptScenarios(client, sdk, mock, MODELS);
    if (patched) result.corpus = await probePromptCorpus(client, sdk, mock, CORPUS_MODELS);
    if (patched) result.agents = await probeAgents(client, sdk, MODELS);
    writeFileSync(outFile, JSON.stringify({ ...result, catalog }, null, 2));
} finally {
    await client.stop().catch(() => {});
    await mock.close();
    // An external CLI runs its binary as a child of a loader; see removeProbeDirectory.
    await removeProbeDirectory(base);
}
