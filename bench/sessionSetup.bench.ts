/**
 * Benchmark: createSession through the patched and the unpatched SDK, side by side in one run,
 * against the real bundled runtime (offline; no model request is made at construction). Both
 * clients construct the same session: 20 custom tools, one overriding `view`, and a toolset
 * filter for the patched one (the unpatched SDK gets the equivalent plain list).
 *
 * - warm: one started client of each kind; sessions alternate between them one by one, so that
 *   machine noise hits both alike;
 * - new client: a fresh client of each kind per sample (start, first createSession, stop), the
 *   path where the patched step would pay for a catalog lookup if it needed one.
 *
 * - the step alone: `prepareSessionTools` in-process, the CPU time the patch adds per session.
 * - first send: createSession and the first `sendAndWait` to the mock model (loopback), with
 *   `promptAgreement` on (the default) for the patched client: the runtime builds its
 *   instructions at the first turn and asks the patched client's section transforms for them
 *   (one `systemMessage.transform` request, a rewrite of each section's text); the unpatched
 *   client answers no such request.
 *
 * Prints medians and the patched/unpatched ratio; no target, exits 0.
 */

import { mkdtempSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { CopilotClient, approveAll, type Tool } from "@github/copilot-sdk";
import { CopilotClient as UnpatchedClient } from "copilot-sdk-unpatched";
import { createSessionToolState, prepareSessionTools } from "../src/safetyNet/sessionToolSetup.js";
import { startMockModel } from "../src/mockModel/mockChatModel.js";

const MODEL = "claude-sonnet-4.5";
const PROVIDER = { type: "openai" as const, baseUrl: "http://127.0.0.1:9/v1", apiKey: "bench" };
const WARM_SAMPLES = 200;
const NEW_CLIENT_SAMPLES = 8;
const FIRST_SEND_SAMPLES = 40;

const handler = async (): Promise<string> => "ok";
const tools: Tool[] = [
    { name: "view", description: "custom view", handler, overridesBuiltInTool: true },
    ...Array.from({ length: 19 }, (_, i) => ({
        name: `custom_tool_${i}`,
        description: `custom tool ${i}`,
        parameters: { type: "object", properties: { path: { type: "string" } } },
        handler,
    })),
];
const patchedConfig = {
    availableTools: ["toolset:read", "toolset:edit", "custom:*"],
    excludedTools: ["create"],
};
/** The unpatched SDK gets what the patched step sends, so the difference is the step's cost. */
let unpatchedConfig: Record<string, unknown> = {};

interface Client {
    start(): Promise<void>;
    stop(): Promise<unknown>;
    createSession(config: Record<string, unknown>): Promise<{
        disconnect(): Promise<void>;
        sendAndWait(options: { prompt: string }): Promise<unknown>;
    }>;
}
type Kind = "patched" | "unpatched";

const baseDirectory = mkdtempSync(join(tmpdir(), "session-bench-"));
let clientCount = 0;

function newClient(kind: Kind): Client {
    const directory = join(baseDirectory, String(clientCount++));
    return (kind === "patched"
        ? new CopilotClient({ baseDirectory: directory, onToolWarning: () => {} })
        : new UnpatchedClient({ baseDirectory: directory })) as unknown as Client;
}

async function timeSession(client: Client, kind: Kind): Promise<number> {
    const start = performance.now();
    const session = await client.createSession({
        model: MODEL,
        provider: PROVIDER,
        onPermissionRequest: approveAll,
        ...(kind === "patched" ? { tools, ...patchedConfig } : unpatchedConfig),
    });
    const elapsed = performance.now() - start;
    await session.disconnect();
    return elapsed;
}

/** The first and third quartiles, for the spread next to a median. */
function quartiles(values: number[]): [number, number] {
    const sorted = [...values].sort((a, b) => a - b);
    return [sorted[Math.floor(sorted.length / 4)]!, sorted[Math.floor((3 * sorted.length) / 4)]!];
}

/**
 * createSession and the first send to the mock model, in ms each (one session per sample,
 * alternating kinds), with their medians, quartiles and ratio.
 */
async function firstSend(clients: Record<Kind, Client>, baseUrl: string, samples: number) {
    const times: Record<Kind, { create: number[]; send: number[] }> = {
        patched: { create: [], send: [] },
        unpatched: { create: [], send: [] },
    };
    for (let i = 0; i < samples; i++) {
        const order: Kind[] = i % 2 === 0 ? ["patched", "unpatched"] : ["unpatched", "patched"];
        for (const kind of order) {
            const start = performance.now();
            const session = await clients[kind].createSession({
                model: MODEL,
                provider: { type: "openai", baseUrl, apiKey: "bench" },
                onPermissionRequest: approveAll,
                ...(kind === "patched" ? { tools, ...patchedConfig } : unpatchedConfig),
            });
            const created = performance.now();
            await session.sendAndWait({ prompt: "hello" });
            times[kind].create.push(created - start);
            times[kind].send.push(performance.now() - created);
            await session.disconnect();
        }
    }
    for (const what of ["create", "send"] as const) {
        const line = (kind: Kind) => {
            const [q1, q3] = quartiles(times[kind][what]);
            return `${kind} ${median(times[kind][what]).toFixed(1)} ms (quartiles ${q1.toFixed(1)}-${q3.toFixed(1)})`;
        };
        const ratio = median(times.patched[what]) / median(times.unpatched[what]);
        console.log(
            `  ${what === "create" ? "createSession" : "first send   "} ${line("unpatched")}   ${line("patched")}   ratio ${ratio.toFixed(3)}`
        );
    }
}

function median(values: number[]): number {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Runs `sample` for both kinds, alternating which goes first. */
async function interleaved(
    samples: number,
    sample: (kind: Kind) => Promise<number>
): Promise<Record<Kind, number>> {
    const times: Record<Kind, number[]> = { patched: [], unpatched: [] };
    for (let i = 0; i < samples; i++) {
        const order: Kind[] = i % 2 === 0 ? ["patched", "unpatched"] : ["unpatched", "patched"];
        for (const kind of order) times[kind].push(await sample(kind));
    }
    return { patched: median(times.patched), unpatched: median(times.unpatched) };
}

/**
 * The runtime requests one `createSession` sends on a started client, by method (the client's
 * JSON-RPC connection, read for the benchmark only), and the event subscriptions it leaves on
 * the session: the extra work per session besides the in-process step.
 */
async function perSessionWork(
    client: Client,
    kind: Kind
): Promise<{ requests: string[]; subscriptions: number }> {
    const connection = (client as unknown as { connection: { sendRequest: Function } }).connection;
    const sendRequest = connection.sendRequest;
    const requests: string[] = [];
    connection.sendRequest = function (this: unknown, method: unknown, ...rest: unknown[]) {
        requests.push(
            typeof method === "string" ? method : String((method as { method?: unknown }).method)
        );
        return sendRequest.call(this, method, ...rest);
    };
    try {
        const session = (await client.createSession({
            model: MODEL,
            provider: PROVIDER,
            onPermissionRequest: approveAll,
            ...(kind === "patched" ? { tools, ...patchedConfig } : unpatchedConfig),
        })) as unknown as {
            typedEventHandlers: Map<string, Set<unknown>>;
            eventHandlers: Set<unknown>;
            disconnect(): Promise<void>;
        };
        let subscriptions = session.eventHandlers.size;
        for (const handlers of session.typedEventHandlers.values()) subscriptions += handlers.size;
        const sent = [...requests];
        await session.disconnect();
        return { requests: sent, subscriptions };
    } finally {
        connection.sendRequest = sendRequest;
    }
}

function report(label: string, result: Record<Kind, number>): void {
    console.log(
        `${label.padEnd(44)} unpatched ${result.unpatched.toFixed(2).padStart(8)} ms   patched ${result.patched.toFixed(2).padStart(8)} ms   ratio ${(result.patched / result.unpatched).toFixed(3)}`
    );
}

/** A stand-in client for the step alone; a bundled, measured runtime asks it nothing. */
function host() {
    return {
        getStatus: async () => ({ version: "1.0.85" }),
        rpc: { tools: { list: async () => ({ tools: [] }) } },
    };
}

/** Median microseconds of the session step alone, with the catalog already looked up. */
async function stepCost(samples: number): Promise<number> {
    const stepHost = {
        ...host(),
        sessionToolState: createSessionToolState({ onToolWarning: () => {} }, "1.0.85"),
    };
    const config = { model: MODEL, tools, onPermissionRequest: approveAll };
    const times: number[] = [];
    for (let i = 0; i < samples; i++) {
        const start = performance.now();
        await prepareSessionTools(stepHost, config, patchedConfig);
        times.push((performance.now() - start) * 1000);
    }
    return median(times.slice(samples / 10));
}

try {
    const sent = await prepareSessionTools(
        {
            ...host(),
            sessionToolState: createSessionToolState({ onToolWarning: () => {} }, "1.0.85"),
        },
        { model: MODEL, tools },
        patchedConfig
    );
    unpatchedConfig = {
        tools: (sent.config as { tools: unknown }).tools,
        availableTools: sent.resolution.wire.availableTools,
        excludedTools: sent.resolution.wire.excludedTools,
    };
    const stepUs = await stepCost(5000);
    console.log(
        `session step alone (in-process, 20 tools + filter): ${stepUs.toFixed(1)} us per session`
    );
    const warm: Record<Kind, Client> = {
        patched: newClient("patched"),
        unpatched: newClient("unpatched"),
    };
    try {
        await Promise.all([warm.patched.start(), warm.unpatched.start()]);
        for (let i = 0; i < 10; i++) {
            await timeSession(warm.patched, "patched");
            await timeSession(warm.unpatched, "unpatched");
        }
        const warmResult = await interleaved(WARM_SAMPLES, (kind) => timeSession(warm[kind], kind));
        console.log("createSession, real bundled runtime, 20 custom tools (median per session):");
        report(`warm client (${WARM_SAMPLES} sessions each)`, warmResult);
        const work = {
            patched: await perSessionWork(warm.patched, "patched"),
            unpatched: await perSessionWork(warm.unpatched, "unpatched"),
        };
        const workLine = (kind: Kind) =>
            `${kind}: runtime requests [${work[kind].requests.join(", ")}], ${work[kind].subscriptions} event subscriptions`;
        console.log(
            `  per session on a warm client: ${workLine("patched")}; ${workLine("unpatched")}`
        );
        const model = await startMockModel({});
        try {
            console.log(
                `createSession and first send to the mock model, promptAgreement on for the patched client (${FIRST_SEND_SAMPLES} sessions each; work added per build of the runtime's instructions: one systemMessage.transform request answered by the client, ${12} section callbacks, each a linear scan and rewrite of its text):`
            );
            await firstSend(warm, model.baseUrl, FIRST_SEND_SAMPLES);
        } finally {
            await model.close();
        }
        // For the summary the memory bench prints next to its own ratio (npm run bench).
        writeFileSync(
            join("build", "bench", "createSessionRatio.json"),
            JSON.stringify({ ...warmResult, stepUs, work })
        );
    } finally {
        await Promise.all([warm.patched.stop(), warm.unpatched.stop()]);
    }
    const fresh = await interleaved(NEW_CLIENT_SAMPLES, async (kind) => {
        const client = newClient(kind);
        try {
            await client.start();
            return await timeSession(client, kind);
        } finally {
            await client.stop();
        }
    });
    report(`first session on a new client (${NEW_CLIENT_SAMPLES} each)`, fresh);
} finally {
    rmSync(baseDirectory, { recursive: true, force: true });
}
