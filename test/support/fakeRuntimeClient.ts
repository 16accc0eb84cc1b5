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
 * Which delivery of the runtime the client takes the fake for. The fake plays the measured
 * runtime 1.0.85, which was measured as SDK 1.0.14 bundles it, and the client reaches it over a
 * URI: by default (`"bundled"`) the client's state says it talks to that bundled runtime, so that
 * the measurements count for it as for a client of the bundled runtime (it still asks
 * `status.get`, as any client without a bundled version does). `"as-connected"` keeps what the
 * wrap derived from the connection (the `@github/copilot` CLI), as an app's client would.
 */
export type FakeRuntimeDelivery = "bundled" | "as-connected";

/**
 * Registers the clean-up of the calling test file and returns its `setUp`.
 *
 * @returns `setUp(runtimeOptions?, clientOptions?, delivery?)`: a started fake runtime and a
 *   client on it
 */
export function fakeRuntimeClients(): {
    setUp(
        runtimeOptions?: FakeRuntimeOptions,
        clientOptions?: Partial<CopilotClientOptions>,
        delivery?: FakeRuntimeDelivery
    ): Promise<FakeRuntimeClient>;
} {
    const cleanups: (() => Promise<unknown>)[] = [];
    afterEach(async () => {
        while (cleanups.length > 0) await cleanups.pop()!();
    });
    return {
        async setUp(runtimeOptions = {}, clientOptions = {}, delivery = "bundled") {
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
            if (delivery === "bundled") takeForBundledRuntime(client);
            return { runtime, client, warnings };
        },
    };
}

/**
 * Makes a client connected to the fake take it for the bundled runtime (see
 * {@link FakeRuntimeDelivery}): the delivery its catalog matches measurements on.
 *
 * @param client - a wrapped client, just constructed
 */
export function takeForBundledRuntime(client: object): void {
    const state = (client as { sessionToolState?: object }).sessionToolState;
    if (state === undefined) throw new Error("the client has no session-tool state");
    Object.assign(state, { runtimeDelivery: "bundled" });
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

/** What the SDK's dispatcher answers a `systemMessage.transform` request with. */
export type TransformedSections = { sections: Record<string, { content: string }> };

/**
 * Hands `sections` (id to text) to the session's own dispatcher as the runtime's
 * `systemMessage.transform` request would (the fake runtime cannot call the client back).
 *
 * @param session - a session of a client connected to the fake runtime
 * @param sections - the sections' texts by id
 */
export function runtimeTransform(
    session: object,
    sections: Record<string, string>
): Promise<TransformedSections> {
    const handle = (
        session as {
            _handleSystemMessageTransform(
                sections: Record<string, { content: string }>
            ): Promise<TransformedSections>;
        }
    )._handleSystemMessageTransform.bind(session);
    return handle(
        Object.fromEntries(Object.entries(sections).map(([id, content]) => [id, { content }]))
    );
}
