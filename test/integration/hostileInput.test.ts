/**
 * Hostile and malformed values for the tool options, in createSession, resumeSession and
 * session.setTools, through the real patched client against a fake runtime: each is refused with
 * a SessionToolError naming what is wrong, quickly, with nothing sent, and never as a TypeError
 * or a crash of the process (a value JSON cannot carry would otherwise fail inside the send).
 */
import { describe, expect, it } from "vitest";
import { SessionToolError, approveAll } from "@github/copilot-sdk";
import { fakeRuntimeClients } from "../support/fakeRuntimeClient.js";

const MODEL = "claude-sonnet-4.5";
const handler = async (): Promise<string> => "ok";

const { setUp } = fakeRuntimeClients();

/** Runs each attempt in turn: each must reject with a SessionToolError that matches `expected`. */
async function expectEachRefused(
    attempts: (() => Promise<unknown>)[],
    expected: Record<string, unknown> = {}
): Promise<void> {
    for (const attempt of attempts) {
        const error = await attempt().then(
            () => undefined,
            (caught: unknown) => caught
        );
        expect(error).toBeInstanceOf(SessionToolError);
        expect(error).toMatchObject(expected);
    }
}

function revoked(target: object = {}): object {
    const { proxy, revoke } = Proxy.revocable(target, {});
    revoke();
    return proxy;
}

/** An array whose species constructor hands back a frozen array (a copy by `slice` fails). */
function lyingSpecies(items: unknown[]): unknown[] {
    const list = [...items];
    Object.defineProperty(list, "constructor", {
        value: {
            [Symbol.species]: function () {
                return Object.freeze([]);
            },
        },
    });
    return list;
}

function hugeLength(): unknown[] {
    const list: unknown[] = [];
    list.length = 4_294_967_295;
    return list;
}

const cyclic: Record<string, unknown> = { type: "object" };
cyclic.self = cyclic;

/** Each hostile value: the option, the value, and the code and message part it must give. */
const CASES: [string, string, () => unknown, string, RegExp][] = [
    [
        "tools",
        "a revoked Proxy",
        () => revoked([]),
        "INVALID_CUSTOM_TOOL",
        /^Invalid tools: it cannot be read/,
    ],
    [
        "tools",
        "a revoked Proxy as a tool",
        () => [revoked()],
        "INVALID_CUSTOM_TOOL",
        /^tools\[0\] cannot be read/,
    ],
    [
        "tools",
        "a length of 2^32 - 1",
        hugeLength,
        "INVALID_CUSTOM_TOOL",
        /4,294,967,295 entries, more than the 4,096 accepted/,
    ],
    [
        "tools",
        "a cycle in parameters",
        () => [{ name: "lint", handler, parameters: cyclic }],
        "INVALID_CUSTOM_TOOL",
        /^Custom tool 'lint' has parameters that cannot be sent as JSON/,
    ],
    [
        "tools",
        "a BigInt in metadata",
        () => [{ name: "lint", handler, metadata: { n: 1n } }],
        "INVALID_CUSTOM_TOOL",
        /^Custom tool 'lint' has metadata that cannot be sent as JSON/,
    ],
    [
        "availableTools",
        "a revoked Proxy",
        () => revoked([]),
        "INVALID_TOOL_FILTER",
        /^Invalid availableTools: it cannot be read/,
    ],
    [
        "availableTools",
        "a number",
        () => 42,
        "INVALID_TOOL_FILTER",
        /^Invalid availableTools 42: pass an array/,
    ],
    [
        "availableTools",
        "an object",
        () => ({}),
        "INVALID_TOOL_FILTER",
        /^Invalid availableTools \{\}: pass an array/,
    ],
    [
        "availableTools",
        "a length of 2^32 - 1",
        hugeLength,
        "INVALID_TOOL_FILTER",
        /more than the 4,096 accepted/,
    ],
    [
        "excludedTools",
        "a lying species",
        () => lyingSpecies(["bash", 7]),
        "INVALID_TOOL_FILTER",
        /^Invalid excludedTools\[1\] 7/,
    ],
    [
        "customToolSets",
        "a revoked Proxy",
        () => revoked(),
        "INVALID_TOOL_SET",
        /^Invalid customToolSets: it cannot be read/,
    ],
    [
        "customToolSets",
        "a Map",
        () => new Map([["q", ["lint"]]]),
        "INVALID_TOOL_SET",
        /^Invalid customToolSets \(a Map\): pass an object/,
    ],
];

describe("hostile tool options are refused as SessionToolError, with nothing sent", () => {
    for (const [option, what, value, code, message] of CASES) {
        it(`refuses ${option} as ${what} in createSession, resumeSession and setTools`, async () => {
            const { runtime, client } = await setUp();
            const session = await client.createSession({
                model: MODEL,
                onPermissionRequest: approveAll,
            });
            const from = runtime.requests.length;
            const started = Date.now();
            await expectEachRefused(
                [
                    () =>
                        client.createSession({
                            model: MODEL,
                            onPermissionRequest: approveAll,
                            [option]: value(),
                        } as never),
                    () =>
                        client.resumeSession("other-session", {
                            model: MODEL,
                            onPermissionRequest: approveAll,
                            [option]: value(),
                        } as never),
                    () => session.setTools({ [option]: value() } as never),
                ],
                { code, message: expect.stringMatching(message) }
            );
            expect(Date.now() - started).toBeLessThan(2_000);
            expect(runtime.requests.length).toBe(from);
        });
    }

    it("refuses a revoked Proxy as the setTools argument", async () => {
        const { runtime, client } = await setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
        });
        const from = runtime.requests.length;
        await expect(session.setTools(revoked() as never)).rejects.toMatchObject({
            name: "SessionToolError",
            code: "INVALID_TOOL_UPDATE",
            message: expect.stringMatching(/^Invalid setTools argument: it cannot be read/),
        });
        expect(runtime.requests.length).toBe(from);
    });
});

/** A schema nested `levels` deep. */
function deepSchema(levels: number): Record<string, unknown> {
    let schema: Record<string, unknown> = { type: "string" };
    for (let level = 0; level < levels; level++) {
        schema = { type: "object", properties: { inner: schema } };
    }
    return schema;
}

/** Parameters whose `method` answers a schema the first time and throws after. */
function onceOnly(method: "toJSON" | "toJSONSchema"): Record<string, unknown> {
    let calls = 0;
    return {
        [method]: () => {
            if (++calls > 1) throw new Error(`${method} called twice`);
            return { type: "object", properties: { path: { type: "string" } } };
        },
    };
}

describe("issue 27: one reader, one snapshot, bounded schemas, in both paths", () => {
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => void rejections.push(reason);

    for (const method of ["toJSON", "toJSONSchema"] as const) {
        it(`reads parameters.${method} once and sends what it gave, in createSession and setTools`, async () => {
            process.on("unhandledRejection", onRejection);
            try {
                const { runtime, client } = await setUp();
                const tool = () => ({
                    name: "lint",
                    description: "Lint",
                    handler,
                    parameters: onceOnly(method),
                });
                const session = await client.createSession({
                    model: MODEL,
                    onPermissionRequest: approveAll,
                    tools: [tool()],
                });
                await session.setTools({ tools: [{ ...tool(), description: "Lint again" }] });
                await new Promise((resolve) => setTimeout(resolve, 100));
                const sent = [
                    ...runtime.paramsOf("session.create").map((params) => params.tools),
                    ...runtime.paramsOf("session.tools.set").map((params) => params.tools),
                ] as { parameters: unknown }[][];
                expect(sent.map((tools) => tools[0]!.parameters)).toEqual([
                    { type: "object", properties: { path: { type: "string" } } },
                    { type: "object", properties: { path: { type: "string" } } },
                ]);
                expect(rejections).toEqual([]);
            } finally {
                process.off("unhandledRejection", onRejection);
            }
        });
    }

    it("refuses a 2,000-level schema naming the tool, at once, in createSession and setTools", async () => {
        const { runtime, client } = await setUp();
        const session = await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
        });
        const from = runtime.requests.length;
        const deep = { name: "deep", description: "Deep", handler, parameters: deepSchema(2_000) };
        const started = Date.now();
        for (const attempt of [
            () =>
                client.createSession({
                    model: MODEL,
                    onPermissionRequest: approveAll,
                    tools: [deep],
                }),
            () => session.setTools({ tools: [deep] }),
        ]) {
            await expect(attempt()).rejects.toMatchObject({
                name: "SessionToolError",
                code: "INVALID_CUSTOM_TOOL",
                message: expect.stringMatching(
                    /^Custom tool 'deep' has parameters that cannot be sent as JSON \(it nests \d+ levels deep\)/
                ),
            });
        }
        expect(Date.now() - started).toBeLessThan(2_000);
        expect(runtime.requests.length).toBe(from);
    });

    it("refuses a config whose availableTools getter throws, as a SessionToolError", async () => {
        const { runtime, client } = await setUp();
        await client.start();
        const from = runtime.requests.length;
        const config = { model: MODEL, onPermissionRequest: approveAll };
        Object.defineProperty(config, "availableTools", {
            enumerable: true,
            get() {
                throw new Error("getter says no");
            },
        });
        await expectEachRefused([
            () => client.createSession(config as never),
            () => client.resumeSession("other-session", config as never),
        ]);
        expect(runtime.requests.length).toBe(from);
    });
});

describe("the session config is read once, before the wrap or the SDK looks at it", () => {
    const throwingGetter = (option: string) => () => {
        const config = { model: MODEL, onPermissionRequest: approveAll };
        Object.defineProperty(config, option, {
            enumerable: true,
            get() {
                throw new Error("getter says no");
            },
        });
        return config;
    };
    const CONFIGS: [string, () => object][] = [
        ["a gitHubToken getter that throws", throwingGetter("gitHubToken")],
        ["an onToolAnswered getter that throws", throwingGetter("onToolAnswered")],
        [
            "a Proxy whose get trap throws",
            () =>
                new Proxy(
                    { model: MODEL, onPermissionRequest: approveAll },
                    {
                        get() {
                            throw new Error("get trap says no");
                        },
                    }
                ),
        ],
    ];
    for (const [what, config] of CONFIGS) {
        it(`refuses a config with ${what} in createSession and resumeSession`, async () => {
            const { runtime, client } = await setUp();
            await client.start();
            const from = runtime.requests.length;
            await expectEachRefused(
                [
                    () => client.createSession(config() as never),
                    () => client.resumeSession("other-session", config() as never),
                ],
                {
                    code: "INVALID_TOOL_FILTER",
                    message: expect.stringMatching(
                        /^The session config cannot be read \((getter|get trap) says no\): pass a plain object/
                    ),
                }
            );
            expect(runtime.requests.length).toBe(from);
        });
    }
});

describe("custom tool fields sent as they are read must be what JSON carries", () => {
    const FIELDS: [string, unknown, RegExp][] = [
        ["description", 1n, /^Custom tool 'lint' has description 1n: pass a string/],
        [
            "description",
            {
                toJSON() {
                    throw new Error("toJSON says no");
                },
            },
            /^Custom tool 'lint' has description .*: pass a string/,
        ],
        ["skipPermission", 1n, /^Custom tool 'lint' has skipPermission 1n: use true or false/],
        ["defer", { when: 1n }, /^Custom tool 'lint' has defer .*: use 'auto' or 'never'/],
        ["isTerminal", "yes", /^Custom tool 'lint' has isTerminal 'yes': use true or false/],
    ];
    for (const [field, value, message] of FIELDS) {
        it(`refuses ${field} ${typeof value === "bigint" ? "1n" : JSON.stringify(typeof value)} in createSession, resumeSession and setTools`, async () => {
            const { runtime, client } = await setUp();
            const session = await client.createSession({
                model: MODEL,
                onPermissionRequest: approveAll,
            });
            const from = runtime.requests.length;
            const tools = [{ name: "lint", handler, [field]: value }];
            await expectEachRefused(
                [
                    () =>
                        client.createSession({
                            model: MODEL,
                            onPermissionRequest: approveAll,
                            tools,
                        } as never),
                    () =>
                        client.resumeSession("other-session", {
                            model: MODEL,
                            onPermissionRequest: approveAll,
                            tools,
                        } as never),
                    () => session.setTools({ tools } as never),
                ],
                {
                    code: "INVALID_CUSTOM_TOOL",
                    message: expect.stringMatching(message),
                }
            );
            expect(runtime.requests.length).toBe(from);
        });
    }
});

describe("options the SDK sends as they are are read once and must be what JSON carries", () => {
    const throwingContent = () => {
        const message = { mode: "append" };
        Object.defineProperty(message, "content", {
            enumerable: true,
            get() {
                throw new Error("getter says no");
            },
        });
        return message;
    };
    const OPTIONS: [string, string, () => unknown, RegExp][] = [
        ["model", "a BigInt", () => 1n, /^Invalid model 1n: pass a model id/],
        [
            "systemMessage",
            "a BigInt content",
            () => ({ mode: "append", content: 1n }),
            /^Invalid systemMessage\.content 1n: a bigint cannot be sent as JSON/,
        ],
        [
            "systemMessage",
            "a content getter that throws",
            throwingContent,
            /^Invalid systemMessage: it cannot be read \(getter says no\)/,
        ],
        [
            "mcpServers",
            "a server config that is a number",
            () => ({ lint: 10 }),
            /^Invalid config 10 of MCP server 'lint': pass an object/,
        ],
        [
            "mcpServers",
            "a BigInt in a server's env",
            () => ({ lint: { command: "lint", env: { N: 1n } } }),
            /^Invalid mcpServers\.lint\.env\.N 1n: a bigint cannot be sent as JSON/,
        ],
        [
            "mcpServers",
            "a revoked Proxy",
            () => revoked(),
            /^Invalid mcpServers: it cannot be read/,
        ],
        // Options the wrap does not read itself: the SDK would fail its send on them.
        [
            "clientName",
            "a BigInt",
            () => 1n,
            /^Invalid clientName 1n: it cannot be sent as JSON \(.*BigInt.*\); pass clientName as the SDK's SessionConfig types it/,
        ],
        [
            "reasoningEffort",
            "an object whose toJSON throws",
            () => ({
                toJSON() {
                    throw new Error("toJSON says no");
                },
            }),
            /^Invalid reasoningEffort .*: it cannot be sent as JSON \(toJSON says no\)/,
        ],
        [
            "workingDirectory",
            "a Symbol",
            () => Symbol("dir"),
            /^Invalid workingDirectory .*: a symbol cannot be sent as JSON/,
        ],
        [
            "provider",
            "a cycle",
            () => {
                const provider: Record<string, unknown> = { type: "openai" };
                provider.self = provider;
                return provider;
            },
            /^Invalid provider .*: it cannot be sent as JSON \(.*circular/i,
        ],
    ];
    for (const [option, what, value, message] of OPTIONS) {
        it(`refuses ${option} as ${what} in createSession and resumeSession`, async () => {
            const { runtime, client } = await setUp();
            await client.start();
            const from = runtime.requests.length;
            await expectEachRefused(
                [
                    () =>
                        client.createSession({
                            model: MODEL,
                            onPermissionRequest: approveAll,
                            [option]: value(),
                        } as never),
                    () =>
                        client.resumeSession("other-session", {
                            model: MODEL,
                            onPermissionRequest: approveAll,
                            [option]: value(),
                        } as never),
                ],
                {
                    code: "INVALID_SESSION_OPTION",
                    message: expect.stringMatching(message),
                }
            );
            expect(runtime.requests.length).toBe(from);
        });
    }

    it("sends the systemMessage and mcpServers it read, once, whatever a getter answers later", async () => {
        const { runtime, client } = await setUp();
        let reads = 0;
        const message: Record<string, unknown> = { mode: "append" };
        Object.defineProperty(message, "content", {
            enumerable: true,
            get: () => (++reads === 1 ? "Use `view` to read." : 1n),
        });
        let serverReads = 0;
        const servers: Record<string, unknown> = {};
        Object.defineProperty(servers, "lint", {
            enumerable: true,
            get: () => (++serverReads === 1 ? { command: "lint", tools: ["*"] } : 10),
        });
        await client.createSession({
            model: MODEL,
            onPermissionRequest: approveAll,
            systemMessage: message,
            mcpServers: servers,
            // The wire as the app wrote it (promptAgreement's transforms are tested on their own).
            promptAgreement: "off",
        } as never);
        const [params] = runtime.paramsOf("session.create");
        expect(params!.systemMessage).toEqual({ mode: "append", content: "Use `view` to read." });
        expect(params!.mcpServers).toEqual({ lint: { command: "lint", tools: ["*"] } });
        expect([reads, serverReads]).toEqual([1, 1]);
    });

    it("renders an option object passed to many sessions once per session, sending each call's value", async () => {
        const { runtime, client } = await setUp();
        let reads = 0;
        const keys = ["key-1", "key-1", "key-2"];
        const provider: Record<string, unknown> = { type: "openai", baseUrl: "http://127.0.0.1:1" };
        Object.defineProperty(provider, "apiKey", {
            enumerable: true,
            get: () => keys[reads++],
        });
        for (let i = 0; i < keys.length; i++) {
            await client.createSession({
                model: MODEL,
                onPermissionRequest: approveAll,
                provider,
                promptAgreement: "off",
            } as never);
        }
        expect(reads).toBe(3);
        const sent = runtime.paramsOf("session.create").map((params) => params.provider);
        expect(sent.map((p) => (p as { apiKey: string }).apiKey)).toEqual(keys);
    });

    it("sends the other options as their one rendering, and objects with callbacks or classes as given", async () => {
        const { runtime, client } = await setUp();
        const reads = { clientName: 0, provider: 0 };
        // Found by the hostile property (seed 437869631): the SDK's send rendered clientName a
        // second time, and the throw there was an unhandled rejection.
        const clientName = {
            toJSON: () => {
                if (++reads.clientName > 1) throw new Error("toJSON called twice");
                return "hostile-app";
            },
        };
        const provider: Record<string, unknown> = { type: "openai" };
        Object.defineProperty(provider, "baseUrl", {
            enumerable: true,
            get: () => (++reads.provider === 1 ? "http://127.0.0.1:1" : 10n),
        });
        const onPreToolUse = () => undefined;
        const problems: unknown[] = [];
        const onProblem = (reason: unknown) => void problems.push(reason);
        process.on("unhandledRejection", onProblem);
        try {
            const session = await client.createSession({
                model: MODEL,
                onPermissionRequest: approveAll,
                clientName,
                provider,
                hooks: { onPreToolUse },
                promptAgreement: "off",
            } as never);
            await new Promise((resolve) => setTimeout(resolve, 20));
            expect(session.sessionId).toBeTruthy();
        } finally {
            process.off("unhandledRejection", onProblem);
        }
        expect(problems).toEqual([]);
        const [params] = runtime.paramsOf("session.create");
        expect(params!.clientName).toBe("hostile-app");
        expect(params!.provider).toMatchObject({ type: "openai", baseUrl: "http://127.0.0.1:1" });
        expect(reads).toEqual({ clientName: 1, provider: 1 });
        // The SDK still finds the app's hook, which a JSON copy would have lost.
        expect(params!.hooks).toBe(true);
    });
});

describe("a tool's parameters and metadata must be what JSON carries as an object", () => {
    const SHAPES: [string, string, () => unknown, RegExp][] = [
        [
            "parameters",
            "a Map",
            () => new Map([["type", "object"]]),
            /^Custom tool 'lint' has parameters \(a Map\), which JSON does not carry as an object: pass a JSON Schema object/,
        ],
        [
            "parameters",
            "a Date",
            () => new Date(0),
            /^Custom tool 'lint' has parameters "1970-01-01T00:00:00\.000Z", which JSON does not carry as an object/,
        ],
        [
            "parameters",
            "a function",
            () => () => "schema",
            /^Custom tool 'lint' has parameters a function, which JSON does not carry as an object/,
        ],
        [
            "parameters",
            "a string",
            () => "path: string",
            /^Custom tool 'lint' has parameters 'path: string', which JSON does not carry as an object/,
        ],
        [
            "metadata",
            "a Set",
            () => new Set(["qa"]),
            /^Custom tool 'lint' has metadata \(a Set\), which JSON does not carry as an object: pass an object of JSON values/,
        ],
        [
            "metadata",
            "an array",
            () => ["qa"],
            /^Custom tool 'lint' has metadata \["qa"\], which JSON does not carry as an object/,
        ],
    ];
    for (const [field, what, value, message] of SHAPES) {
        it(`refuses ${field} as ${what} in createSession, resumeSession and setTools`, async () => {
            const { runtime, client } = await setUp();
            const session = await client.createSession({
                model: MODEL,
                onPermissionRequest: approveAll,
            });
            const from = runtime.requests.length;
            const tools = () => [{ name: "lint", handler, [field]: value() }];
            await expectEachRefused(
                [
                    () =>
                        client.createSession({
                            model: MODEL,
                            onPermissionRequest: approveAll,
                            tools: tools(),
                        } as never),
                    () =>
                        client.resumeSession("other-session", {
                            model: MODEL,
                            onPermissionRequest: approveAll,
                            tools: tools(),
                        } as never),
                    () => session.setTools({ tools: tools() } as never),
                ],
                {
                    code: "INVALID_CUSTOM_TOOL",
                    message: expect.stringMatching(message),
                }
            );
            expect(runtime.requests.length).toBe(from);
        });
    }
});
