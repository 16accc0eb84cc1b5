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

import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/**
 * One tool call the mock model makes.
 */
export interface ScriptedToolCall {
    /** Name of the tool to call, as the model sees it. */
    name: string;
    /** Arguments for the call: an object (sent as JSON) or a raw JSON string. Defaults to `{}`. */
    arguments?: Record<string, unknown> | string;
}

/**
 * What the mock model answers. Every field is optional.
 */
export interface MockModelScript {
    /**
     * Tool call(s) answering a turn whose last message is not a tool result (i.e. the user's turn).
     * A function receives the recorded request and may return `undefined` to answer with plain text
     * instead. Without it the model never calls tools. The request is as the runtime sent it: the
     * user's message begins with the runtime's `<current_datetime>...</current_datetime>` block,
     * so match on {@link userPrompt}`(request)`, the user's own text.
     */
    toolCall?:
        | ScriptedToolCall
        | ScriptedToolCall[]
        | ((request: RecordedChatRequest) => ScriptedToolCall | ScriptedToolCall[] | undefined);
    /**
     * Tool call(s) answering a turn whose last message is a tool result; `undefined` answers with
     * text (`toolResultText`). Without it the model answers every tool result with text.
     */
    followUp?: (request: RecordedChatRequest) => ScriptedToolCall | ScriptedToolCall[] | undefined;
    /** Text of plain answers. Defaults to `"ok"`. */
    text?: string;
    /**
     * Text answering a turn that carries tool results; receives the text of the last tool result.
     * Defaults to `` (result) => `tool said: ${result}` ``.
     */
    toolResultText?: (result: string) => string;
    /**
     * Tools of an MCP server (streamable HTTP, JSON answers) served at `mcpUrl`; a call of tool `t`
     * answers `mcp t ran`. Without it that URL answers 404.
     */
    mcpTools?: readonly string[];
    /**
     * Whether `GET .../models` answers a one-model list (the default) or 404, as it does for the
     * scripts, whose measurements were taken that way.
     */
    listModels?: boolean;
}

/**
 * A chat message as found in a recorded request (only the fields the mock reads are typed).
 */
export interface RecordedChatMessage {
    /** `"system"`, `"user"`, `"assistant"` or `"tool"`. */
    role: string;
    /** A string, an array of content parts, or `null`. */
    content?: unknown;
    /** Id of the call a `"tool"` message answers. */
    tool_call_id?: string;
}

/**
 * A tool definition as found in a recorded request: `{ type: "function", function: { name } }`,
 * or `{ type: "custom", custom: { name } }` for free-form tools such as `apply_patch`.
 */
export interface RecordedTool {
    /** `"function"` or `"custom"`. */
    type: string;
    /** Present on function tools. */
    function?: { name: string; description?: string; parameters?: unknown };
    /** Present on custom (free-form) tools. */
    custom?: { name: string; description?: string };
}

/**
 * The parsed JSON body of one `/chat/completions` request.
 */
export interface RecordedChatRequest {
    /** Model id the runtime asked for. */
    model: string;
    /** Conversation sent to the model. */
    messages: RecordedChatMessage[];
    /** Tools offered to the model (absent when none). */
    tools?: RecordedTool[];
    /** `true` when the runtime asked for an SSE stream. */
    stream?: boolean;
}

/**
 * A request to an endpoint other than `/chat/completions`.
 */
export interface OtherRequest {
    /** HTTP method. */
    method: string;
    /** Path and query of the request URL. */
    path: string;
}

/**
 * One tool result as the runtime sent it back to the model.
 */
export interface RecordedToolResult {
    /** Id of the call it answers (`call_<request>_<index>_<tool name>` for scripted calls). */
    toolCallId: string | undefined;
    /** The result text. */
    text: string;
}

/**
 * A running mock model server.
 */
export interface MockModel {
    /** Base URL to pass as the provider's `baseUrl` (ends in `/v1`). */
    baseUrl: string;
    /** URL of the MCP server of `mcpTools`, for an `http` MCP server. */
    mcpUrl: string;
    /** Names of the MCP tools called, in order. */
    mcpCalls: string[];
    /** Every `/chat/completions` request body, in arrival order. */
    requests: RecordedChatRequest[];
    /** Requests to any other endpoint, in arrival order. */
    otherRequests: OtherRequest[];
    /** Names of the tools offered in request `i` (function and custom tools alike). */
    toolNamesOf: (i: number) => string[];
    /** The definitions named `name` offered in request `i` (more than one is a duplicate). */
    toolDefinitionsOf: (i: number, name: string) => RecordedTool[];
    /** Names of the tools the model called in its answer to request `i` (empty for text). */
    toolCallsOf: (i: number) => string[];
    /** The tool results (`"tool"` messages) that end request `i`, in order. */
    toolResultsOf: (i: number) => RecordedToolResult[];
    /** Stops the server and drops its open connections; calling it again does nothing. */
    close: () => Promise<void>;
}

/**
 * Returns the name of a recorded tool definition, whatever its type.
 */
export function toolNameOf(tool: RecordedTool): string {
    return (
        tool.function?.name ??
        tool.custom?.name ??
        String((tool as unknown as Record<string, unknown>)["name"])
    );
}

/**
 * Returns the description of a recorded tool definition, whatever its type.
 */
export function descriptionOf(tool: RecordedTool): string | undefined {
    return tool.function?.description ?? tool.custom?.description;
}

/**
 * Returns the text of the user messages that end a request: the user's turn, with whatever the
 * runtime adds after the prompt (such as its reminder of deferred tools).
 */
export function turnUserText(request: RecordedChatRequest): string {
    const texts: string[] = [];
    for (let i = request.messages.length - 1; i >= 0; i--) {
        const message = request.messages[i] as RecordedChatMessage;
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
 * after the prompt, and any other `<snake_case>` block there); a message that is nothing but
 * such blocks is left out. Match scripts on this: the prompt as `sendAndWait({ prompt })` gave
 * it, so that `userPrompt(request).startsWith(...)` works.
 *
 * @example
 * ```javascript
 * const model = await startMockModel({
 *     toolCall: (request) =>
 *         userPrompt(request).startsWith("Read ") ? { name: "view", arguments: { path: "a.txt" } } : undefined,
 * });
 * ```
 */
export function userPrompt(request: RecordedChatRequest): string {
    const texts: string[] = [];
    for (let i = request.messages.length - 1; i >= 0; i--) {
        const message = request.messages[i] as RecordedChatMessage;
        if (message.role !== "user") break;
        let text = contentText(message.content);
        let block: RegExpExecArray | null;
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
 */
export function toolResultTexts(request: RecordedChatRequest | undefined): string[] {
    return (request?.messages ?? [])
        .filter((message) => message.role === "tool")
        .map((message) => contentText(message.content));
}

/**
 * Returns the text of the last user message of a request (empty when there is none).
 */
export function lastUserText(request: RecordedChatRequest): string {
    const users = request.messages.filter((message) => message.role === "user");
    return contentText(users[users.length - 1]?.content);
}

/**
 * Returns the text of a message's content (string, or the text of its content parts).
 */
export function contentText(content: unknown): string {
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
 * @param prompt - the text that makes the model call tools
 * @param pick - which offered tools to call
 * @param args - the arguments of every call
 */
export function callsOfferedTools(
    prompt: string,
    pick: (tool: RecordedTool) => boolean,
    args: Record<string, unknown> = {}
): MockModelScript {
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
 */
function answerFor(
    request: RecordedChatRequest,
    script: MockModelScript
): { text: string } | { toolCalls: ScriptedToolCall[] } {
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
 */
function wireToolCalls(toolCalls: ScriptedToolCall[], requestNumber: number) {
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
 */
export interface McpMessage {
    id?: number | string;
    method: string;
    params?: { protocolVersion?: string; name?: string };
}

/**
 * The result of an MCP request, or undefined for a method the mock does not serve.
 */
function mcpAnswer(message: McpMessage, tools: readonly string[], calls: string[]): unknown {
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
 * @param script - What the model answers; by default it always answers `"ok"`.
 * @returns The running server; call `close()` when done.
 */
export async function startMockModel(script: MockModelScript = {}): Promise<MockModel> {
    const requests: RecordedChatRequest[] = [];
    const calledTools: string[][] = [];
    const otherRequests: OtherRequest[] = [];
    const mcpCalls: string[] = [];
    const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };

    /**
     * @param body - sent as JSON; none when undefined
     */
    const send = (res: ServerResponse, status: number, body?: unknown) => {
        if (body === undefined) {
            res.writeHead(status);
            res.end();
            return;
        }
        res.writeHead(status, { "content-type": "application/json" });
        res.end(JSON.stringify(body));
    };

    /**
     * @param chunks - sent as `data:` events, then `data: [DONE]`
     */
    const sendEvents = (res: ServerResponse, chunks: unknown[]) => {
        res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
        res.end(
            chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join("") +
                "data: [DONE]\n\n"
        );
    };

    const answerChat = (res: ServerResponse, body: RecordedChatRequest) => {
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
        const chunk = (choices: unknown[], extra: object = {}) => ({
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

    const answerMcp = (res: ServerResponse, message: McpMessage) => {
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
    const { port } = server.address() as AddressInfo;

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
 * @returns the running model
 */
export async function startMockChatModel(): Promise<
    MockModel & { toolCalls: string[] | undefined }
> {
    // The script reads `chat`, the object returned below, only when a request comes in.
    const model = await startMockModel({
        toolCall: (request) =>
            request.messages.at(-1)?.role === "user"
                ? (chat.toolCalls ?? []).map((name) => ({ name }))
                : undefined,
        toolResultText: () => "ok",
        listModels: false,
    });
    const chat = Object.assign(model, { toolCalls: undefined as string[] | undefined });
    return chat;
}
