/**
 * Benchmark: `session.setTools` on a warm session against creating a new session with the same
 * options, side by side in one run, through the patched SDK against the real bundled runtime
 * (offline; neither sends a model request). Both change between two sets of 20 custom tools and a
 * toolset filter; samples alternate one by one, so that machine noise hits both alike.
 *
 * Prints medians and their ratio; no target, exits 0.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { CopilotClient, approveAll, type Tool } from "@github/copilot-sdk";

const SAMPLES = 60;
const handler = async (): Promise<string> => "ok";
const toolsNamed = (prefix: string): Tool[] =>
    Array.from({ length: 20 }, (_, i) => ({
        name: `${prefix}_${i}`,
        description: `custom tool ${prefix} ${i}`,
        parameters: { type: "object", properties: { path: { type: "string" } } },
        handler,
    }));
const options = [
    { tools: toolsNamed("first"), availableTools: ["toolset:read", "custom:*"] },
    { tools: toolsNamed("second"), availableTools: ["toolset:edit", "custom:*"] },
];
const base = {
    model: "claude-sonnet-4.5",
    provider: { type: "openai" as const, baseUrl: "http://127.0.0.1:9/v1", apiKey: "bench" },
    onPermissionRequest: approveAll,
};

function median(values: readonly number[]): number {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

const baseDirectory = mkdtempSync(join(tmpdir(), "set-tools-bench-"));
const client = new CopilotClient({ baseDirectory, onToolWarning: () => {} });
try {
    await client.start();
    const session = await client.createSession({ ...base, ...options[0]! });
    const update: number[] = [];
    const create: number[] = [];
    for (let i = 0; i < SAMPLES + 5; i++) {
        const next = options[(i + 1) % 2]!;
        let started = performance.now();
        await session.setTools(next);
        const updated = performance.now() - started;
        started = performance.now();
        const other = await client.createSession({ ...base, ...next });
        const created = performance.now() - started;
        await other.disconnect();
        if (i >= 5) {
            update.push(updated);
            create.push(created);
        }
    }
    const u = median(update);
    const c = median(create);
    console.log(
        `setTools vs a new session with the same options (${SAMPLES} warm samples, medians)`
    );
    console.log(
        `session.setTools ${u.toFixed(1)} ms | createSession ${c.toFixed(1)} ms | ratio ${(u / c).toFixed(2)}`
    );
    await session.disconnect();
} finally {
    await client.stop();
    rmSync(baseDirectory, { recursive: true, force: true });
}
