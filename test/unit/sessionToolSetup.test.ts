import { describe, expect, it } from "vitest";
import {
    createSessionToolState,
    prepareSessionTools,
    type SessionToolHost,
} from "../../src/sessionToolSetup.js";
import { composeBuiltInToolCatalog, offeredBuiltInTools } from "../../src/builtInToolCatalog.js";
import { SessionToolError } from "../../src/sessionToolError.js";
import type { SessionToolWarning } from "../../src/sessionToolWarning.js";
import {
    ALL_BUILT_IN_TOOL_NAMES,
    DEFAULT_MODEL_TOOL_NAMES_BY_MODEL,
    UNHONOURED_OVERRIDE_TOOL_NAMES,
} from "../../src/builtInToolNames.generated.js";

const handler = async (): Promise<string> => "ok";
const LISTED = [
    "bash",
    "read_bash",
    "stop_bash",
    "view",
    "edit",
    "create",
    "glob",
    "grep",
    "skill",
];
const CLAUDE_DEFAULTS = DEFAULT_MODEL_TOOL_NAMES_BY_MODEL["claude-sonnet-4.5"] ?? [];

function host(
    listing: () => Promise<{ tools: { name: string }[] }> = async () => ({
        tools: LISTED.map((name) => ({ name })),
    }),
    options: Record<string, unknown> = {}
): SessionToolHost & { warnings: SessionToolWarning[]; listings: unknown[] } {
    const warnings: SessionToolWarning[] = [];
    const listings: unknown[] = [];
    return {
        warnings,
        listings,
        sessionToolState: createSessionToolState({
            onToolWarning: (w: SessionToolWarning) => warnings.push(w),
            ...options,
        }),
        start: async () => {},
        rpc: {
            tools: {
                list: (params) => {
                    listings.push(params);
                    return listing();
                },
            },
        },
    };
}

async function prepare(config: Record<string, unknown>, client = host()) {
    const full: Record<string, unknown> = { model: "claude-sonnet-4.5", ...config };
    return prepareSessionTools(client, full, "createSession");
}

describe("prepareSessionTools", () => {
    it("passes custom tools without a collision through unchanged (seed: no collision)", async () => {
        const tools = [{ name: "myTool", handler }];
        const { config, resolution } = await prepare({ tools });
        expect(config.tools).toEqual(tools);
        expect(resolution?.overriddenBuiltInTools).toEqual([]);
        expect(resolution?.enabledTools).toEqual([...CLAUDE_DEFAULTS, "myTool"]);
    });

    it("replaces the built-in by the custom tool of the same name (seed: one collision)", async () => {
        const { config, resolution } = await prepare({ tools: [{ name: "edit", handler }] });
        expect(config.tools).toEqual([{ name: "edit", handler, overridesBuiltInTool: true }]);
        expect(resolution?.enabledTools.filter((name) => name === "edit")).toHaveLength(1);
        expect(resolution?.overriddenBuiltInTools).toEqual(["edit"]);
    });

    it("replaces every colliding built-in (seed: several collisions)", async () => {
        const { resolution } = await prepare({
            tools: [
                { name: "edit", handler },
                { name: "bash", handler },
                { name: "mine", handler },
            ],
        });
        expect(resolution?.overriddenBuiltInTools).toEqual(["edit", "bash"]);
        expect(resolution?.wire.tools).toEqual(["edit", "bash", "mine"]);
    });

    it("never modifies the caller's config", async () => {
        const tool = Object.freeze({ name: "view", handler });
        const config = Object.freeze({
            model: "claude-sonnet-4.5",
            tools: Object.freeze([tool]),
            includeTools: Object.freeze(["read"]),
        });
        const prepared = await prepareSessionTools(host(), config, "createSession");
        expect(prepared.config).not.toBe(config);
        expect(config.tools[0]).toBe(tool);
        expect(tool).not.toHaveProperty("overridesBuiltInTool");
    });

    it("exposes a deeply frozen resolution with read-only maps", async () => {
        const { resolution } = await prepare({ excludeTools: ["web"] });
        expect(Object.isFrozen(resolution)).toBe(true);
        expect(Object.isFrozen(resolution?.enabledTools)).toBe(true);
        expect(Object.isFrozen(resolution?.wire)).toBe(true);
        expect("set" in (resolution?.toolEnablement ?? {})).toBe(false);
    });

    it("reports a built-in named through builtin: when a custom tool overrides it", async () => {
        const client = host();
        const { config } = await prepare(
            { tools: [{ name: "view", handler }], includeTools: ["builtin:view"] },
            client
        );
        expect(config.availableTools).toEqual(["custom:view"]);
        expect(client.warnings.map((w) => w.code)).toContain("OVERRIDDEN_BUILT_IN_IDENTIFIER");
    });

    it("evaluates the runtime's own availableTools patterns for the resolution", async () => {
        const { config, resolution } = await prepare({
            tools: [{ name: "lint", handler }],
            availableTools: ["builtin:view", "custom:*"],
        });
        expect(config.availableTools).toEqual(["builtin:view", "custom:*"]);
        expect(resolution?.mode).toBe("runtime");
        expect(resolution?.enabledTools).toEqual(["view", "lint"]);
    });

    it("asks the runtime for its catalog once per client and model", async () => {
        const client = host();
        await prepare({}, client);
        await prepare({}, client);
        await prepareSessionTools(client, { model: "gpt-4o" }, "resumeSession");
        expect(client.listings).toEqual([{ model: "claude-sonnet-4.5" }, { model: "gpt-4o" }]);
    });

    it("asks again after a transient listing failure, using the pinned names meanwhile", async () => {
        let fail = true;
        const client = host(async () => {
            if (fail) throw new Error("busy");
            return { tools: LISTED.map((name) => ({ name })) };
        });
        const first = await prepare({}, client);
        expect(first.resolution?.builtInCatalogSource).toBe("pinned");
        expect(first.resolution?.enabledTools).toEqual(
            DEFAULT_MODEL_TOOL_NAMES_BY_MODEL["claude-sonnet-4.5"]
        );
        expect(client.warnings.map((w) => w.code)).toEqual(["CATALOG_FALLBACK"]);
        fail = false;
        const second = await prepare({}, client);
        expect(second.resolution?.builtInCatalogSource).toBe("runtime");
    });

    it("refuses mixing includeTools with excludedTools and says which to use", async () => {
        const error = await prepare({
            excludeTools: ["web"],
            excludedTools: ["builtin:bash"],
        }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(SessionToolError);
        expect((error as SessionToolError).code).toBe("CONFLICTING_TOOL_FILTERS");
        expect((error as Error).message).toContain("Use one vocabulary");
    });

    it("passes a config that is not an object through for the SDK to reject", async () => {
        const prepared = await prepareSessionTools(host(), undefined, "createSession");
        expect(prepared).toEqual({ config: undefined, resolution: undefined });
    });

    it("rejects an onToolWarning that is not a function", () => {
        expect(() => createSessionToolState({ onToolWarning: "log" })).toThrow(
            /Invalid onToolWarning 'log'/
        );
    });
});

describe("composeBuiltInToolCatalog", () => {
    it("offers the measured default set of the model, not the model-independent listing", () => {
        const catalog = composeBuiltInToolCatalog(LISTED, "gpt-4o", "runtime");
        expect(catalog.offered).toEqual(DEFAULT_MODEL_TOOL_NAMES_BY_MODEL["gpt-4o"]);
        expect(catalog.offered).toContain("apply_patch");
        expect(catalog.offered).not.toContain("skill");
    });

    it("offers listed names the pinned lists do not know (built-ins newer than the measurement)", () => {
        const catalog = composeBuiltInToolCatalog([...LISTED, "future_tool"], "gpt-4o", "runtime");
        expect(catalog.offered).toContain("future_tool");
    });

    it("reserves every pinned built-in name besides the listed ones", () => {
        const catalog = composeBuiltInToolCatalog(["view", "future_tool"], "gpt-4o", "runtime");
        for (const name of [...ALL_BUILT_IN_TOOL_NAMES, "future_tool"]) {
            expect(catalog.reserved.has(name)).toBe(true);
        }
        for (const name of UNHONOURED_OVERRIDE_TOOL_NAMES) {
            expect(catalog.unhonoured.has(name)).toBe(true);
        }
    });

    it("uses the runtime's fallback set for a model it does not know", () => {
        expect(composeBuiltInToolCatalog(undefined, "some-new-model", "pinned").offered).toEqual(
            DEFAULT_MODEL_TOOL_NAMES_BY_MODEL["*"]
        );
    });

    it("adds the built-ins that session options switch on", () => {
        const catalog = composeBuiltInToolCatalog(LISTED, "claude-sonnet-4.5", "runtime");
        const offered = offeredBuiltInTools(catalog, {
            onUserInputRequest: () => ({ answer: "", wasFreeform: true }),
            skillDirectories: ["/skills"],
        });
        expect(offered).toEqual([...CLAUDE_DEFAULTS, "ask_user", "skill"]);
    });
});
