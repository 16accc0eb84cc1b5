import { describe, expect, it } from "vitest";
import { resolveSessionToolFilter, validateToolSets } from "../../src/sessionToolFilter.js";
import { SessionToolError } from "../../src/sessionToolError.js";
import type { SessionToolWarning } from "../../src/sessionToolWarning.js";

const inventory = {
    builtIns: ["bash", "read_bash", "view", "edit", "create", "grep", "glob", "web_fetch"],
    custom: ["view", "lint", "deploy"],
    overridden: new Set(["view"]),
};

function resolve(config: Parameters<typeof resolveSessionToolFilter>[1]) {
    const warnings: SessionToolWarning[] = [];
    const result = resolveSessionToolFilter(inventory, config, (w) => warnings.push(w));
    return { ...result, warnings };
}

describe("resolveSessionToolFilter", () => {
    it("puts an overriding custom tool in the place of its built-in, also inside toolsets", () => {
        const { filter, wire } = resolve({ includeTools: ["read"] });
        expect(filter.enabledTools).toEqual(["view"]);
        expect(wire.availableTools).toEqual(["custom:view"]);
        expect([...wire.enabledCustomTools]).toEqual(["view"]);
    });

    it("treats custom:* as the custom toolset and builtin:* as the builtin toolset", () => {
        const { filter } = resolve({
            includeTools: ["custom:*", "builtin:*"],
            excludeTools: ["builtin:*"],
        });
        expect(filter.enabledTools).toEqual(["view", "lint", "deploy"]);
    });

    it("lets a directly included built-in survive the exclusion of builtin:*", () => {
        const { filter } = resolve({
            includeTools: ["grep", "custom"],
            excludeTools: ["builtin:*"],
        });
        expect(filter.enabledTools).toEqual(["grep", "view", "lint", "deploy"]);
    });

    it("passes unknown source-qualified names to the runtime, with the usual precedence", () => {
        const { wire, passThrough, filter } = resolve({
            includeTools: ["lint", "mcp:*"],
            excludeTools: ["mcp:github-delete_repo"],
        });
        expect(passThrough).toEqual(["mcp:*", "mcp:github-delete_repo"]);
        expect(wire.availableTools).toEqual(["custom:lint", "mcp:*"]);
        expect(wire.excludedTools).toEqual(["mcp:github-delete_repo"]);
        expect(filter.unknownIdentifiers).toEqual([]);
    });

    it("accepts a whitelist of pass-through names only", () => {
        const { wire } = resolve({ includeTools: ["mcp:github-list_issues"] });
        expect(wire.availableTools).toEqual(["mcp:github-list_issues"]);
        expect([...wire.enabledCustomTools]).toEqual([]);
    });

    it("translates a blacklist into qualified built-in exclusions", () => {
        const { wire } = resolve({ excludeTools: ["edit", "deploy"] });
        expect(wire.availableTools).toBeUndefined();
        expect(wire.excludedTools).toEqual(["builtin:edit", "builtin:create"]);
        expect([...wire.enabledCustomTools]).toEqual(["view", "lint"]);
    });

    it("sends nothing extra without includeTools or excludeTools", () => {
        const { wire, filter } = resolve({});
        expect(filter.mode).toBe("default");
        expect(wire.availableTools).toBeUndefined();
        expect(wire.excludedTools).toBeUndefined();
        expect([...wire.enabledCustomTools]).toEqual(["view", "lint", "deploy"]);
    });

    it("lets a toolset of the caller replace a default toolset of the same name", () => {
        const { filter, catalog } = resolve({
            toolSets: [{ name: "edit", tools: ["lint"] }],
            includeTools: ["edit"],
        });
        expect(filter.enabledTools).toEqual(["lint"]);
        expect(catalog.toolSets?.filter((t) => t.referenceName === "edit")).toHaveLength(1);
    });

    it("reports builtin:<name> for an overridden built-in and includes the custom tool", () => {
        const { filter, warnings } = resolve({ includeTools: ["builtin:view"] });
        expect(filter.enabledTools).toEqual(["view"]);
        expect(warnings.map((w) => w.code)).toEqual(["OVERRIDDEN_BUILT_IN_IDENTIFIER"]);
    });

    it("does not mutate the caller's lists", () => {
        const includeTools = Object.freeze(["read", "builtin:grep"]);
        const toolSets = Object.freeze([
            Object.freeze({ name: "q", tools: Object.freeze(["lint"]) }),
        ]);
        resolve({ includeTools, toolSets });
        expect(includeTools).toEqual(["read", "builtin:grep"]);
    });
});

describe("validateToolSets", () => {
    function refusal(toolSets: unknown): SessionToolError {
        try {
            validateToolSets(toolSets);
        } catch (error) {
            expect(error).toBeInstanceOf(SessionToolError);
            expect((error as SessionToolError).code).toBe("INVALID_TOOL_SET");
            return error as SessionToolError;
        }
        throw new Error("expected validateToolSets to throw");
    }

    it("rejects a toolSets option that is not an array", () => {
        expect(refusal({ name: "q", tools: [] }).message).toContain("pass an array");
    });

    it.each(["custom", "builtin"])("rejects redefining the computed toolset '%s'", (name) => {
        expect(refusal([{ name, tools: ["lint"] }]).message).toContain("cannot be redefined");
    });

    it("rejects duplicate toolset names", () => {
        expect(
            refusal([
                { name: "q", tools: [] },
                { name: "q", tools: [] },
            ]).message
        ).toContain("Duplicate toolset name 'q'");
    });

    it.each([["a:b"], [""], ["  "], [7]])("rejects the toolset name %j", (name) => {
        expect(refusal([{ name, tools: [] }]).message).toContain("toolSets[0].name");
    });

    it("rejects members that are not non-empty strings", () => {
        expect(refusal([{ name: "q", tools: ["lint", ""] }]).message).toContain(
            "toolSets[0].tools"
        );
    });
});
