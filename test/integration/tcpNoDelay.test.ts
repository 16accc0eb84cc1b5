/**
 * TCP_NODELAY on the wrapped client's TCP connection (issue 45's PR D, carried by the package
 * until upstream sets it): the SDK's JSON-RPC writer sends a message's header and body in two
 * writes, so without the option each request waits on the runtime's delayed ACK. Observed on the
 * socket itself, not by timing: the wrapped client's socket has the option set before it
 * connects, the unpatched client's does not.
 */
import { Socket } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CopilotClient as UnpatchedClient, RuntimeConnection } from "copilot-sdk-unpatched";
import { fakeRuntimeClients } from "../support/fakeRuntimeClient.js";
import { startFakeRuntime } from "../support/fakeRuntime.js";

const { setUp } = fakeRuntimeClients();

afterEach(() => {
    vi.restoreAllMocks();
});

/** The sockets `setNoDelay(true)` was called on, from now on. */
function noDelaySockets(): Socket[] {
    const sockets: Socket[] = [];
    const original = Socket.prototype.setNoDelay;
    vi.spyOn(Socket.prototype, "setNoDelay").mockImplementation(function (
        this: Socket,
        noDelay?: boolean
    ) {
        if (noDelay === true) sockets.push(this);
        return original.call(this, noDelay);
    });
    return sockets;
}

describe("TCP_NODELAY on the runtime connection", () => {
    it("sets it on the wrapped client's socket before it connects", async () => {
        const sockets = noDelaySockets();
        const { client } = await setUp();
        await client.start();
        const socket = (client as unknown as { socket: Socket | null }).socket;
        expect(socket).toBeInstanceOf(Socket);
        expect(sockets).toContain(socket);
        await expect(client.ping("x")).resolves.toBeDefined();
    });

    it("is not set by the SDK as published (what the package adds until upstream does)", async () => {
        const runtime = await startFakeRuntime();
        const sockets = noDelaySockets();
        const client = new UnpatchedClient({ connection: RuntimeConnection.forUri(runtime.url) });
        try {
            await client.start();
            const socket = (client as unknown as { socket: Socket | null }).socket;
            expect(socket).toBeInstanceOf(Socket);
            expect(sockets).not.toContain(socket);
        } finally {
            await client.stop().catch(() => {});
            await runtime.close();
        }
    });
});
