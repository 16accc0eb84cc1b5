// A minimal OpenAI-compatible model on 127.0.0.1 for the scripts that drive the real runtime
// offline (the discovery and the conformance suite): it records every /chat/completions body and
// answers a user turn with a call to each name in `model.toolCalls` (all in one response), any
// other turn with "ok". Call ids are `call_<request>_<tool name>`. Streaming and non-streaming requests are both answered.

import { createServer } from "node:http";

/**
 * @returns {Promise<{ toolCalls: string[] | undefined, requests: object[], baseUrl: string,
 *   close(): Promise<void> }>} the running model; set `toolCalls` to script the next user turn
 */
export async function startMockChatModel() {
    const requests = [];
    const model = { toolCalls: undefined, requests };
    const server = createServer((req, res) => {
        let body = "";
        req.on("data", (chunk) => (body += chunk));
        req.on("end", () => {
            if (req.method !== "POST" || !req.url.endsWith("/chat/completions")) {
                res.writeHead(404, { "content-type": "application/json" });
                res.end('{"error":{"message":"not found"}}');
                return;
            }
            const json = JSON.parse(body);
            requests.push(json);
            const calls = json.messages.at(-1)?.role === "user" ? (model.toolCalls ?? []) : [];
            const message =
                calls.length > 0
                    ? {
                          role: "assistant",
                          content: null,
                          tool_calls: calls.map((name, index) => ({
                              index,
                              id: `call_${requests.length}_${name}`,
                              type: "function",
                              function: { name, arguments: "{}" },
                          })),
                      }
                    : { role: "assistant", content: "ok" };
            const finish_reason = calls.length > 0 ? "tool_calls" : "stop";
            const base = { id: "mock", created: 0, model: json.model };
            if (!json.stream) {
                res.writeHead(200, { "content-type": "application/json" });
                res.end(
                    JSON.stringify({
                        ...base,
                        object: "chat.completion",
                        choices: [{ index: 0, message, finish_reason }],
                    })
                );
                return;
            }
            const chunk = (choices) =>
                `data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices })}\n\n`;
            res.writeHead(200, { "content-type": "text/event-stream" });
            res.end(
                chunk([{ index: 0, delta: message, finish_reason: null }]) +
                    chunk([{ index: 0, delta: {}, finish_reason }]) +
                    "data: [DONE]\n\n"
            );
        });
    });
    await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
    return Object.assign(model, {
        baseUrl: `http://127.0.0.1:${server.address().port}/v1`,
        close: () =>
            new Promise((resolve) => {
                server.closeAllConnections();
                server.close(() => resolve());
            }),
    });
}
