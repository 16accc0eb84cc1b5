/**
 * Hostile shapes, built from composable generators, thrown at createSession, resumeSession and
 * session.setTools through the real patched client against a fake runtime. Whatever the shape and
 * wherever it sits (a top-level option, a field of a tool, a schema property, a filter entry, a
 * toolset name or member, an MCP server, the system message, a custom agent's field or tool
 * entry, `defaultAgent.excludedTools`, or a container wrapped in a Proxy whose traps throw), each
 * attempt:
 * - succeeds, or is refused with a SessionToolError (or one of the SDK's own documented errors)
 *   whose message is not empty, never a TypeError or other raw error;
 * - when refused, sent the runtime no session request (no session.create, session.resume or
 *   session.tools.set);
 * - settles within 2 s;
 * - leaves no unhandled rejection and no uncaught exception behind;
 * - when it succeeds, sent for each custom tool plain JSON equal to ONE read of the caller's
 *   value: a getter that answers differently on each read, or a toJSON / toJSONSchema that throws
 *   on its second call, is read once, and what was read first is what is sent.
 *
 * A failure prints its seed; rerun it with HOSTILE_SEED=<seed>.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
    CopilotClient,
    RuntimeConnection,
    SessionToolError,
    approveAll,
    type CopilotSession,
} from "@github/copilot-sdk";
import { startFakeRuntime, type FakeRuntime } from "../support/fakeRuntime.js";

/** HOSTILE_RUNS runs more, for a longer search. */
const RUNS = Number(process.env.HOSTILE_RUNS ?? 300);
const SETTLE_WITHIN_MS = 2_000;

/** Messages of the SDK's own checks, which run before the patch's and stay as they are. */
const SDK_ERRORS = [
    /^Invalid (availableTools|excludedTools) entry '\*': there is no bare wildcard/,
];

const handler = async (): Promise<string> => "ok";

/** The schema a toJSON / toJSONSchema of the shapes below answers on its first call. */
const ONCE_SCHEMA = { type: "object", properties: { path: { type: "string" } } };

class Widget {
    readonly size = 3;
}

function revoked(target: object): object {
    const { proxy, revoke } = Proxy.revocable(target, {});
    revoke();
    return proxy;
}

function schemaDeep(levels: number): Record<string, unknown> {
    let schema: Record<string, unknown> = { type: "string" };
    for (let level = 0; level < levels; level++) {
        schema = { type: "object", properties: { inner: schema } };
    }
    return schema;
}

function schemaWide(width: number): Record<string, unknown> {
    const properties: Record<string, unknown> = {};
    for (let index = 0; index < width; index++) properties[`p${index}`] = { type: "string" };
    return { type: "object", properties };
}

/**
 * Hostile values, each made fresh (a revoked Proxy or a toJSON that counts its calls cannot be
 * reused).
 */
const VALUES: Record<string, () => unknown> = {
    bigint: () => 10n,
    symbol: () => Symbol("hostile"),
    function: () => () => "a function",
    classInstance: () => new Widget(),
    date: () => new Date(0),
    map: () => new Map([["type", "object"]]),
    set: () => new Set(["lint"]),
    typedArray: () => new Uint8Array([1, 2, 3]),
    cycle: () => {
        const cyclic: Record<string, unknown> = { type: "object" };
        cyclic.self = cyclic;
        return cyclic;
    },
    revokedProxy: () => revoked({}),
    revokedArray: () => revoked([]),
    toJSONThrowsSecond: () => {
        let calls = 0;
        return {
            toJSON: () => {
                if (++calls > 1) throw new Error("toJSON called twice");
                return ONCE_SCHEMA;
            },
        };
    },
    toJSONSchemaThrowsSecond: () => {
        let calls = 0;
        return {
            toJSONSchema: () => {
                if (++calls > 1) throw new Error("toJSONSchema called twice");
                return ONCE_SCHEMA;
            },
        };
    },
    number: () => 42,
    nan: () => Number.NaN,
    null: () => null,
    emptyString: () => "",
    hugeString: () => "x".repeat(100 * 1024),
    controlString: () => "li\u0000nt\n\u001b[2J",
    protoString: () => "__proto__",
    constructorString: () => "constructor",
    toStringThrows: () => ({
        toString() {
            throw new Error("toString says no");
        },
    }),
    holes: () => {
        // A hole at index 1: assigned past the end, never written.
        const list: unknown[] = ["view"];
        list[2] = "grep";
        return list;
    },
    hugeLength: () => {
        const list: unknown[] = [];
        list.length = 4_294_967_295;
        return list;
    },
    lyingSpecies: () => {
        const list: unknown[] = ["view", "grep"];
        Object.defineProperty(list, "constructor", {
            value: { [Symbol.species]: () => Object.freeze([]) },
        });
        return list;
    },
    frozenArray: () => Object.freeze(["view", "grep"]),
    sealedArray: () => Object.seal(["view", "grep"]),
    deepSchema: () => schemaDeep(200),
    wideSchema: () => schemaWide(20_000),
};
const VALUE_KINDS = Object.keys(VALUES);

/**
 * A valid value of each tool field, for the `index`th tool; `changed` gives another valid one,
 * which a getter answers on its later reads.
 */
function validField(field: ToolField, index: number, changed = false): unknown {
    const variant = changed ? "changed" : "first";
    switch (field) {
        case "name":
            return changed ? `lint_${index}_changed` : `lint_${index}`;
        case "description":
            return `Lints, number ${index} (${variant})`;
        case "parameters":
            return {
                type: "object",
                properties: { path: { type: "string", description: `${variant} ${index}` } },
            };
        case "handler":
            return changed ? async () => "changed" : handler;
        case "overridesBuiltInTool":
            return false;
        case "skipPermission":
            return !changed;
        case "metadata":
            return { owner: "qa", index, variant };
        case "defer":
            return changed ? "auto" : "never";
        case "isTerminal":
            return changed;
    }
}

const TOOL_FIELDS = [
    "name",
    "description",
    "parameters",
    "handler",
    "overridesBuiltInTool",
    "skipPermission",
    "metadata",
    "defer",
    "isTerminal",
] as const;
type ToolField = (typeof TOOL_FIELDS)[number];

/** Fields of a custom tool the runtime receives as the app gave them. */
const WIRE_FIELDS = [
    "name",
    "description",
    "parameters",
    "skipPermission",
    "defer",
    "metadata",
    "isTerminal",
] as const;

const OPTIONS = [
    "tools",
    "availableTools",
    "excludedTools",
    "customToolSets",
    "mcpServers",
    "systemMessage",
    "onToolAnswered",
    "strictToolFilters",
    "model",
    "customAgents",
    "defaultAgent",
    "agent",
    // Options the wrap does not read itself, which the SDK sends.
    "clientName",
    "reasoningEffort",
    "provider",
] as const;

const TRAPS = ["get", "has", "ownKeys", "getOwnPropertyDescriptor", "getPrototypeOf"] as const;
const CONTAINERS = [
    "config",
    "tools",
    "tool",
    "parameters",
    "availableTools",
    "customToolSets",
    "mcpServers",
    "systemMessage",
    "customAgents",
    "agent",
] as const;

/** Fields of a custom agent a hostile value may take, and an entry of its `tools`. */
const AGENT_FIELDS = ["name", "prompt", "tools", "toolsEntry", "mcpServers", "model"] as const;

/**
 * How a value is attached where it sits: as a plain value; behind a getter that throws on its
 * first read, or on its second (after a valid first answer); behind a getter whose first read
 * answers the valid value and every later read the hostile one ("flips"), or another valid one
 * ("changes").
 */
type Delivery = "plain" | "throwsFirst" | "throwsSecond" | "flips" | "changes";

/** Where one hostile value goes. Plain data, so that fast-check prints and shrinks it. */
type Placement =
    | { where: "option"; option: (typeof OPTIONS)[number]; value: string; delivery: Delivery }
    | { where: "tool"; tool: number; field: ToolField; value: string; delivery: Delivery }
    | { where: "schemaProperty"; tool: number; value: string; delivery: Delivery }
    | {
          where: "filterEntry";
          option: "availableTools" | "excludedTools";
          value: string;
          delivery: Delivery;
      }
    | { where: "toolSetName"; name: string }
    | { where: "toolSetMember"; value: string; delivery: Delivery }
    | { where: "mcpServer"; value: string; delivery: Delivery }
    | { where: "systemMessage"; section: boolean; value: string; delivery: Delivery }
    | {
          where: "agent";
          field: (typeof AGENT_FIELDS)[number] | "defaultAgentEntry";
          value: string;
          delivery: Delivery;
      }
    | {
          where: "proxy";
          container: (typeof CONTAINERS)[number];
          trap: (typeof TRAPS)[number] | "revoked" | "frozen" | "sealed";
          from: 1 | 2;
      };

interface Scenario {
    entry: "create" | "resume" | "setTools";
    toolCount: number;
    filters: boolean;
    placements: Placement[];
}

const valueArb = fc.constantFrom(...VALUE_KINDS);
const deliveryArb: fc.Arbitrary<Delivery> = fc.oneof(
    { weight: 3, arbitrary: fc.constant("plain" as const) },
    { weight: 1, arbitrary: fc.constant("throwsFirst" as const) },
    { weight: 1, arbitrary: fc.constant("throwsSecond" as const) },
    { weight: 2, arbitrary: fc.constant("flips" as const) },
    { weight: 3, arbitrary: fc.constant("changes" as const) }
);
const toolArb = fc.nat({ max: 2 });

const placementArb: fc.Arbitrary<Placement> = fc.oneof(
    fc.record({
        where: fc.constant("option" as const),
        option: fc.constantFrom(...OPTIONS),
        value: valueArb,
        delivery: deliveryArb,
    }),
    {
        weight: 3,
        arbitrary: fc.record({
            where: fc.constant("tool" as const),
            tool: toolArb,
            field: fc.constantFrom(...TOOL_FIELDS),
            value: valueArb,
            delivery: deliveryArb,
        }),
    },
    fc.record({
        where: fc.constant("schemaProperty" as const),
        tool: toolArb,
        value: valueArb,
        delivery: deliveryArb,
    }),
    fc.record({
        where: fc.constant("filterEntry" as const),
        option: fc.constantFrom("availableTools" as const, "excludedTools" as const),
        value: valueArb,
        delivery: deliveryArb,
    }),
    fc.record({
        where: fc.constant("toolSetName" as const),
        name: fc.constantFrom(
            "__proto__",
            "constructor",
            "toString",
            "bad\u0000name",
            "x".repeat(100 * 1024),
            ""
        ),
    }),
    fc.record({
        where: fc.constant("toolSetMember" as const),
        value: valueArb,
        delivery: deliveryArb,
    }),
    fc.record({
        where: fc.constant("mcpServer" as const),
        value: valueArb,
        delivery: deliveryArb,
    }),
    fc.record({
        where: fc.constant("systemMessage" as const),
        section: fc.boolean(),
        value: valueArb,
        delivery: deliveryArb,
    }),
    {
        weight: 2,
        arbitrary: fc.record({
            where: fc.constant("agent" as const),
            field: fc.constantFrom(...AGENT_FIELDS, "defaultAgentEntry" as const),
            value: valueArb,
            delivery: deliveryArb,
        }),
    },
    {
        weight: 2,
        arbitrary: fc.record({
            where: fc.constant("proxy" as const),
            container: fc.constantFrom(...CONTAINERS),
            trap: fc.constantFrom(
                ...TRAPS,
                "revoked" as const,
                "frozen" as const,
                "sealed" as const
            ),
            from: fc.constantFrom(1 as const, 2 as const),
        }),
    }
);

const scenarioArb: fc.Arbitrary<Scenario> = fc.record({
    entry: fc.constantFrom("create" as const, "resume" as const, "setTools" as const),
    toolCount: fc.integer({ min: 1, max: 3 }),
    filters: fc.boolean(),
    placements: fc.array(placementArb, { minLength: 0, maxLength: 3 }),
});

/** The value where one read of the caller's getter would fail: no snapshot can hold it. */
const UNREADABLE = Symbol("unreadable");

/**
 * Puts a value at `key` of `target`, delivered as `delivery`, and at `key` of `shadow` what the
 * first read of it gives (a fresh instance of the same shape).
 */
function attach(
    target: Record<PropertyKey, unknown>,
    shadow: Record<PropertyKey, unknown>,
    key: PropertyKey,
    valid: () => unknown,
    hostile: () => unknown,
    delivery: Delivery,
    changed: () => unknown = hostile
): void {
    if (delivery === "plain") {
        define(target, key, hostile());
        define(shadow, key, hostile());
        return;
    }
    let count = 0;
    Object.defineProperty(target, key, {
        enumerable: true,
        configurable: true,
        get() {
            count++;
            if (delivery === "throwsFirst" || (delivery === "throwsSecond" && count > 1)) {
                throw new Error(`getter ${String(key)} says no`);
            }
            if (count === 1) return valid();
            return delivery === "flips" ? hostile() : delivery === "changes" ? changed() : valid();
        },
    });
    define(shadow, key, delivery === "throwsFirst" ? UNREADABLE : valid());
}

function define(target: object, key: PropertyKey, value: unknown): void {
    Object.defineProperty(target, key, {
        value,
        enumerable: true,
        writable: true,
        configurable: true,
    });
}

/**
 * A Proxy over `target` whose `trap` throws from its `from`th call, or a revoked one; or `target`
 * frozen or sealed.
 */
function trapped<T extends object>(target: T, trap: string, from: number): T {
    if (trap === "revoked") return revoked(target) as T;
    if (trap === "frozen") return Object.freeze(target);
    if (trap === "sealed") return Object.seal(target);
    let calls = 0;
    return new Proxy(target, {
        [trap](...args: unknown[]) {
            if (++calls >= from) throw new Error(`${trap} trap says no`);
            return (Reflect as unknown as Record<string, (...a: unknown[]) => unknown>)[trap]!(
                ...args
            );
        },
    });
}

interface Built {
    /** The argument of the entry point. */
    readonly argument: object;
    /** Each custom tool as one read of the caller's gives it. */
    readonly shadows: Record<string, unknown>[];
}

const MODEL = "claude-sonnet-4.5";
const PROMPT = "Use `lint_0` to lint.";

/** Builds the scenario's argument fresh: valid options, then each placement, then the Proxies. */
function build(scenario: Scenario): Built {
    const tools: Record<string, unknown>[] = [];
    const shadows: Record<string, unknown>[] = [];
    for (let index = 0; index < scenario.toolCount; index++) {
        const tool: Record<string, unknown> = {};
        const shadow: Record<string, unknown> = {};
        for (const field of TOOL_FIELDS) {
            tool[field] = validField(field, index);
            shadow[field] = validField(field, index);
        }
        tools.push(tool);
        shadows.push(shadow);
    }
    const options: Record<string, unknown> =
        scenario.entry === "setTools"
            ? { tools }
            : { model: MODEL, onPermissionRequest: approveAll, tools };
    // A valid custom agent in every scenario that can take one, in the session's vocabulary.
    const agent: Record<string, unknown> = {
        name: "runner",
        prompt: "Run `lint_0`.",
        tools: ["toolset:read", "lint_0"],
    };
    if (scenario.entry !== "setTools") {
        options.customAgents = [agent];
        options.agent = "runner";
    }
    if (scenario.filters) {
        options.availableTools = ["toolset:read", "toolset:quality", "lint_0", "lint_1"];
        options.excludedTools = ["bash"];
        options.customToolSets = { quality: ["lint_0", "lint_2"] };
    }
    const ignored: Record<PropertyKey, unknown> = {};
    const proxies = new Map<string, { trap: string; from: number }>();
    for (const placement of scenario.placements) {
        switch (placement.where) {
            case "option": {
                // A getter put here by an earlier placement is not read while building.
                const valid: unknown = Object.getOwnPropertyDescriptor(
                    options,
                    placement.option
                )?.value;
                attach(
                    options,
                    ignored,
                    placement.option,
                    () => valid,
                    VALUES[placement.value]!,
                    placement.delivery
                );
                break;
            }
            case "tool": {
                const index = placement.tool % tools.length;
                attach(
                    tools[index]!,
                    shadows[index]!,
                    placement.field,
                    () => validField(placement.field, index),
                    VALUES[placement.value]!,
                    placement.delivery,
                    () => validField(placement.field, index, true)
                );
                break;
            }
            case "schemaProperty": {
                const index = placement.tool % tools.length;
                const properties: Record<string, unknown> = {};
                const shadowProperties: Record<string, unknown> = {};
                attach(
                    properties,
                    shadowProperties,
                    "path",
                    () => ({ type: "string" }),
                    VALUES[placement.value]!,
                    placement.delivery,
                    () => ({ type: "number" })
                );
                define(tools[index]!, "parameters", { type: "object", properties });
                define(shadows[index]!, "parameters", {
                    type: "object",
                    properties: shadowProperties,
                });
                break;
            }
            case "filterEntry": {
                const list = ["view", "lint_0"];
                attach(
                    list as unknown as Record<PropertyKey, unknown>,
                    ignored,
                    1,
                    () => "lint_0",
                    VALUES[placement.value]!,
                    placement.delivery
                );
                define(options, placement.option, list);
                break;
            }
            case "toolSetName": {
                const toolSets: Record<string, unknown> = {};
                define(toolSets, placement.name, ["lint_0"]);
                define(options, "customToolSets", toolSets);
                break;
            }
            case "toolSetMember": {
                const members = ["lint_0", "view"];
                attach(
                    members as unknown as Record<PropertyKey, unknown>,
                    ignored,
                    0,
                    () => "lint_0",
                    VALUES[placement.value]!,
                    placement.delivery
                );
                define(options, "customToolSets", { quality: members });
                break;
            }
            case "mcpServer": {
                const servers: Record<string, unknown> = {};
                attach(
                    servers,
                    ignored,
                    "lint",
                    () => ({ command: "lint-server", args: [], tools: ["*"] }),
                    VALUES[placement.value]!,
                    placement.delivery
                );
                define(options, "mcpServers", servers);
                break;
            }
            case "systemMessage": {
                const holder: Record<string, unknown> = placement.section
                    ? { action: "replace" }
                    : { mode: "append" };
                attach(
                    holder,
                    ignored,
                    "content",
                    () => PROMPT,
                    VALUES[placement.value]!,
                    placement.delivery
                );
                define(
                    options,
                    "systemMessage",
                    placement.section ? { mode: "customize", sections: { tone: holder } } : holder
                );
                break;
            }
            case "agent": {
                const valid = {
                    name: "runner",
                    prompt: "Run.",
                    tools: ["view"],
                    toolsEntry: "lint_0",
                    mcpServers: { lint: { command: "lint-server", args: [], tools: ["*"] } },
                    model: MODEL,
                    defaultAgentEntry: "toolset:execute",
                }[placement.field];
                if (placement.field === "toolsEntry" || placement.field === "defaultAgentEntry") {
                    const list = ["view", valid];
                    attach(
                        list as unknown as Record<PropertyKey, unknown>,
                        ignored,
                        1,
                        () => valid,
                        VALUES[placement.value]!,
                        placement.delivery
                    );
                    if (placement.field === "toolsEntry") define(agent, "tools", list);
                    else define(options, "defaultAgent", { excludedTools: list });
                    break;
                }
                attach(
                    agent,
                    ignored,
                    placement.field,
                    () => valid,
                    VALUES[placement.value]!,
                    placement.delivery
                );
                break;
            }
            case "proxy":
                proxies.set(placement.container, placement);
                break;
        }
    }
    // Containers last, so that each Proxy wraps what the placements built.
    const wrap = <T extends object>(container: string, target: T): T => {
        const proxy = proxies.get(container);
        return proxy === undefined ? target : trapped(target, proxy.trap, proxy.from);
    };
    const first = tools[0]!;
    const parameters = Object.getOwnPropertyDescriptor(first, "parameters");
    if (isObjectValue(parameters))
        define(first, "parameters", wrap("parameters", parameters.value));
    tools[0] = wrap("tool", first);
    const agents = Object.getOwnPropertyDescriptor(options, "customAgents");
    // The list itself may be a hostile shape (a revoked proxy throws on any read).
    const firstAgent = (list: unknown): unknown => {
        try {
            return (list as unknown[])[0];
        } catch {
            return undefined;
        }
    };
    if (isObjectValue(agents) && agents.value !== null && firstAgent(agents.value) === agent) {
        (agents.value as unknown[])[0] = wrap("agent", agent);
    }
    for (const option of [
        "tools",
        "availableTools",
        "customToolSets",
        "mcpServers",
        "systemMessage",
        "customAgents",
    ]) {
        const descriptor = Object.getOwnPropertyDescriptor(options, option);
        if (isObjectValue(descriptor)) define(options, option, wrap(option, descriptor.value));
    }
    return { argument: wrap("config", options), shadows };
}

function isObjectValue(
    descriptor: PropertyDescriptor | undefined
): descriptor is PropertyDescriptor & { value: object } {
    return (
        descriptor !== undefined &&
        "value" in descriptor &&
        typeof descriptor.value === "object" &&
        descriptor.value !== null
    );
}

/** JSON's rendering of a value, as the runtime would receive it (undefined when JSON drops it). */
function asJson(value: unknown): unknown {
    const text = JSON.stringify(value);
    return text === undefined ? undefined : (JSON.parse(text) as unknown);
}

/**
 * What the runtime must receive for a tool, by hand from one read of it: each field as JSON
 * renders it; `parameters` as its toJSONSchema() when it has one, and nothing when it is falsy
 * (the SDK sends no schema then).
 */
function expectedWire(shadow: Record<string, unknown>): Record<string, unknown> {
    const expected: Record<string, unknown> = {};
    for (const field of WIRE_FIELDS) {
        let value = shadow[field];
        if (value === UNREADABLE) return { unreadable: field };
        if (field === "parameters") {
            if (!value) continue;
            const { toJSONSchema } = value as { toJSONSchema?: unknown };
            if (typeof toJSONSchema === "function") value = toJSONSchema.call(value);
        }
        const json = asJson(value);
        if (json !== undefined) expected[field] = json;
    }
    return expected;
}

let runtime: FakeRuntime;
let client: CopilotClient;
let base: CopilotSession;
const problems: unknown[] = [];
const onProblem = (reason: unknown) => void problems.push(reason);

beforeAll(async () => {
    process.on("unhandledRejection", onProblem);
    process.on("uncaughtException", onProblem);
    runtime = await startFakeRuntime();
    client = new CopilotClient({
        connection: RuntimeConnection.forUri(runtime.url),
        onToolWarning: () => {},
    });
    base = await client.createSession({
        model: "claude-sonnet-4.5",
        onPermissionRequest: approveAll,
    });
});

afterAll(async () => {
    process.off("unhandledRejection", onProblem);
    process.off("uncaughtException", onProblem);
    await client.stop();
    await runtime.close();
});

/** Requests that create, resume or change a session: none may be sent for a refused attempt. */
const SESSION_REQUESTS = /^session\.(create|resume|tools\.|options\.)/;

type Outcome =
    { kind: "accepted"; value: unknown } | { kind: "refused"; error: unknown } | { kind: "hung" };

/** Runs `call`, telling how it settled, or that it did not within SETTLE_WITHIN_MS. */
async function settle(call: () => Promise<unknown>): Promise<Outcome> {
    let timer: NodeJS.Timeout | undefined;
    const outcome = await Promise.race<Outcome>([
        Promise.resolve()
            .then(call)
            .then(
                (value) => ({ kind: "accepted", value }),
                (error: unknown) => ({ kind: "refused", error })
            ),
        new Promise<Outcome>((resolve) => {
            timer = setTimeout(() => resolve({ kind: "hung" }), SETTLE_WITHIN_MS);
        }),
    ]);
    clearTimeout(timer);
    // Long enough for a rejection nobody handled to be reported.
    await new Promise((resolve) => setTimeout(resolve, 0));
    return outcome;
}

describe("hostile shapes anywhere in the session options", () => {
    it(
        `are refused as SessionToolError or sent as one read, in ${RUNS} random runs`,
        async () => {
            const seed = Number(process.env.HOSTILE_SEED ?? Date.now() % 2_147_483_647);
            let attempt = 0;
            let accepted = 0;
            let refused = 0;
            // Tools compared with one read of the caller's, of them sent after a getter changed.
            let compared = 0;
            let comparedAfterChange = 0;
            try {
                await fc.assert(
                    fc.asyncProperty(scenarioArb, async (scenario) => {
                        attempt++;
                        problems.length = 0;
                        const { argument, shadows } = build(scenario);
                        const from = runtime.requests.length;
                        const outcome = await settle(() => {
                            switch (scenario.entry) {
                                case "create":
                                    return client.createSession(argument as never);
                                case "resume":
                                    return client.resumeSession(
                                        `hostile-${attempt}`,
                                        argument as never
                                    );
                                case "setTools":
                                    return base.setTools(argument as never);
                            }
                        });
                        expect(problems, "unhandled rejections or uncaught exceptions").toEqual([]);
                        expect(outcome.kind, "settles within 2 s").not.toBe("hung");
                        const sent = runtime.requests
                            .slice(from)
                            .filter((request) => SESSION_REQUESTS.test(request.method));
                        if (outcome.kind === "refused") {
                            refused++;
                            const { error } = outcome;
                            const documented =
                                error instanceof SessionToolError ||
                                (error instanceof Error &&
                                    SDK_ERRORS.some((pattern) => pattern.test(error.message)));
                            expect(documented, `refused with ${String(error)}`).toBe(true);
                            expect((error as Error).message).not.toBe("");
                            expect(sent.map((request) => request.method)).toEqual([]);
                            return;
                        }
                        if (outcome.kind !== "accepted") return;
                        accepted++;
                        // The custom tools as the runtime last received them.
                        const carrying = sent.filter(
                            (request) => request.params.tools !== undefined
                        );
                        const wire = (carrying.at(-1)?.params.tools ?? []) as Record<
                            string,
                            unknown
                        >[];
                        const expected = new Map(
                            shadows.map((shadow) => {
                                const tool = expectedWire(shadow);
                                return [tool.name, tool] as const;
                            })
                        );
                        for (const tool of wire) {
                            const received: Record<string, unknown> = {};
                            for (const field of WIRE_FIELDS) {
                                if (tool[field] !== undefined) received[field] = tool[field];
                            }
                            expect(received, `tool ${String(tool.name)}`).toEqual(
                                expected.get(tool.name)
                            );
                            compared++;
                        }
                        const changing = scenario.placements.some(
                            (placement) =>
                                (placement.where === "tool" ||
                                    placement.where === "schemaProperty") &&
                                (placement.delivery === "changes" || placement.delivery === "flips")
                        );
                        if (changing && wire.length > 0) comparedAfterChange++;
                        if (scenario.entry !== "setTools") {
                            await (outcome.value as CopilotSession).disconnect();
                        }
                    }),
                    { seed, numRuns: RUNS }
                );
            } catch (error) {
                console.error(
                    `hostile input property failed with seed ${seed}: rerun with HOSTILE_SEED=${seed}`
                );
                throw error;
            }
            // Both outcomes occur, so neither branch of the property is vacuous.
            expect(accepted).toBeGreaterThan(RUNS / 10);
            expect(refused).toBeGreaterThan(RUNS / 10);
            expect(compared).toBeGreaterThan(RUNS / 10);
            expect(comparedAfterChange).toBeGreaterThan(RUNS / 50);
        },
        Math.max(60_000, RUNS * 200)
    );
});
