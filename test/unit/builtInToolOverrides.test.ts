import { describe, expect, it } from "vitest";
import { resolveBuiltInToolOverrides } from "../../src/builtInToolOverrides.js";
import { SessionToolError } from "../../src/sessionToolError.js";

const handler = async (): Promise<string> => "ok";
const names = {
    reserved: new Set(["view", "edit", "bash", "powershell"]),
    unhonoured: new Set(["powershell"]),
};

function refusal(run: () => unknown): SessionToolError {
    try {
        run();
    } catch (error) {
        expect(error).toBeInstanceOf(SessionToolError);
        return error as SessionToolError;
    }
    throw new Error("expected a SessionToolError");
}

describe("resolveBuiltInToolOverrides", () => {
    it("leaves tools without a collision as they are (seed case: no collision)", () => {
        const tools = [{ name: "myTool", handler }];
        const result = resolveBuiltInToolOverrides(tools, names, "override");
        expect(result.tools).toEqual(tools);
        expect(result.tools[0]).toBe(tools[0]);
        expect(result.overridden).toEqual([]);
        expect(result.automatic).toEqual([]);
    });

    it("marks a custom tool with a built-in's name as its override (seed case: one collision)", () => {
        const tool = Object.freeze({ name: "edit", description: "mine", handler });
        const result = resolveBuiltInToolOverrides([tool], names, "override");
        expect(result.tools).toEqual([{ ...tool, overridesBuiltInTool: true }]);
        expect(result.tools[0]).not.toBe(tool);
        expect(tool).not.toHaveProperty("overridesBuiltInTool");
        expect(result.overridden).toEqual(["edit"]);
        expect(result.automatic).toEqual(["edit"]);
    });

    it("overrides every colliding built-in (seed case: several collisions)", () => {
        const result = resolveBuiltInToolOverrides(
            [
                { name: "edit", handler },
                { name: "mine", handler },
                { name: "bash", handler, overridesBuiltInTool: true },
            ],
            names,
            "override"
        );
        expect(result.tools.map((t) => [t.name, t.overridesBuiltInTool])).toEqual([
            ["edit", true],
            ["mine", undefined],
            ["bash", true],
        ]);
        expect(result.overridden).toEqual(["edit", "bash"]);
        expect(result.automatic).toEqual(["edit"]);
    });

    it("refuses an explicit overridesBuiltInTool: false on a built-in's name, naming every such tool", () => {
        const error = refusal(() =>
            resolveBuiltInToolOverrides(
                [
                    { name: "view", handler, overridesBuiltInTool: false },
                    { name: "bash", handler, overridesBuiltInTool: false },
                ],
                names,
                "override"
            )
        );
        expect(error.code).toBe("BUILT_IN_TOOL_COLLISION");
        expect(error.toolNames).toEqual(["view", "bash"]);
        expect(error.message).toContain("'view', 'bash'");
        expect(error.message).toContain("overridesBuiltInTool: false");
    });

    it("refuses unmarked collisions under the 'error' policy and accepts marked ones", () => {
        const error = refusal(() =>
            resolveBuiltInToolOverrides(
                [
                    { name: "view", handler },
                    { name: "edit", handler, overridesBuiltInTool: true },
                    { name: "bash", handler },
                ],
                names,
                "error"
            )
        );
        expect(error.code).toBe("BUILT_IN_TOOL_COLLISION");
        expect(error.toolNames).toEqual(["view", "bash"]);
        expect(error.message).toContain("builtInToolCollisions is 'error'");
        const ok = resolveBuiltInToolOverrides(
            [{ name: "edit", handler, overridesBuiltInTool: true }],
            names,
            "error"
        );
        expect(ok.overridden).toEqual(["edit"]);
        expect(ok.automatic).toEqual([]);
    });

    it("refuses an override the runtime does not honour, even when marked", () => {
        const error = refusal(() =>
            resolveBuiltInToolOverrides(
                [{ name: "powershell", handler, overridesBuiltInTool: true }],
                names,
                "override"
            )
        );
        expect(error.code).toBe("UNSUPPORTED_OVERRIDE");
        expect(error.toolNames).toEqual(["powershell"]);
        expect(error.message).toContain("this runtime ignores the override");
    });

    it("reports names that match a built-in only when case is ignored, without overriding", () => {
        const result = resolveBuiltInToolOverrides([{ name: "View", handler }], names, "override");
        expect(result.overridden).toEqual([]);
        expect(result.caseOnlyMatches).toEqual([{ tool: "View", builtIn: "view" }]);
        expect(result.tools[0]).not.toHaveProperty("overridesBuiltInTool");
    });

    it("reports overridesBuiltInTool: true on a name no built-in has", () => {
        const result = resolveBuiltInToolOverrides(
            [{ name: "lint", handler, overridesBuiltInTool: true }],
            names,
            "override"
        );
        expect(result.needlessFlags).toEqual(["lint"]);
        expect(result.overridden).toEqual([]);
    });
});
