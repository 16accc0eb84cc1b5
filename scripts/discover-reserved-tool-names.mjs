#!/usr/bin/env node
/**
 * Measures which tool names a Copilot runtime treats as built-in, writes
 * scripts/data/measured-built-in-tools/<sdk version>.json and regenerates
 * src/safetyNet/measuredBuiltInTools.generated.ts from every such file.
 *
 * Usage: node scripts/discover-reserved-tool-names.mjs [--sdk <version>] [--quiet] [--full]
 *        node scripts/discover-reserved-tool-names.mjs --runtime <copilot CLI> [--out <file>]
 *        node scripts/discover-reserved-tool-names.mjs --generate-only
 *
 * With --runtime, the SDK (the pinned version's unpatched copy, or --sdk) drives that CLI through
 * `connection: RuntimeConnection.forStdio({ path })` instead of its bundled runtime, and the
 * candidates come from the CLI's native binary and packages. The result is written to
 * scripts/data/measured-built-in-tools/runtime-<runtime version>.json (and the generated module
 * is regenerated, so the patch stops falling back for that runtime), or only to --out <file>.
 *
 * It drives the UNPATCHED SDK ("copilot-sdk-unpatched", an npm alias of
 * @github/copilot-sdk, or --sdk <version> installed into .cache/sdk/<version>) and its runtime,
 * fully offline: sessions point at a tiny OpenAI-compatible mock on 127.0.0.1 (node:http, below).
 * A release before 1.0.13 takes its runtime from `@github/copilot`, pinned as
 * scripts/data/sdk-releases.json records; that runtime is JavaScript the SDK starts with the Node
 * running it, so when the release needs Node 22 the discovery runs itself again under Node 22
 * (installed from the npm registry into .cache/node/). A failed install or start stops it with
 * npm's or the runtime's own error; every run ends with the time it took. Steps:
 *
 * 1. Candidates: every identifier-like string (/^[a-z][a-z0-9_]{1,40}$/) in the
 *    runtime binary and in the text files of the runtime package (bundled JS, agent
 *    definitions, schemas, built-in skills); the names the binary stores back to back
 *    (`..._searchgrep_searchlexical_code_search...`), cut where a run of words is glued
 *    to the next (see gluedNames); every built-in measured on another runtime; plus the
 *    names of `tools.list`,
 *    `session.rpc.tools.getBuiltinDescriptors` and every probed session's tool set.
 * 2. Offered sets: for each probed configuration (two model families, and the
 *    options that switch on extra built-ins), the names the session offers the model
 *    (from `getCurrentMetadata`; for the plain sessions also from a real model
 *    request to the mock).
 * 3. Conflicts: custom tools without `overridesBuiltInTool` are registered in
 *    batches; `createSession` rejects names the runtime forbids outright, and
 *    `session.rpc.tools.initializeAndValidate()` (the same check `send` runs) reports
 *    one conflicting name at a time, which is removed before retrying. A batch failing
 *    otherwise is halved; a single name still refused for another reason (twice) counts
 *    as forbidden: inconclusive is never taken to mean free.
 * 4. Shadowing: in a plain session, custom tools (no flag) that do not conflict are
 *    executed through `session.rpc.tools.execute` (the runtime's own dispatch path,
 *    the same as a model tool call); names whose custom handler does not run are
 *    dispatched to a hidden built-in. Candidates containing digits are skipped unless
 *    --full is given (no built-in name has one). Names the execute path cannot reach
 *    (it answers "Tool '<name>' does not exist") are checked through the model instead.
 *    Runtimes without `session.tools.execute` (before 1.0.13's) are scanned through the model
 *    alone: the mock calls a batch of custom tools at once, and names whose handler does not
 *    run are probed again in smaller batches, then alone.
 * 5. Overrides: every built-in name found is registered with
 *    `overridesBuiltInTool: true` in a plain session and in one that offers it, and the
 *    mock model calls it; the model must see exactly one definition (the custom one) and the
 *    custom handler must run. A name that fails, or whose probe is inconclusive, is
 *    unsupported, unless it works while tool search defers tools (keptOnlyWithToolSearch).
 *    The names are probed many per session (the mock calls them all in one turn, as parallel
 *    tool calls); a name failing in a batch is probed again alone, and a batch that changes
 *    the other tools offered is redone name by name, so batching cannot change a verdict.
 *    Last, a free name with the flag must be accepted and run its custom handler.
 * 6. Filter aliases: which offered built-ins the runtime removes when another name is in
 *    excludedTools, or allows when another name is in availableTools (grep and rg, ...).
 *
 * Deterministic (sorted output); takes 3 to 6 minutes per version on 2 cores; cleans up its temp
 * dirs and runtime processes, also when interrupted.
 */
import { checkArguments } from "./lib/cliArguments.mjs";
import {
    existsSync,
    mkdtempSync,
    mkdirSync,
    readdirSync,
    readFileSync,
    rmSync,
    writeFileSync,
} from "node:fs";
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { availableParallelism, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { measurementFileText, writeMeasuredModule } from "./lib/measuredCatalog.mjs";
import { startMockChatModel } from "./lib/mockChatModel.mjs";
import {
    installSdkVersion,
    nodeFor,
    runtimeFilesOf,
    runtimeStartCause,
} from "./lib/sdkVersions.mjs";
import {
    connectionTo,
    externalRuntimeFiles,
    optionValue,
    runtimeOption,
} from "./lib/externalRuntime.mjs";
checkArguments(process.argv.slice(2), {
    usage: "Usage: npm run discover:tool-names [-- [--sdk <version>] [--runtime <copilot CLI>] [--out <file>] [--quiet] [--full] [--only <names>] [--generate-only]]",
    flags: {
        sdk: "value",
        runtime: "value",
        out: "value",
        quiet: "switch",
        full: "switch",
        only: "value",
        "generate-only": "switch",
    },
    positionals: 0,
});

if (process.argv.includes("--generate-only")) {
    console.error(`wrote ${await writeMeasuredModule()}`);
    process.exit(0);
}

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
/** The whole run, install included, for the time printed at the end. */
const runStart = performance.now();
const seconds = (since) => `${((performance.now() - since) / 1000).toFixed(1)} s`;
const quiet = args.includes("--quiet");
/** Also execute-scan candidates containing digits (no built-in name has any; ~25% slower). */
const full = args.includes("--full");
/**
 * Debugging: restrict the candidates to a comma-separated list. The result is then partial, so
 * it goes to stdout and no file is written.
 */
const only = args.includes("--only") ? args[args.indexOf("--only") + 1].split(",") : undefined;
const log = (...parts) => {
    if (!quiet) console.error(...parts);
};

const NAME = /^[a-z][a-z0-9_]{1,40}$/;
/** Custom tools per session in the conflict scan (validation is cheap). */
const CONFLICT_BATCH = 1000;
/** Custom tools per session in the execute scan (execution slows with many tools). */
const EXECUTE_BATCH = 50;
/**
 * Custom tools per session in the shadow scan through the model, for runtimes without
 * `session.tools.execute` (those of SDK releases before 1.0.13).
 */
const MODEL_SCAN_BATCH = 200;
/** Probes of one name alone, in the model-path scan, before it counts as shadowed. */
const MODEL_SCAN_TRIES = 3;
/** Concurrent `tools.execute` calls per session. */
const CONCURRENCY = 8;
/** Runtime processes used in parallel for the long scans. */
const CLIENTS = Math.max(1, Math.min(2, availableParallelism()));
/** Not a secret: the runtime masks the provider key in tool output, so keep it unusual. */
const API_KEY = "mock-provider-key-8f3a";
const CONFLICT = /External tool "([^"]+)" conflicts with a built-in tool/;
/** `createSession`'s refusal of a reserved name: 1.0.13/1.0.14 wording, then 1.0.15-preview's. */
const FORBIDDEN = /reserved (\S+) built-in|tool name clash: (\S+) is reserved/;
const forbiddenName = (message) => {
    const m = FORBIDDEN.exec(message);
    return m ? (m[1] ?? m[2]) : undefined;
};

// ---------------------------------------------------------------- runtime package
const require = createRequire(join(projectRoot, "package.json"));
/** The directory of the nearest package.json with a name above `file` (skips dist/cjs's). */
function packageRoot(file) {
    let dir = dirname(file);
    while (
        !existsSync(join(dir, "package.json")) ||
        !JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).name
    ) {
        dir = dirname(dir);
    }
    return dir;
}
const requestedSdk = args.includes("--sdk") ? args[args.indexOf("--sdk") + 1] : undefined;
/** An external CLI to measure instead of the SDK's bundled runtime. */
const externalRuntime = runtimeOption(args);
let sdkDir;
try {
    sdkDir =
        requestedSdk === undefined
            ? packageRoot(require.resolve("copilot-sdk-unpatched"))
            : await installSdkVersion(requestedSdk);
} catch (error) {
    console.error(`Cannot install @github/copilot-sdk@${requestedSdk}: ${error.message}`);
    console.error(`discovery stopped after ${seconds(runStart)}`);
    process.exit(1);
}
const sdkVersion = JSON.parse(readFileSync(join(sdkDir, "package.json"), "utf8")).version;
// The SDK starts a JavaScript runtime (releases before 1.0.13) with the Node that runs it, and
// some of those runtimes need Node 22: run the whole discovery under the Node the release needs.
if (requestedSdk !== undefined && externalRuntime === undefined) {
    const node = await nodeFor(requestedSdk);
    if (node !== process.execPath) {
        console.error(
            `@github/copilot-sdk@${sdkVersion}'s runtime needs another Node: running under ${node}`
        );
        const child = spawnSync(node, [fileURLToPath(import.meta.url), ...args], {
            stdio: "inherit",
        });
        console.error(`discovery of ${sdkVersion} took ${seconds(runStart)} in all`);
        process.exit(child.status ?? 1);
    }
}
const sdk = await import(pathToFileURL(join(sdkDir, "dist", "index.js")).href);
const { CopilotClient, approveAll } = sdk;
const outFile = optionValue(args, "out");
/** The runtime's native binary and the package folders whose text files hold candidates. */
const runtimeFiles =
    externalRuntime === undefined ? runtimeFilesOf(sdkDir) : externalRuntimeFiles(externalRuntime);
const clientOptions = externalRuntime === undefined ? {} : connectionTo(sdk, externalRuntime);

/** Maximal [a-z0-9_] runs of a file, from their first letter. */
function runsOf(file) {
    const buf = readFileSync(file);
    const runs = [];
    let start = -1;
    for (let i = 0; i <= buf.length; i++) {
        const c = i < buf.length ? buf[i] : 0;
        const word = (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95;
        if (word) {
            if (start < 0 && c >= 97 && c <= 122) start = i;
        } else if (start >= 0) {
            runs.push(buf.toString("latin1", start, i));
            start = -1;
        }
    }
    return runs;
}

/**
 * The text files of the runtime package, whose identifiers are candidates too: bundled JS,
 * agent definitions, JSON schemas, built-in skills. Binaries (the runtime itself is read
 * separately; ripgrep, tgrep) and compressed files are skipped.
 */
function textFilesOf(dir) {
    const skip = new Set(["prebuilds", "ripgrep", "tgrep", "node_modules"]);
    return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) return skip.has(entry.name) ? [] : textFilesOf(path);
        return /\.(m?js|ts|json|ya?ml|md)$/.test(entry.name) ? [path] : [];
    });
}

/**
 * Names the binary stores back to back, as in `read_filegrep_searchlexical_code_search`: the
 * underscore-separated chunks of a run are words, except where two words are glued at a name
 * boundary (`filegrep`, `searchlexical`). A chunk splits there when it is rare and both halves
 * are common words of the binary; the words between two such splits make one name.
 */
function gluedNames(runs) {
    const counts = new Map();
    for (const run of runs) {
        for (const word of run.split("_")) counts.set(word, (counts.get(word) ?? 0) + 1);
    }
    const common = (word) => word.length >= 3 && /^[a-z]+$/.test(word) && counts.get(word) >= 5;
    const names = new Set();
    for (const run of runs) {
        if (run.length < 12 || !run.includes("_")) continue;
        let current = [];
        for (const chunk of run.split("_")) {
            let split = -1;
            if ((counts.get(chunk) ?? 0) < 5) {
                for (let k = 3; k <= chunk.length - 3 && split < 0; k++) {
                    if (common(chunk.slice(0, k)) && common(chunk.slice(k))) split = k;
                }
            }
            if (split < 0) {
                current.push(chunk);
                continue;
            }
            current.push(chunk.slice(0, split));
            names.add(current.join("_"));
            current = [chunk.slice(split)];
        }
        names.add(current.join("_"));
    }
    return [...names].filter((name) => NAME.test(name) && name.includes("_"));
}

/** Every built-in name of the measurements in scripts/data/measured-built-in-tools/. */
function measuredElsewhere() {
    const dataDir = join(projectRoot, "scripts", "data", "measured-built-in-tools");
    if (!existsSync(dataDir)) return [];
    return readdirSync(dataDir)
        .filter((file) => file.endsWith(".json"))
        .flatMap((file) => JSON.parse(readFileSync(join(dataDir, file), "utf8")).builtIns);
}

// ---------------------------------------------------------------- mock model
const toolNameOf = (t) => t.function?.name ?? t.custom?.name ?? t.name;
const sorted = (names) => [...new Set(names)].sort();

// ---------------------------------------------------------------- main
const tempRoot = mkdtempSync(join(tmpdir(), "reserved-tool-names-"));
const baseDirectory = join(tempRoot, "base");
const workingDirectory = join(tempRoot, "work");
const skillDir = join(tempRoot, "skills");
mkdirSync(workingDirectory, { recursive: true });
mkdirSync(join(skillDir, "probe"), { recursive: true });
writeFileSync(
    join(skillDir, "probe/SKILL.md"),
    "---\nname: probe\ndescription: Probe skill\n---\nNothing to do.\n"
);

const MODELS = { openai: "gpt-4o", other: "claude-sonnet-4.5" };
/**
 * More models whose default tool set is recorded (no conflict scans). The runtime picks tools
 * per model id; `UNLISTED_MODEL` is an id it cannot know, so its set is the runtime's fallback,
 * recorded under the key "*".
 */
const UNLISTED_MODEL = "unlisted-model-id";
const SURVEYED_MODELS = ["gpt-4.1", "gpt-5", "gpt-5-codex", "o3", "gemini-2.5-pro", UNLISTED_MODEL];
const userInput = async () => ({ answer: "no", wasFreeform: true });
/** Probed configurations; `extra` names what the option switches on. */
const CONFIGS = [
    { label: "default", model: MODELS.openai },
    { label: "default", model: MODELS.other },
    { label: "onUserInputRequest", model: MODELS.openai, opts: { onUserInputRequest: userInput } },
    {
        label: "mode plan + onExitPlanModeRequest",
        model: MODELS.openai,
        mode: "plan",
        opts: { onExitPlanModeRequest: async () => ({ approved: true }) },
    },
    { label: "mode autopilot", model: MODELS.openai, mode: "autopilot" },
    { label: "manageScheduleEnabled", model: MODELS.openai, opts: { manageScheduleEnabled: true } },
    { label: "enableSessionStore", model: MODELS.openai, opts: { enableSessionStore: true } },
    { label: "skillDirectories", model: MODELS.openai, opts: { skillDirectories: [skillDir] } },
    ...SURVEYED_MODELS.map((model) => ({ label: "model", model })),
    {
        label: "toolSearch (deferral active)",
        model: MODELS.other,
        opts: { toolSearch: { enabled: true, deferThreshold: 1 } },
        filler: 2,
    },
];

const t0 = performance.now();
const mock = await startMockChatModel();
const clients = Array.from(
    { length: CLIENTS },
    (_, i) => new CopilotClient({ ...clientOptions, baseDirectory: join(baseDirectory, String(i)) })
);
const client = clients[0];
let exitCode = 0;
/** Stops the runtime processes and removes the temp dir; also run on Ctrl-C / SIGTERM. */
const cleanUp = async () => {
    await Promise.all(clients.map((c) => c.stop().catch(() => {})));
    await mock.close();
    rmSync(tempRoot, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
};
for (const signal of ["SIGINT", "SIGTERM"]) {
    process.once(signal, () => cleanUp().finally(() => process.exit(130)));
}
try {
    try {
        await Promise.all(clients.map((c) => c.start()));
    } catch (error) {
        const runtime = externalRuntime ?? runtimeFiles.packageDirs[0];
        throw new Error(
            `Cannot start the runtime (${runtime}) of @github/copilot-sdk@${sdkVersion} under Node ${process.version}: ${runtimeStartCause(error.message)}`
        );
    }
    const provider = { type: "openai", baseUrl: mock.baseUrl, apiKey: API_KEY };

    /** Creates a session for `config` with `tools`, in the config's mode. */
    async function open(config, tools = [], on = client) {
        const filler = Array.from({ length: config.filler ?? 0 }, (_, i) => ({
            name: `zz_probe_filler_${i}`,
            description: "filler",
            handler: async () => "filler",
        }));
        const session = await on.createSession({
            model: config.model,
            provider,
            workingDirectory,
            onPermissionRequest: approveAll,
            ...config.opts,
            tools: [...filler, ...tools],
        });
        if (config.mode) await session.rpc.mode.set({ mode: config.mode });
        return session;
    }
    /** Disconnects, without waiting more than 5 s for a session still busy with a turn. */
    const close = (session) =>
        Promise.race([
            session?.disconnect().catch(() => {}),
            new Promise((resolve) => setTimeout(resolve, 5_000).unref()),
        ]);
    /**
     * The first model request since index `since` that offers tools: the session's turn (side
     * requests, such as a title, carry none).
     */
    const turnRequest = (since) => mock.requests.slice(since).find((r) => r.tools?.length > 0);
    /** The first result for a call of `name` the runtime sent the model since `since`, as text. */
    const toolAnswer = (since, name) => {
        const message = mock.requests
            .slice(since)
            .flatMap((r) => r.messages ?? [])
            .find((m) => m.role === "tool" && m.tool_call_id?.endsWith(`_${name}`));
        if (message === undefined) return undefined;
        return typeof message.content === "string"
            ? message.content
            : JSON.stringify(message.content);
    };
    /** Runs `work(chunk, client)` over `size`-name chunks of `names`, one worker per client. */
    async function overChunks(names, size, work) {
        const chunks = [];
        for (let i = 0; i < names.length; i += size) chunks.push(names.slice(i, i + size));
        let next = 0;
        await Promise.all(
            clients.map(async (on) => {
                while (next < chunks.length) await work(chunks[next++], on);
            })
        );
    }

    // 1+2. candidates and offered sets
    const binaryRuns = runsOf(runtimeFiles.binary);
    const sources = {
        "whole tokens of the binary": new Set(binaryRuns.filter((run) => NAME.test(run))),
        "tokens of the package's text files": new Set(
            runtimeFiles.packageDirs
                .flatMap((dir) => textFilesOf(dir))
                .flatMap((file) => runsOf(file).filter((run) => NAME.test(run)))
        ),
        "names cut from glued tokens of the binary": new Set(gluedNames(binaryRuns)),
        // A runtime may keep names where the scan of its files cannot see them (the copilot CLI
        // 1.0.102 reserves catalog_search, which its binary holds in no readable form).
        "built-ins measured on other runtimes": new Set(measuredElsewhere()),
    };
    const candidates = new Set(Object.values(sources).flatMap((names) => [...names]));
    for (const [source, names] of Object.entries(sources)) {
        const others = Object.values(sources).filter((n) => n !== names);
        const own = [...names].filter((name) => !others.some((n) => n.has(name))).length;
        log(`candidates: ${names.size} ${source} (${own} found nowhere else)`);
    }
    const listed = (await client.rpc.tools.list({})).tools.map((t) => t.name);
    listed.forEach((n) => candidates.add(n));
    const offered = new Map(); // "label|model" -> names
    /** Whether the session RPC has tools.execute (runtimes before 1.0.13's have not). */
    let canExecute = true;
    const requested = new Map(); // config -> the names of the model's first request
    const modelSees = {};
    for (const config of CONFIGS) {
        const session = await open(config);
        try {
            // some built-ins (tool_search_tool) join only at send time: send, then read both
            // the model's request and the session's tool metadata
            // (autopilot never goes idle on "ok" answers: take the first request, then abort)
            const before = mock.requests.length;
            await session.send({ prompt: "hello" });
            for (let i = 0; i < 600 && mock.requests.length <= before; i++) {
                await new Promise((r) => setTimeout(r, 50));
            }
            await session.abort().catch(() => {});
            const seen = (mock.requests[before]?.tools ?? []).map(toolNameOf);
            requested.set(config, sorted(seen.filter((n) => !n.startsWith("zz_probe_"))));
            if (config.label === "model") {
                modelSees[config.model === UNLISTED_MODEL ? "*" : config.model] = sorted(seen);
            }
            canExecute = typeof session.rpc.tools.execute === "function";
            if (config.label === "default") {
                modelSees[config.model] = sorted(seen);
                // (not in the RPC of runtimes before 1.0.13's)
                if (typeof session.rpc.tools.getBuiltinDescriptors === "function") {
                    (await session.rpc.tools.getBuiltinDescriptors({})).tools.forEach((t) =>
                        candidates.add(t.name)
                    );
                }
            }
            const meta = (await session.rpc.tools.getCurrentMetadata()).tools ?? [];
            const names = [...seen, ...meta.map((t) => t.name)].filter(
                (n) => !n.startsWith("zz_probe_")
            );
            names.forEach((n) => candidates.add(n));
            offered.set(`${config.label}|${config.model}`, sorted(names));
        } finally {
            await close(session);
        }
    }
    const candidateList = [...candidates]
        .filter((n) => NAME.test(n) && (only === undefined || only.includes(n)))
        .sort();
    log(`${candidateList.length} candidates, offered sets measured`);

    // 3. conflicts (group testing)
    const conflicting = new Map(); // name -> config labels
    const forbidden = new Set();
    const odd = [];
    /** A name the runtime will not take as a custom tool, for a reason other than a conflict. */
    const refuse = (name, why) => {
        forbidden.add(name);
        odd.push(`${name} refused, counted as forbidden (${why})`);
    };
    async function conflictScan(config, names) {
        const tag = `${config.label}|${config.model}`;
        const tryBatch = async (batch, on) => {
            const tools = batch.map((name) => ({ name, description: "probe" }));
            let session;
            try {
                session = await open(config, tools, on);
            } catch (e) {
                const name = forbiddenName(e.message);
                return name !== undefined ? { forbidden: name } : { error: e.message };
            }
            try {
                await session.rpc.tools.initializeAndValidate();
                return {};
            } catch (e) {
                const m = CONFLICT.exec(e.message);
                return m ? { conflict: m[1] } : { error: e.message };
            } finally {
                await close(session);
            }
        };
        const run = async (batch, on, retried = false) => {
            while (batch.length > 0) {
                const r = await tryBatch(batch, on);
                const hit = r.conflict ?? r.forbidden;
                if (hit !== undefined && batch.includes(hit)) {
                    if (r.forbidden) forbidden.add(hit);
                    else conflicting.set(hit, [...(conflicting.get(hit) ?? []), tag]);
                    batch = batch.filter((n) => n !== hit);
                } else if (r.error !== undefined || hit !== undefined) {
                    if (batch.length === 1) {
                        // Once more, in case of a passing hiccup; a name refused twice for an
                        // unknown reason cannot be used as a custom tool, so it is not free.
                        if (!retried) return run(batch, on, true);
                        refuse(batch[0], `${tag}: ${r.error ?? hit}`);
                        return;
                    }
                    const half = batch.length >> 1;
                    await run(batch.slice(0, half), on);
                    await run(batch.slice(half), on);
                    return;
                } else {
                    return;
                }
            }
        };
        await overChunks(names, CONFLICT_BATCH, run);
    }
    // full candidate scan on the two plain sessions, offered names on every config
    for (const config of CONFIGS.filter((c) => c.label === "default")) {
        await conflictScan(config, candidateList);
    }
    for (const config of CONFIGS.filter((c) => c.label !== "default" && c.label !== "model")) {
        await conflictScan(config, offered.get(`${config.label}|${config.model}`));
    }
    log(`phase 3 done at ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    log(
        `conflicts: ${sorted(conflicting.keys()).join(" ")}; forbidden: ${sorted(forbidden).join(" ")}`
    );

    // 4. shadowed names: no conflict, yet executing runs a built-in
    /** Executes `name` with empty arguments (a string for free-form tools like apply_patch). */
    async function execute(session, name) {
        try {
            return await session.rpc.tools.execute({ name, arguments: {} });
        } catch (e) {
            if (!/Expected string parameter 'arguments'/.test(e.message)) throw e;
            return await session.rpc.tools.execute({ name, arguments: "" });
        }
    }
    const inconclusive = new Set();
    /** A custom tool named `name` whose handler reports that it ran through `onRun`. */
    function probeTool(name, flag, onRun) {
        return {
            name,
            description: "probe",
            parameters: { type: "object", properties: {} },
            overridesBuiltInTool: flag || undefined,
            skipPermission: true,
            handler: async () => {
                onRun();
                return "probe handler ran";
            },
        };
    }
    /**
     * Model path: custom tools for every name of `names` in one session of `config`, and the
     * mock model calls them all at once (parallel tool calls). Per name, `ran` is true when the
     * model saw exactly one definition of the name, the custom one, and the custom handler ran;
     * else `why` says what happened instead (the turn ended, or 15 s passed, 100 ms per name
     * for big batches, without it).
     */
    async function customViaModelBatch(config, names, flag) {
        const ranCustom = new Set();
        let allRan;
        const allDone = new Promise((r) => (allRan = r));
        const tools = names.map((name) =>
            probeTool(name, flag, () => {
                ranCustom.add(name);
                if (ranCustom.size === names.length) allRan();
            })
        );
        const results = new Map();
        let session;
        let timer;
        try {
            session = await open(config, tools);
            const before = mock.requests.length;
            mock.toolCalls = names;
            const ended = new Promise((r) => {
                session.on((e) => {
                    if (e.type === "session.idle" || e.type === "session.error") r();
                });
                // (a batch of 200 calls can take longer than 15 s on a loaded machine)
                timer = setTimeout(r, Math.max(15_000, 100 * names.length));
            });
            // wait for the turn to end (or every custom handler to run: the built-ins of an
            // autopilot session keep the turn going)
            await Promise.race([
                allDone,
                session.send({ prompt: "call the tools" }).then(() => ended),
            ]);
            const turn = turnRequest(before);
            const offeredTools = turn?.tools ?? [];
            // the built-ins the model saw besides the probes, for customViaModelMany's check
            results.others = sorted(
                offeredTools
                    .filter((t) => (t.function?.description ?? t.description) !== "probe")
                    .map(toolNameOf)
                    .filter((n) => !n.startsWith("zz_probe_"))
            );
            for (const name of names) {
                // The model must have seen exactly one definition of the name: the custom one.
                const descriptions = offeredTools
                    .filter((t) => toolNameOf(t) === name)
                    .map((t) => t.function?.description ?? t.description);
                if (turn === undefined) {
                    results.set(name, { ran: false, why: "the turn sent the model no request" });
                } else if (descriptions.length !== 1 || descriptions[0] !== "probe") {
                    const custom = descriptions.filter((d) => d === "probe").length;
                    results.set(name, {
                        ran: false,
                        why: `model saw ${descriptions.length} definition(s), ${custom} custom`,
                    });
                } else if (ranCustom.has(name)) {
                    results.set(name, { ran: true, why: "custom handler ran" });
                } else {
                    const answer = toolAnswer(before, name);
                    results.set(name, {
                        ran: false,
                        why:
                            answer === undefined
                                ? "no answer to the call"
                                : `another handler answered: ${JSON.stringify(answer.slice(0, 60))}`,
                    });
                }
            }
        } catch (e) {
            for (const name of names) {
                if (!results.has(name))
                    results.set(name, { ran: false, why: `error: ${e.message}` });
            }
        } finally {
            clearTimeout(timer);
            mock.toolCalls = undefined;
            await close(session);
        }
        return results;
    }
    /** {@link customViaModelBatch} for one name. */
    const customViaModel = async (config, name, flag) =>
        (await customViaModelBatch(config, [name], flag)).get(name);
    /**
     * {@link customViaModelBatch} over many names, with no batch effect on the verdict: a name
     * that fails in the batch is probed again on its own, and a batch whose session offered the
     * model other built-ins than the config's plain session does (minus the probed names; tool
     * search starting to defer tools, say) is discarded and probed name by name.
     */
    async function customViaModelMany(config, names, flag) {
        if (names.length <= 1) return customViaModelBatch(config, names, flag);
        const results = await customViaModelBatch(config, names, flag);
        const baseline = (requested.get(config) ?? []).filter((n) => !names.includes(n));
        const same = JSON.stringify(results.others) === JSON.stringify(baseline);
        if (!same) {
            log(
                `  ${config.label} ${config.model}: a batch of ${names.length} changed the other tools offered ` +
                    `(${JSON.stringify(results.others)} vs ${JSON.stringify(baseline)}); one by one`
            );
        }
        const retry = same ? names.filter((n) => !results.get(n).ran) : names;
        for (const name of retry) results.set(name, await customViaModel(config, name, flag));
        return results;
    }
    /**
     * Executes every name of `batch` (custom tools without the flag) in one session, recording
     * in `ran` the names whose custom handler ran and in `notRun` the others. A batch the
     * runtime refuses is halved; a single refused name is forbidden, not free.
     */
    async function executeBatch(config, batch, on, ran, notRun) {
        let session;
        try {
            session = await open(
                config,
                batch.map((name) => probeTool(name, false, () => ran.add(name))),
                on
            );
            await session.rpc.tools.initializeAndValidate();
        } catch (e) {
            await close(session);
            if (batch.length === 1) {
                refuse(batch[0], `execute scan: ${e.message}`);
                return;
            }
            const half = batch.length >> 1;
            await executeBatch(config, batch.slice(0, half), on, ran, notRun);
            await executeBatch(config, batch.slice(half), on, ran, notRun);
            return;
        }
        try {
            let next = 0;
            const worker = async () => {
                while (next < batch.length) {
                    const name = batch[next++];
                    let result;
                    try {
                        result = await execute(session, name);
                    } catch (e) {
                        odd.push(`execute ${name}: ${e.message}`);
                    }
                    if (ran.has(name)) continue;
                    // the execute path does not reach every tool (e.g. tool_search_tool)
                    if (/^Tool '.*' does not exist/.test(result?.textResultForLlm ?? "")) {
                        inconclusive.add(name);
                    } else {
                        notRun.add(name);
                    }
                }
            };
            await Promise.all(Array.from({ length: CONCURRENCY }, worker));
        } finally {
            await close(session);
        }
    }
    /**
     * {@link executeAll} for runtimes without `tools.execute`: the mock model calls every name
     * of a batch of custom tools (no flag) at once. Names whose handler does not run are probed
     * again in halves (many) or alone (a few). A name is counted as shadowed when it fails alone
     * MODEL_SCAN_TRIES times: a loaded machine can let a turn time out, and an inconclusive
     * probe is never taken to mean free.
     */
    async function modelScanAll(config, names) {
        const notRun = new Set();
        // A built-in in a batch stops the whole turn on runtimes from 1.0.64 on (the model gets
        // no request), so the likely built-ins (offered, listed, or measured on another runtime)
        // are probed alone first and the other names in batches that then rarely fail.
        const likely = new Set([
            ...[...offered.values()].flat(),
            ...listed,
            ...sources["built-ins measured on other runtimes"],
        ]);
        const queue = names.filter((n) => likely.has(n)).map((n) => ({ batch: [n], tries: 0 }));
        const rest = names.filter((n) => !likely.has(n));
        for (let i = 0; i < rest.length; i += MODEL_SCAN_BATCH) {
            queue.push({ batch: rest.slice(i, i + MODEL_SCAN_BATCH), tries: 0 });
        }
        let sessions = 0;
        while (queue.length > 0) {
            const { batch, tries } = queue.shift();
            const results = await customViaModelBatch(config, batch, false);
            if (++sessions % 50 === 0) {
                log(`  model-path scan: ${sessions} sessions, ${queue.length} batches to go`);
            }
            const failed = batch.filter((n) => !results.get(n).ran);
            if (failed.length === 0) continue;
            if (batch.length > 1) {
                const why = results.get(failed[0]).why;
                log(`  a batch of ${batch.length}: ${failed.length} did not run (${why}, ...)`);
            }
            if (batch.length === 1 && tries + 1 >= MODEL_SCAN_TRIES) {
                notRun.add(batch[0]);
                log(
                    `  ${batch[0]} (${config.label} ${config.model}): ${results.get(batch[0]).why}`
                );
            } else if (batch.length === 1) {
                queue.unshift({ batch, tries: tries + 1 });
            } else if (failed.length > 4) {
                const half = failed.length >> 1;
                queue.unshift(
                    { batch: failed.slice(0, half), tries: 0 },
                    { batch: failed.slice(half), tries: 0 }
                );
            } else {
                queue.unshift(...failed.map((n) => ({ batch: [n], tries: 0 })));
            }
        }
        return notRun;
    }
    /** The names among `names` whose custom handler (no flag) does not run in `config`. */
    async function executeAll(config, names) {
        if (!canExecute) return modelScanAll(config, names);
        const ran = new Set();
        const notRun = new Set();
        await overChunks(names, EXECUTE_BATCH, (batch, on) =>
            executeBatch(config, batch, on, ran, notRun)
        );
        return notRun;
    }
    const shadowed = new Map(); // name -> models
    for (const config of CONFIGS.filter((c) => c.label === "default")) {
        const tag = `default|${config.model}`;
        const free = candidateList.filter(
            (n) => !forbidden.has(n) && !(conflicting.get(n) ?? []).includes(tag)
        );
        // the full scan runs on the first model; the other re-checks the built-ins found so far
        const names =
            config.model === MODELS.openai
                ? free.filter((n) => full || !/[0-9]/.test(n))
                : free.filter((n) => conflicting.has(n) || shadowed.has(n) || listed.includes(n));
        for (const name of await executeAll(config, names)) {
            shadowed.set(name, [...(shadowed.get(name) ?? []), config.model]);
        }
    }
    if (!canExecute) {
        // Without tools.execute, nothing conflicts either (those runtimes do not report a custom
        // tool that takes a built-in's name): a built-in offered only under a condition, or only
        // to another model, is found by calling it as a custom tool in a session that offers it.
        for (const config of CONFIGS) {
            const names = offered
                .get(`${config.label}|${config.model}`)
                .filter((n) => !shadowed.has(n) && !forbidden.has(n))
                .filter((n) => only === undefined || only.includes(n));
            for (const name of await modelScanAll(config, names)) {
                shadowed.set(name, [...(shadowed.get(name) ?? []), config.model]);
            }
        }
    }
    // names the execute path cannot reach: check through the model, in a config offering them
    const configOffering = (name) =>
        CONFIGS.find((c) => offered.get(`${c.label}|${c.model}`).includes(name));
    // (a name the model path cannot prove free either counts as a built-in: never free)
    for (const name of sorted(inconclusive)) {
        const config = configOffering(name) ?? CONFIGS[0];
        const { ran, why } = await customViaModel(config, name, false);
        log(`  execute path cannot reach ${name}; model path (${config.label}): ${why}`);
        if (!ran) shadowed.set(name, [...(shadowed.get(name) ?? []), config.model]);
    }
    log(`phase 4 done at ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    log(`shadowed: ${sorted(shadowed.keys()).join(" ")}`);

    // 5. overrides honoured? Anything short of a proven custom run is unsupported.
    const unsupported = new Set(forbidden);
    const keptOnlyWithToolSearch = new Set();
    const deferring = CONFIGS.find((c) => c.label === "toolSearch (deferral active)");
    const builtIns = sorted([...conflicting.keys(), ...shadowed.keys(), ...forbidden]);
    // A plain session, and one that offers the built-in (when another does), must both run the
    // custom handler; failing that, a session where tool search defers tools may. The names
    // are probed in batches, one session per config (parallel tool calls).
    const t5 = performance.now();
    const probes = new Map(); // config -> names
    const configsOf = new Map(); // name -> configs
    for (const name of builtIns.filter((n) => !forbidden.has(n))) {
        // (a name found only in another model's session is probed in the first plain one)
        const plain =
            CONFIGS.find(
                (c) =>
                    c.label === "default" && c.model === (shadowed.get(name) ?? [MODELS.openai])[0]
            ) ?? CONFIGS[0];
        const configs = [...new Set([plain, configOffering(name) ?? plain])];
        configsOf.set(name, configs);
        for (const config of configs.filter((c) => c !== deferring)) {
            probes.set(config, [...(probes.get(config) ?? []), name]);
        }
    }
    const failures = new Map(); // name -> why, per config
    for (const [config, names] of probes) {
        const results = await customViaModelMany(config, names, true);
        for (const [name, { ran, why }] of results) {
            if (!ran) {
                const why2 = `${config.label} ${config.model}: ${why}`;
                failures.set(name, [...(failures.get(name) ?? []), why2]);
            }
        }
    }
    const toDefer = [...configsOf]
        .filter(([name, configs]) => failures.has(name) || configs.includes(deferring))
        .map(([name]) => name);
    const deferred = await customViaModelMany(deferring, toDefer, true);
    for (const [name, configs] of configsOf) {
        const failed = failures.get(name) ?? [];
        let outcome = "custom ran";
        const viaDeferring = deferred.get(name);
        if (viaDeferring !== undefined && !viaDeferring.ran) {
            unsupported.add(name);
            outcome = `unsupported (${[...failed, `${deferring.label}: ${viaDeferring.why}`].join("; ")})`;
        } else if (failed.length > 0) {
            keptOnlyWithToolSearch.add(name);
            outcome = `custom ran only while tool search defers tools (${failed.join("; ")})`;
        }
        const tried = configs.map((c) => `${c.label} ${c.model}`).join(", ");
        log(`  override ${name} [${tried}]: ${outcome}`);
    }
    log(`phase 5 (overrides) took ${((performance.now() - t5) / 1000).toFixed(1)} s`);
    log(
        `unsupported: ${sorted(unsupported).join(" ")}; only with tool search: ${sorted(keptOnlyWithToolSearch).join(" ")}`
    );
    // The session step sends the flag for every custom tool, so a free name must take it too.
    const sanity = await customViaModel(CONFIGS[0], "zz_probe_not_a_built_in", true);
    log(`a non-built-in name with overridesBuiltInTool: true: ${sanity.why}`);
    if (!sanity.ran) {
        throw new Error(
            "A custom tool with overridesBuiltInTool: true on a free name did not run."
        );
    }

    // 6. filter aliases: what excluding or allowing one name does to the others
    const excludedWith = {};
    const includedWith = {};
    const modelFacing = sorted(Object.values(modelSees).flat());
    for (const model of [MODELS.openai, MODELS.other]) {
        const defaults = modelSees[model];
        for (const name of modelFacing) {
            for (const [option, into] of [
                ["excludedTools", excludedWith],
                ["availableTools", includedWith],
            ]) {
                const session = await open({ label: "alias", model, opts: { [option]: [name] } });
                const before = mock.requests.length;
                try {
                    await session.sendAndWait({ prompt: "hello" }, 30_000);
                } finally {
                    await close(session);
                }
                const seen = (mock.requests[before]?.tools ?? []).map(toolNameOf);
                const affected =
                    option === "excludedTools"
                        ? defaults.filter((b) => b !== name && !seen.includes(b))
                        : seen.filter((b) => b !== name);
                for (const builtIn of affected)
                    into[builtIn] = sorted([...(into[builtIn] ?? []), name]);
            }
        }
    }
    log(
        `filter aliases: excluded with ${JSON.stringify(excludedWith)}, allowed with ${JSON.stringify(includedWith)}`
    );
    if (odd.length > 0) log(`unexpected results:\n  ${odd.join("\n  ")}`);

    // ------------------------------------------------------------ output
    const CONDITIONS = {
        onUserInputRequest: "onUserInputRequest",
        "mode plan + onExitPlanModeRequest": "planMode",
        "mode autopilot": "autopilotMode",
        manageScheduleEnabled: "manageScheduleEnabled",
        enableSessionStore: "enableSessionStore",
        skillDirectories: "skillDirectories",
        "toolSearch (deferral active)": "toolSearch",
    };
    const offeredByCondition = {};
    for (const config of CONFIGS.filter((c) => CONDITIONS[c.label] !== undefined)) {
        const base = offered.get(`default|${config.model}`);
        offeredByCondition[CONDITIONS[config.label]] = offered
            .get(`${config.label}|${config.model}`)
            .filter((n) => !base.includes(n));
    }
    const sortKeys = (object) =>
        Object.fromEntries(Object.entries(object).sort(([a], [b]) => (a < b ? -1 : 1)));
    const measured = {
        runtimeVersion: (await client.getStatus()).version,
        sdkVersion,
        builtIns,
        unsupportedOverrides: sorted(unsupported),
        keptOnlyWithToolSearch: sorted(keptOnlyWithToolSearch),
        offeredByModel: sortKeys(modelSees),
        offeredByCondition: sortKeys(offeredByCondition),
        filterAliases: {
            excludedWith: sortKeys(excludedWith),
            includedWith: sortKeys(includedWith),
        },
    };
    const elapsed = `${((performance.now() - t0) / 1000).toFixed(1)} s`;
    if (only !== undefined) {
        console.log(JSON.stringify(measured, null, 4));
        log(`--only: partial result printed, nothing written, ${elapsed}`);
    } else if (outFile !== undefined) {
        mkdirSync(dirname(resolve(outFile)), { recursive: true });
        writeFileSync(outFile, measurementFileText(measured));
        log(`wrote ${outFile} in ${elapsed}`);
    } else {
        const dataDir = join(projectRoot, "scripts", "data", "measured-built-in-tools");
        mkdirSync(dataDir, { recursive: true });
        const dataFile = join(
            dataDir,
            externalRuntime === undefined
                ? `${sdkVersion}.json`
                : `runtime-${measured.runtimeVersion}.json`
        );
        writeFileSync(dataFile, measurementFileText(measured));
        log(`wrote ${dataFile} and ${await writeMeasuredModule()} in ${elapsed}`);
    }
} catch (error) {
    console.error(error);
    exitCode = 1;
} finally {
    await cleanUp();
    console.error(
        `discovery of ${externalRuntime ?? sdkVersion} ${exitCode === 0 ? "took" : "failed after"} ${seconds(runStart)}`
    );
}
process.exit(exitCode);
