// The reproductions behind the bug reports in patches/upstream/issues/, one per report. Each
// case runs the same scenario on one SDK (see reproRig.mjs) and says whether that SDK shows the
// reported defect. scripts/repro/repro.mjs runs a case on the unpatched SDK and, for contrast, on the
// patched one.

import { Socket } from "node:net";
import { startMockModel, userPrompt } from "../../../build/esm/mockModel/mockChatModel.js";
import { CLAUDE, GPT, shortError, taggedTool } from "./reproRig.mjs";

const CONFLICT = /conflicts with a built-in tool/;

/**
 * What happened to one call of a custom tool `tool` in a turn: the handler ran, the runtime's
 * built-in answered in its place, the send failed, or the model never saw the tool.
 *
 * @param {import("./reproRig.mjs").TurnOutcome} turn
 * @param {ReturnType<typeof taggedTool>} tool
 */
function callOutcome(turn, tool) {
    if (!turn.reachedModel) {
        return turn.error === undefined
            ? "send resolved with no reply; the model was never asked"
            : `send failed: ${shortError(turn.error)}`;
    }
    if (tool.calls > 0) return "custom handler ran";
    const offered = turn.definitionsOf(tool.name).some((t) => t.description === tool.description);
    if (!offered) return "the model was never offered the custom tool";
    const answer = turn.results.find((result) => !result.startsWith("custom handler"));
    return `built-in answered: '${shortError(answer ?? "(no result)")}'`;
}

/**
 * `createSession` with one custom tool, then a turn in which the model calls it.
 *
 * @param {import("./reproRig.mjs").ReproRig} rig
 * @param {string} modelId
 * @param {ReturnType<typeof taggedTool>} tool
 */
async function callOnce(rig, modelId, tool) {
    const { session, error } = await rig.createSession(modelId, { tools: [tool] });
    if (error) return `createSession rejected it: ${error.code ?? ""} ${shortError(error)}`.trim();
    return callOutcome(await rig.turn(session, [tool.name]), tool);
}

/**
 * @typedef {object} ReproOutcome
 * @property {string[]} steps - what the scenario saw, one line each
 * @property {boolean} defect - whether this SDK shows the reported defect
 * @property {string} actual - one line: what happened
 */

/**
 * @typedef {object} ReproCase
 * @property {string} name - `npm run repro -- <name>`
 * @property {string} title - the report's title
 * @property {string} report - the report file under patches/upstream/issues/
 * @property {string} repository - where it is filed
 * @property {string} expected - what should happen
 * @property {(rig: import("./reproRig.mjs").ReproRig) => Promise<ReproOutcome>} run - the
 *   scenario on one SDK
 */

/** @type {readonly ReproCase[]} */
export const REPRO_CASES = [
    {
        name: "builtin-name-collision",
        title: "A custom tool named like a built-in passes createSession, then every send fails",
        report: "01-builtin-name-collision.md",
        repository: "github/copilot-sdk",
        expected:
            "createSession rejects the tool `view` (the README says the SDK throws), or the custom handler answers",
        async run(rig) {
            const tool = taggedTool("view", "view");
            // The series makes the early check opt-in; the unpatched SDK ignores the option.
            const { session, error } = await rig.createSession(CLAUDE, {
                tools: [tool],
                validateTools: true,
            });
            if (error) {
                const left = rig.sessionsOnDisk();
                return {
                    steps: [
                        `createSession rejected it: ${error.code ?? ""} ${shortError(error)}`,
                        `sessions the runtime keeps on disk: ${left}`,
                    ],
                    defect: left > 0,
                    actual:
                        left > 0
                            ? `refused at createSession, but ${left} session(s) left behind`
                            : "refused at createSession, nothing left behind",
                };
            }
            const steps = ["createSession resolved"];
            const turns = [];
            for (const attempt of [1, 2, 3]) {
                const turn = await rig.turn(session, ["view"]);
                turns.push(turn);
                steps.push(`send ${attempt}: ${callOutcome(turn, tool)}`);
            }
            const defect =
                turns.every((turn) => !turn.reachedModel) &&
                turns.some((turn) => CONFLICT.test(turn.error?.message ?? ""));
            return {
                steps,
                defect,
                actual: defect
                    ? "createSession accepted the tool; no send reached the model (the runtime's conflict error)"
                    : `the tool works: ${steps.at(-1)}`,
            };
        },
    },
    {
        name: "builtin-name-collision-after-set-model",
        title: "A custom tool that clashes only with the other model family's built-in passes createSession; after setModel every send fails",
        report: "01-builtin-name-collision.md",
        repository: "github/copilot-sdk",
        expected:
            "a custom `apply_patch` created on a Claude model is refused up front, or keeps working after setModel to a GPT model",
        async run(rig) {
            // apply_patch is a built-in on GPT models only (Claude models edit with edit/create).
            const tool = taggedTool("apply_patch", "apply_patch");
            const { session, error } = await rig.createSession(CLAUDE, { tools: [tool] });
            if (error) {
                return {
                    steps: [`createSession rejected it: ${error.code ?? ""} ${shortError(error)}`],
                    defect: false,
                    actual: "refused at createSession",
                };
            }
            const before = await rig.turn(session, ["apply_patch"]);
            const steps = [
                "createSession resolved",
                `send on ${CLAUDE}: ${callOutcome(before, tool)}`,
            ];
            await session.setModel(GPT);
            steps.push(`setModel('${GPT}') resolved`);
            const after = await rig.turn(session, ["apply_patch"]);
            steps.push(`send on ${GPT}: ${callOutcome(after, tool)}`);
            const defect =
                before.reachedModel &&
                !after.reachedModel &&
                CONFLICT.test(after.error?.message ?? "");
            return {
                steps,
                defect,
                actual: defect
                    ? `accepted, and sends reach the model on ${CLAUDE} (${callOutcome(before, tool)}); after setModel('${GPT}') every send fails with the conflict error`
                    : `after setModel: ${callOutcome(after, tool)}`,
            };
        },
    },
    {
        name: "stale-session-idle",
        title: "sendAndWait resolves on the session.idle left over from the previous failed turn",
        report: "05-send-and-wait-stale-idle.md",
        repository: "github/copilot-sdk",
        expected:
            "each sendAndWait after a failed turn waits for its own turn: it rejects or resolves with that turn's reply",
        async run(rig) {
            // Any turn that fails before the model is asked will do: a custom `view` without
            // overridesBuiltInTool fails at the first send with the runtime's conflict error.
            const tool = taggedTool("view", "view");
            const { session, error } = await rig.createSession(CLAUDE, { tools: [tool] });
            if (error) {
                return {
                    steps: [`createSession rejected it: ${shortError(error)}`],
                    defect: false,
                    actual: "could not set up a failing turn: createSession refused the tool",
                };
            }
            /** @type {string[]} */
            const events = [];
            session.on((/** @type {{ type: string }} */ event) => {
                if (/^session\.(idle|error)$|^user\.message$/.test(event.type)) {
                    events.push(event.type);
                }
            });
            const steps = [];
            let defect = false;
            // Back to back, as an app retrying a failed message would: the next send starts as
            // soon as the previous sendAndWait settled.
            for (let attempt = 1; attempt <= 10; attempt++) {
                const mark = events.length;
                const started = performance.now();
                const turn = await rig.turn(session, ["view"]);
                const ms = Math.round(performance.now() - started);
                const outcome =
                    turn.error === undefined
                        ? `resolved in ${ms} ms`
                        : `rejected in ${ms} ms: ${shortError(turn.error).slice(0, 90)}...`;
                steps.push(
                    `sendAndWait ${attempt}: ${outcome}; model asked: ${turn.reachedModel ? "yes" : "no"}; events while it waited: ${events.slice(mark).join(", ") || "none"}`
                );
                if (turn.error === undefined && !turn.reachedModel) defect = true;
            }
            // The last message's own outcome: with one stale idle consumed above, it arrives
            // after the last call settled, when no call waits for it.
            const settled = events.length;
            await new Promise((resolve) => setTimeout(resolve, 1000));
            steps.push(
                `after the last sendAndWait settled: ${events.slice(settled).join(", ") || "none"}`
            );
            steps.push(`all events, in order: ${events.join(", ")}`);
            return {
                steps,
                defect,
                actual: defect
                    ? "after a failed turn, the next sendAndWait resolved without its turn having run (no reply, model never asked)"
                    : "every sendAndWait waited for its own turn",
            };
        },
    },
    {
        name: "duplicate-tool-names",
        title: "Two custom tools with the same name are accepted; the model sees one, the other's handler runs",
        report: "02-duplicate-tool-names.md",
        repository: "github/copilot-sdk",
        expected: "createSession rejects two custom tools named `lint`",
        async run(rig) {
            const first = taggedTool("lint", "lint #1");
            const second = taggedTool("lint", "lint #2");
            const { session, error } = await rig.createSession(CLAUDE, { tools: [first, second] });
            if (error) {
                return {
                    steps: [
                        `createSession rejected them: ${error.code ?? ""} ${shortError(error)}`,
                    ],
                    defect: false,
                    actual: "refused at createSession",
                };
            }
            const turn = await rig.turn(session, ["lint"]);
            const tagOf = (/** @type {string | undefined} */ description) =>
                description === first.description ? "#1" : "#2";
            const seen = turn.definitionsOf("lint").map((t) => tagOf(t.description));
            const ranTags = [first, second]
                .filter((t) => t.calls > 0)
                .map((t) => tagOf(t.description));
            return {
                steps: [
                    "createSession resolved, no error and no warning",
                    `the model was offered ${seen.length} definition(s) of lint: ${seen.join(", ") || "none"}`,
                    `the model called lint once; handler(s) that ran: ${ranTags.join(", ") || "none"}`,
                ],
                defect: true,
                actual: `both accepted silently; the model saw ${seen.join(", ") || "no definition"}, handler ${ranTags.join(", ") || "none"} ran`,
            };
        },
    },
    {
        name: "hidden-built-in-answers",
        title: "A custom tool named like a hidden built-in (read_file, update_todo) is answered by the built-in",
        report: "runtime-hidden-built-ins.md",
        repository: "github/copilot-sdk",
        expected:
            "the custom handler answers (or createSession rejects the tool, as for `view`), with or without overridesBuiltInTool",
        async run(rig) {
            const steps = [];
            let defect = false;
            for (const name of ["read_file", "update_todo"]) {
                for (const flag of [false, true]) {
                    const extra = flag ? { overridesBuiltInTool: true } : {};
                    const tool = taggedTool(name, `${name}${flag ? " (flag)" : ""}`, extra);
                    const outcome = await callOnce(rig, CLAUDE, tool);
                    if (!flag && outcome.startsWith("built-in answered")) defect = true;
                    const label = flag ? "overridesBuiltInTool: true" : "no flag";
                    steps.push(`${name}, ${label}: ${outcome}`);
                }
            }
            return {
                steps,
                defect,
                actual: defect
                    ? "without the flag the built-in silently answers; nothing failed or warned"
                    : "the custom handler answers",
            };
        },
    },
    {
        name: "available-tools-custom",
        title: "availableTools does not restrict custom tools",
        report: "SECURITY-PRIVATE-not-for-a-public-issue.md",
        repository: "opensource-security@github.com, privately (SECURITY.md)",
        expected:
            "with availableTools ['custom:lint'], the model is offered `lint` and nothing else; `other` cannot run",
        async run(rig) {
            const lint = taggedTool("lint", "lint");
            const other = taggedTool("other", "other");
            const { session, error } = await rig.createSession(CLAUDE, {
                tools: [lint, other],
                availableTools: ["custom:lint"],
            });
            if (error) {
                return {
                    steps: [`createSession rejected it: ${error.code ?? ""} ${shortError(error)}`],
                    defect: false,
                    actual: "refused at createSession",
                };
            }
            const turn = await rig.turn(session, ["lint", "other"]);
            const offered = turn.offered.map((t) => t.name).sort();
            const defect = offered.includes("other") || other.calls > 0;
            return {
                steps: [
                    `the model was offered: ${offered.join(", ") || "(none)"}`,
                    `lint: ${callOutcome(turn, lint)}`,
                    `other: ${other.calls > 0 ? "custom handler ran" : "did not run"}`,
                ],
                defect,
                actual: defect
                    ? "`other` is not in availableTools, yet it is offered and its handler runs"
                    : "only `lint` is offered; `lint` stays (the filter does not drop listed custom tools)",
            };
        },
    },
    {
        name: "override-ignored",
        title: "[runtime] overridesBuiltInTool: true is ignored for some built-ins (store_memory, powershell)",
        report: "SECURITY-PRIVATE-not-for-a-public-issue.md",
        repository: "opensource-security@github.com, privately (SECURITY.md)",
        expected:
            "a custom tool with overridesBuiltInTool: true replaces the built-in: its handler answers",
        async run(rig) {
            const steps = [];
            let defect = false;
            for (const name of ["store_memory", "powershell"]) {
                const tool = taggedTool(name, name, { overridesBuiltInTool: true });
                const outcome = await callOnce(rig, CLAUDE, tool);
                if (outcome.startsWith("built-in answered")) defect = true;
                steps.push(`${name}, overridesBuiltInTool: true: ${outcome}`);
            }
            return {
                steps,
                defect,
                actual: defect
                    ? "the model sees the custom definition, the runtime's built-in answers"
                    : "no built-in answered a flagged custom tool",
            };
        },
    },
    {
        name: "security-poc",
        title: "The private report's calls, with verdicts: custom tools answered by a built-in (findings 1, 2), and a custom tool outside availableTools (defence in depth)",
        report: "SECURITY-PRIVATE-not-for-a-public-issue.md",
        repository: "opensource-security@github.com, privately (SECURITY.md)",
        expected:
            "every call reaches the app's handler, or the tool is refused before the session starts; `refundOrder`, outside availableTools, never runs",
        async run(rig) {
            // The calls of findings 1 and 2 and of the defence-in-depth case of the stand-alone PoC
            // (patches/upstream/issues/SECURITY-PRIVATE-poc.mjs; not its bound and write-path
            // trials), here with approveAll, on the unpatched and the patched SDK, and a verdict
            // per call.
            /** @type {string[]} */
            const steps = [];
            let hijacked = 0;
            let calls = 0;
            // Finding 1: an unlisted built-in answers a custom tool of its name (no flag).
            // Finding 2: the flag is ignored; the runtime's own tool answers.
            /** @type {[string, object][]} */
            const tools = [
                ["read_file", {}],
                ["store_memory", { overridesBuiltInTool: true }],
                ["powershell", { overridesBuiltInTool: true }],
                ["local_shell", { overridesBuiltInTool: true }],
            ];
            for (const [name, extra] of tools) {
                const outcome = await callOnce(rig, CLAUDE, taggedTool(name, name, extra));
                const answeredByBuiltIn = outcome.startsWith("built-in");
                calls += 1;
                if (answeredByBuiltIn) hijacked += 1;
                const finding = "overridesBuiltInTool" in extra ? 2 : 1;
                const flag = finding === 2 ? ", overridesBuiltInTool: true" : "";
                steps.push(
                    `${answeredByBuiltIn ? "HIJACKED" : "not hijacked"}: ${finding} custom ${name}${flag}: ${outcome}`
                );
            }
            // Defence in depth: a custom tool the app registered, left out of availableTools.
            const lookup = taggedTool("lookupOrder", "lookupOrder");
            const refund = taggedTool("refundOrder", "refundOrder");
            const { session, error } = await rig.createSession(CLAUDE, {
                tools: [lookup, refund],
                availableTools: ["custom:lookupOrder"],
            });
            if (error) {
                steps.push(`defence in depth: createSession rejected it: ${shortError(error)}`);
            } else {
                await rig.turn(session, ["refundOrder"]);
                steps.push(
                    `defence in depth: refundOrder, not in availableTools: ${refund.calls > 0 ? "the app's handler ran" : "did not run"}`
                );
            }
            const refundRan = refund.calls > 0;
            return {
                steps,
                defect: hijacked > 0 || refundRan,
                actual:
                    `${hijacked} of ${calls} calls of custom tools answered by a built-in; ` +
                    `refundOrder, outside availableTools, ${refundRan ? "ran" : "did not run"}`,
            };
        },
    },
    {
        name: "tcp-nagle",
        title: "Over TCP, every JSON-RPC request waits about 40 ms (Node, Python and Java set no TCP_NODELAY)",
        report: "06-tcp-nagle-delay.md",
        repository: "github/copilot-sdk",
        expected:
            "the client's TCP socket to the runtime has Nagle's algorithm disabled (setNoDelay(true))",
        async run(rig) {
            // The verdict is whether the SDK's TCP socket got setNoDelay(true), not a timing; the
            // medians are printed for the report.
            const setNoDelay = Socket.prototype.setNoDelay;
            /** @type {{ socket: unknown, enable: unknown }[]} */
            const calls = [];
            Socket.prototype.setNoDelay = function (/** @type {boolean | undefined} */ enable) {
                calls.push({ socket: this, enable });
                return setNoDelay.call(this, enable);
            };
            /** @param {any} client */
            const medianPing = async (client) => {
                /** @type {number[]} */
                const times = [];
                for (let i = 0; i < 20; i++) {
                    const started = performance.now();
                    await client.ping("repro");
                    times.push(performance.now() - started);
                }
                return times.sort((a, b) => a - b)[10] ?? NaN;
            };
            const tcp = new rig.sdk.CopilotClient({
                connection: rig.sdk.RuntimeConnection.forTcp(),
            });
            try {
                await tcp.start();
                const stdioMedian = await medianPing(rig.client);
                const tcpMedian = await medianPing(tcp);
                const socket = tcp.socket;
                const noDelay = calls.some((c) => c.socket === socket && c.enable !== false);
                return {
                    steps: [
                        `median ping over stdio ${stdioMedian.toFixed(2)} ms, over TCP ${tcpMedian.toFixed(2)} ms (20 each)`,
                        `the client's TCP socket: setNoDelay(true) ${noDelay ? "called" : "never called"}`,
                    ],
                    defect: !noDelay,
                    actual: noDelay
                        ? "the TCP socket has Nagle's algorithm disabled"
                        : "the TCP socket keeps Nagle's algorithm on",
                };
            } finally {
                Socket.prototype.setNoDelay = setNoDelay;
                await tcp.stop().catch(() => {});
            }
        },
    },
    {
        name: "hook-points",
        title: "[runtime] A session that registers one SDK hook is asked at every hook point",
        report: "08-hook-points.md",
        repository: "github/copilot-sdk, label runtime triage",
        expected:
            "a session whose only hook is onPreToolUse gets no hooks.invoke request on a turn without tool calls",
        async run(rig) {
            // Counted where the SDK's client answers the runtime's hooks.invoke requests.
            const client = /** @type {any} */ (rig.client);
            const answer = client.handleHooksInvoke;
            /** @type {string[]} */
            let asked = [];
            client.handleHooksInvoke = function (/** @type {{ hookType: string }} */ params) {
                asked.push(params?.hookType);
                return answer.call(this, params);
            };
            /** @param {object} config */
            const firstSend = async (config) => {
                const { session, error } = await rig.createSession(CLAUDE, config);
                if (error) throw error;
                asked = [];
                const started = performance.now();
                await rig.turn(session);
                const elapsed = performance.now() - started;
                const inTurn = asked;
                asked = [];
                await session.disconnect();
                return { asked: inTurn, onDisconnect: asked, elapsed };
            };
            try {
                const hooks = { onPreToolUse: async () => undefined };
                /** @type {number[]} */
                const withHook = [];
                /** @type {number[]} */
                const without = [];
                let seen = /** @type {string[]} */ ([]);
                let onDisconnect = /** @type {string[]} */ ([]);
                for (let round = 0; round < 5; round++) {
                    const hooked = await firstSend({ hooks });
                    seen = hooked.asked;
                    onDisconnect = hooked.onDisconnect;
                    withHook.push(hooked.elapsed);
                    without.push((await firstSend({})).elapsed);
                }
                const median = (/** @type {number[]} */ values) =>
                    (values.sort((a, b) => a - b)[2] ?? NaN).toFixed(1);
                const unasked = [...seen, ...onDisconnect].filter(
                    (hookType) => hookType !== "preToolUse"
                );
                return {
                    steps: [
                        `hooks.invoke on a first send without tool calls, onPreToolUse alone registered: ${seen.length} (${seen.join(", ") || "none"}); on the disconnect: ${onDisconnect.length} (${onDisconnect.join(", ") || "none"})`,
                        `median first send over stdio (5 each): ${median(without)} ms without the hook, ${median(withHook)} ms with it`,
                    ],
                    defect: unasked.length > 0,
                    actual:
                        unasked.length > 0
                            ? `asked at ${unasked.length} hook points the session registered no hook for`
                            : "asked only at the hook points the session registered",
                };
            } finally {
                client.handleHooksInvoke = answer;
            }
        },
    },
    {
        name: "hidden-built-in-clash",
        title: "[runtime] Hidden built-ins escape clash detection and answer calls meant for a custom tool",
        report: "runtime-hidden-built-ins.md",
        repository: "github/copilot-sdk, label runtime triage",
        expected:
            "`read_file` is either a built-in (listed by tools.list, a custom `read_file` without the flag gets the conflict error, as `view` does) or free for the custom tool",
        async run(rig) {
            const listed = (await rig.client.rpc.tools.list({})).tools.map(
                (/** @type {{ name: string }} */ t) => t.name
            );
            const steps = [
                `tools.list: view ${listed.includes("view") ? "listed" : "not listed"}, read_file ${listed.includes("read_file") ? "listed" : "not listed"}`,
            ];
            const bare = await rig.createSession(CLAUDE, {});
            const bareTurn = await rig.turn(bare.session, ["read_file"]);
            steps.push(
                `no custom tool, the model calls read_file: '${shortError(bareTurn.results[0] ?? "(no result)")}'`
            );
            const view = await callOnce(rig, CLAUDE, taggedTool("view", "view"));
            steps.push(`custom view, no flag: ${view}`);
            const readFile = await callOnce(rig, CLAUDE, taggedTool("read_file", "read_file"));
            steps.push(`custom read_file, no flag: ${readFile}`);
            const defect =
                !listed.includes("read_file") && readFile.startsWith("built-in answered");
            return {
                steps,
                defect,
                actual: defect
                    ? "read_file is not listed and not callable on its own, yet it answers a custom read_file, with no conflict error"
                    : `custom read_file: ${readFile}`,
            };
        },
    },
    {
        name: "grep-rg-alias",
        title: "[runtime] The tool filter treats grep and rg as one name",
        report: "runtime-grep-rg-filter-alias.md",
        repository: "github/copilot-sdk, label runtime triage",
        expected:
            "excludedTools ['rg'] leaves `grep` alone on a Claude model, and availableTools ['rg'] offers no `grep`",
        async run(rig) {
            const steps = [];
            let defect = false;
            /** @type {[string, { excludedTools: string[] } | { availableTools: string[] }, string][]} */
            const scenarios = [
                [CLAUDE, { excludedTools: ["rg"] }, "grep"],
                [CLAUDE, { availableTools: ["rg"] }, "grep"],
                [GPT, { excludedTools: ["grep"] }, "rg"],
            ];
            for (const [modelId, filter, watched] of scenarios) {
                const { session } = await rig.createSession(modelId, filter);
                const turn = await rig.turn(session);
                const offered = turn.offered.some((t) => t.name === watched);
                const affected = "excludedTools" in filter ? !offered : offered;
                if (affected) defect = true;
                steps.push(
                    `${modelId}, ${JSON.stringify(filter)}: ${watched} ${offered ? "offered" : "not offered"}`
                );
            }
            return {
                steps,
                defect,
                actual: defect
                    ? "filtering rg filters grep and the other way round"
                    : "grep and rg are filtered by their own names",
            };
        },
    },
    {
        name: "subagent-duplicate-tool-request",
        title: "[runtime] Inside a sub-agent, each call of a custom tool is requested twice with one request id; the handler can run twice",
        report: "07-subagent-duplicate-tool-request.md",
        repository: "github/copilot-sdk, label runtime triage",
        expected:
            "one external_tool.requested per call inside a sub-agent, as for the main agent's calls, and the handler run once per call",
        async run(rig) {
            // Its own mock model: the task call needs arguments, which the scripts' model does not
            // send. `delegate` makes the model call task; the sub-agent, whose first message is the
            // task's prompt, calls `lint`; `direct` makes the main agent call `lint` itself.
            const model = await startMockModel({
                toolCall: (request) => {
                    const text = userPrompt(request);
                    if (text.includes("SUBTASK")) return { name: "lint" };
                    if (text.includes("direct")) return { name: "lint" };
                    if (!text.includes("delegate")) return undefined;
                    return {
                        name: "task",
                        arguments: {
                            agent_type: "general-purpose",
                            name: "sub",
                            description: "run lint",
                            prompt: "SUBTASK: run lint",
                            mode: "sync",
                        },
                    };
                },
                listModels: false,
            });
            try {
                const lint = taggedTool("lint", "lint");
                const { session, error } = await rig.createSession(CLAUDE, {
                    tools: [lint],
                    provider: { type: "openai", baseUrl: model.baseUrl, apiKey: "repro-41c7" },
                });
                if (error) {
                    return {
                        steps: [`createSession rejected it: ${shortError(error)}`],
                        defect: false,
                        actual: "could not set up the session",
                    };
                }
                /** @type {Map<string, number>} requests per request id */
                let requests = new Map();
                session.on((/** @type {{ type: string, data: any }} */ event) => {
                    if (event.type !== "external_tool.requested") return;
                    const id = event.data.requestId;
                    requests.set(id, (requests.get(id) ?? 0) + 1);
                });
                const steps = [];
                /** @param {string} prompt */
                const call = async (prompt) => {
                    requests = new Map();
                    const before = lint.calls;
                    await session.sendAndWait({ prompt }, 30_000);
                    return { counts: [...requests.values()], runs: lint.calls - before };
                };
                const direct = await call("direct");
                steps.push(
                    `main agent's call: external_tool.requested ${direct.counts.join(", ")} time(s); handler ran ${direct.runs} time(s)`
                );
                const ATTEMPTS = 10;
                let duplicated = 0;
                let ranTwice = 0;
                for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
                    const { counts, runs } = await call("delegate");
                    if (counts.some((count) => count > 1)) duplicated++;
                    if (runs > 1) ranTwice++;
                    steps.push(
                        `sub-agent's call ${attempt}: ${counts.length} request id(s), external_tool.requested ${counts.join(", ")} time(s); handler ran ${runs} time(s)`
                    );
                }
                const defect = duplicated > 0;
                return {
                    steps,
                    defect,
                    actual: defect
                        ? `${duplicated} of ${ATTEMPTS} sub-agent calls requested twice under one request id; the handler ran twice for ${ranTwice}`
                        : `each of ${ATTEMPTS} sub-agent calls was requested once; the handler ran twice for ${ranTwice}`,
                };
            } finally {
                await model.close();
            }
        },
    },
];
