/**
 * Benchmark: memory a disconnected session keeps, patched against unpatched, side by side in one
 * run against the real bundled runtime (offline). Each client creates and disconnects sessions
 * with three custom tools whose handlers each capture 256 KiB; the SDK keeps a disconnected
 * session object in its client (both builds), and the question is what the tool setup keeps with
 * it. Heap measured after a forced GC (run with --expose-gc).
 *
 * Prints the retained bytes per session of each build (the median of alternating rounds) and
 * their ratio; no target, exits 0.
 */

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CopilotClient, approveAll } from "@github/copilot-sdk";
import { CopilotClient as UnpatchedClient } from "copilot-sdk-unpatched";

const SESSIONS = 40;
const WARM_UP = 20;
const CAPTURED = 256 * 1024;
const base = {
    model: "claude-sonnet-4.5",
    provider: { type: "openai" as const, baseUrl: "http://127.0.0.1:9/v1", apiKey: "bench" },
    onPermissionRequest: approveAll,
};

function toolsCapturing(): { name: string; description: string; handler: () => Promise<string> }[] {
    return ["lint", "format", "view"].map((name) => {
        const captured = Buffer.alloc(CAPTURED, 1);
        return {
            name,
            description: `custom ${name}`,
            overridesBuiltInTool: name === "view",
            handler: async () => `${name} ${captured.length}`,
        };
    });
}

const gc = (globalThis as { gc?: () => void }).gc;
function heap(): number {
    gc?.();
    gc?.();
    return process.memoryUsage().heapUsed + process.memoryUsage().arrayBuffers;
}

interface Creator {
    createSession(config: object): Promise<{ disconnect(): Promise<void> }>;
    start(): Promise<void>;
    stop(): Promise<unknown>;
}

async function retainedPerSession(make: (baseDirectory: string) => Creator): Promise<number> {
    const baseDirectory = mkdtempSync(join(tmpdir(), "session-memory-bench-"));
    const client = make(baseDirectory);
    try {
        await client.start();
        // Warm up: the catalog and the runtime's first answers are kept per client, not per
        // session, and the code both builds run is compiled (and optimised) once per process.
        for (let i = 0; i < WARM_UP; i++) {
            await (await client.createSession({ ...base, tools: toolsCapturing() })).disconnect();
        }
        const before = heap();
        for (let i = 0; i < SESSIONS; i++) {
            const session = await client.createSession({ ...base, tools: toolsCapturing() });
            await session.disconnect();
        }
        return (heap() - before) / SESSIONS;
    } finally {
        await client.stop();
        rmSync(baseDirectory, { recursive: true, force: true });
    }
}

if (gc === undefined) console.log("(run with node --expose-gc for stable figures)");
// Rounds alternate the builds, and each build's figure is its median: code that V8 compiles or
// optimises once per process (not per session) lands in some round's window, and the first
// rounds' share of it would otherwise read as memory every session keeps.
const ROUNDS = 5;
const patchedRounds: number[] = [];
const unpatchedRounds: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
    patchedRounds.push(
        await retainedPerSession(
            (baseDirectory) =>
                new CopilotClient({ baseDirectory, onToolWarning: () => {} }) as Creator
        )
    );
    unpatchedRounds.push(
        await retainedPerSession(
            (baseDirectory) => new UnpatchedClient({ baseDirectory }) as unknown as Creator
        )
    );
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
const patched = median(patchedRounds);
const unpatched = median(unpatchedRounds);
const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
console.log(
    `retained per disconnected session (median of ${ROUNDS} rounds of ${SESSIONS} sessions, 3 tools capturing ${CAPTURED / 1024} KiB each)`
);
console.log(
    `patched ${kib(patched)} | unpatched ${kib(unpatched)} | ratio ${(patched / Math.max(unpatched, 1)).toFixed(2)}`
);

// Side by side with the createSession ratio that bench/sessionSetup.bench.ts measured in this run.
try {
    const timing = JSON.parse(
        readFileSync(join("build", "bench", "createSessionRatio.json"), "utf8")
    ) as {
        patched: number;
        unpatched: number;
        paired: number;
        pairedOff: number;
        sectionsRatio: number;
        clientMs: number;
        stepUs: number;
        work: Record<"patched" | "unpatched", { requests: string[]; subscriptions: number }>;
    };
    console.log(
        `summary: disconnected session patched ${kib(patched)} vs unpatched ${kib(unpatched)} (ratio ${(patched / Math.max(unpatched, 1)).toFixed(2)}, +${kib(patched - unpatched)}) | warm createSession on one runtime, patched ${timing.patched.toFixed(2)} ms vs unpatched ${timing.unpatched.toFixed(2)} ms (ratio of medians ${(timing.patched / timing.unpatched).toFixed(3)}, paired ${timing.paired.toFixed(3)}, with promptAgreement off ${timing.pairedOff.toFixed(3)}; identity transforms of all 12 sections alone cost the unwrapped SDK ${timing.sectionsRatio.toFixed(3)}; the client's own time +${timing.clientMs.toFixed(2)} ms)`
    );
    const { patched: mine, unpatched: theirs } = timing.work;
    const extraRequests = mine.requests.length - theirs.requests.length;
    console.log(
        `  patched createSession's extra work per session: the in-process step (${timing.stepUs.toFixed(0)} us hot: the tools read, catalog, overrides, filter, enablement, resolution), ${extraRequests} more runtime request${extraRequests === 1 ? "" : "s"} (patched [${mine.requests.join(", ")}], unpatched [${theirs.requests.join(", ")}]), ${mine.subscriptions - theirs.subscriptions} more event subscription${mine.subscriptions - theirs.subscriptions === 1 ? "" : "s"} (one handler for the session record: busy state, answers for removed tools, call attribution) and one WeakMap entry (the session record), dropped at disconnect; with promptAgreement on, the runtime's instructions are rewritten at each build (systemMessage.transform requests carrying the sections it registered; a client answers a text and tools it has seen from memory)`
    );
} catch {
    console.log("(run npm run bench for the createSession ratio next to these figures)");
}
