// The fake runtime as a child process speaking JSON-RPC over stdio, the way the SDK talks to its
// bundled runtime: `RuntimeConnection.forStdio({ path: "<compiled>/fakeRuntimeProcess.js" })`.
// Stdio has none of TCP's Nagle/delayed-ACK latency, so the session benchmark measures the SDK's
// own work. Each method received is appended as a line to the file named by FAKE_RUNTIME_LOG.

import { appendFileSync } from "node:fs";
import {
    StreamMessageReader,
    StreamMessageWriter,
    createMessageConnection,
} from "vscode-jsonrpc/node.js";
import { FAKE_LISTED_TOOLS, createFakeRuntimeResponder } from "./fakeRuntime.js";

const log = process.env.FAKE_RUNTIME_LOG;
const answer = createFakeRuntimeResponder(() => ({ kind: "list", names: FAKE_LISTED_TOOLS }));
const connection = createMessageConnection(
    new StreamMessageReader(process.stdin),
    new StreamMessageWriter(process.stdout)
);
connection.onRequest((method: string, params: unknown) => {
    if (log !== undefined) appendFileSync(log, `${method}\n`);
    return answer(method, (params ?? {}) as Record<string, unknown>);
});
connection.onNotification(() => {});
connection.onClose(() => process.exit(0));
connection.listen();
