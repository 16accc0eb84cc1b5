import { createServer, type Server, type Socket } from "node:net";
import {
    createMessageConnection,
    ResponseError,
    ErrorCodes,
    type MessageConnection,
} from "vscode-jsonrpc/node.js";
import { SocketMessageReader, SocketMessageWriter } from "vscode-jsonrpc/node.js";

/** One JSON-RPC request the fake runtime received. */
export interface RecordedRpcRequest {
    readonly method: string;
    readonly params: Record<string, unknown>;
}

/** How the fake runtime answers `tools.list`. */
export type ToolListBehaviour =
    | { readonly kind: "list"; readonly names: readonly string[] }
    | { readonly kind: "method-not-found" }
    | { readonly kind: "fail"; readonly message: string }
    | { readonly kind: "never" }
    /** Answers exactly this value, whatever its shape (for replies a runtime should not give). */
    | { readonly kind: "reply"; readonly value: unknown };

/** How the fake runtime answers `status.get`. */
export type StatusBehaviour =
    | { readonly kind: "version"; readonly version: string }
    | { readonly kind: "never" }
    | { readonly kind: "reply"; readonly value: unknown };

/** Options of {@link startFakeRuntime}. */
export interface FakeRuntimeOptions {
    /** Answer to `tools.list`; defaults to a small Claude-style listing. */
    readonly toolList?: ToolListBehaviour;
    /** Answer to `status.get`; defaults to version "1.0.85", the measured bundled runtime. */
    readonly status?: StatusBehaviour;
}

/** A fake Copilot runtime on 127.0.0.1 that speaks the SDK's JSON-RPC and records requests. */
export interface FakeRuntime {
    /** `127.0.0.1:<port>`, for `RuntimeConnection.forUri`. */
    readonly url: string;
    /** Every request received, in order, across connections. */
    readonly requests: RecordedRpcRequest[];
    /** The params of every request of one method. */
    paramsOf(method: string): Record<string, unknown>[];
    /** The methods of the requests received, in order, without the handshake (`connect`, `ping`). */
    methods(): string[];
    /** What `session.metadata.isProcessing` answers from now on (default false). */
    setProcessing(processing: boolean): void;
    /** Changes the `tools.list` answer for later requests. */
    setToolList(behaviour: ToolListBehaviour): void;
    /**
     * Makes the next `times` requests of `method` fail with a JSON-RPC error (`undefined`: answer
     * again).
     */
    failMethod(method: string | undefined, times?: number, message?: string): void;
    /** Makes the next `times` requests of `method` never answer (`undefined`: answer again). */
    hangMethod(method: string | undefined, times?: number): void;
    /** Sends a session event to every connected client, as the runtime's `session.event`. */
    emit(sessionId: string, event: { type: string; data?: unknown }): void;
    /** Closes every connection at once, as a runtime that died. */
    dropConnections(): void;
    /** Closes every connection and the server. */
    close(): Promise<void>;
}

/**
 * The listing the fake runtime gives by default: what runtime 1.0.85 (SDK 1.0.14) answers to
 * `tools.list`, for every model (it is not the set the model is offered; see
 * builtInToolCatalog.ts).
 */
export const FAKE_LISTED_TOOLS: readonly string[] = [
    "bash",
    "read_bash",
    "stop_bash",
    "list_bash",
    "glob",
    "grep",
    "create",
    "edit",
    "skill",
    "view",
    "web_fetch",
    "task",
    "read_agent",
    "list_agents",
    "write_agent",
];

/**
 * The fake runtime's answers: the handshake (`connect`), `status.get`, `tools.list`,
 * `session.create`/`session.resume` (echoing the session id), `session.detach`,
 * `session.metadata.isProcessing`, and an empty result for anything else.
 *
 * @param toolList - returns the current `tools.list` behaviour
 * @param status - how `status.get` answers
 * @param processing - what `session.metadata.isProcessing` answers
 * @returns a function from method and params to the result (throws JSON-RPC errors)
 */
export function createFakeRuntimeResponder(
    toolList: () => ToolListBehaviour,
    status: StatusBehaviour,
    processing: () => boolean
): (method: string, params: Record<string, unknown>) => unknown {
    let sent = 0;
    return (method: string, params: Record<string, unknown>): unknown => {
        switch (method) {
            case "connect":
            case "ping":
                return { protocolVersion: 3, message: "pong", timestamp: Date.now() };
            case "status.get":
                if (status.kind === "never") return new Promise(() => {});
                if (status.kind === "reply") return status.value;
                return { version: status.version, protocolVersion: 3 };
            case "tools.list": {
                const behaviour = toolList();
                if (behaviour.kind === "never") return new Promise(() => {});
                if (behaviour.kind === "method-not-found") {
                    throw new ResponseError(
                        ErrorCodes.MethodNotFound,
                        "Unhandled method tools.list"
                    );
                }
                if (behaviour.kind === "fail") throw new ResponseError(-32000, behaviour.message);
                if (behaviour.kind === "reply") return behaviour.value;
                const tools = behaviour.names.map((name) => ({
                    name,
                    description: `built-in ${name}`,
                }));
                return { tools };
            }
            case "session.create":
                return { sessionId: params.sessionId ?? "fake-session", workspacePath: undefined };
            case "session.resume":
                return { sessionId: params.sessionId, workspacePath: undefined };
            case "session.detach":
                return { success: true };
            case "session.metadata.isProcessing":
                return { processing: processing() };
            case "session.getMessages":
                return { events: [] };
            case "session.send":
                // As the runtime: the id its user.message event will carry.
                return { messageId: `message-${++sent}` };
            default:
                return {};
        }
    };
}

/**
 * Starts the fake runtime. It answers the handshake (`connect`), `status.get`, `tools.list`,
 * `session.create`/`session.resume` (echoing the session id), `session.detach`, and acknowledges
 * anything else, so a real `CopilotClient` connected with `RuntimeConnection.forUri(runtime.url)`
 * can construct sessions against it.
 *
 * @param options - see {@link FakeRuntimeOptions}
 * @returns the running fake runtime
 */
export async function startFakeRuntime(options: FakeRuntimeOptions = {}): Promise<FakeRuntime> {
    const requests: RecordedRpcRequest[] = [];
    const connections = new Set<MessageConnection>();
    const sockets = new Set<Socket>();
    let failing: string | undefined;
    let failures = 0;
    let hanging: string | undefined;
    let hangs = 0;
    let failMessage: string | undefined;
    let toolList: ToolListBehaviour = options.toolList ?? {
        kind: "list",
        names: FAKE_LISTED_TOOLS,
    };

    let processing = false;
    const answer = createFakeRuntimeResponder(
        () => toolList,
        options.status ?? { kind: "version", version: "1.0.85" },
        () => processing
    );

    const server: Server = createServer((socket) => {
        sockets.add(socket);
        // Answer at once: without this, Nagle and delayed ACKs add ~40 ms to each round trip.
        socket.setNoDelay(true);
        socket.on("close", () => sockets.delete(socket));
        const connection = createMessageConnection(
            new SocketMessageReader(socket),
            new SocketMessageWriter(socket)
        );
        connections.add(connection);
        connection.onRequest((method: string, params: unknown) => {
            const recorded = (params ?? {}) as Record<string, unknown>;
            requests.push({ method, params: recorded });
            if (method === failing && failures > 0) {
                failures--;
                throw new ResponseError(-32603, failMessage ?? `${method} failed (fake)`);
            }
            if (method === hanging && hangs > 0) {
                hangs--;
                return new Promise(() => {});
            }
            return answer(method, recorded);
        });
        connection.onNotification(() => {});
        connection.onClose(() => connections.delete(connection));
        connection.listen();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    if (address === null || typeof address === "string") throw new Error("no TCP address");

    return {
        url: `127.0.0.1:${address.port}`,
        requests,
        paramsOf: (method) => requests.filter((r) => r.method === method).map((r) => r.params),
        methods: () => requests.map((r) => r.method).filter((m) => m !== "connect" && m !== "ping"),
        setToolList: (behaviour) => {
            toolList = behaviour;
        },
        setProcessing: (value) => {
            processing = value;
        },
        failMethod: (method, times = Number.POSITIVE_INFINITY, message) => {
            failing = method;
            failures = times;
            failMessage = message;
        },
        hangMethod: (method, times = Number.POSITIVE_INFINITY) => {
            hanging = method;
            hangs = times;
        },
        emit: (sessionId, event) => {
            const full = {
                id: `fake-${Math.random().toString(36).slice(2)}`,
                timestamp: new Date().toISOString(),
                parentId: null,
                data: {},
                ...event,
            };
            for (const connection of connections) {
                void connection.sendNotification("session.event", { sessionId, event: full });
            }
        },
        dropConnections: () => {
            for (const socket of sockets) socket.destroy();
        },
        close: async () => {
            for (const connection of connections) connection.dispose();
            for (const socket of sockets) socket.destroy();
            await new Promise<void>((resolve) => server.close(() => resolve()));
        },
    };
}
