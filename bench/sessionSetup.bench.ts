/*---------------------------------------------------------------------------------------------
 *  Benchmark: createSession through the patched and the unpatched SDK, side by side in one run,
 *  against the fake runtime of the mocked-RPC tests. Both clients construct the same session
 *  (20 custom tools, one of them overriding `view`); sessions alternate between the two one by
 *  one, so that machine noise hits both alike. The patched client lists the built-in catalog
 *  once, during warm-up; the ratio is taken once the catalog is cached.
 *
 *  Two transports:
 *  - TCP on 127.0.0.1 (`RuntimeConnection.forUri`), as in the mocked-RPC tests. Each request
 *    pays the loopback's delayed-ACK latency (the SDK writes header and body separately), much
 *    as a real runtime takes milliseconds per session; this is the ratio the target is about.
 *  - stdio to a child process (`RuntimeConnection.forStdio`), the way the SDK runs its bundled
 *    runtime, where the fake answers in microseconds: this isolates the CPU time the step adds,
 *    printed in microseconds per session.
 *  Informational: prints PASS / MISS against the target and always exits 0.
 *--------------------------------------------------------------------------------------------*/

import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { CopilotClient, RuntimeConnection, approveAll, type Tool } from "@github/copilot-sdk";
import { CopilotClient as UnpatchedClient } from "copilot-sdk-unpatched";
import { startFakeRuntime } from "../test/support/fakeRuntime.js";

const TARGET_RATIO = 1.05;
const MODEL = "claude-sonnet-4.5";
const WARM_UP = 20;

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

interface SessionMaker {
    createSession(config: {
        model: string;
        tools: Tool[];
        onPermissionRequest: typeof approveAll;
    }): Promise<unknown>;
    stop(): Promise<unknown>;
}

async function timeOne(client: SessionMaker): Promise<number> {
    const start = performance.now();
    await client.createSession({ model: MODEL, tools, onPermissionRequest: approveAll });
    return performance.now() - start;
}

function median(values: number[]): number {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

/** Times `samples` sessions of each client, interleaved; returns both medians in ms. */
async function compare(
    patched: SessionMaker,
    unpatched: SessionMaker,
    samples: number
): Promise<{ patched: number; unpatched: number }> {
    for (let i = 0; i < WARM_UP; i++) {
        await timeOne(patched);
        await timeOne(unpatched);
    }
    const patchedTimes: number[] = [];
    const unpatchedTimes: number[] = [];
    for (let i = 0; i < samples; i++) {
        if (i % 2 === 0) {
            patchedTimes.push(await timeOne(patched));
            unpatchedTimes.push(await timeOne(unpatched));
        } else {
            unpatchedTimes.push(await timeOne(unpatched));
            patchedTimes.push(await timeOne(patched));
        }
    }
    return { patched: median(patchedTimes), unpatched: median(unpatchedTimes) };
}

function report(label: string, result: { patched: number; unpatched: number }): number {
    const ratio = result.patched / result.unpatched;
    console.log(
        `createSession over ${label}: unpatched ${result.unpatched.toFixed(3)} ms, patched ${result.patched.toFixed(3)} ms (median per session), ratio ${ratio.toFixed(3)}, step adds ${((result.patched - result.unpatched) * 1000).toFixed(0)} us`
    );
    return ratio;
}

// TCP, as in the mocked-RPC tests.
const runtime = await startFakeRuntime();
const tcpPatched = new CopilotClient({
    connection: RuntimeConnection.forUri(runtime.url),
    onToolWarning: () => {},
});
const tcpUnpatched = new UnpatchedClient({ connection: RuntimeConnection.forUri(runtime.url) });
let tcp: { patched: number; unpatched: number };
try {
    tcp = await compare(tcpPatched, tcpUnpatched, 60);
} finally {
    await tcpPatched.stop();
    await tcpUnpatched.stop();
}
const listings = runtime.paramsOf("tools.list").length;
await runtime.close();

// stdio, to a child process.
const fakeRuntimeProcess = fileURLToPath(
    new URL("../test/support/fakeRuntimeProcess.js", import.meta.url)
);
const logDir = mkdtempSync(join(tmpdir(), "session-bench-"));
const stdio = (log: string) =>
    RuntimeConnection.forStdio({
        path: fakeRuntimeProcess,
        env: { ...process.env, FAKE_RUNTIME_LOG: join(logDir, log) },
    });
const stdioPatched = new CopilotClient({ connection: stdio("patched"), onToolWarning: () => {} });
const stdioUnpatched = new UnpatchedClient({ connection: stdio("unpatched") });
let pipe: { patched: number; unpatched: number };
let stdioListings: number;
try {
    pipe = await compare(stdioPatched, stdioUnpatched, 400);
} finally {
    await stdioPatched.stop();
    await stdioUnpatched.stop();
    stdioListings = readFileSync(join(logDir, "patched"), "utf8")
        .split("\n")
        .filter((method) => method === "tools.list").length;
    rmSync(logDir, { recursive: true, force: true });
}

const ratio = report("TCP 127.0.0.1 (mocked-RPC fake runtime)", tcp);
console.log(
    `createSession ratio patched/unpatched: ${ratio.toFixed(3)} [${ratio <= TARGET_RATIO ? "PASS" : "MISS"}: target <= ${TARGET_RATIO}]`
);
report("stdio child process (SDK CPU cost only)", pipe);
const once = listings === 1 && stdioListings === 1;
console.log(
    `tools.list round trips per client and model: ${listings} (TCP client, ${WARM_UP + 60} sessions), ${stdioListings} (stdio client, ${WARM_UP + 400} sessions) [${once ? "PASS" : "MISS"}: target 1]`
);
