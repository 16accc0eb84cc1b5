import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
    CopilotClient,
    RuntimeConnection,
    SessionToolError,
    approveAll,
} from "@github/copilot-sdk";
import {
    startFakeRuntime,
    type FakeRuntime,
    type FakeRuntimeOptions,
} from "../support/fakeRuntime.js";
import { readdirSync, readFileSync } from "node:fs";

// Random session configs through the real patched createSession / resumeSession against fake
// runtimes (a measured version, and unmeasured ones that answer tools.list well or badly).
// Whatever the config, construction either refuses it with SessionToolError (or one of the
// SDK's own documented errors) or sends a session in which every custom tool is flagged, no
// name the runtime would not let a custom tool answer is sent, the registered handlers are
// exactly the sent tools', and the caller's config is as it was. One config in five also gets a
// hostile value for one tool option (a revoked Proxy, a 2^32 - 1 length, a lying species, a Map,
// a non-list, a tool whose schema JSON cannot carry): refused with a SessionToolError, quickly,
// with nothing sent and no crash.
const RUNS = 250;

interface Measured {
    sdkVersion: string;
    builtIns: string[];
    unsupportedOverrides: string[];
    keptOnlyWithToolSearch: string[];
}
const DATA_DIR = new URL("../../data/measured-built-in-tools/", import.meta.url);
const MEASURED: Measured[] = readdirSync(DATA_DIR)
    .filter((file) => file.endsWith(".json"))
    .map((file) => JSON.parse(readFileSync(new URL(file, DATA_DIR), "utf8")) as Measured);
const refusedBy = (entries: Measured[]) =>
    new Set(entries.flatMap((e) => [...e.unsupportedOverrides, ...e.keptOnlyWithToolSearch]));
/**
 * Names a custom tool must never be sent under, from the raw measurement data: those of runtime
 * 1.0.85 (SDK 1.0.14, the fake's measured version), and on a runtime that was not measured, those
 * of any measured runtime.
 */
const REFUSED_NAMES: Record<"measured" | "unmeasured", ReadonlySet<string>> = {
    measured: refusedBy(MEASURED.filter((entry) => entry.sdkVersion === "1.0.14")),
    unmeasured: refusedBy(MEASURED),
};
const BUILT_INS = new Set(MEASURED.flatMap((entry) => entry.builtIns));

/** Messages of the SDK's own checks, which run before the patch's and stay as they are. */
const SDK_ERRORS = [
    /^Invalid (availableTools|excludedTools) entry '\*': there is no bare wildcard/,
];

const NAMES = [
    "view",
    "bash",
    "edit",
    "grep",
    "rg",
    "apply_patch",
    "read_file",
    "update_todo",
    "powershell",
    "store_memory",
    "tool_search_tool",
    "task_complete",
    "View",
    "lint",
    "format",
    "my_tool",
    "constructor",
    "__proto__",
    "toString",
    "valueOf",
    "hasOwnProperty",
];
const BAD_NAMES: unknown[] = ["bad name", "", 42, undefined];
const FILTER_ENTRIES = [
    ...NAMES,
    "toolset:read",
    "toolset:edit",
    "toolset:search",
    "toolset:execute",
    "toolset:exec",
    "toolset:quality",
    "toolset:constructor",
    "toolset:",
    "builtin:*",
    "builtin:view",
    "custom:*",
    "custom:lint",
    "mcp:github-list_issues",
    "*",
];

const handler = async (): Promise<string> => "custom";

const toolArb = fc.record(
    {
        name: fc.oneof(
            { weight: 9, arbitrary: fc.constantFrom(...NAMES) },
            { weight: 1, arbitrary: fc.constantFrom(...BAD_NAMES) }
        ),
        description: fc.constant("a custom tool"),
        handler: fc.oneof(
            { weight: 8, arbitrary: fc.constant(handler) },
            { weight: 1, arbitrary: fc.constant(undefined) },
            { weight: 1, arbitrary: fc.constant("not a function") }
        ),
        overridesBuiltInTool: fc.constantFrom(true, false, undefined),
        defer: fc.constantFrom("auto", "never", undefined),
    },
    { requiredKeys: ["name"] }
);

const filterArb = fc.option(fc.array(fc.constantFrom(...FILTER_ENTRIES), { maxLength: 5 }), {
    nil: undefined,
});

const configArb = fc.record(
    {
        model: fc.constantFrom("claude-sonnet-4.5", "gpt-4o", "constructor", "toString", "x"),
        tools: fc.option(fc.array(toolArb, { maxLength: 5 }), { nil: undefined }),
        availableTools: filterArb,
        excludedTools: filterArb,
        customToolSets: fc.constantFrom(
            undefined,
            { quality: ["lint", "format"] },
            { constructor: ["view"] },
            { edit: ["edit", "lint"] },
            { quality: "lint" },
            { "bad name": ["lint"] }
        ),
        toolSearch: fc.constantFrom(
            undefined,
            { enabled: true },
            { enabled: true, deferThreshold: -1 },
            { enabled: true, deferThreshold: 0.5 },
            { enabled: true, deferThreshold: 5 },
            { enabled: false, deferThreshold: 5 }
        ),
    },
    { requiredKeys: ["model"] }
);

/** Hostile values, made fresh for each run (a revoked Proxy cannot be reused). */
const HOSTILE: Record<string, () => unknown> = {
    revokedProxy: () => {
        const { proxy, revoke } = Proxy.revocable([], {});
        revoke();
        return proxy;
    },
    hugeLength: () => {
        const list: unknown[] = [];
        list.length = 4_294_967_295;
        return list;
    },
    lyingSpecies: () => {
        const list: unknown[] = [{ name: 7 }, 7];
        Object.defineProperty(list, "constructor", {
            value: { [Symbol.species]: () => Object.freeze([]) },
        });
        return list;
    },
    map: () => new Map([["quality", ["lint"]]]),
    number: () => 42,
    emptyObject: () => ({}),
    cyclicSchema: () => {
        const schema: Record<string, unknown> = { type: "object" };
        schema.self = schema;
        return [{ name: "lint", handler, parameters: schema }];
    },
    bigIntMetadata: () => [{ name: "lint", handler, metadata: { size: 1n } }],
};

const hostileArb = fc.option(
    fc.record({
        option: fc.constantFrom("tools", "availableTools", "excludedTools", "customToolSets"),
        shape: fc.constantFrom(...Object.keys(HOSTILE)),
    }),
    { nil: undefined, freq: 4 }
);

const RUNTIMES: Record<string, FakeRuntimeOptions> = {
    measured: {},
    unmeasuredListing: {
        status: { kind: "version", version: "0.0.1" },
        toolList: { kind: "list", names: ["view", "brand_new"] },
    },
    unmeasuredOddListing: {
        status: { kind: "version", version: "0.0.1" },
        toolList: { kind: "reply", value: { tools: [{ name: "view" }, { name: 42 }] } },
    },
    noVersion: { status: { kind: "reply", value: null } },
};

const clients = new Map<string, { runtime: FakeRuntime; client: CopilotClient }>();

beforeAll(async () => {
    for (const [key, options] of Object.entries(RUNTIMES)) {
        const runtime = await startFakeRuntime(options);
        const client = new CopilotClient({
            connection: RuntimeConnection.forUri(runtime.url),
            onToolWarning: () => {},
        });
        clients.set(key, { runtime, client });
    }
});

afterAll(async () => {
    for (const { runtime, client } of clients.values()) {
        await client.stop();
        await runtime.close();
    }
});

/**
 * A comparable rendering of a config: functions by identity, everything else by value; values
 * that cannot be read, cycles and huge lengths by a label.
 */
function snapshot(value: unknown, functions: unknown[] = [], seen = new Set<unknown>()): unknown {
    if (typeof value === "function") {
        if (!functions.includes(value)) functions.push(value);
        return `function#${functions.indexOf(value)}`;
    }
    if (typeof value === "bigint") return `${value}n`;
    if (value === null || typeof value !== "object") return value;
    if (seen.has(value)) return "(cycle)";
    try {
        if (value instanceof Map) return ["Map", snapshot([...value], functions, seen)];
        if (Array.isArray(value) && value.length > 10_000) return `(length ${value.length})`;
        seen.add(value);
        const rendered = Object.fromEntries(
            Reflect.ownKeys(value).map((key) => [
                String(key),
                snapshot((value as Record<PropertyKey, unknown>)[key], functions, seen),
            ])
        );
        seen.delete(value);
        return Array.isArray(value) ? ["Array", rendered] : rendered;
    } catch {
        return "(unreadable)";
    }
}

function handlerOf(session: object, name: string): unknown {
    return (session as { getToolHandler(name: string): unknown }).getToolHandler(name);
}

describe("session construction: random configs", () => {
    it(`holds its guarantees for ${RUNS} random configs on measured, unmeasured and odd runtimes`, async () => {
        let sent = 0;
        let refused = 0;
        let hostileRefused = 0;
        await fc.assert(
            fc.asyncProperty(
                configArb,
                fc.constantFrom(...Object.keys(RUNTIMES)),
                fc.boolean(),
                hostileArb,
                async (generated, runtimeKey, resume, hostile) => {
                    const { runtime, client } = clients.get(runtimeKey)!;
                    const config: Record<string, unknown> = {
                        ...generated,
                        onPermissionRequest: approveAll,
                    };
                    if (hostile !== undefined) config[hostile.option] = HOSTILE[hostile.shape]!();
                    // An empty object is a valid customToolSets (no toolsets).
                    const isHostile =
                        hostile !== undefined &&
                        !(hostile.option === "customToolSets" && hostile.shape === "emptyObject");
                    const before = snapshot(config);
                    const method = resume ? "session.resume" : "session.create";
                    const requestsBefore = runtime.paramsOf(method).length;
                    let session: Awaited<ReturnType<CopilotClient["createSession"]>>;
                    try {
                        session = resume
                            ? await client.resumeSession(`fuzz-${sent + refused}`, config as never)
                            : await client.createSession(config as never);
                    } catch (error) {
                        refused++;
                        if (isHostile) {
                            hostileRefused++;
                            expect(error, `${hostile.option}: ${hostile.shape}`).toBeInstanceOf(
                                SessionToolError
                            );
                        }
                        const documented =
                            error instanceof SessionToolError ||
                            (error instanceof Error &&
                                SDK_ERRORS.some((pattern) => pattern.test(error.message)));
                        expect(documented, String(error)).toBe(true);
                        // Refused before anything was sent.
                        expect(runtime.paramsOf(method).length).toBe(requestsBefore);
                        expect(snapshot(config)).toEqual(before);
                        return;
                    }
                    sent++;
                    // Every hostile shape is refused, whatever the option.
                    expect(
                        isHostile,
                        `a hostile value was accepted: ${JSON.stringify(hostile)}`
                    ).toBe(false);
                    const params = runtime.paramsOf(method).at(-1)!;
                    expect(runtime.paramsOf(method).length).toBe(requestsBefore + 1);
                    const wireTools = (params.tools ?? []) as {
                        name: string;
                        overridesBuiltInTool?: boolean;
                    }[];
                    for (const tool of wireTools) {
                        // Flagged, unless the app said false on a name no built-in has.
                        expect([true, false]).toContain(tool.overridesBuiltInTool);
                        if (tool.overridesBuiltInTool === false) {
                            expect(BUILT_INS.has(tool.name), tool.name).toBe(false);
                        }
                        const refusedNames =
                            REFUSED_NAMES[runtimeKey === "measured" ? "measured" : "unmeasured"];
                        expect(refusedNames.has(tool.name), tool.name).toBe(false);
                    }
                    // What is registered is what is sent.
                    const wireNames = new Set(wireTools.map((tool) => tool.name));
                    for (const tool of (generated.tools ?? []) as {
                        name: unknown;
                        handler?: unknown;
                    }[]) {
                        const name = tool.name as string;
                        const registered = handlerOf(session, name) !== undefined;
                        expect(registered, name).toBe(
                            wireNames.has(name) && tool.handler !== undefined
                        );
                    }
                    expect(session.toolResolution!.wire.tools).toEqual([...wireNames]);
                    expect(snapshot(config)).toEqual(before);
                }
            ),
            { numRuns: RUNS, seed: Number(process.env.FUZZ_SEED ?? 20261123) }
        );
        // Both outcomes occur, so neither branch of the property is vacuous.
        // (A toolset entry that names no toolset is refused: three of FILTER_ENTRIES are, so
        // about one config in ten is sent.)
        expect(sent).toBeGreaterThan(RUNS / 20);
        expect(refused).toBeGreaterThan(RUNS / 10);
        expect(hostileRefused).toBeGreaterThan(RUNS / 20);
    }, 60_000);
});
