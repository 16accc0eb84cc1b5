/**
 * Benchmark: what the fork's construction-time check (validateTools) costs, side by side in one run, against
 * the real bundled runtime and a mock model on 127.0.0.1. Three SDK copies of the same version:
 * unpatched, the fork's construction checks alone with `validateTools: true` (it asks the runtime to
 * validate custom tools at createSession), and the whole patch (core and safety net, defaults).
 *
 * The runtime builds a session's tool list at the first send anyway, so the cost that matters is
 * createSession plus the first send:
 * - warm: one started client of each kind, 20 custom tools; samples rotate between the kinds so
 *   machine noise hits all alike;
 * - first session: a new client of each kind per sample (start, createSession, send, stop);
 * - no custom tools: createSession alone, where the core must add nothing even when asked.
 *
 * Prints medians and ratios against the unpatched SDK; no target, exits 0.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { pathToFileURL } from "node:url";
import { startMockChatModel } from "../src/mockModel/mockChatModel.js";

const ROOT = join(import.meta.dirname, "..", "..", "..");
const WARM_SAMPLES = 80;
const FIRST_SESSION_SAMPLES = 6;
const MODEL = "claude-sonnet-4.5";

type Kind = "unpatched" | "core" | "patched";
const KINDS: readonly Kind[] = ["unpatched", "core", "patched"];

interface Session {
    sendAndWait(options: { prompt: string }): Promise<unknown>;
    disconnect(): Promise<void>;
}
interface Client {
    start(): Promise<void>;
    stop(): Promise<unknown>;
    createSession(config: Record<string, unknown>): Promise<Session>;
}
interface SdkModule {
    CopilotClient: new (options: Record<string, unknown>) => Client;
    approveAll: unknown;
}

const load = (path: string): Promise<SdkModule> => import(pathToFileURL(path).href);
const { constructionChecksSdkDir } = (await import(
    pathToFileURL(join(ROOT, "scripts", "patch", "lib", "constructionChecks.mjs")).href
)) as { constructionChecksSdkDir(): string };

const sdks: Record<Kind, SdkModule> = {
    unpatched: await load(join(ROOT, "node_modules", "copilot-sdk-unpatched", "dist", "index.js")),
    core: await load(join(constructionChecksSdkDir(), "dist", "index.js")),
    patched: await load(join(ROOT, "node_modules", "@github", "copilot-sdk", "dist", "index.js")),
};

const model = await startMockChatModel();
const baseDirectory = mkdtempSync(join(tmpdir(), "construction-bench-"));
let clientCount = 0;

function newClient(kind: Kind): Client {
    const options: Record<string, unknown> = {
        baseDirectory: join(baseDirectory, String(clientCount++)),
    };
    if (kind === "patched") options.onToolWarning = () => {};
    return new sdks[kind].CopilotClient(options);
}

const handler = async (): Promise<string> => "ok";
const tools = Array.from({ length: 20 }, (_, i) => ({
    name: `custom_tool_${i}`,
    description: `custom tool ${i}`,
    parameters: { type: "object", properties: { path: { type: "string" } } },
    handler,
}));
/** The core's check is opt-in: its sessions set validateTools; the others run as they ship. */
const config = (kind: Kind, withTools: boolean): Record<string, unknown> => ({
    model: MODEL,
    provider: { type: "openai", baseUrl: model.baseUrl, apiKey: "bench" },
    onPermissionRequest: sdks[kind].approveAll,
    ...(withTools ? { tools } : {}),
    ...(kind === "core" ? { validateTools: true } : {}),
});

/** createSession and the first send, in ms. */
async function createAndSend(client: Client, kind: Kind): Promise<number> {
    const started = performance.now();
    const session = await client.createSession(config(kind, true));
    await session.sendAndWait({ prompt: "hello" });
    const elapsed = performance.now() - started;
    await session.disconnect();
    return elapsed;
}

async function createOnly(client: Client, kind: Kind): Promise<number> {
    const started = performance.now();
    const session = await client.createSession(config(kind, false));
    const elapsed = performance.now() - started;
    await session.disconnect();
    return elapsed;
}

function median(values: readonly number[]): number {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Rotates the kinds' order each round, so no kind always runs first. */
async function rounds(
    samples: number,
    measure: (kind: Kind) => Promise<number>
): Promise<Record<Kind, number[]>> {
    const results: Record<Kind, number[]> = { unpatched: [], core: [], patched: [] };
    for (let round = 0; round < samples; round++) {
        for (let i = 0; i < KINDS.length; i++) {
            const kind = KINDS[(round + i) % KINDS.length]!;
            results[kind].push(await measure(kind));
        }
    }
    return results;
}

function report(label: string, results: Record<Kind, number[]>): void {
    const unpatched = median(results.unpatched);
    const cells = KINDS.map((kind) => {
        const value = median(results[kind]);
        const ratio = kind === "unpatched" ? "" : ` (${(value / unpatched).toFixed(3)})`;
        return `${kind} ${value.toFixed(1)} ms${ratio}`;
    });
    console.log(`${label.padEnd(44)} ${cells.join(" | ")}`);
}

try {
    const warm = Object.fromEntries(KINDS.map((kind) => [kind, newClient(kind)])) as Record<
        Kind,
        Client
    >;
    for (const client of Object.values(warm)) await client.start();
    // Warm-up: the first sessions of a client pay for loading the runtime's modules.
    for (const kind of KINDS) for (let i = 0; i < 3; i++) await createAndSend(warm[kind], kind);

    console.log(
        `Construction-time check (medians; ratio to unpatched), ${WARM_SAMPLES} warm samples`
    );
    report(
        "createSession + first send, 20 custom tools",
        await rounds(WARM_SAMPLES, (kind) => createAndSend(warm[kind], kind))
    );
    report(
        "createSession, no custom tools",
        await rounds(WARM_SAMPLES, (kind) => createOnly(warm[kind], kind))
    );
    for (const client of Object.values(warm)) await client.stop();

    report(
        `first session on a new client (${FIRST_SESSION_SAMPLES} samples)`,
        await rounds(FIRST_SESSION_SAMPLES, async (kind) => {
            const client = newClient(kind);
            await client.start();
            try {
                return await createAndSend(client, kind);
            } finally {
                await client.stop();
            }
        })
    );
} finally {
    await model.close();
    rmSync(baseDirectory, { recursive: true, force: true });
}
