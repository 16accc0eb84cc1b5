// The discovery's phases (scripts/measure/discover-reserved-tool-names.mjs is their caller; its
// header says what each measures and why): the runtime's candidate names read from its files
// (token runs, glued names), the offered sets, the conflict scan (a batch search), the shadow
// scan, the override probes, the filter aliases, and the measurement written out. The pure parts
// (token runs, glued names, the batch searches, the measurement's assembly) are exported for the
// unit tests of test/unit/discovery.test.ts; the phases drive a started runtime through a `Rig`.

import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { measurementFileText } from "../../../build/cli/conformance/measuredCatalog.js";
import { writeMeasuredModule } from "./measuredModule.mjs";

/**
 * The SDK of the release being measured, loaded at run time from its own install: its types are
 * those of whichever release it is (older ones lack `tools.execute`), so they are not checked.
 *
 * @typedef {any} Sdk
 * @typedef {any} SdkClient
 * @typedef {any} SdkSession
 */

/** A candidate tool name: what a runtime's built-in names look like. */
export const NAME = /^[a-z][a-z0-9_]{1,40}$/;
/** Custom tools per session in the conflict scan (validation is cheap). */
const CONFLICT_BATCH = 1000;
/** Custom tools per session in the execute scan (execution slows with many tools). */
const EXECUTE_BATCH = 50;
/**
 * Custom tools per session in the shadow scan through the model, for runtimes without
 * `session.tools.execute` (those of SDK releases before 1.0.13).
 */
export const MODEL_SCAN_BATCH = 200;
/** Probes of one name alone, in the model-path scan, before it counts as shadowed. */
export const MODEL_SCAN_TRIES = 3;
/** Concurrent `tools.execute` calls per session. */
const CONCURRENCY = 8;
/** Not a secret: the runtime masks the provider key in tool output, so keep it unusual. */
export const API_KEY = "mock-provider-key-8f3a";
const CONFLICT = /External tool "([^"]+)" conflicts with a built-in tool/;
/** `createSession`'s refusal of a reserved name: 1.0.13/1.0.14 wording, then 1.0.15-preview's. */
const FORBIDDEN = /reserved (\S+) built-in|tool name clash: (\S+) is reserved/;

/**
 * The name `createSession`'s message says is reserved, if it says so.
 *
 * @param {string} message
 * @returns {string | undefined}
 */
export function forbiddenName(message) {
    const m = FORBIDDEN.exec(message);
    return m ? (m[1] ?? m[2]) : undefined;
}

/**
 * The name `initializeAndValidate`'s message says conflicts with a built-in, if it says so.
 *
 * @param {string} message
 * @returns {string | undefined}
 */
export function conflictName(message) {
    return CONFLICT.exec(message)?.[1];
}

/**
 * @param {Iterable<string>} names
 * @returns {string[]} the names without repeats, sorted
 */
export const sorted = (names) => [...new Set(names)].sort();

/**
 * @template T
 * @param {Record<string, T>} object
 * @returns {Record<string, T>} the same entries, by key
 */
export const sortKeys = (object) =>
    Object.fromEntries(Object.entries(object).sort(([a], [b]) => (a < b ? -1 : 1)));

/**
 * @param {unknown} error
 * @returns {string} its message
 */
const messageOf = (error) => (error instanceof Error ? error.message : String(error));

// ---------------------------------------------------------------- candidates

/**
 * The maximal [a-z0-9_] runs of some bytes that start with a letter (a run's digits and
 * underscores before its first letter are dropped).
 *
 * @param {Uint8Array} bytes
 * @returns {string[]}
 */
export function tokenRuns(bytes) {
    /** @type {string[]} */
    const runs = [];
    let start = -1;
    const text = (/** @type {number} */ from, /** @type {number} */ to) =>
        Buffer.from(bytes.buffer, bytes.byteOffset + from, to - from).toString("latin1");
    for (let i = 0; i <= bytes.length; i++) {
        const c = i < bytes.length ? /** @type {number} */ (bytes[i]) : 0;
        const word = (c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95;
        if (word) {
            if (start < 0 && c >= 97 && c <= 122) start = i;
        } else if (start >= 0) {
            runs.push(text(start, i));
            start = -1;
        }
    }
    return runs;
}

/**
 * @param {string} file
 * @returns {string[]} the token runs of the file
 */
export const runsOf = (file) => tokenRuns(readFileSync(file));

/**
 * The text files of the runtime package, whose identifiers are candidates too: bundled JS,
 * agent definitions, JSON schemas, built-in skills. Binaries (the runtime itself is read
 * separately; ripgrep, tgrep) and compressed files are skipped.
 *
 * @param {string} dir
 * @returns {string[]}
 */
export function textFilesOf(dir) {
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
 * boundary (`filegrep`, `searchlexical`). A chunk splits there when it is rare (seen fewer than
 * 5 times) and both halves are common words of the runs (3 letters or more, seen 5 times or
 * more); the words between two such splits make one name. Only runs of 12 characters or more
 * with an underscore are cut, and only names with an underscore are kept.
 *
 * @param {string[]} runs
 * @returns {string[]}
 */
export function gluedNames(runs) {
    /** @type {Map<string, number>} */
    const counts = new Map();
    for (const run of runs) {
        for (const word of run.split("_")) counts.set(word, (counts.get(word) ?? 0) + 1);
    }
    const common = (/** @type {string} */ word) =>
        word.length >= 3 && /^[a-z]+$/.test(word) && (counts.get(word) ?? 0) >= 5;
    /** @type {Set<string>} */
    const names = new Set();
    for (const run of runs) {
        if (run.length < 12 || !run.includes("_")) continue;
        /** @type {string[]} */
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

/**
 * Every built-in name of the measurements in `dataDir`.
 *
 * @param {string} dataDir
 * @returns {string[]}
 */
export function measuredElsewhere(dataDir) {
    if (!existsSync(dataDir)) return [];
    return readdirSync(dataDir)
        .filter((file) => file.endsWith(".json"))
        .flatMap(
            (file) =>
                /** @type {{ builtIns: string[] }} */ (
                    JSON.parse(readFileSync(join(dataDir, file), "utf8"))
                ).builtIns
        );
}

/**
 * The names another runtime's measurement keeps only while tool search defers tools (the
 * tool-search tool, `tool_search_tool`), for phase 5b.
 *
 * @param {string} dataDir the measurements of other runtimes
 * @returns {string[]} sorted, each once
 */
export function toolSearchNamesElsewhere(dataDir) {
    if (!existsSync(dataDir)) return [];
    return sorted(
        new Set(
            readdirSync(dataDir)
                .filter((file) => file.endsWith(".json"))
                .flatMap(
                    (file) =>
                        /** @type {{ keptOnlyWithToolSearch?: string[] }} */ (
                            JSON.parse(readFileSync(join(dataDir, file), "utf8"))
                        ).keptOnlyWithToolSearch ?? []
                )
        )
    );
}

/**
 * Phase 1, from the files: the candidate names of a runtime by where they were found.
 *
 * @param {{ binary: string, packageDirs: string[] }} runtimeFiles
 * @param {string} dataDir the measurements of other runtimes
 * @returns {Record<string, Set<string>>}
 */
export function candidateSources(runtimeFiles, dataDir) {
    const binaryRuns = runsOf(runtimeFiles.binary);
    return {
        "whole tokens of the binary": new Set(binaryRuns.filter((run) => NAME.test(run))),
        "tokens of the package's text files": new Set(
            runtimeFiles.packageDirs
                .flatMap((dir) => textFilesOf(dir))
                .flatMap((file) => runsOf(file).filter((run) => NAME.test(run)))
        ),
        "names cut from glued tokens of the binary": new Set(gluedNames(binaryRuns)),
        // A runtime may keep names where the scan of its files cannot see them (the copilot CLI
        // 1.0.102 reserves catalog_search, which its binary holds in no readable form).
        "built-ins measured on other runtimes": new Set(measuredElsewhere(dataDir)),
    };
}

// ---------------------------------------------------------------- batch searches

/**
 * @template T
 * @param {T[]} items
 * @param {number} size
 * @returns {T[][]} the items in consecutive chunks of `size` (the last one shorter)
 */
export function chunksOf(items, size) {
    /** @type {T[][]} */
    const chunks = [];
    for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
    return chunks;
}

/**
 * What one try of a batch of names answered: nothing wrong, a name that conflicts or is
 * forbidden, or another error.
 *
 * @typedef {{ conflict?: string, forbidden?: string, error?: string }} BatchAnswer
 */

/**
 * The conflict scan's group testing over one batch: `tryBatch` registers the names and answers
 * with at most one offending name at a time, which is recorded (`onHit`) and removed before the
 * batch is tried again. A batch that fails otherwise (an error, or a hit outside the batch) is
 * halved; a single name that fails so twice is refused (`onRefused`): inconclusive is never
 * taken to mean free.
 *
 * @param {string[]} batch
 * @param {(batch: string[]) => Promise<BatchAnswer>} tryBatch
 * @param {{ onHit(name: string, kind: "conflict" | "forbidden"): void, onRefused(name: string, why: string): void }} record
 * @param {boolean} [retried] whether this single name was tried once already
 * @returns {Promise<void>}
 */
export async function batchSearch(batch, tryBatch, record, retried = false) {
    while (batch.length > 0) {
        const r = await tryBatch(batch);
        const hit = r.conflict ?? r.forbidden;
        if (hit !== undefined && batch.includes(hit)) {
            record.onHit(hit, r.forbidden ? "forbidden" : "conflict");
            batch = batch.filter((n) => n !== hit);
        } else if (r.error !== undefined || hit !== undefined) {
            if (batch.length === 1) {
                // Once more, in case of a passing hiccup; a name refused twice for an unknown
                // reason cannot be used as a custom tool, so it is not free.
                if (!retried) return batchSearch(batch, tryBatch, record, true);
                record.onRefused(/** @type {string} */ (batch[0]), r.error ?? String(hit));
                return;
            }
            const half = batch.length >> 1;
            await batchSearch(batch.slice(0, half), tryBatch, record);
            await batchSearch(batch.slice(half), tryBatch, record);
            return;
        } else {
            return;
        }
    }
}

/**
 * The model-path scan's narrowing: `probeBatch` calls every name of a batch at once and answers
 * which ran (and why the others did not); names that did not run are probed again in halves
 * (more than four) or alone (four or fewer). A name is the result when it fails alone `tries`
 * times: a loaded machine can let a turn time out, and an inconclusive probe is never taken to
 * mean free.
 *
 * @param {string[]} names
 * @param {number} size the first batches' size
 * @param {(batch: string[]) => Promise<Map<string, { ran: boolean, why: string }>>} probeBatch
 * @param {(batches: number, left: number) => void} [progress] called every 50 batches
 * @param {(name: string, why: string) => void} [onFailed] called for each name failing alone
 *   for the last time
 * @param {number} [tries] probes of a name alone before it counts
 * @param {(size: number, failed: number, why: string) => void} [onBatchFailed] called for each
 *   batch of several names in which some did not run, with the first reason
 * @param {ReadonlySet<string>} [likely] names probed alone first (the likely built-ins: on
 *   runtimes from 1.0.64 on one built-in in a batch stops the whole batch's turn, and bisecting
 *   every batch down to it is slow); the others go in batches that then rarely fail
 * @returns {Promise<Set<string>>} the names whose handler does not run
 */
export async function narrowFailures(
    names,
    size,
    probeBatch,
    progress,
    onFailed,
    tries = 1,
    onBatchFailed,
    likely = new Set()
) {
    /** @type {Set<string>} */
    const notRun = new Set();
    /** @type {{ batch: string[], tried: number }[]} */
    const queue = [
        ...names.filter((n) => likely.has(n)).map((n) => ({ batch: [n], tried: 0 })),
        ...chunksOf(
            names.filter((n) => !likely.has(n)),
            size
        ).map((batch) => ({ batch, tried: 0 })),
    ];
    let sessions = 0;
    while (queue.length > 0) {
        const { batch, tried } = /** @type {{ batch: string[], tried: number }} */ (queue.shift());
        const results = await probeBatch(batch);
        if (++sessions % 50 === 0) progress?.(sessions, queue.length);
        const failed = batch.filter((n) => !results.get(n)?.ran);
        if (failed.length === 0) continue;
        if (batch.length > 1) {
            onBatchFailed?.(batch.length, failed.length, results.get(failed[0] ?? "")?.why ?? "");
        }
        if (batch.length === 1 && tried + 1 >= tries) {
            const name = /** @type {string} */ (batch[0]);
            notRun.add(name);
            onFailed?.(name, results.get(name)?.why ?? "");
        } else if (batch.length === 1) {
            queue.unshift({ batch, tried: tried + 1 });
        } else if (failed.length > 4) {
            const half = failed.length >> 1;
            queue.unshift(
                { batch: failed.slice(0, half), tried: 0 },
                { batch: failed.slice(half), tried: 0 }
            );
        } else {
            queue.unshift(...failed.map((n) => ({ batch: [n], tried: 0 })));
        }
    }
    return notRun;
}

// ---------------------------------------------------------------- configurations

/**
 * A probed session configuration: `label` names what its options switch on.
 *
 * @typedef {object} ProbeConfig
 * @property {string} label
 * @property {string} model
 * @property {string} [mode]
 * @property {Record<string, unknown>} [opts]
 * @property {number} [filler] custom tools added to every session of the config
 */

export const MODELS = { openai: "gpt-4o", other: "claude-sonnet-4.5" };
/**
 * More models whose default tool set is recorded (no conflict scans). The runtime picks tools
 * per model id; `UNLISTED_MODEL` is an id it cannot know, so its set is the runtime's fallback,
 * recorded under the key "*".
 */
export const UNLISTED_MODEL = "unlisted-model-id";
const SURVEYED_MODELS = ["gpt-4.1", "gpt-5", "gpt-5-codex", "o3", "gemini-2.5-pro", UNLISTED_MODEL];
/** The configurations' labels as the measurement's conditions name them. */
export const CONDITIONS = new Map([
    ["onUserInputRequest", "onUserInputRequest"],
    ["mode plan + onExitPlanModeRequest", "planMode"],
    ["mode autopilot", "autopilotMode"],
    ["manageScheduleEnabled", "manageScheduleEnabled"],
    ["enableSessionStore", "enableSessionStore"],
    ["skillDirectories", "skillDirectories"],
    ["toolSearch (deferral active)", "toolSearch"],
]);

/**
 * The probed configurations.
 *
 * @param {string} skillDir a skill directory for the `skillDirectories` configuration
 * @returns {ProbeConfig[]}
 */
export function probeConfigs(skillDir) {
    const userInput = async () => ({ answer: "no", wasFreeform: true });
    return [
        { label: "default", model: MODELS.openai },
        { label: "default", model: MODELS.other },
        {
            label: "onUserInputRequest",
            model: MODELS.openai,
            opts: { onUserInputRequest: userInput },
        },
        {
            label: "mode plan + onExitPlanModeRequest",
            model: MODELS.openai,
            mode: "plan",
            opts: { onExitPlanModeRequest: async () => ({ approved: true }) },
        },
        { label: "mode autopilot", model: MODELS.openai, mode: "autopilot" },
        {
            label: "manageScheduleEnabled",
            model: MODELS.openai,
            opts: { manageScheduleEnabled: true },
        },
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
}

/**
 * @param {ProbeConfig} config
 * @returns {string} the key of its offered set
 */
const keyOf = (config) => `${config.label}|${config.model}`;

// ---------------------------------------------------------------- the rig

/**
 * What the phases drive: the started runtime processes, the mock model, and what every phase
 * records of names the runtime will not take.
 *
 * @typedef {object} Rig
 * @property {SdkClient[]} clients runtime processes used in parallel for the long scans
 * @property {SdkClient} client the first of them
 * @property {import("../../../build/esm/mockModel/mockChatModel.js").MockModel & { toolCalls: string[] | undefined }} mock
 * @property {(config: ProbeConfig, tools?: object[], on?: SdkClient) => Promise<SdkSession>} open
 *   creates a session for `config` with `tools`, in the config's mode
 * @property {ProbeConfig[]} configs
 * @property {(...parts: unknown[]) => void} log
 * @property {Set<string>} forbidden names the runtime refuses as a custom tool
 * @property {string[]} odd unexpected results, printed at the end
 * @property {Set<string>} inconclusive names the execute path cannot reach
 */

/**
 * The rig of a started set of clients.
 *
 * @param {{ clients: SdkClient[], mock: Rig["mock"], approveAll: unknown, workingDirectory: string, configs: ProbeConfig[], log: Rig["log"] }} options
 * @returns {Rig}
 */
export function rigOf({ clients, mock, approveAll, workingDirectory, configs, log }) {
    const provider = { type: "openai", baseUrl: mock.baseUrl, apiKey: API_KEY };
    const client = clients[0];
    return {
        clients,
        client,
        mock,
        configs,
        log,
        forbidden: new Set(),
        odd: [],
        inconclusive: new Set(),
        async open(config, tools = [], on = client) {
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
        },
    };
}

/**
 * Disconnects, without waiting more than 5 s for a session still busy with a turn.
 *
 * @param {SdkSession | undefined} session
 */
const close = (session) =>
    Promise.race([
        session?.disconnect().catch(() => {}),
        new Promise((resolve) => setTimeout(resolve, 5_000).unref()),
    ]);

/**
 * A name the runtime will not take as a custom tool, for a reason other than a conflict.
 *
 * @param {Rig} rig
 * @param {string} name
 * @param {string} why
 */
function refuse(rig, name, why) {
    rig.forbidden.add(name);
    rig.odd.push(`${name} refused, counted as forbidden (${why})`);
}

/**
 * Runs `work(chunk, client)` over `size`-name chunks of `names`, one worker per client.
 *
 * @param {Rig} rig
 * @param {string[]} names
 * @param {number} size
 * @param {(chunk: string[], on: SdkClient) => Promise<void>} work
 */
async function overChunks(rig, names, size, work) {
    const chunks = chunksOf(names, size);
    let next = 0;
    await Promise.all(
        rig.clients.map(async (on) => {
            while (next < chunks.length) await work(/** @type {string[]} */ (chunks[next++]), on);
        })
    );
}

/**
 * The first model request since index `since` that offers tools: the session's turn (side
 * requests, such as a title, carry none).
 *
 * @param {Rig} rig
 * @param {number} since
 */
const turnRequest = (rig, since) =>
    rig.mock.requests.slice(since).find((r) => (r.tools?.length ?? 0) > 0);

/**
 * The first result for a call of `name` the runtime sent the model since `since`, as text.
 *
 * @param {Rig} rig
 * @param {number} since
 * @param {string} name
 * @returns {string | undefined}
 */
function toolAnswer(rig, since, name) {
    const message = rig.mock.requests
        .slice(since)
        .flatMap((r) => r.messages ?? [])
        .find((m) => m.role === "tool" && m.tool_call_id?.endsWith(`_${name}`));
    if (message === undefined) return undefined;
    return typeof message.content === "string" ? message.content : JSON.stringify(message.content);
}

/**
 * @param {import("../../../build/esm/mockModel/mockChatModel.js").RecordedTool} tool
 * @returns {string | undefined} the description the model was given
 */
const descriptionOf = (tool) =>
    tool.function?.description ??
    /** @type {{ description?: string }} */ (/** @type {unknown} */ (tool)).description;

/**
 * @param {import("../../../build/esm/mockModel/mockChatModel.js").RecordedTool} tool
 * @returns {string}
 */
const toolNameOf = (tool) =>
    tool.function?.name ??
    tool.custom?.name ??
    /** @type {{ name: string }} */ (/** @type {unknown} */ (tool)).name;

// ---------------------------------------------------------------- phase 2: offered sets

/**
 * What the sessions of every configuration offer.
 *
 * @typedef {object} OfferedSets
 * @property {string[]} listed the names of `tools.list`
 * @property {Map<string, string[]>} offered "label|model" -> the names offered
 * @property {Map<ProbeConfig, string[]>} requested config -> the names of the model's first request
 * @property {Record<string, string[]>} modelSees model -> the names its plain session offers
 * @property {boolean} canExecute whether the session RPC has tools.execute (runtimes before
 *   1.0.13's have not)
 */

/**
 * Phase 2: the names each configuration's session offers the model, which are candidates too
 * (added to `candidates`, with those of `tools.list` and the built-in descriptors).
 *
 * @param {Rig} rig
 * @param {Set<string>} candidates
 * @returns {Promise<OfferedSets>}
 */
export async function measureOfferedSets(rig, candidates) {
    const { mock } = rig;
    const listed = /** @type {{ tools: { name: string }[] }} */ (
        await rig.client.rpc.tools.list({})
    ).tools.map((t) => t.name);
    listed.forEach((n) => candidates.add(n));
    /** @type {Map<string, string[]>} */
    const offered = new Map();
    let canExecute = true;
    /** @type {Map<ProbeConfig, string[]>} */
    const requested = new Map();
    /** @type {Record<string, string[]>} */
    const modelSees = {};
    for (const config of rig.configs) {
        const session = await rig.open(config);
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
                    /** @type {{ tools: { name: string }[] }} */ (
                        await session.rpc.tools.getBuiltinDescriptors({})
                    ).tools.forEach((t) => candidates.add(t.name));
                }
            }
            /** @type {{ name: string }[]} */
            const meta = (await session.rpc.tools.getCurrentMetadata()).tools ?? [];
            const names = [...seen, ...meta.map((t) => t.name)].filter(
                (n) => !n.startsWith("zz_probe_")
            );
            names.forEach((n) => candidates.add(n));
            offered.set(keyOf(config), sorted(names));
        } finally {
            await close(session);
        }
    }
    return { listed, offered, requested, modelSees, canExecute };
}

/**
 * @param {OfferedSets} sets
 * @param {ProbeConfig} config
 * @returns {string[]} what the config's session offers
 */
const offeredIn = (sets, config) => /** @type {string[]} */ (sets.offered.get(keyOf(config)));

// ---------------------------------------------------------------- phase 3: conflicts

/**
 * Phase 3: the names that conflict with a built-in, per configuration (group testing over
 * batches of custom tools without the flag), on the two plain sessions for every candidate and
 * on every other configuration for the names it offers. Forbidden names go to `rig.forbidden`.
 *
 * @param {Rig} rig
 * @param {string[]} candidateList
 * @param {OfferedSets} sets
 * @returns {Promise<Map<string, string[]>>} name -> the "label|model" keys it conflicts in
 */
export async function scanConflicts(rig, candidateList, sets) {
    /** @type {Map<string, string[]>} */
    const conflicting = new Map();
    /**
     * @param {ProbeConfig} config
     * @param {string[]} names
     */
    const conflictScan = async (config, names) => {
        const tag = keyOf(config);
        /**
         * @param {string[]} batch
         * @param {SdkClient} on
         * @returns {Promise<BatchAnswer>}
         */
        const tryBatch = async (batch, on) => {
            const tools = batch.map((name) => ({ name, description: "probe" }));
            let session;
            try {
                session = await rig.open(config, tools, on);
            } catch (e) {
                const name = forbiddenName(messageOf(e));
                return name !== undefined ? { forbidden: name } : { error: messageOf(e) };
            }
            try {
                await session.rpc.tools.initializeAndValidate();
                return {};
            } catch (e) {
                const name = conflictName(messageOf(e));
                return name !== undefined ? { conflict: name } : { error: messageOf(e) };
            } finally {
                await close(session);
            }
        };
        await overChunks(rig, names, CONFLICT_BATCH, (batch, on) =>
            batchSearch(batch, (b) => tryBatch(b, on), {
                onHit(name, kind) {
                    if (kind === "forbidden") rig.forbidden.add(name);
                    else conflicting.set(name, [...(conflicting.get(name) ?? []), tag]);
                },
                onRefused: (name, why) => refuse(rig, name, `${tag}: ${why}`),
            })
        );
    };
    for (const config of rig.configs.filter((c) => c.label === "default")) {
        await conflictScan(config, candidateList);
    }
    for (const config of rig.configs.filter((c) => c.label !== "default" && c.label !== "model")) {
        await conflictScan(config, offeredIn(sets, config));
    }
    return conflicting;
}

// ---------------------------------------------------------------- probes

/**
 * Executes `name` with empty arguments (a string for free-form tools like apply_patch).
 *
 * @param {SdkSession} session
 * @param {string} name
 */
async function execute(session, name) {
    try {
        return await session.rpc.tools.execute({ name, arguments: {} });
    } catch (e) {
        if (!/Expected string parameter 'arguments'/.test(messageOf(e))) throw e;
        return await session.rpc.tools.execute({ name, arguments: "" });
    }
}

/**
 * A custom tool named `name` whose handler reports that it ran through `onRun`.
 *
 * @param {string} name
 * @param {boolean} flag
 * @param {() => void} onRun
 */
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
 * What a probe through the model found per name; `others` lists the built-ins the model saw
 * besides the probes.
 *
 * @typedef {Map<string, { ran: boolean, why: string }> & { others?: string[] }} ModelProbe
 */

/**
 * Model path: custom tools for every name of `names` in one session of `config`, and the mock
 * model calls them all at once (parallel tool calls). Per name, `ran` is true when the model saw
 * exactly one definition of the name, the custom one, and the custom handler ran; else `why`
 * says what happened instead (the turn ended, or 15 s passed (100 ms per name for big batches), without it).
 *
 * @param {Rig} rig
 * @param {ProbeConfig} config
 * @param {string[]} names
 * @param {boolean} flag
 * @returns {Promise<ModelProbe>}
 */
async function customViaModelBatch(rig, config, names, flag) {
    const { mock } = rig;
    /** @type {Set<string>} */
    const ranCustom = new Set();
    /** @type {() => void} */
    let allRan = () => {};
    const allDone = new Promise((r) => (allRan = () => r(undefined)));
    const tools = names.map((name) =>
        probeTool(name, flag, () => {
            ranCustom.add(name);
            if (ranCustom.size === names.length) allRan();
        })
    );
    /** @type {ModelProbe} */
    const results = new Map();
    /** @type {SdkSession} */
    let session;
    /** @type {NodeJS.Timeout | undefined} */
    let timer;
    try {
        session = await rig.open(config, tools);
        const before = mock.requests.length;
        mock.toolCalls = names;
        const ended = new Promise((r) => {
            session.on((/** @type {{ type: string }} */ e) => {
                if (e.type === "session.idle" || e.type === "session.error") r(undefined);
            });
            // (a batch of 200 calls can take longer than 15 s on a loaded machine)
            timer = setTimeout(r, Math.max(15_000, 100 * names.length));
        });
        // wait for the turn to end (or every custom handler to run: the built-ins of an
        // autopilot session keep the turn going)
        await Promise.race([allDone, session.send({ prompt: "call the tools" }).then(() => ended)]);
        const turn = turnRequest(rig, before);
        const offeredTools = turn?.tools ?? [];
        // the built-ins the model saw besides the probes, for customViaModelMany's check
        results.others = sorted(
            offeredTools
                .filter((t) => descriptionOf(t) !== "probe")
                .map(toolNameOf)
                .filter((n) => !n.startsWith("zz_probe_"))
        );
        for (const name of names) {
            // The model must have seen exactly one definition of the name: the custom one.
            const descriptions = offeredTools
                .filter((t) => toolNameOf(t) === name)
                .map(descriptionOf);
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
                const answer = toolAnswer(rig, before, name);
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
                results.set(name, { ran: false, why: `error: ${messageOf(e)}` });
        }
    } finally {
        clearTimeout(timer);
        mock.toolCalls = undefined;
        await close(session);
    }
    return results;
}

/**
 * {@link customViaModelBatch} for one name.
 *
 * @param {Rig} rig
 * @param {ProbeConfig} config
 * @param {string} name
 * @param {boolean} flag
 * @returns {Promise<{ ran: boolean, why: string }>}
 */
export const customViaModel = async (rig, config, name, flag) =>
    /** @type {{ ran: boolean, why: string }} */ (
        (await customViaModelBatch(rig, config, [name], flag)).get(name)
    );

/**
 * {@link customViaModelBatch} over many names, with no batch effect on the verdict: a name that
 * fails in the batch is probed again on its own, and a batch whose session offered the model
 * other built-ins than the config's plain session does (minus the probed names; tool search
 * starting to defer tools, say) is discarded and probed name by name.
 *
 * @param {Rig} rig
 * @param {OfferedSets} sets
 * @param {ProbeConfig} config
 * @param {string[]} names
 * @param {boolean} flag
 * @returns {Promise<ModelProbe>}
 */
async function customViaModelMany(rig, sets, config, names, flag) {
    if (names.length <= 1) return customViaModelBatch(rig, config, names, flag);
    const results = await customViaModelBatch(rig, config, names, flag);
    const baseline = (sets.requested.get(config) ?? []).filter((n) => !names.includes(n));
    const same = JSON.stringify(results.others) === JSON.stringify(baseline);
    if (!same) {
        rig.log(
            `  ${config.label} ${config.model}: a batch of ${names.length} changed the other tools offered ` +
                `(${JSON.stringify(results.others)} vs ${JSON.stringify(baseline)}); one by one`
        );
    }
    const retry = same ? names.filter((n) => !results.get(n)?.ran) : names;
    for (const name of retry) results.set(name, await customViaModel(rig, config, name, flag));
    return results;
}

// ---------------------------------------------------------------- phase 4: shadowed names

/**
 * Executes every name of `batch` (custom tools without the flag) in one session, recording in
 * `ran` the names whose custom handler ran and in `notRun` the others. A batch the runtime
 * refuses is halved; a single refused name is forbidden, not free.
 *
 * @param {Rig} rig
 * @param {ProbeConfig} config
 * @param {string[]} batch
 * @param {SdkClient} on
 * @param {Set<string>} ran
 * @param {Set<string>} notRun
 * @returns {Promise<void>}
 */
async function executeBatch(rig, config, batch, on, ran, notRun) {
    /** @type {SdkSession} */
    let session;
    try {
        session = await rig.open(
            config,
            batch.map((name) => probeTool(name, false, () => ran.add(name))),
            on
        );
        await session.rpc.tools.initializeAndValidate();
    } catch (e) {
        await close(session);
        if (batch.length === 1) {
            refuse(rig, /** @type {string} */ (batch[0]), `execute scan: ${messageOf(e)}`);
            return;
        }
        const half = batch.length >> 1;
        await executeBatch(rig, config, batch.slice(0, half), on, ran, notRun);
        await executeBatch(rig, config, batch.slice(half), on, ran, notRun);
        return;
    }
    try {
        let next = 0;
        const worker = async () => {
            while (next < batch.length) {
                const name = /** @type {string} */ (batch[next++]);
                let result;
                try {
                    result = await execute(session, name);
                } catch (e) {
                    rig.odd.push(`execute ${name}: ${messageOf(e)}`);
                }
                if (ran.has(name)) continue;
                // the execute path does not reach every tool (e.g. tool_search_tool)
                if (/^Tool '.*' does not exist/.test(result?.textResultForLlm ?? "")) {
                    rig.inconclusive.add(name);
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
 * {@link executeAll} for runtimes without `tools.execute`: the mock model calls every name of a
 * batch of custom tools (no flag) at once. Names whose handler does not run are probed again in
 * halves (many) or alone (a few); a name that fails alone MODEL_SCAN_TRIES times is counted as
 * shadowed, since an inconclusive probe is never taken to mean free.
 *
 * @param {Rig} rig
 * @param {ProbeConfig} config
 * @param {string[]} names
 * @param {ReadonlySet<string>} [likely] the likely built-ins, probed alone first
 */
function modelScanAll(rig, config, names, likely) {
    return narrowFailures(
        names,
        MODEL_SCAN_BATCH,
        (batch) => customViaModelBatch(rig, config, batch, false),
        (sessions, left) =>
            rig.log(`  model-path scan: ${sessions} sessions, ${left} batches to go`),
        (name, why) => rig.log(`  ${name} (${config.label} ${config.model}): ${why}`),
        MODEL_SCAN_TRIES,
        (size, failed, why) => rig.log(`  a batch of ${size}: ${failed} did not run (${why}, ...)`),
        likely
    );
}

/**
 * The names among `names` whose custom handler (no flag) does not run in `config`.
 *
 * @param {Rig} rig
 * @param {OfferedSets} sets
 * @param {ProbeConfig} config
 * @param {string[]} names
 * @param {ReadonlySet<string>} [likely] the likely built-ins, probed alone first on the model path
 * @returns {Promise<Set<string>>}
 */
async function executeAll(rig, sets, config, names, likely) {
    if (!sets.canExecute) return modelScanAll(rig, config, names, likely);
    /** @type {Set<string>} */
    const ran = new Set();
    /** @type {Set<string>} */
    const notRun = new Set();
    await overChunks(rig, names, EXECUTE_BATCH, (batch, on) =>
        executeBatch(rig, config, batch, on, ran, notRun)
    );
    return notRun;
}

/**
 * The first configuration whose session offers `name`.
 *
 * @param {Rig} rig
 * @param {OfferedSets} sets
 * @param {string} name
 */
const configOffering = (rig, sets, name) =>
    rig.configs.find((c) => offeredIn(sets, c).includes(name));

/**
 * Phase 4: the names that do not conflict, yet executing them runs a built-in (or, on runtimes
 * without `tools.execute`, calling them through the model does not run the custom handler).
 *
 * @param {Rig} rig
 * @param {{ candidateList: string[], sets: OfferedSets, conflicting: Map<string, string[]>, full: boolean, only?: string[], measuredElsewhere?: string[] }} found
 *   `only`: the names --only restricts the run to (the offered names too);
 *   `measuredElsewhere`: built-ins of other runtimes, probed alone first on the model path
 * @returns {Promise<Map<string, string[]>>} name -> the models it is shadowed on
 */
export async function scanShadowed(
    rig,
    { candidateList, sets, conflicting, full, only, measuredElsewhere = [] }
) {
    // The likely built-ins: offered, listed, or measured on another runtime.
    const likely = new Set([
        ...[...sets.offered.values()].flat(),
        ...sets.listed,
        ...measuredElsewhere,
    ]);
    /** @type {Map<string, string[]>} */
    const shadowed = new Map();
    for (const config of rig.configs.filter((c) => c.label === "default")) {
        const tag = `default|${config.model}`;
        const free = candidateList.filter(
            (n) => !rig.forbidden.has(n) && !(conflicting.get(n) ?? []).includes(tag)
        );
        // the full scan runs on the first model; the other re-checks the built-ins found so far
        const names =
            config.model === MODELS.openai
                ? free.filter((n) => full || !/[0-9]/.test(n))
                : free.filter(
                      (n) => conflicting.has(n) || shadowed.has(n) || sets.listed.includes(n)
                  );
        for (const name of await executeAll(rig, sets, config, names, likely)) {
            shadowed.set(name, [...(shadowed.get(name) ?? []), config.model]);
        }
    }
    if (!sets.canExecute) {
        // Without tools.execute, nothing conflicts either (those runtimes do not report a custom
        // tool that takes a built-in's name): a built-in offered only under a condition, or only
        // to another model, is found by calling it as a custom tool in a session that offers it.
        for (const config of rig.configs) {
            const names = offeredIn(sets, config).filter(
                (n) =>
                    !shadowed.has(n) &&
                    !rig.forbidden.has(n) &&
                    (only === undefined || only.includes(n))
            );
            for (const name of await modelScanAll(rig, config, names, likely)) {
                shadowed.set(name, [...(shadowed.get(name) ?? []), config.model]);
            }
        }
    }
    // names the execute path cannot reach: check through the model, in a config offering them
    // (a name the model path cannot prove free either counts as a built-in: never free)
    for (const name of sorted(rig.inconclusive)) {
        const config =
            configOffering(rig, sets, name) ?? /** @type {ProbeConfig} */ (rig.configs[0]);
        const { ran, why } = await customViaModel(rig, config, name, false);
        rig.log(`  execute path cannot reach ${name}; model path (${config.label}): ${why}`);
        if (!ran) shadowed.set(name, [...(shadowed.get(name) ?? []), config.model]);
    }
    return shadowed;
}

// ---------------------------------------------------------------- phase 5: overrides

/**
 * Phase 5: whether each built-in's override is honoured. A plain session, and one that offers
 * the built-in (when another does), must both run the custom handler; failing that, a session
 * where tool search defers tools may. Anything short of a proven custom run is unsupported.
 *
 * @param {Rig} rig
 * @param {{ builtIns: string[], sets: OfferedSets, shadowed: Map<string, string[]> }} found
 * @returns {Promise<{ unsupported: Set<string>, keptOnlyWithToolSearch: Set<string> }>}
 */
export async function probeOverrides(rig, { builtIns, sets, shadowed }) {
    const { configs, forbidden } = rig;
    const unsupported = new Set(forbidden);
    /** @type {Set<string>} */
    const keptOnlyWithToolSearch = new Set();
    const deferring = /** @type {ProbeConfig} */ (
        configs.find((c) => c.label === "toolSearch (deferral active)")
    );
    // The names are probed in batches, one session per config (parallel tool calls).
    /** @type {Map<ProbeConfig, string[]>} */
    const probes = new Map();
    /** @type {Map<string, ProbeConfig[]>} */
    const configsOf = new Map();
    for (const name of builtIns.filter((n) => !forbidden.has(n))) {
        // (a name found only in another model's session is probed in the first plain one)
        const plain =
            configs.find(
                (c) =>
                    c.label === "default" && c.model === (shadowed.get(name) ?? [MODELS.openai])[0]
            ) ?? /** @type {ProbeConfig} */ (configs[0]);
        const probed = [...new Set([plain, configOffering(rig, sets, name) ?? plain])];
        configsOf.set(name, probed);
        for (const config of probed.filter((c) => c !== deferring)) {
            probes.set(config, [...(probes.get(config) ?? []), name]);
        }
    }
    /** @type {Map<string, string[]>} */
    const failures = new Map();
    for (const [config, names] of probes) {
        const results = await customViaModelMany(rig, sets, config, names, true);
        for (const [name, { ran, why }] of results) {
            if (!ran) {
                const why2 = `${config.label} ${config.model}: ${why}`;
                failures.set(name, [...(failures.get(name) ?? []), why2]);
            }
        }
    }
    const toDefer = [...configsOf]
        .filter(([name, probed]) => failures.has(name) || probed.includes(deferring))
        .map(([name]) => name);
    const deferred = await customViaModelMany(rig, sets, deferring, toDefer, true);
    for (const [name, probed] of configsOf) {
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
        const tried = probed.map((c) => `${c.label} ${c.model}`).join(", ");
        rig.log(`  override ${name} [${tried}]: ${outcome}`);
    }
    return { unsupported, keptOnlyWithToolSearch };
}

/**
 * Phase 5b: a runtime can reserve a tool-search name while tool search is on without offering a
 * tool of that name or answering it anywhere else, so phases 2 to 4 never see it: runtimes
 * 1.0.69-0 and 1.0.69 drop a custom `tool_search_tool` with the flag from a session with tool
 * search. Each such name measured on another runtime ({@link toolSearchNamesElsewhere}) and not
 * found here is probed with the flag where tool search defers tools; one whose custom handler
 * does not run there is a built-in whose override is unsupported.
 *
 * @param {Rig} rig
 * @param {{ names: string[], builtIns: string[], sets: OfferedSets }} found
 * @returns {Promise<string[]>} the names reserved while tool search is on
 */
export async function probeToolSearchReserved(rig, { names, builtIns, sets }) {
    const deferring = /** @type {ProbeConfig} */ (
        rig.configs.find((c) => c.label === "toolSearch (deferral active)")
    );
    const unknown = names.filter((n) => !builtIns.includes(n) && !rig.forbidden.has(n));
    if (unknown.length === 0) return [];
    const results = await customViaModelMany(rig, sets, deferring, unknown, true);
    const reserved = [];
    for (const name of unknown) {
        const result = /** @type {{ ran: boolean, why: string }} */ (results.get(name));
        if (!result.ran) reserved.push(name);
        rig.log(
            `  tool search ${name} [${deferring.label} ${deferring.model}]: ` +
                (result.ran ? "custom ran" : `reserved, unsupported (${result.why})`)
        );
    }
    return reserved;
}

/**
 * The session step sends the flag for every custom tool, so a free name must take it too.
 *
 * @param {Rig} rig
 */
export async function checkFreeNameOverride(rig) {
    const sanity = await customViaModel(
        rig,
        /** @type {ProbeConfig} */ (rig.configs[0]),
        "zz_probe_not_a_built_in",
        true
    );
    rig.log(`a non-built-in name with overridesBuiltInTool: true: ${sanity.why}`);
    if (!sanity.ran) {
        throw new Error(
            "A custom tool with overridesBuiltInTool: true on a free name did not run."
        );
    }
}

// ---------------------------------------------------------------- phase 6: filter aliases

/**
 * Phase 6: which offered built-ins the runtime removes when another name is in excludedTools,
 * or allows when another name is in availableTools.
 *
 * @param {Rig} rig
 * @param {Record<string, string[]>} modelSees
 * @returns {Promise<{ excludedWith: Record<string, string[]>, includedWith: Record<string, string[]> }>}
 */
export async function measureFilterAliases(rig, modelSees) {
    /** @type {Record<string, string[]>} */
    const excludedWith = {};
    /** @type {Record<string, string[]>} */
    const includedWith = {};
    const modelFacing = sorted(Object.values(modelSees).flat());
    for (const model of [MODELS.openai, MODELS.other]) {
        const defaults = modelSees[model] ?? [];
        for (const name of modelFacing) {
            for (const [option, into] of /** @type {const} */ ([
                ["excludedTools", excludedWith],
                ["availableTools", includedWith],
            ])) {
                const session = await rig.open({
                    label: "alias",
                    model,
                    opts: { [option]: [name] },
                });
                const before = rig.mock.requests.length;
                try {
                    await session.sendAndWait({ prompt: "hello" }, 30_000);
                } finally {
                    await close(session);
                }
                const seen = (rig.mock.requests[before]?.tools ?? []).map(toolNameOf);
                const affected =
                    option === "excludedTools"
                        ? defaults.filter((b) => b !== name && !seen.includes(b))
                        : seen.filter((b) => b !== name);
                for (const builtIn of affected)
                    into[builtIn] = sorted([...(into[builtIn] ?? []), name]);
            }
        }
    }
    return { excludedWith, includedWith };
}

// ---------------------------------------------------------------- the measurement

/**
 * The built-ins each condition adds to its model's plain session.
 *
 * @param {ProbeConfig[]} configs
 * @param {Map<string, string[]>} offered "label|model" -> the names offered
 * @returns {Record<string, string[]>}
 */
export function offeredByCondition(configs, offered) {
    /** @type {Record<string, string[]>} */
    const byCondition = {};
    for (const config of configs) {
        const condition = CONDITIONS.get(config.label);
        if (condition === undefined) continue;
        const base = offered.get(`default|${config.model}`) ?? [];
        byCondition[condition] = (offered.get(keyOf(config)) ?? []).filter(
            (n) => !base.includes(n)
        );
    }
    return byCondition;
}

/**
 * The measurement as the data file holds it: every list sorted, every map by key.
 *
 * @param {{ runtimeVersion: string, sdkVersion: string, delivery: "bundled" | "cli", builtIns: string[], unsupported: Iterable<string>, keptOnlyWithToolSearch: Iterable<string>, modelSees: Record<string, string[]>, byCondition: Record<string, string[]>, excludedWith: Record<string, string[]>, includedWith: Record<string, string[]> }} found
 */
export function measurementOf(found) {
    return {
        runtimeVersion: found.runtimeVersion,
        sdkVersion: found.sdkVersion,
        delivery: found.delivery,
        builtIns: found.builtIns,
        unsupportedOverrides: sorted(found.unsupported),
        keptOnlyWithToolSearch: sorted(found.keptOnlyWithToolSearch),
        offeredByModel: sortKeys(found.modelSees),
        offeredByCondition: sortKeys(found.byCondition),
        filterAliases: {
            excludedWith: sortKeys(found.excludedWith),
            includedWith: sortKeys(found.includedWith),
        },
    };
}

/**
 * Writes the measurement: printed only with --only (a partial result), to `outFile` when given,
 * else into the data directory (`<sdk version>.json`, or `runtime-<version>.json` for an
 * external runtime) with the generated module regenerated.
 *
 * @param {ReturnType<typeof measurementOf>} measured
 * @param {{ only: string[] | undefined, outFile: string | undefined, dataDir: string, external: boolean, elapsed: string, log: Rig["log"] }} where
 */
export async function writeMeasurement(
    measured,
    { only, outFile, dataDir, external, elapsed, log }
) {
    if (only !== undefined) {
        console.log(JSON.stringify(measured, null, 4));
        log(`--only: partial result printed, nothing written, ${elapsed}`);
    } else if (outFile !== undefined) {
        mkdirSync(dirname(resolve(outFile)), { recursive: true });
        writeFileSync(outFile, measurementFileText(measured));
        log(`wrote ${outFile} in ${elapsed}`);
    } else {
        mkdirSync(dataDir, { recursive: true });
        const dataFile = join(
            dataDir,
            external ? `runtime-${measured.runtimeVersion}.json` : `${measured.sdkVersion}.json`
        );
        writeFileSync(dataFile, measurementFileText(measured));
        log(`wrote ${dataFile} and ${await writeMeasuredModule()} in ${elapsed}`);
    }
}
