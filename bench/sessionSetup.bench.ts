/**
 * Benchmark: createSession and the first send through this package and the unwrapped SDK, side
 * by side in one run, against the real bundled runtime (offline; the mock model on loopback for
 * sends). Three warm clients: the unwrapped SDK, the package with `promptAgreement` on (the
 * default, "rewrite"), and the package with it "off". All build the same session: 20 custom
 * tools, one overriding `view`, and a toolset filter for the package (the unwrapped SDK gets the
 * wire lists the package sends, so the difference is the package's own work). What an app
 * feels, against the unwrapped SDK given the app's own config, and what each field the package
 * adds costs the runtime: `appConfig.bench.ts`.
 *
 * Samples rotate between the kinds one by one (each round starts with another kind), so that
 * machine noise hits all alike; each line gives min, median and quartiles, and the ratios of the
 * medians (and of the minimums) to the unwrapped SDK.
 *
 * - warm createSession: one started client of each kind;
 * - first send: createSession and the first `sendAndWait` on a warm client; with agreement on,
 *   the runtime asks the client's section transforms for its instructions at the first turn
 *   (`systemMessage.transform` requests carrying every section's text, and the answers);
 * - first session: a fresh client of each kind per sample (start, first createSession, stop);
 * - the step alone: `prepareSessionTools` in-process, the CPU time the package adds per session.
 *
 * Then the work that remains per session is named, as measured in this run. Exits 0.
 */

import { mkdtempSync, readFileSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { CopilotClient, approveAll, type Tool } from "@github/copilot-sdk";
import { CopilotClient as UnpatchedClient } from "copilot-sdk-unpatched";
import { prepareSessionTools } from "../src/toolCustomization/construction/pipeline.js";
import { createSessionToolState } from "../src/toolCustomization/construction/clientState.js";
import { startMockModel } from "../src/mockModel/mockChatModel.js";
import { PROMPT_SECTIONS } from "../src/toolCustomization/prompt/promptAgreement.js";
import {
    MODEL,
    PROVIDER,
    quantile,
    startSharedRuntime,
    timeSession,
    withInterval,
    type BenchClient as Client,
    type BenchSession as Session,
} from "./support/sharedRuntime.js";

const WARM_ROUNDS = 150;
const FIRST_SEND_ROUNDS = 50;
const NEW_CLIENT_ROUNDS = 8;
const SHARED_ROUNDS = 300;
/** Sessions per kind over TCP as shipped (each unwrapped request waits on a delayed ACK). */
const TCP_ROUNDS = 30;

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
const packageConfig = {
    availableTools: ["toolset:read", "toolset:edit", "custom:*"],
    excludedTools: ["create"],
};
/** The unwrapped SDK gets what the package sends, so the difference is the package's work. */
let unwrappedConfig: Record<string, unknown> = {};

type Kind = "unwrapped" | "agreement on" | "agreement off";
const KINDS: readonly Kind[] = ["unwrapped", "agreement on", "agreement off"];

const baseDirectory = mkdtempSync(join(tmpdir(), "session-bench-"));
let clientCount = 0;

/** The token of the shared runtime (see {@link sharedRuntimeClients}). */
const SHARED_TOKEN = "session-bench";

/** A client of `kind` with a runtime of its own. */
function newClient(kind: Kind): Client {
    const directory = join(baseDirectory, String(clientCount++));
    return (kind === "unwrapped"
        ? new UnpatchedClient({ baseDirectory: directory })
        : new CopilotClient({
              baseDirectory: directory,
              onToolWarning: () => {},
          })) as unknown as Client;
}

/**
 * One runtime for all three kinds (support/sharedRuntime.ts says why); the unwrapped client's
 * socket gets TCP_NODELAY unless `setNoDelayOnUnwrapped` is false (TCP as shipped).
 */
async function sharedRuntimeClients(setNoDelayOnUnwrapped = true): Promise<{
    clients: Record<Kind, Client>;
    server: { stop(): Promise<unknown> };
}> {
    const server = await startSharedRuntime(join(baseDirectory, "shared"), SHARED_TOKEN);
    const clients = {} as Record<Kind, Client>;
    for (const kind of KINDS) {
        clients[kind] = await server.connect(
            kind === "unwrapped" ? "unwrapped" : "wrapped",
            setNoDelayOnUnwrapped
        );
    }
    return { clients, server };
}

/**
 * The client's own time in a createSession, in ms: from the call to the `session.create`
 * request, and from its answer to the session in the app's hands (the client's JSON-RPC
 * connection, read for the benchmark only). Recorded for every `session.create` the client sends.
 */
interface ClientPhases {
    beforeSend: number[];
    afterAnswer: number[];
}

function tracePhases(client: Client): ClientPhases {
    const phases: ClientPhases = { beforeSend: [], afterAnswer: [] };
    const connection = (
        client as unknown as {
            connection: { sendRequest: (...args: unknown[]) => Promise<unknown> };
        }
    ).connection;
    const sendRequest = connection.sendRequest;
    // createSession calls run one at a time in this benchmark: one set of marks serves them all.
    let called = 0;
    let answered = 0;
    let awaitingRequest = false;
    const wrapped = client.createSession.bind(client);
    client.createSession = async (config) => {
        called = performance.now();
        awaitingRequest = true;
        const session = await wrapped(config);
        phases.afterAnswer.push(performance.now() - answered);
        return session;
    };
    const markAnswer = () => {
        answered = performance.now();
    };
    connection.sendRequest = function (this: unknown, method: unknown, ...rest: unknown[]) {
        const result = sendRequest.call(this, method, ...rest) as Promise<unknown>;
        if (method === "session.create" && awaitingRequest) {
            awaitingRequest = false;
            phases.beforeSend.push(performance.now() - called);
            void result.then(markAnswer, markAnswer);
        }
        return result;
    };
    return phases;
}

function sessionConfig(kind: Kind, baseUrl?: string): Record<string, unknown> {
    return {
        model: MODEL,
        provider: baseUrl === undefined ? PROVIDER : { ...PROVIDER, baseUrl },
        onPermissionRequest: approveAll,
        ...(kind === "unwrapped"
            ? unwrappedConfig
            : {
                  tools,
                  ...packageConfig,
                  ...(kind === "agreement off" ? { promptAgreement: "off" } : {}),
              }),
    };
}

/** CPU per sample, in ms: this process (all clients' SDK code) and each warm client's runtime. */
const cpu: Record<"client" | "runtime", Record<Kind, number[]>> = {
    client: { unwrapped: [], "agreement on": [], "agreement off": [] },
    runtime: { unwrapped: [], "agreement on": [], "agreement off": [] },
};

/** The CPU time a client's runtime process used so far, in ms (Linux; 0 elsewhere). */
function runtimeCpuMs(client: Client | undefined): number {
    const pid = (client as unknown as { cliProcess?: { pid?: number } } | undefined)?.cliProcess
        ?.pid;
    if (pid === undefined) return 0;
    try {
        const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
        return (Number(fields[11]) + Number(fields[12])) * 10;
    } catch {
        return 0;
    }
}

/** `rounds` samples of each kind; round i starts with kind i mod 3, the others follow in turn. */
async function interleaved(
    rounds: number,
    sample: (kind: Kind) => Promise<number>,
    clients?: Record<Kind, Client>
): Promise<Record<Kind, number[]>> {
    const times: Record<Kind, number[]> = {
        unwrapped: [],
        "agreement on": [],
        "agreement off": [],
    };
    for (const kind of KINDS) {
        cpu.client[kind] = [];
        cpu.runtime[kind] = [];
    }
    for (let round = 0; round < rounds; round++) {
        for (let i = 0; i < KINDS.length; i++) {
            const kind = KINDS[(round + i) % KINDS.length]!;
            const runtimeBefore = runtimeCpuMs(clients?.[kind]);
            const clientBefore = process.cpuUsage();
            times[kind].push(await sample(kind));
            const client = process.cpuUsage(clientBefore);
            cpu.client[kind].push((client.user + client.system) / 1000);
            cpu.runtime[kind].push(runtimeCpuMs(clients?.[kind]) - runtimeBefore);
        }
    }
    return times;
}

/**
 * What the runtime's side of the prompt agreement costs the unwrapped SDK: sessions of one
 * unwrapped client alternate between its usual config and the same with all 12 sections marked
 * `transform` (identity functions, as agreement on registers them). Each round's ratio, with the
 * session without transforms as the base.
 */
async function sectionTransformsCost(client: Client): Promise<number[]> {
    const sections = Object.fromEntries(
        PROMPT_SECTIONS.map((id) => [id, { action: (text: string) => text }])
    );
    const withSections = () => ({
        ...sessionConfig("unwrapped"),
        systemMessage: { mode: "customize", sections },
    });
    const ratios: number[] = [];
    for (let round = 0; round < SHARED_ROUNDS; round++) {
        // Each round starts with the other config.
        if (round % 2 === 0) {
            const plain = await timeSession(client, sessionConfig("unwrapped"));
            ratios.push((await timeSession(client, withSections())) / plain);
        } else {
            const transformed = await timeSession(client, withSections());
            ratios.push(transformed / (await timeSession(client, sessionConfig("unwrapped"))));
        }
    }
    return ratios;
}

/**
 * The median over rounds of a round's `kind` time divided by its unwrapped time: the samples of a
 * round run back to back, so what drifts in the machine over the run cancels.
 */
function pairedRatio(times: Record<Kind, number[]>, kind: Kind): number {
    return quantile(pairedRatios(times, kind), 0.5);
}

function pairedRatios(times: Record<Kind, number[]>, kind: Kind): number[] {
    return times[kind].map((value, round) => value / times.unwrapped[round]!);
}

/**
 * Prints the client's own time per createSession (before the request, after the answer), and
 * what the package adds to it as a share of the unwrapped SDK's median createSession.
 *
 * @returns the added client time of each kind, in ms (medians)
 */
function reportPhases(
    phases: Record<Kind, ClientPhases>,
    times: Record<Kind, number[]>
): Record<Kind, number> {
    const own = (kind: Kind) =>
        quantile(phases[kind].beforeSend, 0.5) + quantile(phases[kind].afterAnswer, 0.5);
    const added = Object.fromEntries(
        KINDS.map((kind) => [kind, own(kind) - own("unwrapped")])
    ) as Record<Kind, number>;
    const unwrapped = quantile(times.unwrapped, 0.5);
    console.log(
        `  the client's own time (median before the session.create request + after its answer; the runtime's time is the rest): ${KINDS.map(
            (kind) =>
                `${kind} ${quantile(phases[kind].beforeSend, 0.5).toFixed(2)} + ${quantile(phases[kind].afterAnswer, 0.5).toFixed(2)} ms${kind === "unwrapped" ? "" : ` (+${added[kind].toFixed(2)} ms, ratio ${((unwrapped + added[kind]) / unwrapped).toFixed(3)} of the unwrapped median)`}`
        ).join(" | ")}`
    );
    return added;
}

/** The ratio of the package's median (and minimum) to the unwrapped SDK's. */
function ratios(times: Record<Kind, number[]>, kind: Kind): { median: number; min: number } {
    return {
        median: quantile(times[kind], 0.5) / quantile(times.unwrapped, 0.5),
        min: Math.min(...times[kind]) / Math.min(...times.unwrapped),
    };
}

function report(label: string, times: Record<Kind, number[]>, withCpu = true): void {
    console.log(`${label}:`);
    for (const kind of KINDS) {
        const values = times[kind];
        const spread = `min ${Math.min(...values).toFixed(2)}  median ${quantile(values, 0.5).toFixed(2)}  quartiles ${quantile(values, 0.25).toFixed(2)}-${quantile(values, 0.75).toFixed(2)} ms`;
        const ratio =
            kind === "unwrapped"
                ? ""
                : `   ratio ${ratios(times, kind).median.toFixed(3)} (of minimums ${ratios(times, kind).min.toFixed(3)})`;
        console.log(`  ${kind.padEnd(14)} ${spread}${ratio}`);
    }
    if (!withCpu) return;
    const mean = (values: readonly number[]) =>
        values.reduce((sum, value) => sum + value, 0) / Math.max(values.length, 1);
    const cpuLine = KINDS.map((kind) => {
        const runtime = mean(cpu.runtime[kind]);
        return `${kind} ${quantile(cpu.client[kind], 0.5).toFixed(2)}${runtime > 0 ? ` + runtime ${runtime.toFixed(1)}` : ""}`;
    });
    console.log(`  CPU per session, ms (client median + runtime mean): ${cpuLine.join(" | ")}`);
}

/**
 * The runtime requests one `createSession` sends on a started client, by method (the client's
 * JSON-RPC connection, read for the benchmark only), the event subscriptions it leaves on the
 * session, and, for a first send, what the runtime asks the client for its instructions
 * (`systemMessage.transform`: sections and characters): the work per session besides the step.
 */
async function perSessionWork(
    client: Client,
    kind: Kind,
    baseUrl: string
): Promise<{
    requests: string[];
    subscriptions: number;
    transformRequests: number;
    transformSections: number;
    transformChars: number;
}> {
    const connection = (
        client as unknown as {
            connection: { sendRequest: (...args: unknown[]) => Promise<unknown> };
        }
    ).connection;
    const sendRequest = connection.sendRequest;
    const requests: string[] = [];
    connection.sendRequest = function (this: unknown, method: unknown, ...rest: unknown[]) {
        requests.push(
            typeof method === "string" ? method : String((method as { method?: unknown }).method)
        );
        return sendRequest.call(this, method, ...rest);
    };
    try {
        const session = (await client.createSession(sessionConfig(kind, baseUrl))) as Session & {
            typedEventHandlers: Map<string, Set<unknown>>;
            eventHandlers: Set<unknown>;
            _handleSystemMessageTransform(sections: Record<string, { content: string }>): unknown;
        };
        let subscriptions = session.eventHandlers.size;
        for (const handlers of session.typedEventHandlers.values()) subscriptions += handlers.size;
        const sent = requests.filter((method) => method === "session.create");
        let transformRequests = 0;
        let transformSections = 0;
        let transformChars = 0;
        const handle = session._handleSystemMessageTransform;
        session._handleSystemMessageTransform = function (sections) {
            transformRequests++;
            for (const { content } of Object.values(sections)) {
                transformSections++;
                transformChars += content.length;
            }
            return handle.call(this, sections);
        };
        await session.sendAndWait({ prompt: "hello" });
        await session.disconnect();
        return {
            requests: sent,
            subscriptions,
            transformRequests,
            transformSections,
            transformChars,
        };
    } finally {
        connection.sendRequest = sendRequest;
    }
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
        await prepareSessionTools(stepHost, config, packageConfig);
        times.push((performance.now() - start) * 1000);
    }
    return quantile(times.slice(samples / 10), 0.5);
}

try {
    const sent = await prepareSessionTools(
        {
            ...host(),
            sessionToolState: createSessionToolState({ onToolWarning: () => {} }, "1.0.85"),
        },
        { model: MODEL, tools },
        packageConfig
    );
    unwrappedConfig = {
        tools: (sent.config as { tools: unknown }).tools,
        availableTools: sent.resolution.wire.availableTools,
        excludedTools: sent.resolution.wire.excludedTools,
    };
    const stepUs = await stepCost(5000);
    console.log(
        `session step alone (in-process, 20 tools + filter): ${stepUs.toFixed(1)} us per session`
    );
    const warm = Object.fromEntries(KINDS.map((kind) => [kind, newClient(kind)])) as Record<
        Kind,
        Client
    >;
    const model = await startMockModel({});
    try {
        await Promise.all(KINDS.map((kind) => warm[kind].start()));
        // Warm-up: the first sessions of a client pay for loading the runtime's modules.
        for (const kind of KINDS) {
            for (let i = 0; i < 10; i++) await timeSession(warm[kind], sessionConfig(kind));
            const session = await warm[kind].createSession(sessionConfig(kind, model.baseUrl));
            await session.sendAndWait({ prompt: "hello" });
            await session.disconnect();
        }
        console.log(
            `Real bundled runtime, 20 custom tools; the package with promptAgreement on and off, each against the unwrapped SDK (rounds interleaved):`
        );
        const phases = Object.fromEntries(
            KINDS.map((kind) => [kind, tracePhases(warm[kind])])
        ) as Record<Kind, ClientPhases>;
        const warmTimes = await interleaved(
            WARM_ROUNDS,
            (kind) => timeSession(warm[kind], sessionConfig(kind)),
            warm
        );
        report(
            `warm createSession, a runtime per client (${WARM_ROUNDS} sessions each)`,
            warmTimes
        );
        const clientTime = reportPhases(phases, warmTimes);
        const sends = { create: {}, send: {} } as Record<"create" | "send", Record<Kind, number[]>>;
        for (const kind of KINDS) {
            sends.create[kind] = [];
            sends.send[kind] = [];
        }
        const firstSendTimes = await interleaved(
            FIRST_SEND_ROUNDS,
            async (kind) => {
                const start = performance.now();
                const session = await warm[kind].createSession(sessionConfig(kind, model.baseUrl));
                const created = performance.now();
                await session.sendAndWait({ prompt: "hello" });
                const done = performance.now();
                await session.disconnect();
                sends.create[kind].push(created - start);
                sends.send[kind].push(done - created);
                return done - start;
            },
            warm
        );
        report(
            `first send alone, mock model (${FIRST_SEND_ROUNDS} sessions each)`,
            sends.send,
            false
        );
        report(`createSession + first send (same sessions)`, firstSendTimes);
        const work = Object.fromEntries(
            await Promise.all(
                KINDS.map(async (kind) => [
                    kind,
                    await perSessionWork(warm[kind], kind, model.baseUrl),
                ])
            )
        ) as Record<Kind, Awaited<ReturnType<typeof perSessionWork>>>;
        await Promise.all(KINDS.map((kind) => warm[kind].stop()));
        const shared = await sharedRuntimeClients();
        let sharedTimes: Record<Kind, number[]>;
        let sectionsRatios: number[];
        try {
            for (const kind of KINDS) {
                for (let i = 0; i < 10; i++)
                    await timeSession(shared.clients[kind], sessionConfig(kind));
            }
            sharedTimes = await interleaved(SHARED_ROUNDS, (kind) =>
                timeSession(shared.clients[kind], sessionConfig(kind))
            );
            sectionsRatios = await sectionTransformsCost(shared.clients.unwrapped);
        } finally {
            await Promise.allSettled(KINDS.map((kind) => shared.clients[kind].stop()));
            await shared.server.stop();
        }
        report(
            `warm createSession, one runtime for the three clients (${SHARED_ROUNDS} sessions each)`,
            sharedTimes
        );
        console.log(
            `  paired ratio (median of each round's ratio): agreement on ${withInterval(pairedRatios(sharedTimes, "agreement on"))} | agreement off ${withInterval(pairedRatios(sharedTimes, "agreement off"))}`
        );
        console.log(
            `  the unwrapped SDK given identity transforms for all ${PROMPT_SECTIONS.length} sections (agreement on registers ${work["agreement on"].transformSections} of them here: those that can name a tool on this runtime), against itself without them, same runtime: paired ratio ${withInterval(sectionsRatios)}`
        );
        // Over TCP as an app gets it: the unwrapped SDK's socket without TCP_NODELAY (as
        // published), the wrapped clients' with it (what the package sets until upstream does).
        const shipped = await sharedRuntimeClients(false);
        let shippedTimes: Record<Kind, number[]>;
        try {
            for (const kind of KINDS) await timeSession(shipped.clients[kind], sessionConfig(kind));
            shippedTimes = await interleaved(TCP_ROUNDS, (kind) =>
                timeSession(shipped.clients[kind], sessionConfig(kind))
            );
        } finally {
            await Promise.allSettled(KINDS.map((kind) => shipped.clients[kind].stop()));
            await shipped.server.stop();
        }
        report(
            `warm createSession over loopback TCP as shipped (the unwrapped SDK without TCP_NODELAY; ${TCP_ROUNDS} sessions each)`,
            shippedTimes,
            false
        );
        console.log(
            `  paired ratio, wrapped / unwrapped: agreement on ${withInterval(pairedRatios(shippedTimes, "agreement on"))}`
        );
        // For the summary the memory bench prints next to its own ratio (npm run bench).
        writeFileSync(
            join("build", "bench", "createSessionRatio.json"),
            JSON.stringify({
                patched: quantile(sharedTimes["agreement on"], 0.5),
                unpatched: quantile(sharedTimes.unwrapped, 0.5),
                paired: pairedRatio(sharedTimes, "agreement on"),
                pairedOff: pairedRatio(sharedTimes, "agreement off"),
                sectionsRatio: quantile(sectionsRatios, 0.5),
                clientMs: clientTime["agreement on"],
                stepUs,
                work: { patched: work["agreement on"], unpatched: work.unwrapped },
            })
        );
        const fresh = await interleaved(NEW_CLIENT_ROUNDS, async (kind) => {
            const client = newClient(kind);
            try {
                await client.start();
                return await timeSession(client, sessionConfig(kind));
            } finally {
                await client.stop();
            }
        });
        report(`first session on a new client (${NEW_CLIENT_ROUNDS} each)`, fresh, false);
        const on = work["agreement on"];
        const off = work["agreement off"];
        console.log(
            [
                "Work the package still adds per session (measured above):",
                `  createSession: the in-process step (${stepUs.toFixed(0)} us hot; in the run above, the client's own time, +${clientTime["agreement on"].toFixed(2)} ms with agreement on: the tools read (a tool that reads as before keeps its snapshot; each schema rendered to compare), catalog, overrides, the filter (kept per catalog for sessions built alike), enablement, resolution, and after the answer the session record), the session record with ${on.subscriptions - work.unwrapped.subscriptions} event subscription, runtime requests [${on.requests.join(", ")}] as the unwrapped SDK's [${work.unwrapped.requests.join(", ")}]; with agreement on, ${on.transformSections} section transforms registered in session.create`,
                `  first send, agreement on: the runtime asks the client for its instructions (systemMessage.transform: ${on.transformRequests} request${on.transformRequests === 1 ? "" : "s"}, ${on.transformSections} sections, ${on.transformChars} characters each way in all), rewritten by the client (answered from the client's memory when the texts and tools are those of an earlier build); agreement off: ${off.transformRequests} requests; unwrapped: ${work.unwrapped.transformRequests}`,
                "  first session on a new client: the same, plus the package's own modules compiling on their first call",
            ].join("\n")
        );
    } finally {
        await model.close();
        await Promise.allSettled(KINDS.map((kind) => warm[kind].stop()));
    }
} finally {
    rmSync(baseDirectory, { recursive: true, force: true });
}
