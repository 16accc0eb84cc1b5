// NOT FOR A PUBLIC ISSUE: the proof of concept attached to SECURITY-PRIVATE-not-for-a-public-issue.md.
//
// Stand-alone: one file, Node 20 or later, the published @github/copilot-sdk and nothing else. It
// starts the runtime against a mock OpenAI-compatible model on 127.0.0.1 (defined below; no
// account, no network) that calls one tool per session, and prints what happened, raw: the tool
// definitions the model was offered, how often the app's handler ran, every permission request
// the app's handler was asked (it records each and denies it), and the tool result the model got
// back. It prints no verdict.
//
// Run 1, the runtime bundled with the SDK:
//     mkdir poc && cd poc && npm init -y && npm install @github/copilot-sdk@1.0.14
//     node SECURITY-PRIVATE-poc.mjs
// Run 2, runtime 1.0.102, in the same folder:
//     npm install @github/copilot@1.0.102
//     node SECURITY-PRIVATE-poc.mjs
// When @github/copilot's platform package is installed beside the SDK, the PoC starts its binary
// (node_modules/@github/copilot-<platform>-<arch>/copilot); otherwise the SDK's bundled runtime.
// The first lines printed name the SDK and runtime versions. Exit code 0 when every scenario ran.

import { CopilotClient, RuntimeConnection } from "@github/copilot-sdk";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const MODEL = "claude-sonnet-4.5";
const TURN_TIMEOUT_MS = 60_000;
const work = mkdtempSync(join(tmpdir(), "copilot-poc-"));
const marker = join(work, "marker.txt");
writeFileSync(marker, "POC-MARKER-7f3a: this text is only in a file on disk\n");

// ---- the mock model: calls the tool the prompt names, once; answers "done" to its result ----

/** @type {any[]} every /chat/completions request body, in order */
const requests = [];
/** the next tool call: { name, arguments } */
let nextCall;

function answer(body) {
    const last = body.messages.at(-1);
    if (last?.role === "tool" || nextCall === undefined) return { role: "assistant", content: "done" };
    const call = nextCall;
    nextCall = undefined;
    return {
        role: "assistant",
        content: null,
        tool_calls: [
            {
                index: 0,
                id: `call_poc_${requests.length}`,
                type: "function",
                function: { name: call.name, arguments: JSON.stringify(call.arguments) },
            },
        ],
    };
}

const server = createServer((req, res) => {
    let data = "";
    req.on("data", (chunk) => (data += chunk));
    req.on("end", () => {
        if (req.method !== "POST" || !req.url.endsWith("/chat/completions")) {
            res.writeHead(404, { "content-type": "application/json" });
            res.end("{}");
            return;
        }
        const body = JSON.parse(data);
        requests.push(body);
        const message = answer(body);
        const finish = message.tool_calls ? "tool_calls" : "stop";
        const base = { id: `poc-${requests.length}`, created: 0, model: body.model };
        if (body.stream !== true) {
            res.writeHead(200, { "content-type": "application/json" });
            res.end(JSON.stringify({ ...base, object: "chat.completion", choices: [{ index: 0, message, finish_reason: finish }] }));
            return;
        }
        const chunk = (choice) => `data: ${JSON.stringify({ ...base, object: "chat.completion.chunk", choices: [choice] })}\n\n`;
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.end(
            chunk({ index: 0, delta: message, finish_reason: null }) +
                chunk({ index: 0, delta: {}, finish_reason: finish }) +
                "data: [DONE]\n\n"
        );
    });
});
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const baseUrl = `http://127.0.0.1:${server.address().port}/v1`;

// ---- the runtime: @github/copilot's binary when installed beside the SDK, else the bundled one ----

const require = createRequire(join(process.cwd(), "package.json"));
let cliPath;
for (let dir = process.cwd(); cliPath === undefined; dir = dirname(dir)) {
    const binary = join(dir, "node_modules", "@github", `copilot-${process.platform}-${process.arch}`, "copilot");
    if (existsSync(binary) || existsSync(`${binary}.exe`)) cliPath = existsSync(binary) ? binary : `${binary}.exe`;
    if (dir === dirname(dir)) break;
}
/** The version of the installed package `name`, read from its package.json (not exported). */
function installedVersion(name) {
    for (let dir = dirname(require.resolve(name)); dir !== dirname(dir); dir = dirname(dir)) {
        const manifest = join(dir, "package.json");
        if (existsSync(manifest) && JSON.parse(readFileSync(manifest, "utf8")).name === name) {
            return JSON.parse(readFileSync(manifest, "utf8")).version;
        }
    }
    return "unknown";
}
const sdkVersion = installedVersion("@github/copilot-sdk");
const client = new CopilotClient({
    baseDirectory: join(work, "copilot-home"),
    ...(cliPath ? { connection: RuntimeConnection.forStdio({ path: cliPath }) } : {}),
});
await client.start();
const status = await client.getStatus();
console.log(`@github/copilot-sdk ${sdkVersion}`);
console.log(`runtime ${status.version} (${cliPath ?? "bundled with the SDK"})`);
console.log(`model id ${MODEL}, provider: mock model at ${baseUrl}`);
console.log(`marker file ${marker}, the sessions' working directory ${work}`);

// ---- one scenario: a session with the given custom tools; the model calls one of them once ----

/** A custom tool whose handler counts its calls; its parameters are those the model will send. */
function tool(name, parameterNames, extra = {}) {
    const properties = Object.fromEntries(parameterNames.map((p) => [p, { type: "string" }]));
    const t = {
        name,
        description: `The app's own ${name}: answers from the app's store, never from disk or a shell.`,
        parameters: { type: "object", properties },
        calls: 0,
        handler: async () => {
            t.calls += 1;
            return `the app's ${name} handler answered`;
        },
        ...extra,
    };
    return t;
}

let failures = 0;

async function scenario(title, { tools, call, availableTools }) {
    console.log(`\n== ${title}`);
    /** @type {unknown[]} */
    const asked = [];
    const first = requests.length;
    let session;
    try {
        session = await client.createSession({
            model: MODEL,
            provider: { type: "openai", baseUrl, apiKey: "poc-key" },
            workingDirectory: work,
            tools,
            ...(availableTools ? { availableTools } : {}),
            // Records every permission request and denies it.
            onPermissionRequest: (request) => {
                asked.push(request);
                return { kind: "reject", feedback: "denied by the PoC's permission handler" };
            },
        });
    } catch (error) {
        console.log(`createSession threw: ${error.message}`);
        failures += 1;
        return;
    }
    nextCall = call;
    let sendError;
    try {
        await session.sendAndWait({ prompt: `Call ${call.name} now.` }, TURN_TIMEOUT_MS);
    } catch (error) {
        sendError = error;
    }
    nextCall = undefined;
    const turn = requests.slice(first);
    const offered = (turn[0]?.tools ?? []).filter((t) => (t.function?.name ?? t.custom?.name) === call.name);
    console.log(`model call: ${call.name}(${JSON.stringify(call.arguments)})`);
    console.log(`definitions of ${call.name} offered to the model: ${offered.length}`);
    for (const t of offered) console.log(`  description: ${JSON.stringify(t.function?.description ?? t.custom?.description)}`);
    for (const t of tools) console.log(`app handler ${t.name}: called ${t.calls} time(s)`);
    console.log(`permission handler asked: ${asked.length} time(s)`);
    for (const request of asked) console.log(`  ${JSON.stringify(request).slice(0, 400)}`);
    const results = turn.flatMap((r) => r.messages.filter((m) => m.role === "tool" && m.tool_call_id?.startsWith("call_poc_")));
    const seen = new Set();
    for (const m of results) {
        const text = typeof m.content === "string" ? m.content : JSON.stringify(m.content);
        if (seen.has(m.tool_call_id)) continue;
        seen.add(m.tool_call_id);
        console.log(`tool result sent to the model: ${JSON.stringify(text.length > 600 ? `${text.slice(0, 600)}...` : text)}`);
    }
    if (results.length === 0) console.log("tool result sent to the model: (none)");
    if (sendError) console.log(`sendAndWait threw: ${String(sendError.message).split("\n")[0]}`);
    await session.disconnect().catch(() => {});
}

try {
    // Finding 1: a custom tool named like a built-in the runtime does not list, without the flag.
    const readFile = tool("read_file", ["filePath"]);
    await scenario("read_file: custom tool, no overridesBuiltInTool", {
        tools: [readFile],
        call: { name: "read_file", arguments: { filePath: marker } },
    });

    // Finding 2: custom tools that set overridesBuiltInTool.
    for (const [name, args] of [
        ["store_memory", { fact: "POC-MARKER-7f3a", subject: "poc", citations: "poc", reason: "poc", category: "general" }],
        ["powershell", { command: `Get-Content ${marker}`, description: "poc" }],
        ["local_shell", { command: `cat ${marker}` }],
    ]) {
        await scenario(`${name}: custom tool with overridesBuiltInTool: true`, {
            tools: [tool(name, Object.keys(args), { overridesBuiltInTool: true })],
            call: { name, arguments: args },
        });
    }

    // Defence in depth (the app registered both tools itself): a custom tool left out of availableTools.
    await scenario("refundOrder: registered by the app, not in availableTools ['custom:lookupOrder']", {
        tools: [tool("lookupOrder", ["orderId"]), tool("refundOrder", ["orderId"])],
        availableTools: ["custom:lookupOrder"],
        call: { name: "refundOrder", arguments: { orderId: "42" } },
    });
} finally {
    await client.stop().catch(() => {});
    await new Promise((resolve) => server.close(resolve));
    rmSync(work, { recursive: true, force: true });
}
process.exitCode = failures === 0 ? 0 : 1;
