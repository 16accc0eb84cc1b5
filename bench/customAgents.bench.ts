/**
 * Benchmark: warm createSession with three custom agents, through this package and through the
 * unwrapped SDK given the same agents as the package sends them (their `tools` in the runtime's
 * names), so that the difference is the package's own work (reading the agents once, checking
 * their tools against the session's, expanding toolsets). Both clients share one real bundled
 * runtime (offline) on loopback TCP with TCP_NODELAY, as `sessionSetup.bench.ts` explains; the
 * samples alternate, each round starting with the other client, and the figure is the median of
 * each round's ratio (package / unwrapped) with its quartiles.
 *
 * Run: `tsc -p tsconfig.bench.json && node build/bench/bench/customAgents.bench.js`. Exits 0.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { CopilotClient, RuntimeConnection, approveAll, type Tool } from "@github/copilot-sdk";
import {
    CopilotClient as UnpatchedClient,
    RuntimeConnection as UnpatchedConnection,
} from "copilot-sdk-unpatched";

const MODEL = "claude-sonnet-4.5";
const PROVIDER = { type: "openai" as const, baseUrl: "http://127.0.0.1:9/v1", apiKey: "bench" };
const ROUNDS = Number(process.env.AGENT_BENCH_ROUNDS ?? 300);
const TOKEN = "agents-bench";

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

/** Three agents in the package's vocabulary, and as the runtime gets them. */
const agents = {
    given: [
        {
            name: "reader",
            prompt: "Read the project and report. Use `view`.",
            tools: ["toolset:read", "toolset:search", "custom_tool_0"],
        },
        {
            name: "runner",
            prompt: "Run the checks with `bash`.",
            tools: ["toolset:execute", "custom_tool_1", "custom_tool_2"],
        },
        { name: "writer", prompt: "Edit files.", tools: null },
    ],
    sent: [] as unknown[],
};

interface Session {
    disconnect(): Promise<void>;
}
interface Client {
    start(): Promise<void>;
    stop(): Promise<unknown>;
    createSession(config: Record<string, unknown>): Promise<Session & Record<string, unknown>>;
}

function config(kind: "package" | "unwrapped"): Record<string, unknown> {
    return {
        model: MODEL,
        provider: PROVIDER,
        onPermissionRequest: approveAll,
        tools: kind === "package" ? tools : sentTools,
        customAgents: kind === "package" ? agents.given : agents.sent,
    };
}

/** The custom tools as the package sends them (with the override flags it adds). */
let sentTools: unknown[] = tools;

async function timeSession(client: Client, kind: "package" | "unwrapped"): Promise<number> {
    const start = performance.now();
    const session = await client.createSession(config(kind));
    const elapsed = performance.now() - start;
    await session.disconnect();
    return elapsed;
}

function quantile(values: readonly number[], q: number): number {
    const sorted = [...values].sort((a, b) => a - b);
    const at = (sorted.length - 1) * q;
    const low = Math.floor(at);
    return sorted[low]! + (sorted[Math.ceil(at)]! - sorted[low]!) * (at - low);
}

async function main(): Promise<void> {
    const baseDirectory = mkdtempSync(join(tmpdir(), "agents-bench-"));
    const server = new UnpatchedClient({
        connection: UnpatchedConnection.forTcp({ connectionToken: TOKEN }),
        baseDirectory,
    });
    try {
        await server.start();
        const url = `127.0.0.1:${(server as unknown as { runtimePort: number }).runtimePort}`;
        const clients = {
            package: new CopilotClient({
                connection: RuntimeConnection.forUri(url, { connectionToken: TOKEN }),
                onToolWarning: () => {},
            }) as unknown as Client,
            unwrapped: new UnpatchedClient({
                connection: UnpatchedConnection.forUri(url, { connectionToken: TOKEN }),
            }) as unknown as Client,
        };
        for (const client of Object.values(clients)) {
            await client.start();
            (
                client as unknown as { socket?: { setNoDelay(on: boolean): void } }
            ).socket?.setNoDelay(true);
        }
        // What the package sends, recorded from its own connection once.
        const live = (
            clients.package as unknown as {
                connection: { sendRequest: (method: string, params: unknown) => unknown };
            }
        ).connection;
        const send = live.sendRequest.bind(live);
        live.sendRequest = (method: string, params: unknown) => {
            if (method === "session.create") {
                const sent = params as { customAgents: unknown[]; tools: unknown[] };
                agents.sent = sent.customAgents;
                sentTools = tools.map((tool) => ({
                    ...tool,
                    overridesBuiltInTool: true,
                    ...(tool.name === "view" ? {} : { defer: "auto" }),
                }));
            }
            return send(method, params);
        };
        await (await clients.package.createSession(config("package"))).disconnect();
        live.sendRequest = send;
        if (agents.sent.length !== agents.given.length) {
            throw new Error("the package's session.create was not recorded");
        }
        console.log(`agents as sent: ${JSON.stringify(agents.sent)}`);
        for (const kind of ["package", "unwrapped"] as const) {
            for (let i = 0; i < 10; i++) await timeSession(clients[kind], kind);
        }
        const times = { package: [] as number[], unwrapped: [] as number[] };
        for (let round = 0; round < ROUNDS; round++) {
            const order =
                round % 2 === 0
                    ? (["package", "unwrapped"] as const)
                    : (["unwrapped", "package"] as const);
            for (const kind of order) times[kind].push(await timeSession(clients[kind], kind));
        }
        const ratios = times.package.map((value, round) => value / times.unwrapped[round]!);
        const line = (values: readonly number[]) =>
            `median ${quantile(values, 0.5).toFixed(2)} ms (quartiles ${quantile(values, 0.25).toFixed(2)}-${quantile(values, 0.75).toFixed(2)})`;
        console.log(
            `warm createSession, 20 custom tools and 3 custom agents, one runtime for both clients (${ROUNDS} sessions each):`
        );
        console.log(
            `  unwrapped SDK, the agents as the package sends them: ${line(times.unwrapped)}`
        );
        console.log(
            `  this package, the agents in its vocabulary:          ${line(times.package)}`
        );
        console.log(
            `  paired ratio (median of each round's ratio): ${quantile(ratios, 0.5).toFixed(3)} (quartiles ${quantile(ratios, 0.25).toFixed(3)}-${quantile(ratios, 0.75).toFixed(3)})`
        );
        await Promise.allSettled(Object.values(clients).map((client) => client.stop()));
    } finally {
        await server.stop();
        rmSync(baseDirectory, { recursive: true, force: true });
    }
}

await main();
