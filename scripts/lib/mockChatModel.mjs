// The one mock model: a scriptable, OpenAI-compatible chat-completions server on 127.0.0.1
// (ephemeral port), for everything that drives the real runtime offline: the discovery, the
// conformance suite and the reproductions (`startMockChatModel`), and the end-to-end tests,
// benchmarks and demo (`startMockModel`, through test/support/mockModel.ts).
//
// The Copilot runtime, configured with `provider: { type: "openai", baseUrl: mock.baseUrl,
// apiKey: "x" }`, POSTs its chat requests to `<baseUrl>/chat/completions`. The server records
// every request body and answers it per its script, as plain JSON by default or as an SSE stream
// when the request says `"stream": true` (a session created with `streaming: true`). Only
// node:http: the packed package's conformance command runs it without this project's
// devDependencies.

import { createServer } from "node:http";

/**
 * One tool call the mock model makes.
 *
 * @typedef {object} ScriptedToolCall
 * @property {string} name Name of the tool to call, as the model sees it.
 * @property {Record<string, unknown> | string} [arguments] Arguments for the call: an object (sent
 *   as JSON) or a raw JSON string. Defaults to `{}`.
 */

/**
 * What the mock model answers. Every field is optional.
 *
 * @typedef {object} MockModelScript
 * @property {ScriptedToolCall | ScriptedToolCall[] | ((request: RecordedChatRequest) => ScriptedToolCall | ScriptedToolCall[] | undefined)} [toolCall]
 *   Tool call(s) answering a turn whose last message is not a tool result (i.e. the user's turn).
 *   A function receives the recorded request and may return `undefined` to answer with plain
 *   text instead. Without it the model never calls tools. The request is as the runtime sent it:
 *   the user's message begins with the runtime's `<current_datetime>...</current_datetime>`
 *   block, so match on {@link userPrompt}`(request)`, the user's own text.
 * @property {(request: RecordedChatRequest) => ScriptedToolCall | ScriptedToolCall[] | undefined} [followUp]
 *   Tool call(s) answering a turn whose last message is a tool result; `undefined` answers with
 *   text (`toolResultText`). Without it the model answers every tool result with text.
 * @property {string} [text] Text of plain answers. Defaults to `"ok"`.
 * @property {(result: string) => string} [toolResultText] Text answering a turn that carries tool
 *   results; receives the text of the last tool result. Defaults to
 *   `` (result) => `tool said: ${result}` ``.
 * @property {readonly string[]} [mcpTools] Tools of an MCP server (streamable HTTP, JSON answers)
 *   served at `mcpUrl`; a call of tool `t` answers `mcp t ran`. Without it that URL answers 404.
 * @property {boolean} [listModels] Whether `GET .../models` answers a one-model list (the
 *   default) or 404, as it does for the scripts, whose measurements were taken that way.
 */

/**
 * A chat message as found in a recorded request (only the fields the mock reads are typed).
 *
 * @typedef {object} RecordedChatMessage
 * @property {string} role `"system"`, `"user"`, `"assistant"` or `"tool"`.
 * @property {unknown} [content] A string, an array of content parts, or `null`.
 * @property {string} [tool_call_id] Id of the call a `"tool"` message answers.
 */

/**
 * A tool definition as found in a recorded request: `{ type: "function", function: { name } }`,
 * or `{ type: "custom", custom: { name } }` for free-form tools such as `apply_patch`.
 *
 * @typedef {object} RecordedTool
 * @property {string} type `"function"` or `"custom"`.
 * @property {{ name: string, description?: string, parameters?: unknown }} [function] Present on
 *   function tools.
 * @property {{ name: string, description?: string }} [custom] Present on custom (free-form) tools.
 */

/**
 * The parsed JSON body of one `/chat/completions` request.
 *
 * @typedef {object} RecordedChatRequest
 * @property {string} model Model id the runtime asked for.
 * @property {RecordedChatMessage[]} messages Conversation sent to the model.
 * @property {RecordedTool[]} [tools] Tools offered to the model (absent when none).
 * @property {boolean} [stream] `true` when the runtime asked for an SSE stream.
 */

/**
 * A request to an endpoint other than `/chat/completions`.
 *
 * @typedef {object} OtherRequest
 * @property {string} method HTTP method.
 * @property {string} path Path and query of the request URL.
 */

/**
 * One tool result as the runtime sent it back to the model.
 *
 * @typedef {object} RecordedToolResult
 * @property {string | undefined} toolCallId Id of the call it answers
 *   (`call_<request>_<index>_<tool name>` for scripted calls).
 * @property {string} text The result text.
 */

/**
 * A running mock model server.
 *
 * @typedef {object} MockModel
 * @property {string} baseUrl Base URL to pass as the provider's `baseUrl` (ends in `/v1`).
 * @property {string} mcpUrl URL of the MCP server of `mcpTools`, for an `http` MCP server.
 * @property {string[]} mcpCalls Names of the MCP tools called, in order.
 * @property {RecordedChatRequest[]} requests Every `/chat/completions` request body, in arrival
 *   order.
 * @property {OtherRequest[]} otherRequests Requests to any other endpoint, in arrival order.
 * @property {(i: number) => string[]} toolNamesOf Names of the tools offered in request `i`
 *   (function and custom tools alike).
 * @property {(i: number, name: string) => RecordedTool[]} toolDefinitionsOf The definitions named
 *   `name` offered in request `i` (more than one is a duplicate).
 * @property {(i: number) => string[]} toolCallsOf Names of the tools the model called in its
 *   answer to request `i` (empty for text).
 * @property {(i: number) => RecordedToolResult[]} toolResultsOf The tool results (`"tool"`
 *   messages) that end request `i`, in order.
 * @property {() => Promise<void>} close Stops the server and drops its open connections; calling
 *   it again does nothing.
 */

/**
 * Returns the name of a recorded tool definition, whatever its type.
 *
 * @param {RecordedTool} tool
 * @returns {string}
 */
export function toolNameOf(tool) {
    return (
        tool.function?.name ??
        tool.custom?.name ??
        String(/** @type {Record<string, unknown>} */ (tool)["name"])
    );
}

/**
 * Returns the description of a recorded tool definition, whatever its type.
 *
 * @param {RecordedTool} tool
 * @returns {string | undefined}
 */
export function descriptionOf(tool) {
    return tool.function?.description ?? tool.custom?.description;
}

/**
 * Returns the text of the user messages that end a request: the user's turn, with whatever the
 * runtime adds after the prompt (such as its reminder of deferred tools).
 *
 * @param {RecordedChatRequest} request
 * @returns {string}
 */
export function turnUserText(request) {
    /** @type {string[]} */
    const texts = [];
    for (let i = request.messages.length - 1; i >= 0; i--) {
        const message = /** @type {RecordedChatMessage} */ (request.messages[i]);
        if (message.role !== "user") break;
        texts.unshift(contentText(message.content));
    }
    return texts.join("\n");
}

/**
 * A block the runtime puts at the start of a user message, such as
 * `<current_datetime>2026-11-26T21:00:50.149+00:00</current_datetime>`: one tag in snake_case,
 * its text, its closing tag, and the blank lines after it.
 */
const RUNTIME_BLOCK = /^\s*<([a-z][a-z0-9_]*)>[\s\S]*?<\/\1>\s*/;

/**
 * A block the runtime puts at the end of a user message, on a line of its own, such as runtime
 * 1.0.57's `<system_reminder>...</system_reminder>`.
 */
const TRAILING_RUNTIME_BLOCK = /(?:^|\n)\s*<([a-z][a-z0-9_]*)>[\s\S]*?<\/\1>\s*$/;

/**
 * Returns the user's own text of a request's turn: the user messages that end it (as
 * {@link turnUserText}), each without the blocks the runtime adds at its start and end (its
 * `<current_datetime>...</current_datetime>` prefix, a `<system_reminder>...</system_reminder>`
 * after the prompt, and any other `<snake_case>` block there);
 * a message that is nothing but such blocks is left out. Match scripts on this: the prompt as
 * `sendAndWait({ prompt })` gave it, so that `userPrompt(request).startsWith(...)` works.
 *
 * @example
 * ```javascript
 * const model = await startMockModel({
 *     toolCall: (request) =>
 *         userPrompt(request).startsWith("Read ") ? { name: "view", arguments: { path: "a.txt" } } : undefined,
 * });
 * ```
 *
 * @param {RecordedChatRequest} request
 * @returns {string}
 */
export function userPrompt(request) {
    /** @type {string[]} */
    const texts = [];
    for (let i = request.messages.length - 1; i >= 0; i--) {
        const message = /** @type {RecordedChatMessage} */ (request.messages[i]);
        if (message.role !== "user") break;
        let text = contentText(message.content);
        let block;
        while ((block = RUNTIME_BLOCK.exec(text)) !== null) text = text.slice(block[0].length);
        while ((block = TRAILING_RUNTIME_BLOCK.exec(text)) !== null) {
            text = text.slice(0, block.index);
        }
        if (text !== "") texts.unshift(text);
    }
    return texts.join("\n");
}

/**
 * Returns the texts of every tool result (`"tool"` message) in a request's conversation.
 *
 * @param {RecordedChatRequest | undefined} request
 * @returns {string[]}
 */
export function toolResultTexts(request) {
    return (request?.messages ?? [])
        .filter((message) => message.role === "tool")
        .map((message) => contentText(message.content));
}

/**
 * Returns the text of the last user message of a request (empty when there is none).
 *
 * @param {RecordedChatRequest} request
 * @returns {string}
 */
export function lastUserText(request) {
    const users = request.messages.filter((message) => message.role === "user");
    return contentText(users[users.length - 1]?.content);
}

/**
 * Returns the text of a message's content (string, or the text of its content parts).
 *
 * @param {unknown} content
 * @returns {string}
 */
export function contentText(content) {
    if (typeof content === "string") {
        return content;
    }
    if (Array.isArray(content)) {
        return content
            .map((part) =>
                typeof part === "object" && part !== null && "text" in part ? String(part.text) : ""
            )
            .join("");
    }
    return content == null ? "" : JSON.stringify(content);
}

/**
 * A script for a model that, when the user's turn contains `prompt`, calls in one response
 * (parallel tool calls) every tool of the request that `pick` selects, and answers "ok" to
 * anything else.
 *
 * @param {string} prompt the text that makes the model call tools
 * @param {(tool: RecordedTool) => boolean} pick which offered tools to call
 * @param {Record<string, unknown>} [args] the arguments of every call
 * @returns {MockModelScript}
 */
export function callsOfferedTools(prompt, pick, args = {}) {
    return {
        toolCall: (request) =>
            userPrompt(request).includes(prompt)
                ? (request.tools ?? [])
                      .filter(pick)
                      .map((tool) => ({ name: toolNameOf(tool), arguments: args }))
                : undefined,
    };
}

/**
 * Decides the answer to one request: tool calls, or text.
 *
 * @param {RecordedChatRequest} request
 * @param {MockModelScript} script
 * @returns {{ text: string } | { toolCalls: ScriptedToolCall[] }}
 */
function answerFor(request, script) {
    const last = request.messages[request.messages.length - 1];
    if (last?.role === "tool") {
        const followUp = script.followUp?.(request);
        const calls = followUp === undefined ? [] : Array.isArray(followUp) ? followUp : [followUp];
        if (calls.length > 0) return { toolCalls: calls };
        const format = script.toolResultText ?? ((result) => `tool said: ${result}`);
        return { text: format(contentText(last.content)) };
    }
    const scripted =
        typeof script.toolCall === "function" ? script.toolCall(request) : script.toolCall;
    if (scripted !== undefined) {
        const toolCalls = Array.isArray(scripted) ? scripted : [scripted];
        if (toolCalls.length > 0) {
            return { toolCalls };
        }
    }
    return { text: script.text ?? "ok" };
}

/**
 * Converts scripted tool calls to OpenAI `tool_calls` entries. A call's id ends in the tool's
 * name, so that a tool result can be matched to the name it answers.
 *
 * @param {ScriptedToolCall[]} toolCalls
 * @param {number} requestNumber
 */
function wireToolCalls(toolCalls, requestNumber) {
    return toolCalls.map((call, index) => ({
        index,
        id: `call_${requestNumber}_${index}_${call.name}`,
        type: "function",
        function: {
            name: call.name,
            arguments:
                typeof call.arguments === "string"
                    ? call.arguments
                    : JSON.stringify(call.arguments ?? {}),
        },
    }));
}

/**
 * A JSON-RPC message of the MCP protocol (only the fields the mock reads).
 *
 * @typedef {object} McpMessage
 * @property {number | string} [id]
 * @property {string} method
 * @property {{ protocolVersion?: string, name?: string }} [params]
 */

/**
 * The result of an MCP request, or undefined for a method the mock does not serve.
 *
 * @param {McpMessage} message
 * @param {readonly string[]} tools
 * @param {string[]} calls
 * @returns {unknown}
 */
function mcpAnswer(message, tools, calls) {
    switch (message.method) {
        case "initialize":
            return {
                protocolVersion: message.params?.protocolVersion ?? "2025-03-26",
                capabilities: { tools: {} },
                serverInfo: { name: "mock-mcp", version: "1.0.0" },
            };
        case "tools/list":
            return {
                tools: tools.map((name) => ({
                    name,
                    description: `MCP ${name}: served by the mock.`,
                    inputSchema: { type: "object", properties: {} },
                })),
            };
        case "tools/call":
            calls.push(String(message.params?.name));
            return { content: [{ type: "text", text: `mcp ${message.params?.name} ran` }] };
        case "ping":
            return {};
        default:
            return undefined;
    }
}

/**
 * Starts a mock OpenAI-compatible model on 127.0.0.1 at an ephemeral port.
 *
 * Answers `POST .../chat/completions` per `script` (JSON or SSE, as requested), `POST .../mcp`
 * as the MCP server of `script.mcpTools`, `GET .../models` with a one-model list (unless
 * `script.listModels` is `false`), and anything else with a JSON 404.
 *
 * @param {MockModelScript} [script] What the model answers; by default it always answers `"ok"`.
 * @returns {Promise<MockModel>} The running server; call `close()` when done.
 */
export async function startMockModel(script = {}) {
    /** @type {RecordedChatRequest[]} */
    const requests = [];
    /** @type {string[][]} */
    const calledTools = [];
    /** @type {OtherRequest[]} */
    const otherRequests = [];
    /** @type {string[]} */
    const mcpCalls = [];
    const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };

    /**
     * @param {import("node:http").ServerResponse} res
     * @param {number} status
     * @param {unknown} [body] sent as JSON; none when undefined
     */
    const send = (res, status, body) => {
        if (body === undefined) {
            res.writeHead(status);
            res.end();
            return;
        }
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
    };

    /**
     * @param {import("node:http").ServerResponse} res
     * @param {unknown[]} chunks sent as `data:` events, then `data: [DONE]`
     */
    const sendEvents = (res, chunks) => {
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        res.end(
            chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join("") +
                "data: [DONE]\n\n"
        );
    };

    /**
     * @param {import("node:http").ServerResponse} res
     * @param {RecordedChatRequest} body
     */
    const answerChat = (res, body) => {
        requests.push(body);
        const answer = answerFor(body, script);
        calledTools.push("toolCalls" in answer ? answer.toolCalls.map((call) => call.name) : []);
        const id = `chatcmpl-${requests.length}`;
        const model = body.model;
        const created = 0;
        const toolCalls =
            "toolCalls" in answer ? wireToolCalls(answer.toolCalls, requests.length) : [];
        const finishReason = toolCalls.length > 0 ? "tool_calls" : "stop";
        const message =
            "text" in answer
                ? { role: "assistant", content: answer.text }
                : { role: "assistant", content: null, tool_calls: toolCalls };
        if (body.stream !== true) {
            send(res, 200, {
                id,
                object: "chat.completion",
                created,
                model,
                choices: [{ index: 0, message, finish_reason: finishReason }],
                usage,
            });
            return;
        }
        /** @param {unknown[]} choices @param {object} [extra] */
        const chunk = (choices, extra = {}) => ({
            id,
            object: "chat.completion.chunk",
            created,
            model,
            choices,
            ...extra,
        });
        sendEvents(res, [
            chunk([{ index: 0, delta: message, finish_reason: null }]),
            chunk([{ index: 0, delta: {}, finish_reason: finishReason }]),
            chunk([], { usage }),
        ]);
    };

    /**
     * @param {import("node:http").ServerResponse} res
     * @param {McpMessage} message
     */
    const answerMcp = (res, message) => {
        if (script.mcpTools === undefined) return send(res, 404);
        const result = mcpAnswer(message, script.mcpTools, mcpCalls);
        if (message.id === undefined) return send(res, 202);
        send(
            res,
            200,
            result === undefined
                ? { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "not found" } }
                : { jsonrpc: "2.0", id: message.id, result }
        );
    };

    const server = createServer((req, res) => {
        let text = "";
        req.setEncoding("utf8");
        req.on("data", (chunk) => (text += chunk));
        req.on("end", () => {
            const url = new URL(req.url ?? "/", "http://127.0.0.1");
            const method = req.method ?? "GET";
            if (method === "POST" && url.pathname.endsWith("/chat/completions")) {
                return answerChat(res, JSON.parse(text));
            }
            if (method === "POST" && url.pathname.endsWith("/mcp")) {
                return answerMcp(res, JSON.parse(text));
            }
            if (method === "GET" && url.pathname.endsWith("/mcp")) return send(res, 405);
            if (
                method === "GET" &&
                url.pathname.endsWith("/models") &&
                script.listModels !== false
            ) {
                return send(res, 200, {
                    object: "list",
                    data: [{ id: "gpt-4o", object: "model", created: 0, owned_by: "mock-model" }],
                });
            }
            otherRequests.push({ method, path: url.pathname + url.search });
            send(res, 404, { error: { message: "not found" } });
        });
    });
    await new Promise((resolve, reject) => {
        server.once("error", reject);
        server.listen(0, "127.0.0.1", () => resolve(undefined));
    });
    const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());

    return {
        baseUrl: `http://127.0.0.1:${port}/v1`,
        mcpUrl: `http://127.0.0.1:${port}/mcp`,
        mcpCalls,
        requests,
        otherRequests,
        toolNamesOf: (i) => (requests[i]?.tools ?? []).map(toolNameOf),
        toolDefinitionsOf: (i, name) =>
            (requests[i]?.tools ?? []).filter((tool) => toolNameOf(tool) === name),
        toolCallsOf: (i) => [...(calledTools[i] ?? [])],
        toolResultsOf: (i) => {
            const messages = requests[i]?.messages ?? [];
            let start = messages.length;
            while (start > 0 && messages[start - 1]?.role === "tool") start--;
            return messages.slice(start).map((message) => ({
                toolCallId: message.tool_call_id,
                text: contentText(message.content),
            }));
        },
        close: () =>
            new Promise((resolve, reject) => {
                if (!server.listening) return resolve();
                server.close((error) => (error ? reject(error) : resolve()));
                server.closeAllConnections();
            }),
    };
}

/**
 * The scripts' form of the mock model: set `toolCalls` to the names the model calls, all in one
 * response, when the next turn ends with the user's message; any other turn (a tool result
 * included) is answered "ok", and `GET .../models` with 404.
 *
 * @returns {Promise<MockModel & { toolCalls: string[] | undefined }>} the running model
 */
export async function startMockChatModel() {
    /** @type {(MockModel & { toolCalls: string[] | undefined }) | undefined} */
    let chat;
    const model = await startMockModel({
        toolCall: (request) =>
            request.messages.at(-1)?.role === "user"
                ? (chat?.toolCalls ?? []).map((name) => ({ name }))
                : undefined,
        toolResultText: () => "ok",
        listModels: false,
    });
    chat = Object.assign(model, { toolCalls: /** @type {string[] | undefined} */ (undefined) });
    return chat;
}
