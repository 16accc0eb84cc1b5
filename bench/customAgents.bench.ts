/**
 * Benchmark: warm createSession with three custom agents, through this package and through the
 * unwrapped SDK given the same agents, as the app would write them without the package (their
 * `tools` in the runtime's names: the runtime knows no `toolset:`), and the app's own custom
 * tools. A third variant gives the unwrapped SDK the package's wire tools too (the override flags
 * and `defer` it adds), so the remaining difference is the package's own work (reading the agents
 * once, checking their tools against the session's, expanding toolsets).
 *
 * One real bundled runtime for all clients (offline; support/sharedRuntime.ts); every round runs
 * the variants back to back in a shuffled order, and the figure is the median of the rounds'
 * ratios to the unwrapped SDK with the app's tools, with its 90% interval and whether the interval
 * shows the target met (printed, not enforced). Beside it, the package's construction step alone,
 * in-process (reading the config, the agents' vocabulary, their model and prompt checks), as a
 * share of the unwrapped createSession. Part of `npm run bench`. Exits 0.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { approveAll, type Tool } from "@github/copilot-sdk";
import {
    MODEL,
    PROVIDER,
    pairedRatios,
    pairedRounds,
    quantile,
    ratioWithTarget,
    recordCreate,
    startSharedRuntime,
    timeSession,
    type BenchClient,
} from "./support/sharedRuntime.js";
import { prepareSessionConfig } from "../src/toolCustomization/construction/pipeline.js";
import { createSessionToolState } from "../src/toolCustomization/construction/clientState.js";

const ROUNDS = Number(process.env.AGENT_BENCH_ROUNDS ?? 400);
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

type Variant = "package" | "unwrapped" | "unwrapped, wire tools";
const VARIANTS: readonly Variant[] = ["package", "unwrapped", "unwrapped, wire tools"];

function config(variant: Variant): Record<string, unknown> {
    return {
        model: MODEL,
        provider: PROVIDER,
        onPermissionRequest: approveAll,
        tools: variant === "unwrapped, wire tools" ? sentTools : tools,
        customAgents: variant === "package" ? agents.given : agents.sent,
    };
}

/** The custom tools as the package sends them (with the override flags it adds). */
let sentTools: unknown[] = tools;

/**
 * The package's construction step for this config, in-process, with and without the agents
 * (median ms of 500 after 100 to warm up), on a stand-in client of the bundled, measured runtime
 * (which it asks nothing).
 */
async function stepTime(): Promise<{ agents: number; none: number }> {
    const host = {
        getStatus: async () => ({ version: "1.0.85" }),
        rpc: { tools: { list: async () => ({ tools: [] }) } },
        sessionToolState: createSessionToolState({ onToolWarning: () => {} }, "1.0.85"),
    };
    const normalise = (read: { availableTools?: unknown; excludedTools?: unknown }) =>
        ({ availableTools: read.availableTools, excludedTools: read.excludedTools }) as never;
    const median = async (withAgents: boolean) => {
        const times: number[] = [];
        for (let i = 0; i < 600; i++) {
            const given = {
                ...config("package"),
                ...(withAgents ? {} : { customAgents: undefined }),
            };
            const start = performance.now();
            await prepareSessionConfig(host, given as never, normalise);
            if (i >= 100) times.push(performance.now() - start);
        }
        return quantile(times, 0.5);
    };
    return { agents: await median(true), none: await median(false) };
}

async function main(): Promise<void> {
    const baseDirectory = mkdtempSync(join(tmpdir(), "agents-bench-"));
    const runtime = await startSharedRuntime(baseDirectory, TOKEN);
    const clients: BenchClient[] = [];
    try {
        const wrapped = await runtime.connect("wrapped");
        const unwrapped = await runtime.connect("unwrapped");
        clients.push(wrapped, unwrapped);
        const clientOf = (variant: Variant) => (variant === "package" ? wrapped : unwrapped);
        // What the package sends, recorded from its own connection once.
        const sent = (await recordCreate(wrapped, config("package"))) as {
            customAgents: unknown[];
            tools: { name: string; overridesBuiltInTool?: boolean; defer?: string }[];
        };
        agents.sent = sent.customAgents;
        const wire = new Map(sent.tools.map((tool) => [tool.name, tool]));
        sentTools = tools.map((tool) => ({
            ...tool,
            overridesBuiltInTool: wire.get(tool.name)?.overridesBuiltInTool,
            ...(wire.get(tool.name)?.defer === undefined
                ? {}
                : { defer: wire.get(tool.name)?.defer }),
        }));
        if (agents.sent.length !== agents.given.length) {
            throw new Error("the package's session.create was not recorded");
        }
        console.log(`agents as sent: ${JSON.stringify(agents.sent)}`);
        for (const variant of VARIANTS) {
            for (let i = 0; i < 10; i++) await timeSession(clientOf(variant), config(variant));
        }
        // Each session.create's round trip, by client: the runtime's part of a createSession;
        // the rest is the client's own work before the request and after the answer.
        const answers = new Map<BenchClient, number>();
        for (const client of [wrapped, unwrapped]) {
            const connection = (
                client as unknown as {
                    connection: {
                        sendRequest: (method: string, ...rest: unknown[]) => Promise<unknown>;
                    };
                }
            ).connection;
            const request = connection.sendRequest.bind(connection);
            connection.sendRequest = (method: string, ...rest: unknown[]) => {
                if (method !== "session.create") return request(method, ...rest);
                const start = performance.now();
                return request(method, ...rest).finally(() =>
                    answers.set(client, performance.now() - start)
                );
            };
        }
        const runtimePart: Record<"package" | "unwrapped", number[]> = {
            package: [],
            unwrapped: [],
        };
        const times = await pairedRounds(ROUNDS, VARIANTS, async (variant) => {
            const elapsed = await timeSession(clientOf(variant), config(variant));
            if (variant !== "unwrapped, wire tools") {
                runtimePart[variant].push(answers.get(clientOf(variant)) ?? Number.NaN);
            }
            return elapsed;
        });
        const line = (values: readonly number[]) =>
            `median ${quantile(values, 0.5).toFixed(2)} ms (quartiles ${quantile(values, 0.25).toFixed(2)}-${quantile(values, 0.75).toFixed(2)})`;
        console.log(
            `warm createSession, 20 custom tools and 3 custom agents, one runtime for all clients (${ROUNDS} shuffled rounds):`
        );
        console.log(
            `  unwrapped SDK, the app's tools and the agents in the runtime's names: ${line(times.unwrapped)}`
        );
        console.log(`  this package, the agents in its vocabulary: ${line(times.package)}`);
        console.log(
            `  paired ratio to the unwrapped SDK given the same agents: ${ratioWithTarget(pairedRatios(times.package, times.unwrapped), 1.02)}`
        );
        console.log(
            `  the unwrapped SDK given the package's wire tools too (flags, defer), to the same: ${ratioWithTarget(pairedRatios(times["unwrapped, wire tools"], times.unwrapped))}; the package to it: ${ratioWithTarget(pairedRatios(times.package, times["unwrapped, wire tools"]))}`
        );
        const own = (variant: "package" | "unwrapped") =>
            quantile(
                times[variant].map((total, round) => total - runtimePart[variant][round]!),
                0.5
            );
        console.log(
            `  where it goes (medians): the runtime's answer to session.create ${quantile(runtimePart.unwrapped, 0.5).toFixed(2)} ms unwrapped, ${quantile(runtimePart.package, 0.5).toFixed(2)} ms for the package's request; the client's own time around it ${own("unwrapped").toFixed(2)} ms unwrapped, ${own("package").toFixed(2)} ms with the package`
        );
        const step = await stepTime();
        const unwrappedMedian = quantile(times.unwrapped, 0.5);
        console.log(
            `  the package's construction step alone, in-process (median of 500, a client's sessions built alike), as a share of the unwrapped createSession: with the agents ${(1 + step.agents / unwrappedMedian).toFixed(4)}, without them ${(1 + step.none / unwrappedMedian).toFixed(4)}`
        );
    } finally {
        await Promise.allSettled(clients.map((client) => client.stop()));
        await runtime.stop();
        rmSync(baseDirectory, { recursive: true, force: true });
    }
}

await main();
