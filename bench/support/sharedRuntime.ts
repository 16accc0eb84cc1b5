/**
 * What the session benchmarks share: one real bundled runtime for every client of a run, the
 * clients of each build connected to it, and the timing helpers (paired rounds in a shuffled
 * order, ratios with their spread).
 *
 * One runtime for all: a runtime process answers `session.create` in 48-58 ms of its own CPU,
 * and that speed differs between runtime processes by a few percent for a whole run (heap, JIT),
 * more than the package adds. With one runtime, what differs is the clients' work. The runtime
 * listens on loopback TCP (started by an unwrapped client that creates no sessions); each
 * client's socket gets TCP_NODELAY, as the SDK's TCP transport writes a message's header and body
 * separately and would otherwise wait on delayed ACKs (about 40 ms a request, measured), the same
 * for all.
 *
 * Known runtime: a client that connects by URL cannot tell which delivery of a version it talks
 * to, so the package treats such a runtime as unmeasured (its stand-in catalog, `warn` by
 * default, transforms for every section where the app removes or replaces a tool). This runtime is the bundled one, measured; a wrapped client
 * is told so (`known`, the default), and then takes the path it takes over stdio, where apps run
 * by default, and where a URL client of a measured CLI server runs. `known: false` leaves the
 * client as shipped, to measure the unmeasured path.
 */

import { performance } from "node:perf_hooks";
import { CopilotClient, RuntimeConnection } from "@github/copilot-sdk";
import {
    CopilotClient as UnpatchedClient,
    RuntimeConnection as UnpatchedConnection,
} from "copilot-sdk-unpatched";

export const MODEL = "claude-sonnet-4.5";
/** A provider nothing listens on: createSession never calls it; sends get the mock model's. */
export const PROVIDER = {
    type: "openai" as const,
    baseUrl: "http://127.0.0.1:9/v1",
    apiKey: "bench",
};

export interface BenchSession {
    disconnect(): Promise<void>;
    sendAndWait(options: { prompt: string }): Promise<unknown>;
}

export interface BenchClient {
    start(): Promise<void>;
    stop(): Promise<unknown>;
    createSession(config: Record<string, unknown>): Promise<BenchSession>;
}

/** The SDK as this package wraps it, or as published. */
export type Build = "wrapped" | "unwrapped";

/** A runtime that clients connect to by URL; stop it after its clients. */
export interface SharedRuntime {
    readonly url: string;
    /**
     * A started client of `build`; `noDelay: false` leaves an unwrapped socket as shipped, and
     * `known: false` a wrapped client that does not know the runtime (see above).
     */
    connect(build: Build, noDelay?: boolean, known?: boolean): Promise<BenchClient>;
    stop(): Promise<void>;
}

/** Starts one runtime on loopback TCP with the session files under `baseDirectory`. */
export async function startSharedRuntime(
    baseDirectory: string,
    token: string
): Promise<SharedRuntime> {
    const server = new UnpatchedClient({
        connection: UnpatchedConnection.forTcp({ connectionToken: token }),
        baseDirectory,
    });
    await server.start();
    const { version } = await server.getStatus();
    const url = `127.0.0.1:${(server as unknown as { runtimePort: number }).runtimePort}`;
    return {
        url,
        async connect(build, noDelay = true, known = true) {
            const client = (build === "unwrapped"
                ? new UnpatchedClient({
                      connection: UnpatchedConnection.forUri(url, { connectionToken: token }),
                  })
                : new CopilotClient({
                      connection: RuntimeConnection.forUri(url, { connectionToken: token }),
                      onToolWarning: () => {},
                  })) as unknown as BenchClient;
            await client.start();
            // The wrapped clients set it themselves (src/sdk/internals.ts, setNoDelayOnConnect).
            if (build === "unwrapped" && noDelay) {
                (
                    client as unknown as { socket?: { setNoDelay(on: boolean): void } }
                ).socket?.setNoDelay(true);
            }
            if (build === "wrapped" && known) {
                // What the client's state says of a runtime it runs itself (clientState.ts).
                Object.assign(
                    (client as unknown as { sessionToolState: object }).sessionToolState,
                    { bundledRuntimeVersion: version, runtimeDelivery: "bundled" }
                );
            }
            return client;
        },
        async stop() {
            await server.stop();
        },
    };
}

/** The time of one createSession, in ms; the session is disconnected after. */
export async function timeSession(
    client: BenchClient,
    config: Record<string, unknown>
): Promise<number> {
    const start = performance.now();
    const session = await client.createSession(config);
    const elapsed = performance.now() - start;
    await session.disconnect();
    return elapsed;
}

export function quantile(values: readonly number[], q: number): number {
    const sorted = [...values].sort((a, b) => a - b);
    const at = (sorted.length - 1) * q;
    const low = Math.floor(at);
    return sorted[low]! + (sorted[Math.ceil(at)]! - sorted[low]!) * (at - low);
}

/** A xorshift generator from a fixed seed: a run shuffles the same way each time. */
export function seededRandom(seed = 0x2545f491): () => number {
    let state = seed;
    return () => {
        state ^= state << 13;
        state ^= state >>> 17;
        state ^= state << 5;
        return (state >>> 0) / 2 ** 32;
    };
}

/**
 * `rounds` samples of every variant; each round runs them back to back in a new shuffled order,
 * so what drifts in the machine over the run falls on all alike, and no variant always follows
 * the same one.
 */
export async function pairedRounds<V extends string>(
    rounds: number,
    variants: readonly V[],
    sample: (variant: V) => Promise<number>,
    random: () => number = seededRandom()
): Promise<Record<V, number[]>> {
    const times = Object.fromEntries(variants.map((variant) => [variant, []])) as unknown as Record<
        V,
        number[]
    >;
    for (let round = 0; round < rounds; round++) {
        const order = [...variants];
        for (let i = order.length - 1; i > 0; i--) {
            const j = Math.floor(random() * (i + 1));
            [order[i], order[j]] = [order[j]!, order[i]!];
        }
        for (const variant of order) times[variant].push(await sample(variant));
    }
    return times;
}

/** Each round's ratio of `variant` to `base` (the samples of a round run back to back). */
export function pairedRatios(measured: readonly number[], base: readonly number[]): number[] {
    return measured.map((value, round) => value / base[round]!);
}

/** A median with its quartiles: "1.012 (quartiles 1.003-1.021)". */
export function withQuartiles(values: readonly number[], digits = 3): string {
    return `${quantile(values, 0.5).toFixed(digits)} (quartiles ${quantile(values, 0.25).toFixed(digits)}-${quantile(values, 0.75).toFixed(digits)})`;
}

/** A median of paired ratios with its 90% interval (bootstrap over the rounds). */
export interface RatioInterval {
    readonly median: number;
    readonly low: number;
    readonly high: number;
    readonly rounds: number;
}

/**
 * The median of `ratios` with its 90% interval, by resampling the rounds (1,000 bootstrap samples
 * from a fixed seed, so a run gives the same interval for the same samples).
 */
export function ratioInterval(ratios: readonly number[]): RatioInterval {
    const random = seededRandom();
    const medians: number[] = [];
    for (let sample = 0; sample < 1000; sample++) {
        const resampled = ratios.map(() => ratios[Math.floor(random() * ratios.length)]!);
        medians.push(quantile(resampled, 0.5));
    }
    return {
        median: quantile(ratios, 0.5),
        low: quantile(medians, 0.05),
        high: quantile(medians, 0.95),
        rounds: ratios.length,
    };
}

/** A median with its 90% interval: "1.021 (90% interval 1.012-1.030)". */
export function withInterval(ratios: readonly number[]): string {
    const { median, low, high } = ratioInterval(ratios);
    return `${median.toFixed(3)} (90% interval ${low.toFixed(3)}-${high.toFixed(3)})`;
}

/**
 * Whether a paired ratio meets its target ("within 1.02x"), as its 90% interval shows it: met
 * when the whole interval is at or below the target, not met when the whole interval is above
 * it, and not shown when the interval holds the target (more rounds, or a quieter machine, would
 * tell).
 */
export function targetVerdict(interval: RatioInterval, target: number): string {
    if (interval.high <= target) return `target ${target.toFixed(2)}: met`;
    if (interval.low > target) return `target ${target.toFixed(2)}: NOT met`;
    return `target ${target.toFixed(2)}: not shown (the interval holds it)`;
}

/** "1.021 (90% interval 1.012-1.030)   target 1.02: not shown (the interval holds it)". */
export function ratioWithTarget(ratios: readonly number[], target?: number): string {
    const interval = ratioInterval(ratios);
    const figure = `${interval.median.toFixed(3)} (90% interval ${interval.low.toFixed(3)}-${interval.high.toFixed(3)})`;
    return target === undefined ? figure : `${figure}   ${targetVerdict(interval, target)}`;
}

/**
 * The params of the `session.create` request the client sends for `config` (the session is
 * disconnected after; the client's connection is left as it was).
 */
export async function recordCreate(
    client: BenchClient,
    config: Record<string, unknown>
): Promise<unknown> {
    const connection = (
        client as unknown as {
            connection: { sendRequest: (method: unknown, ...rest: unknown[]) => Promise<unknown> };
        }
    ).connection;
    const send = connection.sendRequest;
    let sent: unknown;
    connection.sendRequest = function (this: unknown, method: unknown, ...rest: unknown[]) {
        if (method === "session.create") sent = rest[0];
        return send.call(this, method, ...rest);
    };
    try {
        await (await client.createSession(config)).disconnect();
    } finally {
        connection.sendRequest = send;
    }
    if (sent === undefined) throw new Error("the session.create request was not recorded");
    return sent;
}
