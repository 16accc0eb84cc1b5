/**
 * Benchmark: what the package costs an app, against the unwrapped SDK given the **app's own**
 * config (what the app would send without the package), and what each field the package adds to
 * the wire costs the runtime.
 *
 * Both builds share one real bundled runtime (offline; see support/sharedRuntime.ts); sends go to
 * the mock model on loopback. The package's client is told it is the bundled, measured runtime
 * (as over stdio); two more variants run on a client that connects by URL as shipped, which
 * cannot know the runtime's delivery and takes the unmeasured path. Every round runs each variant once, back to back, in a new shuffled
 * order; a ratio is the median of the rounds' ratios to the round's unwrapped sample, printed with
 * its 90% interval (bootstrap over the rounds) and, beside the issue's target, whether the
 * interval shows it met, not met, or cannot tell (printed, never enforced).
 *
 * The three cases, each against the unwrapped SDK given the same app config:
 * - agreement on: 20 custom tools, one replacing `view`, and `excludedTools: ["grep"]`: the
 *   runtime's prompt names both, so the package registers section transforms;
 * - agreement off: the same session with `promptAgreement: "off"`;
 * - nothing to agree: 20 custom tools that replace nothing and no filter: the package should send
 *   the SDK's own prompt (no transforms, no extra requests).
 * The added fields, each given alone to the unwrapped SDK with the "agreement on" app config: the
 * override flag on custom tools, `defer: "auto"`, and the section transforms (identity functions
 * for the sections the package registers); and all the package's wire fields together. Beside
 * them, an identity transform of one section alone (`tool_instructions`, the longest text): the
 * runtime asks for the sections in two requests, one after the other (`identity` and
 * `tool_instructions` in one, the other sections in the other, measured on runtime 1.0.85), so
 * this row is what one request costs, and the difference to the sections' row what the second
 * request and the other sections' text add. And a no-op `preToolUse` hook, as the package's
 * task-prompt note registers in rewrite mode (taskPromptNote.ts): with any hook, the runtime asks
 * the client at each of its hook points, five requests on a first send (runtime 1.0.85).
 *
 * Measured: warm createSession, and the first send (createSession, then the first `sendAndWait`;
 * with transforms registered, the runtime asks the client for the sections' text before the
 * model's first request), on the shared runtime over loopback TCP (TCP_NODELAY on the clients'
 * sockets; the runtime's own writes as it makes them) and over stdio with a runtime per build. Then the rewrite's own time on a later session's first send, and
 * whether the client's remembered rewrites answer it. Exits 0.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { CopilotClient, approveAll, type Tool } from "@github/copilot-sdk";
import { CopilotClient as UnpatchedClient } from "copilot-sdk-unpatched";
import { startMockModel } from "../src/mockModel/mockChatModel.js";
import { prepareSessionTools } from "../src/toolCustomization/construction/pipeline.js";
import { createSessionToolState } from "../src/toolCustomization/construction/clientState.js";
import { createPromptRewrites } from "../src/toolCustomization/prompt/promptAgreement.js";
import {
    MODEL,
    PROVIDER,
    pairedRatios,
    pairedRounds,
    quantile,
    recordCreate,
    startSharedRuntime,
    timeSession,
    ratioWithTarget,
    type BenchClient,
    type BenchSession,
} from "./support/sharedRuntime.js";

const CREATE_ROUNDS = Number(process.env.APP_BENCH_CREATE_ROUNDS ?? 200);
const SEND_ROUNDS = Number(process.env.APP_BENCH_SEND_ROUNDS ?? 50);
const STDIO_ROUNDS = Number(process.env.APP_BENCH_STDIO_ROUNDS ?? 50);
const TOKEN = "app-config-bench";

const handler = async (): Promise<string> => "ok";
const customTools: Tool[] = Array.from({ length: 19 }, (_, i) => ({
    name: `custom_tool_${i}`,
    description: `custom tool ${i}`,
    parameters: { type: "object", properties: { path: { type: "string" } } },
    handler,
}));
/** The app's own configs, valid as they are for the unwrapped SDK. */
const appConfigs = {
    agreeing: {
        tools: [
            { name: "view", description: "custom view", handler, overridesBuiltInTool: true },
            ...customTools,
        ],
        excludedTools: ["grep"],
    },
    nothingToAgree: {
        tools: [
            ...customTools,
            { name: "custom_tool_19", description: "custom tool 19", handler } as Tool,
        ],
    },
};

type Variant =
    | "unwrapped, app config"
    | "agreement on"
    | "agreement off"
    | "unwrapped, app config (nothing to agree)"
    | "nothing to agree"
    | "+ override flags"
    | "+ defer"
    | "+ section transforms"
    | "+ one section's transform"
    | "+ a preToolUse hook"
    | "+ all the package's fields"
    | "agreement on, runtime not known"
    | "nothing to agree, runtime not known";
const VARIANTS: readonly Variant[] = [
    "unwrapped, app config",
    "agreement on",
    "agreement off",
    "unwrapped, app config (nothing to agree)",
    "nothing to agree",
    "+ override flags",
    "+ defer",
    "+ section transforms",
    "+ one section's transform",
    "+ a preToolUse hook",
    "+ all the package's fields",
    "agreement on, runtime not known",
    "nothing to agree, runtime not known",
];
const STDIO_VARIANTS: readonly Variant[] = [
    "unwrapped, app config",
    "agreement on",
    "agreement off",
    "unwrapped, app config (nothing to agree)",
    "nothing to agree",
    "+ section transforms",
    "+ one section's transform",
    "+ a preToolUse hook",
];
const wrappedVariants = new Set<Variant>([
    "agreement on",
    "agreement off",
    "nothing to agree",
    "agreement on, runtime not known",
    "nothing to agree, runtime not known",
]);
/** The variants of a wrapped client that connects by URL as shipped (sharedRuntime.ts, `known`). */
const unknownRuntimeVariants = new Set<Variant>([
    "agreement on, runtime not known",
    "nothing to agree, runtime not known",
]);

/** What the package sent in `session.create`, by case (recorded once). */
interface SentCreate {
    tools: { name: string; overridesBuiltInTool?: boolean; defer?: string }[];
    systemMessage?: { mode?: string; sections?: Record<string, unknown> };
    availableTools?: string[];
    excludedTools?: string[];
}

const identity = (text: string): string => text;

/** The unwrapped SDK's config of `variant`, from the app's and what the package sent. */
function unwrappedConfig(
    variant: Variant,
    sent: SentCreate
): { tools: Tool[]; [key: string]: unknown } {
    if (variant === "unwrapped, app config (nothing to agree)") return appConfigs.nothingToAgree;
    const app = appConfigs.agreeing;
    const wire = new Map(sent.tools.map((tool) => [tool.name, tool]));
    const withFields = (flag: boolean, defer: boolean) =>
        app.tools.map((tool) => {
            const sentTool = wire.get(tool.name);
            return {
                ...tool,
                ...(flag && sentTool?.overridesBuiltInTool !== undefined
                    ? { overridesBuiltInTool: sentTool.overridesBuiltInTool }
                    : {}),
                ...(defer && sentTool?.defer !== undefined ? { defer: sentTool.defer } : {}),
            } as Tool;
        });
    const sections = {
        systemMessage: {
            mode: "customize",
            sections: Object.fromEntries(
                Object.keys(sent.systemMessage?.sections ?? {}).map((id) => [
                    id,
                    { action: identity },
                ])
            ),
        },
    };
    switch (variant) {
        case "+ override flags":
            return { ...app, tools: withFields(true, false) };
        case "+ defer":
            return { ...app, tools: withFields(false, true) };
        case "+ section transforms":
            return { ...app, ...sections };
        case "+ one section's transform":
            return {
                ...app,
                systemMessage: {
                    mode: "customize",
                    sections: { tool_instructions: { action: identity } },
                },
            };
        case "+ a preToolUse hook":
            return { ...app, hooks: { onPreToolUse: async () => undefined } };
        case "+ all the package's fields":
            return {
                ...app,
                hooks: { onPreToolUse: async () => undefined },
                tools: withFields(true, true),
                ...sections,
                ...(sent.availableTools === undefined
                    ? {}
                    : { availableTools: sent.availableTools }),
                excludedTools: sent.excludedTools ?? app.excludedTools,
            };
        default:
            return app;
    }
}

function wrappedConfig(variant: Variant): Record<string, unknown> {
    if (variant === "nothing to agree" || variant === "nothing to agree, runtime not known") {
        return appConfigs.nothingToAgree;
    }
    if (variant === "agreement off") return { ...appConfigs.agreeing, promptAgreement: "off" };
    return appConfigs.agreeing;
}

type TransformHandler = (sections: Record<string, { content: string }>) => Promise<unknown>;

/**
 * Times the session's answers to the runtime's `systemMessage.transform` requests (the SDK's
 * handler, which runs the section transforms), and keeps the sections' texts.
 */
function traceTransforms(session: BenchSession): {
    ms: () => number;
    texts: Map<string, string>;
    requests: string[][];
    hooks: string[];
} {
    const traced = session as unknown as {
        _handleSystemMessageTransform: TransformHandler;
        _handleHooksInvoke: (hookType: string, input: unknown) => Promise<unknown>;
    };
    const hooks: string[] = [];
    const invoke = traced._handleHooksInvoke;
    traced._handleHooksInvoke = function (this: unknown, hookType, input) {
        hooks.push(hookType);
        return invoke.call(this, hookType, input);
    };
    const handle = traced._handleSystemMessageTransform;
    let ms = 0;
    const texts = new Map<string, string>();
    const requests: string[][] = [];
    traced._handleSystemMessageTransform = async function (this: unknown, sections) {
        requests.push(Object.keys(sections));
        for (const [id, { content }] of Object.entries(sections)) texts.set(id, content);
        const start = performance.now();
        try {
            return await handle.call(this, sections);
        } finally {
            ms += performance.now() - start;
        }
    };
    return { ms: () => ms, texts, requests, hooks };
}

function printRatios(
    label: string,
    times: Record<Variant, number[]>,
    rows: readonly { variant: Variant; base: Variant; target?: number }[]
): void {
    console.log(`${label}:`);
    for (const { variant, base, target } of rows) {
        const ratios = pairedRatios(times[variant], times[base]);
        console.log(`  ${variant.padEnd(28)} ratio ${ratioWithTarget(ratios, target)}`);
    }
}

const MAIN_ROWS = [
    { variant: "agreement on", base: "unwrapped, app config" },
    { variant: "agreement off", base: "unwrapped, app config" },
    { variant: "nothing to agree", base: "unwrapped, app config (nothing to agree)" },
] as const;
const UNKNOWN_RUNTIME_ROWS = [
    { variant: "agreement on, runtime not known", base: "unwrapped, app config" },
    {
        variant: "nothing to agree, runtime not known",
        base: "unwrapped, app config (nothing to agree)",
    },
] as const;
const FIELD_ROWS = [
    { variant: "+ override flags", base: "unwrapped, app config" },
    { variant: "+ defer", base: "unwrapped, app config" },
    { variant: "+ section transforms", base: "unwrapped, app config" },
    { variant: "+ one section's transform", base: "unwrapped, app config" },
    { variant: "+ a preToolUse hook", base: "unwrapped, app config" },
    { variant: "+ all the package's fields", base: "unwrapped, app config" },
] as const;

/** A stand-in client for the step alone; a bundled, measured runtime asks it nothing. */
function stepHost() {
    return {
        getStatus: async () => ({ version: "1.0.85" }),
        rpc: { tools: { list: async () => ({ tools: [] }) } },
        sessionToolState: createSessionToolState({ onToolWarning: () => {} }, "1.0.85"),
    };
}

/**
 * The client's rewriter on two sessions' section texts, in-process: the time of the first
 * session's rewrites (a new rewriter) and of the second's (the first's remembered), medians of
 * `trials` fresh rewriters, and the sections whose text differs between the sessions.
 */
async function rewriteCache(
    first: ReadonlyMap<string, string>,
    second: ReadonlyMap<string, string>,
    trials = 30
): Promise<{ firstMs: number; secondMs: number; differing: string[] }> {
    const prepared = await prepareSessionTools(
        stepHost(),
        { model: MODEL, ...appConfigs.agreeing },
        {}
    );
    const tools = prepared.promptTools;
    const firstMs: number[] = [];
    const secondMs: number[] = [];
    for (let trial = 0; trial < trials; trial++) {
        const rewrite = createPromptRewrites();
        for (const [texts, times] of [
            [first, firstMs],
            [second, secondMs],
        ] as const) {
            const start = performance.now();
            for (const text of texts.values()) rewrite(text, tools);
            times.push(performance.now() - start);
        }
    }
    const differing = [...second.keys()].filter((id) => first.get(id) !== second.get(id));
    return {
        firstMs: quantile(firstMs.slice(1), 0.5),
        secondMs: quantile(secondMs.slice(1), 0.5),
        differing,
    };
}

async function main(): Promise<void> {
    const baseDirectory = mkdtempSync(join(tmpdir(), "app-config-bench-"));
    const runtime = await startSharedRuntime(baseDirectory, TOKEN);
    const model = await startMockModel({});
    const clients: BenchClient[] = [];
    try {
        const wrapped = await runtime.connect("wrapped");
        const unwrapped = await runtime.connect("unwrapped");
        const notKnowing = await runtime.connect("wrapped", true, false);
        clients.push(wrapped, unwrapped, notKnowing);
        const base = { model: MODEL, provider: PROVIDER, onPermissionRequest: approveAll };
        const sent = (await recordCreate(wrapped, {
            ...base,
            ...appConfigs.agreeing,
        })) as SentCreate;
        const sentNone = (await recordCreate(wrapped, {
            ...base,
            ...appConfigs.nothingToAgree,
        })) as SentCreate;
        const sections = Object.keys(sent.systemMessage?.sections ?? {});
        console.log(
            `What the package adds to the app's session.create (agreement on): overridesBuiltInTool on ${sent.tools.filter((tool) => tool.overridesBuiltInTool === true).length} of ${sent.tools.length} tools (the app set it on 1), defer "${sent.tools.find((tool) => tool.defer !== undefined)?.defer}" on ${sent.tools.filter((tool) => tool.defer !== undefined).length}, ${sections.length} section transforms (${sections.join(", ")}), excludedTools ${JSON.stringify(sent.excludedTools)}, availableTools ${JSON.stringify(sent.availableTools)}`
        );
        console.log(
            `  nothing to agree: systemMessage ${sentNone.systemMessage === undefined ? "none (the SDK's own prompt)" : JSON.stringify(Object.keys(sentNone.systemMessage.sections ?? {}))}, overridesBuiltInTool on ${sentNone.tools.filter((tool) => tool.overridesBuiltInTool === true).length} of ${sentNone.tools.length} tools, defer on ${sentNone.tools.filter((tool) => tool.defer !== undefined).length}`
        );
        const config = (variant: Variant, baseUrl?: string): Record<string, unknown> => ({
            ...base,
            ...(baseUrl === undefined ? {} : { provider: { ...PROVIDER, baseUrl } }),
            ...(wrappedVariants.has(variant)
                ? wrappedConfig(variant)
                : unwrappedConfig(variant, sent)),
        });
        const clientOf = (variant: Variant) =>
            unknownRuntimeVariants.has(variant)
                ? notKnowing
                : wrappedVariants.has(variant)
                  ? wrapped
                  : unwrapped;
        // Warm-up: the first sessions of a client pay for loading the runtime's modules.
        for (const variant of VARIANTS) {
            for (let i = 0; i < 5; i++) await timeSession(clientOf(variant), config(variant));
            const session = await clientOf(variant).createSession(config(variant, model.baseUrl));
            await session.sendAndWait({ prompt: "hello" });
            await session.disconnect();
        }
        const created = await pairedRounds(CREATE_ROUNDS, VARIANTS, (variant) =>
            timeSession(clientOf(variant), config(variant))
        );
        const transformMs: Partial<Record<Variant, number[]>> = {};
        /** By variant, the sections of each transform request of its last first send. */
        const transformRequests: Partial<Record<Variant, string[][]>> = {};
        /** By variant, the hooks.invoke requests of its last first send. */
        const hookRequests: Partial<Record<Variant, string[]>> = {};
        const texts: Map<string, string>[] = [];
        const firstSends = (
            rounds: number,
            variants: readonly Variant[],
            clientFor: (variant: Variant) => BenchClient
        ) =>
            pairedRounds(rounds, variants, async (variant) => {
                const session = await clientFor(variant).createSession(
                    config(variant, model.baseUrl)
                );
                const traced = traceTransforms(session);
                const start = performance.now();
                await session.sendAndWait({ prompt: "hello" });
                const elapsed = performance.now() - start;
                await session.disconnect();
                (transformMs[variant] ??= []).push(traced.ms());
                transformRequests[variant] = traced.requests;
                hookRequests[variant] = traced.hooks;
                if (variant === "agreement on" && texts.length < 2) texts.push(traced.texts);
                return elapsed;
            });
        const firstSend = await firstSends(SEND_ROUNDS, VARIANTS, clientOf);
        // Over stdio, as apps run by default: a runtime per client (one per build), whose speed
        // differs between processes by a few percent (the field rows share one).
        const ownRuntime = {
            wrapped: new CopilotClient({
                baseDirectory: join(baseDirectory, "wrapped"),
                onToolWarning: () => {},
            }) as unknown as BenchClient,
            unwrapped: new UnpatchedClient({
                baseDirectory: join(baseDirectory, "unwrapped"),
            }) as unknown as BenchClient,
        };
        clients.push(ownRuntime.wrapped, ownRuntime.unwrapped);
        await ownRuntime.wrapped.start();
        await ownRuntime.unwrapped.start();
        const stdioOf = (variant: Variant) =>
            wrappedVariants.has(variant) ? ownRuntime.wrapped : ownRuntime.unwrapped;
        for (const variant of STDIO_VARIANTS) {
            for (let i = 0; i < 3; i++) {
                const session = await stdioOf(variant).createSession(
                    config(variant, model.baseUrl)
                );
                await session.sendAndWait({ prompt: "hello" });
                await session.disconnect();
            }
        }
        const stdioSend = await firstSends(STDIO_ROUNDS, STDIO_VARIANTS, stdioOf);
        console.log(
            `Against the unwrapped SDK given the app's own config; one runtime, paired rounds in a shuffled order; median of the rounds' ratios (90% interval), and whether the interval shows the target:`
        );
        printRatios(`warm createSession (${CREATE_ROUNDS} rounds)`, created, [
            { ...MAIN_ROWS[0], target: 1.02 },
            { ...MAIN_ROWS[1], target: 1.02 },
            { ...MAIN_ROWS[2], target: 1.02 },
        ]);
        printRatios(`first send after a warm createSession (${SEND_ROUNDS} rounds)`, firstSend, [
            { ...MAIN_ROWS[0], target: 1.02 },
            { ...MAIN_ROWS[1], target: 1.02 },
            { ...MAIN_ROWS[2], target: 1.0 },
        ]);
        console.log(
            `A client that connects by URL as shipped does not know the runtime's delivery: unmeasured, its stand-in catalog, warn by default, transforms for every section where the app removes or replaces a tool, none where it removes and replaces nothing (no target: the issue's are for a measured runtime):`
        );
        printRatios(`  warm createSession`, created, UNKNOWN_RUNTIME_ROWS);
        printRatios(`  first send`, firstSend, UNKNOWN_RUNTIME_ROWS);
        console.log(
            `What each field the package adds costs the runtime: the unwrapped SDK given the app's config plus that field alone:`
        );
        printRatios(`  warm createSession`, created, FIELD_ROWS);
        printRatios(`  first send`, firstSend, FIELD_ROWS);
        printRatios(
            `first send over stdio, a runtime per build (${STDIO_ROUNDS} rounds; the runtimes' speeds differ by a few percent)`,
            stdioSend,
            [
                { ...MAIN_ROWS[0], target: 1.02 },
                { ...MAIN_ROWS[1], target: 1.02 },
                { ...MAIN_ROWS[2], target: 1.0 },
                FIELD_ROWS[2],
                FIELD_ROWS[3],
                FIELD_ROWS[4],
            ]
        );
        const asked = (variant: Variant) => {
            const requests = transformRequests[variant] ?? [];
            return `${requests.length} (${requests.map((sections) => `[${sections.join(", ")}]`).join(" then ") || "none"})`;
        };
        console.log(
            `The runtime's systemMessage.transform requests on a first send, and the sections each asks for: agreement on ${asked("agreement on")}; one section's transform ${asked("+ one section's transform")}; nothing to agree ${asked("nothing to agree")}`
        );
        const hooked = (variant: Variant) =>
            `${(hookRequests[variant] ?? []).length} [${(hookRequests[variant] ?? []).join(", ")}]`;
        console.log(
            `The runtime's hooks.invoke requests on a first send (a session with any hook is asked at every hook point; the package's task-note hook, rewrite mode): agreement on ${hooked("agreement on")}; agreement off ${hooked("agreement off")}; the unwrapped SDK with one preToolUse hook ${hooked("+ a preToolUse hook")}`
        );
        const handled = (variant: Variant) => quantile(transformMs[variant] ?? [0], 0.5);
        console.log(
            `The runtime's systemMessage.transform requests on a first send, the client's time answering them (median ms): agreement on ${handled("agreement on").toFixed(2)}, identity transforms of the same sections ${handled("+ section transforms").toFixed(2)}, nothing to agree ${handled("nothing to agree").toFixed(2)}`
        );
        if (texts.length === 2) {
            const cache = await rewriteCache(texts[0]!, texts[1]!);
            console.log(
                `The client's rewriter in-process on two sessions' section texts (medians of fresh rewriters): the first session's rewrites ${cache.firstMs.toFixed(3)} ms, the second's ${cache.secondMs.toFixed(3)} ms; sections whose text differs between the sessions: [${cache.differing.join(", ")}]`
            );
        }
    } finally {
        await Promise.allSettled(clients.map((client) => client.stop()));
        await runtime.stop();
        await model.close();
        rmSync(baseDirectory, { recursive: true, force: true });
    }
}

await main();
