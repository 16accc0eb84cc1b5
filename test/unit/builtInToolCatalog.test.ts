import { afterEach, describe, expect, it, vi } from "vitest";
import {
    catalogWithoutAsking,
    isDeferrable,
    loadBuiltInToolCatalog,
    modeBuiltIns,
    modelFacingBuiltIns,
    offeredBuiltIns,
    RUNTIME_LISTING_TIMEOUT_MS,
    toolSearchDefers,
    type RuntimeToolHost,
} from "../../src/toolCustomization/catalog/builtInToolCatalog.js";
import { prepareSessionTools } from "../../src/toolCustomization/construction/pipeline.js";
import { createSessionToolState } from "../../src/toolCustomization/construction/clientState.js";
import type { SessionToolWarning } from "../../src/toolCustomization/api/sessionToolWarning.js";
import { NEWEST_MEASURED_RUNTIME, RAW_MEASUREMENTS } from "../support/rawMeasurements.js";

// The rule (docs/conformance.md): the built-in catalog comes from the measurements of the runtime's
// version taken on its delivery (bundled, or the CLI); a bundled measured runtime costs no request, any other runtime is asked its version
// once per client and, when unmeasured, its tools.list; a runtime that does not answer within
// the timeout gets the newest measurements and one CATALOG_FALLBACK warning. Expected names
// are written by hand or read from the discovery's raw measurement files, never from the
// generated catalog the code reads.
const handler = async (): Promise<string> => "ok";
const NEVER = (): Promise<never> => new Promise(() => {});
/** The runtime used as a stand-in: the newest measured one. */
const NEWEST = NEWEST_MEASURED_RUNTIME;
/** Every built-in any measured runtime has (the raw files): what a stand-in counts as built-ins. */
const EVERY_MEASURED = [...new Set(RAW_MEASUREMENTS.flatMap((file) => file.builtIns))];

/** What runtime 1.0.85 offers claude-sonnet-4.5 (and unknown models) in a default session. */
const CLAUDE_1_0_85 = [
    "bash",
    "create",
    "edit",
    "glob",
    "grep",
    "list_agents",
    "list_bash",
    "read_agent",
    "read_bash",
    "sql",
    "stop_bash",
    "task",
    "view",
    "web_fetch",
    "write_agent",
];

interface FakeRuntimeHost extends RuntimeToolHost {
    readonly requests: string[];
}

/** A client whose runtime answers status.get and tools.list as told, recording each request. */
function runtimeHost(
    status: () => Promise<unknown>,
    list: () => Promise<unknown> = async () => ({ tools: [] })
): FakeRuntimeHost {
    const requests: string[] = [];
    return {
        requests,
        getStatus: () => {
            requests.push("status.get");
            return status();
        },
        rpc: {
            tools: {
                list: () => {
                    requests.push("tools.list");
                    return list();
                },
            },
        },
    };
}

afterEach(() => {
    vi.useRealTimers();
});

describe("built-in catalog: which runtime is asked what", () => {
    it("asks a bundled runtime of a measured version nothing", async () => {
        const host = runtimeHost(async () => ({ version: "1.0.85" }));
        const fallbacks: string[] = [];
        const catalog = await loadBuiltInToolCatalog(host, "1.0.85", (r) => fallbacks.push(r));
        expect(host.requests).toEqual([]);
        expect(fallbacks).toEqual([]);
        expect(catalog.source).toBe("measured");
        expect(catalog.measured.runtimeVersion).toBe("1.0.85");
    });

    it("asks an external runtime status.get, and nothing more when its version was measured as the CLI", async () => {
        // Runtime 1.0.102 was measured as the @github/copilot CLI (runtime-1.0.102.json).
        const host = runtimeHost(async () => ({ version: "1.0.102" }));
        const fallbacks: string[] = [];
        const catalog = await loadBuiltInToolCatalog(host, undefined, (r) => fallbacks.push(r));
        expect(host.requests).toEqual(["status.get"]);
        expect(fallbacks).toEqual([]);
        expect(catalog.source).toBe("measured");
        expect(catalog.measured.runtimeVersion).toBe("1.0.102");
    });

    it("falls back for an external runtime whose version was measured only as a release bundles it", async () => {
        // The CLI 1.0.85 offers skill; SDK 1.0.14's bundled 1.0.85, the one measured, does not.
        const host = runtimeHost(
            async () => ({ version: "1.0.85" }),
            async () => ({ tools: [{ name: "skill" }, { name: "view" }] })
        );
        const fallbacks: string[] = [];
        const catalog = await loadBuiltInToolCatalog(host, undefined, (r) => fallbacks.push(r));
        expect(host.requests).toEqual(["status.get", "tools.list"]);
        expect(catalog.source).toBe("fallback");
        expect(catalog.measured.runtimeVersion).toBe(NEWEST);
        expect(catalog.builtIns.has("skill")).toBe(true);
        expect(fallbacks).toEqual([
            "runtime 1.0.85 was measured only as the runtime an SDK release bundles, which may offer " +
                "other built-ins than the @github/copilot CLI this client runs; using its tools.list " +
                `and the names measured on runtime ${NEWEST}`,
        ]);
    });

    it("falls back for a bundled runtime whose version was measured only as the CLI", async () => {
        const host = runtimeHost(
            async () => ({ version: "1.0.102" }),
            async () => ({ tools: [{ name: "view" }] })
        );
        const fallbacks: string[] = [];
        const catalog = await loadBuiltInToolCatalog(host, "1.0.102", (r) => fallbacks.push(r));
        expect(host.requests).toEqual(["tools.list"]);
        expect(catalog.source).toBe("fallback");
        expect(fallbacks).toEqual([
            "runtime 1.0.102 was measured only as the @github/copilot CLI, which may offer other " +
                "built-ins than the runtime an SDK release bundles this client runs; using its " +
                `tools.list and the names measured on runtime ${NEWEST}`,
        ]);
    });

    it("adds tools.list for an unmeasured version, its names counting as built-ins", async () => {
        const host = runtimeHost(
            async () => ({ version: "0.0.1" }),
            async () => ({ tools: [{ name: "brand_new" }, { name: "view" }] })
        );
        const fallbacks: string[] = [];
        const catalog = await loadBuiltInToolCatalog(host, undefined, (r) => fallbacks.push(r));
        expect(host.requests).toEqual(["status.get", "tools.list"]);
        expect(catalog.source).toBe("fallback");
        expect(catalog.measured.runtimeVersion).toBe(NEWEST);
        expect(catalog.builtIns.has("brand_new")).toBe(true);
        expect([...catalog.builtIns].sort()).toEqual([...EVERY_MEASURED, "brand_new"].sort());
        expect(fallbacks).toEqual([
            `runtime 0.0.1 was not measured; using its tools.list and the names measured on runtime ${NEWEST}`,
        ]);
    });

    it("asks a bundled runtime of an unmeasured version only tools.list", async () => {
        const host = runtimeHost(
            async () => ({ version: "0.0.2" }),
            async () => ({ tools: [{ name: "brand_new" }] })
        );
        const catalog = await loadBuiltInToolCatalog(host, "0.0.2", () => {});
        expect(host.requests).toEqual(["tools.list"]);
        expect(catalog.source).toBe("fallback");
        expect(catalog.builtIns.has("brand_new")).toBe(true);
    });

    it("falls back to the newest measurements when status.get fails", async () => {
        const host = runtimeHost(async () => {
            throw new Error("Unhandled method status.get");
        });
        const fallbacks: string[] = [];
        const catalog = await loadBuiltInToolCatalog(host, undefined, (r) => fallbacks.push(r));
        expect(catalog.source).toBe("fallback");
        expect(catalog.measured.runtimeVersion).toBe(NEWEST);
        expect([...catalog.builtIns].sort()).toEqual([...EVERY_MEASURED].sort());
        // Names the newest runtime no longer has still count: factories_manage was measured
        // on 1.0.83 and 1.0.85 only, catalog_select on 1.0.89-7 only.
        expect(catalog.builtIns.has("factories_manage")).toBe(true);
        expect(catalog.builtIns.has("catalog_select")).toBe(true);
        expect(fallbacks).toEqual([
            `the runtime did not tell its version (Unhandled method status.get); using the names measured on runtime ${NEWEST}`,
        ]);
    });

    it("gives status.get and tools.list 3000 ms each", () => {
        expect(RUNTIME_LISTING_TIMEOUT_MS).toBe(3000);
    });

    it("falls back after the timeout when status.get never answers", async () => {
        vi.useFakeTimers();
        const host = runtimeHost(NEVER);
        const fallbacks: string[] = [];
        const pending = loadBuiltInToolCatalog(host, undefined, (r) => fallbacks.push(r));
        await vi.advanceTimersByTimeAsync(2999);
        expect(fallbacks).toEqual([]);
        await vi.advanceTimersByTimeAsync(1);
        const catalog = await pending;
        expect(catalog.source).toBe("fallback");
        expect(fallbacks).toEqual([
            `the runtime did not tell its version (status.get did not answer in 3000 ms); using the names measured on runtime ${NEWEST}`,
        ]);
        expect(catalog.askAgain).toBe(true);
    });

    it("falls back after the timeout when tools.list never answers", async () => {
        vi.useFakeTimers();
        const host = runtimeHost(async () => ({ version: "0.0.1" }), NEVER);
        const fallbacks: string[] = [];
        const pending = loadBuiltInToolCatalog(host, undefined, (r) => fallbacks.push(r));
        await vi.advanceTimersByTimeAsync(3000);
        const catalog = await pending;
        expect(host.requests).toEqual(["status.get", "tools.list"]);
        expect(catalog.source).toBe("fallback");
        expect(fallbacks).toEqual([
            `runtime 0.0.1 was not measured and did not list its tools (tools.list did not answer in 3000 ms); using the names measured on runtime ${NEWEST}`,
        ]);
        expect(catalog.askAgain).toBe(true);
    });

    it.each([
        ["a tool whose name is not a string", { tools: [{ name: "view" }, { name: 42 }] }],
        ["a tool without a name", { tools: [{ name: "view" }, {}] }],
        ["an empty name", { tools: [{ name: "" }] }],
        ["a tool that is not an object", { tools: ["view"] }],
        ["an empty slot", { tools: Object.assign([{ name: "view" }], { length: 2 }) }],
        ["tools that are not a list", { tools: "x" }],
        ["no tools field", {}],
        ["null", null],
    ])(
        "falls back with one true warning, and no exception, when tools.list answers %s",
        async (_, listing) => {
            const host = runtimeHost(
                async () => ({ version: "0.0.1" }),
                async () => listing
            );
            const fallbacks: string[] = [];
            const catalog = await loadBuiltInToolCatalog(host, undefined, (r) => fallbacks.push(r));
            expect(catalog.source).toBe("fallback");
            expect(catalog.askAgain).toBe(true);
            expect([...catalog.builtIns].sort()).toEqual([...EVERY_MEASURED].sort());
            expect(fallbacks).toEqual([
                `runtime 0.0.1 was not measured and its tools.list answer is not a list of named tools; using the names measured on runtime ${NEWEST}`,
            ]);
        }
    );

    it.each([
        ["no version", {}],
        ["a version that is not a string", { version: 42 }],
        ["null", null],
    ])("falls back with one warning when status.get answers %s", async (_, status) => {
        const host = runtimeHost(async () => status);
        const fallbacks: string[] = [];
        const catalog = await loadBuiltInToolCatalog(host, undefined, (r) => fallbacks.push(r));
        expect(host.requests).toEqual(["status.get"]);
        expect(catalog.askAgain).toBe(true);
        expect(fallbacks).toHaveLength(1);
        expect(fallbacks[0]).toMatch(/^the runtime's status\.get answer .* holds no version; /);
    });

    it("refuses on an unmeasured runtime every name some measured runtime would not let a custom tool answer", async () => {
        const host = runtimeHost(async () => ({ version: "0.0.1" }));
        const catalog = await loadBuiltInToolCatalog(host, undefined, () => {});
        // Runtime 1.0.89-7 lets a custom powershell answer; 1.0.85 does not.
        const newest = RAW_MEASUREMENTS.find((file) => file.runtimeVersion === NEWEST)!;
        expect(newest.unsupportedOverrides).not.toContain("powershell");
        expect(catalog.unsupportedOverrides.has("powershell")).toBe(true);
        for (const file of RAW_MEASUREMENTS) {
            for (const name of file.unsupportedOverrides) {
                expect(catalog.unsupportedOverrides.has(name), name).toBe(true);
            }
        }
        expect(catalog.keptOnlyWithToolSearch.has("tool_search_tool")).toBe(true);
    });

    it("keeps a usable tools.list answer of an unmeasured runtime (nothing to ask again)", async () => {
        const host = runtimeHost(
            async () => ({ version: "0.0.1" }),
            async () => ({ tools: [{ name: "view" }] })
        );
        expect((await loadBuiltInToolCatalog(host, undefined, () => {})).askAgain).toBe(false);
    });
});

describe("built-in catalog: once per client", () => {
    function client(
        host: FakeRuntimeHost,
        bundledVersion: string | undefined,
        startsRuntime = false
    ) {
        const warnings: SessionToolWarning[] = [];
        const state = createSessionToolState(
            { onToolWarning: (w: SessionToolWarning) => warnings.push(w) },
            bundledVersion,
            startsRuntime
        );
        return { host: Object.assign(host, { sessionToolState: state }), warnings };
    }
    const session = { model: "claude-sonnet-4.5", tools: [{ name: "lint", handler }] };

    it("costs a bundled runtime of a measured version zero requests over many sessions", async () => {
        const { host, warnings } = client(
            runtimeHost(async () => ({ version: "1.0.85" })),
            "1.0.85"
        );
        await prepareSessionTools(host, session, {});
        await prepareSessionTools(host, session, { availableTools: ["toolset:read"] });
        expect(host.requests).toEqual([]);
        expect(warnings).toEqual([]);
    });

    it("asks an external runtime status.get once per client", async () => {
        const first = client(
            runtimeHost(async () => ({ version: "1.0.102" })),
            undefined
        );
        await prepareSessionTools(first.host, session, {});
        await prepareSessionTools(first.host, session, { excludedTools: ["bash"] });
        expect(first.host.requests).toEqual(["status.get"]);
        const second = client(
            runtimeHost(async () => ({ version: "1.0.102" })),
            undefined
        );
        await prepareSessionTools(second.host, session, {});
        expect(second.host.requests).toEqual(["status.get"]);
    });

    it("asks a runtime the client starts itself, of a version the release does not know, even for a session with nothing to check", async () => {
        // A release whose runtime is the @github/copilot dependency: no bundled version.
        const local = client(
            runtimeHost(async () => ({ version: "1.0.57" })),
            undefined,
            true
        );
        const bare = { model: "claude-sonnet-4.5" };
        const prepared = await prepareSessionTools(local.host, bare, {});
        await prepareSessionTools(local.host, bare, {});
        expect(local.host.requests).toEqual(["status.get"]);
        // Runtime 1.0.57 offers write_bash and no write_agent (its raw measurement).
        expect(prepared.resolution.runtime).toEqual({ version: "1.0.57", catalog: "measured" });
        expect(prepared.resolution.enabledTools).toContain("write_bash");
        expect(prepared.resolution.enabledTools).not.toContain("write_agent");
        // A server at a URL (the client does not start it) is not asked for such a session.
        const external = client(
            runtimeHost(async () => ({ version: "1.0.57" })),
            undefined
        );
        await prepareSessionTools(external.host, bare, {});
        expect(external.host.requests).toEqual([]);
    });

    it("asks an unmeasured external runtime status.get and tools.list once per client", async () => {
        const { host, warnings } = client(
            runtimeHost(
                async () => ({ version: "0.0.1" }),
                async () => ({ tools: [] })
            ),
            undefined
        );
        await prepareSessionTools(host, session, {});
        await prepareSessionTools(host, session, {});
        expect(host.requests).toEqual(["status.get", "tools.list"]);
        expect(warnings.map((w) => w.code)).toEqual(["CATALOG_FALLBACK"]);
    });

    it("asks nothing for a session without custom tools, filters or customToolSets", async () => {
        const { host } = client(
            runtimeHost(async () => ({ version: "1.0.85" })),
            undefined
        );
        const prepared = await prepareSessionTools(host, { model: "claude-sonnet-4.5" }, {});
        expect(host.requests).toEqual([]);
        expect(prepared.resolution.enabledTools).toEqual(CLAUDE_1_0_85);
    });

    it("sends one CATALOG_FALLBACK straight to onToolWarning when status.get never answers, not to the sessions", async () => {
        vi.useFakeTimers();
        const { host, warnings } = client(runtimeHost(NEVER), undefined);
        const first = prepareSessionTools(host, session, {});
        const second = prepareSessionTools(host, session, {});
        await vi.advanceTimersByTimeAsync(3000);
        const prepared = await Promise.all([first, second]);
        expect(prepared.map((p) => p.resolution.runtime)).toEqual([
            { version: NEWEST, catalog: "fallback" },
            { version: NEWEST, catalog: "fallback" },
        ]);
        // The fallback is about the client, not the session: it is not a session warning.
        expect(prepared.map((p) => p.resolution.warnings)).toEqual([[], []]);
        expect(host.requests).toEqual(["status.get"]);
        expect(warnings).toEqual([
            {
                code: "CATALOG_FALLBACK",
                message: `Custom tools are checked against a stand-in list of built-ins: the runtime did not tell its version (status.get did not answer in 3000 ms); using the names measured on runtime ${NEWEST}.`,
            },
        ]);
    });

    it("asks again in a later session after a timeout, and warns again only then", async () => {
        vi.useFakeTimers();
        const { host, warnings } = client(runtimeHost(NEVER), undefined);
        const first = prepareSessionTools(host, session, {});
        await vi.advanceTimersByTimeAsync(3000);
        await first;
        const later = prepareSessionTools(host, session, {});
        await vi.advanceTimersByTimeAsync(3000);
        await later;
        expect(host.requests).toEqual(["status.get", "status.get"]);
        expect(warnings.map((w) => w.code)).toEqual(["CATALOG_FALLBACK", "CATALOG_FALLBACK"]);
    });

    it("survives a tools.list answer of the wrong shape: the session is made, and the next one asks again", async () => {
        let listing: unknown = { tools: [{ name: "view" }, { name: 42 }] };
        const { host, warnings } = client(
            runtimeHost(
                async () => ({ version: "0.0.1" }),
                async () => listing
            ),
            undefined
        );
        const first = await prepareSessionTools(host, session, {});
        expect(first.resolution.runtime.catalog).toBe("fallback");
        expect(first.resolution.wire.tools).toEqual(["lint"]);
        // A session with nothing to check still works on that client.
        await prepareSessionTools(host, { model: "claude-sonnet-4.5" }, {});
        listing = { tools: [{ name: "brand_new" }] };
        const second = await prepareSessionTools(
            host,
            { ...session, tools: [{ name: "brand_new", handler }] },
            {}
        );
        expect(second.resolution.overriddenBuiltInTools).toEqual(["brand_new"]);
        expect(host.requests).toEqual(["status.get", "tools.list", "status.get", "tools.list"]);
        const fallbacks = warnings.filter((w) => w.code === "CATALOG_FALLBACK");
        expect(fallbacks).toHaveLength(2);
        expect(fallbacks[0]!.message).toContain("is not a list of named tools");
        expect(fallbacks[1]!.message).toContain("using its tools.list");
    });

    it("warns CATALOG_FALLBACK once when tools.list never answers, and the session completes", async () => {
        vi.useFakeTimers();
        const { host, warnings } = client(
            runtimeHost(async () => ({ version: "0.0.1" }), NEVER),
            undefined
        );
        const pending = prepareSessionTools(host, session, {});
        await vi.advanceTimersByTimeAsync(3000);
        expect((await pending).resolution.runtime.catalog).toBe("fallback");
        expect(host.requests).toEqual(["status.get", "tools.list"]);
        expect(
            warnings.map((w) => [w.code, w.message.includes("tools.list did not answer")])
        ).toEqual([["CATALOG_FALLBACK", true]]);
    });
});

describe("built-in catalog: what the model is offered", () => {
    const measured = catalogWithoutAsking("1.0.85");

    it("uses the runtime's own measurements without asking when its version is known", () => {
        expect(measured.source).toBe("measured");
        expect(measured.measured.runtimeVersion).toBe("1.0.85");
        expect(catalogWithoutAsking(undefined).source).toBe("fallback");
        expect(catalogWithoutAsking("0.0.1").measured.runtimeVersion).toBe(NEWEST);
    });

    it("offers the model's measured built-ins, and the runtime's default set for unknown models", () => {
        expect(offeredBuiltIns(measured, { model: "claude-sonnet-4.5" })).toEqual(CLAUDE_1_0_85);
        expect(offeredBuiltIns(measured, { model: "no-such-model" })).toEqual(CLAUDE_1_0_85);
        expect(offeredBuiltIns(measured, {})).toEqual(CLAUDE_1_0_85);
        expect(offeredBuiltIns(measured, { model: "gpt-5-codex" })).toEqual([
            "apply_patch",
            "bash",
            "glob",
            "list_agents",
            "list_bash",
            "read_agent",
            "read_bash",
            "rg",
            "sql",
            "stop_bash",
            "task",
            "view",
            "web_fetch",
            "write_agent",
        ]);
    });

    it("adds the built-ins that session options switch on", () => {
        const offered = offeredBuiltIns(measured, {
            model: "claude-sonnet-4.5",
            onUserInputRequest: async () => ({ answer: "", wasFreeform: true }),
            manageScheduleEnabled: true,
            enableSessionStore: true,
            skillDirectories: ["./skills"],
        });
        expect(offered).toEqual(
            [...CLAUDE_1_0_85, "ask_user", "manage_schedule", "session_store_sql", "skill"].sort()
        );
        expect(
            offeredBuiltIns(measured, { skillDirectories: [], enableSessionStore: false })
        ).toEqual(CLAUDE_1_0_85);
        expect(offeredBuiltIns(measured, {}, true)).toEqual(
            [...CLAUDE_1_0_85, "tool_search_tool"].sort()
        );
    });

    it.each(["constructor", "toString", "__proto__", "hasOwnProperty", "valueOf"])(
        "treats the model id '%s' as just another unknown model",
        (model) => {
            expect(offeredBuiltIns(measured, { model })).toEqual(CLAUDE_1_0_85);
        }
    );

    it("lists the built-ins that plan and autopilot mode add", () => {
        expect(modeBuiltIns(measured)).toEqual({
            plan: ["exit_plan_mode"],
            autopilot: ["task_complete"],
        });
    });

    it("lets toolsets contain the built-ins of every model family and option", () => {
        expect(modelFacingBuiltIns(measured)).toEqual([
            "apply_patch",
            "ask_user",
            "bash",
            "create",
            "edit",
            "exit_plan_mode",
            "glob",
            "grep",
            "list_agents",
            "list_bash",
            "manage_schedule",
            "read_agent",
            "read_bash",
            "rg",
            "session_store_sql",
            "skill",
            "sql",
            "stop_bash",
            "task",
            "task_complete",
            "tool_search_tool",
            "view",
            "web_fetch",
            "write_agent",
        ]);
    });
});

describe("built-in catalog: tool search", () => {
    const lint = { name: "lint", defer: "auto" };

    it("defers tools only with toolSearch.enabled, a numeric threshold below the count, and a deferrable tool", () => {
        const on = { toolSearch: { enabled: true, deferThreshold: 10 } };
        expect(toolSearchDefers(on, 11, [lint])).toBe(true);
        expect(toolSearchDefers(on, 10, [lint])).toBe(false);
        expect(toolSearchDefers(on, 11, [])).toBe(false);
        expect(toolSearchDefers({ toolSearch: { enabled: true } }, 99, [lint])).toBe(false);
        expect(
            toolSearchDefers({ toolSearch: { enabled: false, deferThreshold: 1 } }, 99, [lint])
        ).toBe(false);
        expect(toolSearchDefers({}, 99, [lint])).toBe(false);
    });

    it("lets the runtime defer defer: 'auto' and unflagged tools, not flagged overrides", () => {
        expect(isDeferrable({ defer: "auto", overridesBuiltInTool: true })).toBe(true);
        expect(isDeferrable({})).toBe(true);
        expect(isDeferrable({ overridesBuiltInTool: false })).toBe(true);
        expect(isDeferrable({ overridesBuiltInTool: true })).toBe(false);
        expect(isDeferrable({ defer: "never" })).toBe(false);
    });
});
