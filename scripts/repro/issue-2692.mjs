// Reproduces the setup of github/copilot-sdk#2692 offline: SDK 1.0.13 with runtime 1.0.83, the
// runtime bundled with the SDK or the CLI launched through its index.js (needs Node 22), custom
// overrides of bash, read_bash, stop_bash, list_bash and create (the control), called through the
// mock model and through session.rpc.tools.execute. Prints, per tool, the definitions the model
// was offered and how often the custom handler ran.
//
//   mkdir /tmp/r2692 && cd /tmp/r2692 && npm init -y && npm pkg set type=module &&
//     npm install @github/copilot-sdk@1.0.13 @github/copilot@1.0.83
//   R2692=/tmp/r2692 node scripts/repro/issue-2692.mjs [default|index.js] [model] [real|empty] [skip|ask]
//   (index.js: run with Node 22; EXTRA='{"toolSearch":{"enabled":true,"deferThreshold":1}}' adds
//   session options)

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { checkArguments } from "../../build/cli/cliArguments.js";
import { startMockModel, toolNameOf } from "../../build/esm/mockModel/mockChatModel.js";

checkArguments(process.argv.slice(2), {
    usage: "Usage: R2692=<folder> node scripts/repro/issue-2692.mjs [default|index.js] [model] [real|empty] [skip|ask]",
    positionals: 4,
});
const INSTALL = process.env.R2692;
if (INSTALL === undefined) {
    console.error(
        "Set R2692 to a folder with @github/copilot-sdk@1.0.13 and @github/copilot@1.0.83 installed (see the header)."
    );
    process.exit(2);
}
const { CopilotClient, RuntimeConnection, approveAll } = await import(
    pathToFileURL(join(INSTALL, "node_modules/@github/copilot-sdk/dist/index.js")).href
);

const [launch = "default", modelId = "claude-sonnet-4.5", argsMode = "real", perm = "skip"] =
    process.argv.slice(2);
const NAMES = ["bash", "read_bash", "stop_bash", "list_bash", "create"];
/** @type {Record<string, Record<string, unknown>>} */
const ARGS = {
    bash: { command: "echo hello-from-model", description: "say hello", mode: "sync" },
    read_bash: { shellId: "1", delay: 1 },
    stop_bash: { shellId: "1" },
    list_bash: {},
    create: { path: join(tmpdir(), "r2692-created.txt"), file_text: "x" },
};
const calls = new Map();
const tools = NAMES.map((name) => ({
    name,
    description: `Custom ${name}`,
    parameters: {
        type: "object",
        properties: Object.fromEntries(
            Object.entries(ARGS[name] ?? {}).map(([k, v]) => [
                k,
                { type: typeof v === "number" ? "number" : "string" },
            ])
        ),
    },
    overridesBuiltInTool: true,
    ...(perm === "skip" ? { skipPermission: true } : {}),
    handler: async () => {
        calls.set(name, (calls.get(name) ?? 0) + 1);
        return `custom ${name} ran`;
    },
}));
const model = await startMockModel({
    toolCall: (request) =>
        NAMES.map((name) => ({ name, arguments: argsMode === "real" ? ARGS[name] : {} })),
});
const base = mkdtempSync(join(tmpdir(), "r2692-"));
const connection =
    launch === "index.js"
        ? RuntimeConnection.forStdio({
              path: join(INSTALL, "node_modules/@github/copilot-linux-x64/index.js"),
          })
        : undefined;
const client = new CopilotClient({ baseDirectory: base, ...(connection ? { connection } : {}) });
/** @type {string[]} */
const permissionKinds = [];
try {
    await client.start();
    const status = await client.getStatus();
    const session = await client.createSession({
        model: modelId,
        provider: { type: "openai", baseUrl: model.baseUrl, apiKey: "x" },
        onPermissionRequest: (/** @type {any} */ req, /** @type {any} */ inv) => {
            permissionKinds.push(
                `${req.kind}:${req.toolName ?? req.commands?.map?.((/** @type {any} */ c) => c.identifier).join("+") ?? ""}`
            );
            return approveAll(req, inv);
        },
        tools,
        ...(process.env.EXTRA ? JSON.parse(process.env.EXTRA) : {}),
    });
    /** @type {string[]} */
    const events = [];
    session.on((/** @type {any} */ e) => {
        if (e.type === "tool.execution_complete" || e.type === "session.error")
            events.push(`${e.type} ${JSON.stringify(e.data).slice(0, 200)}`);
    });
    /** @type {any} */
    let error;
    try {
        await session.sendAndWait({ prompt: "Use your tools now." }, 60000);
    } catch (e) {
        error = e;
    }
    const offered = model.requests[0]?.tools ?? [];
    const defs = (/** @type {string} */ n) =>
        offered
            .filter((t) => toolNameOf(t) === n)
            .map((t) => t.function?.description ?? t.custom?.description);
    const results = (model.requests[1]?.messages ?? [])
        .filter((m) => m.role === "tool")
        .map((m) => String(m.content).slice(0, 120));
    console.log(
        `launch=${launch} runtime=${status.version} model=${modelId} args=${argsMode} perm=${perm}`
    );
    for (const n of NAMES)
        console.log(`  ${n}: offered ${JSON.stringify(defs(n))} handler ran ${calls.get(n) ?? 0}x`);
    console.log(`  error: ${error?.message?.slice(0, 200)}`);
    console.log(`  results: ${JSON.stringify(results)}`);
    console.log(`  permission kinds: ${JSON.stringify(permissionKinds)}`);
    for (const e of events) console.log(`  ${e}`);
    // the reporter's other path: session.tools.execute
    calls.clear();
    for (const n of ["bash", "create"]) {
        try {
            const r = await session.rpc.tools.execute({ name: n, arguments: ARGS[n] });
            console.log(
                `  tools.execute ${n}: ${JSON.stringify(r).slice(0, 200)} handler ran ${calls.get(n) ?? 0}x`
            );
        } catch (/** @type {any} */ e) {
            console.log(`  tools.execute ${n}: threw ${e.message.slice(0, 200)}`);
        }
    }
} finally {
    await client.stop().catch(() => {});
    await model.close();
    rmSync(base, { recursive: true, force: true });
}
