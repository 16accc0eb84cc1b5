/**
 * A real patched `CopilotClient` connected to a fake runtime on 127.0.0.1, for the mocked-RPC
 * tests: each test file calls {@link fakeRuntimeClients} once; every runtime and client it makes
 * is stopped after the test that made it.
 */
import { afterEach } from "vitest";
import {
    CopilotClient,
    RuntimeConnection,
    type CopilotClientOptions,
    type SessionToolWarning,
} from "@github/copilot-sdk";
import { startFakeRuntime, type FakeRuntime, type FakeRuntimeOptions } from "./fakeRuntime.js";

/** A fake runtime, a client connected to it, and the client's warnings. */
export interface FakeRuntimeClient {
    readonly runtime: FakeRuntime;
    readonly client: CopilotClient;
    /** Every warning of `onToolWarning`, in order. */
    readonly warnings: SessionToolWarning[];
}

/**
 * Registers the clean-up of the calling test file and returns its `setUp`.
 *
 * @returns `setUp(runtimeOptions?, clientOptions?)`: a started fake runtime and a client on it
 */
export function fakeRuntimeClients(): {
    setUp(
        runtimeOptions?: FakeRuntimeOptions,
        clientOptions?: Partial<CopilotClientOptions>
    ): Promise<FakeRuntimeClient>;
} {
    const cleanups: (() => Promise<unknown>)[] = [];
    afterEach(async () => {
        while (cleanups.length > 0) await cleanups.pop()!();
    });
    return {
        async setUp(runtimeOptions = {}, clientOptions = {}) {
            const runtime = await startFakeRuntime(runtimeOptions);
            cleanups.push(() => runtime.close());
            const warnings: SessionToolWarning[] = [];
            const client = new CopilotClient({
                connection: RuntimeConnection.forUri(runtime.url),
                onToolWarning: (warning: SessionToolWarning) => warnings.push(warning),
                ...clientOptions,
            });
            // A test may have stopped the client or killed its runtime already.
            cleanups.push(() => client.stop().catch(() => {}));
            return { runtime, client, warnings };
        },
    };
}

/**
 * Waits until the client has handled what the fake runtime sent before the call (its events, and
 * what their handlers started on microtasks) and the runtime has what the client sent in answer:
 * two ping round trips on the one ordered connection. No fixed sleep, so a loaded machine only
 * makes it slower.
 *
 * @param client - the client connected to the fake runtime
 */
export async function exchanged(client: {
    ping(message?: string): Promise<unknown>;
}): Promise<void> {
    await client.ping("exchanged");
    await client.ping("exchanged");
}
