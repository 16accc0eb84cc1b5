import { describe, expect, it } from "vitest";
import { SessionToolError } from "../../src/sessionToolError.js";
import { validateCustomTools } from "../../src/customToolValidation.js";

const handler = async (): Promise<string> => "ok";

function rejection(tools: unknown): SessionToolError {
    try {
        validateCustomTools(tools);
    } catch (error) {
        expect(error).toBeInstanceOf(SessionToolError);
        return error as SessionToolError;
    }
    throw new Error("expected validateCustomTools to throw");
}

describe("validateCustomTools", () => {
    it("accepts valid tools and returns them in order without modifying them", () => {
        const tools = Object.freeze([
            Object.freeze({ name: "view", handler }),
            Object.freeze({ name: "my-tool_2", handler, overridesBuiltInTool: false }),
            Object.freeze({ name: "pending", declarationOnly: true }),
        ]);
        const result = validateCustomTools(tools);
        expect(result).toEqual(tools);
        expect(result).not.toBe(tools);
        expect(result[0]).toBe(tools[0]);
    });

    it("treats an omitted tools option as no tools", () => {
        expect(validateCustomTools(undefined)).toEqual([]);
        expect(validateCustomTools(null)).toEqual([]);
    });

    it("rejects a tools option that is not an array", () => {
        const error = rejection({ name: "view", handler });
        expect(error.code).toBe("INVALID_CUSTOM_TOOL");
        expect(error.message).toContain("pass an array of tools");
    });

    it("rejects entries that are not tool objects, naming their index", () => {
        const error = rejection([{ name: "ok", handler }, "view", null]);
        expect(error.code).toBe("INVALID_CUSTOM_TOOL");
        expect(error.message).toContain("tools[1] is 'view'");
        expect(error.message).toContain("tools[2] is null");
        expect(error.toolNames).toEqual(["tools[1]", "tools[2]"]);
    });

    it("rejects a name that is not a string", () => {
        const error = rejection([{ name: 42, handler }]);
        expect(error.message).toContain("tools[0] has name 42");
    });

    it.each([
        ["an empty name", ""],
        ["a name with a space", "my tool"],
        ["a name with a dot", "my.tool"],
        ["a name with a colon", "builtin:view"],
        ["a name over 64 characters", "a".repeat(65)],
    ])("rejects %s", (_label, name) => {
        const error = rejection([{ name, handler }]);
        expect(error.code).toBe("INVALID_CUSTOM_TOOL");
        expect(error.message).toContain("invalid name");
        expect(error.toolNames).toEqual([name]);
    });

    it("accepts a name of exactly 64 characters", () => {
        expect(validateCustomTools([{ name: "a".repeat(64), handler }])).toHaveLength(1);
    });

    it("says how long a name over 64 characters is", () => {
        expect(rejection([{ name: "b".repeat(70), handler }]).message).toContain("this one has 70");
    });

    it.each(["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf", "prototype"])(
        "rejects the prototype name '%s' and suggests another",
        (name) => {
            const tool = JSON.parse(`{"name": ${JSON.stringify(name)}}`) as Record<string, unknown>;
            tool.handler = handler;
            const error = rejection([tool]);
            expect(error.code).toBe("INVALID_CUSTOM_TOOL");
            expect(error.message).toContain(`'${name}'`);
            expect(error.message).toContain("rename it");
            expect(error.toolNames).toEqual([name]);
        }
    );

    it.each([
        ["the string 'true'", "true"],
        ["the number 1", 1],
        ["null", null],
    ])("rejects overridesBuiltInTool set to %s", (_label, value) => {
        const error = rejection([{ name: "view", handler, overridesBuiltInTool: value }]);
        expect(error.code).toBe("INVALID_CUSTOM_TOOL");
        expect(error.message).toContain("overridesBuiltInTool");
        expect(error.message).toContain("use true, false, or leave it out");
    });

    it("rejects a tool without a handler and explains declarationOnly", () => {
        const error = rejection([{ name: "lint", description: "Lint" }]);
        expect(error.code).toBe("INVALID_CUSTOM_TOOL");
        expect(error.message).toContain("Custom tool 'lint' (tools[0]) has no handler");
        expect(error.message).toContain("declarationOnly: true");
    });

    it("rejects a handler that is not a function", () => {
        expect(rejection([{ name: "lint", handler: "run" }]).message).toContain(
            "has handler 'run'; a handler must be a function"
        );
    });

    it("rejects declarationOnly together with a handler, and a non-boolean declarationOnly", () => {
        expect(rejection([{ name: "a", declarationOnly: true, handler }]).message).toContain(
            "is declarationOnly but also has a handler"
        );
        expect(rejection([{ name: "b", declarationOnly: "yes" }]).message).toContain(
            "has declarationOnly 'yes'"
        );
    });

    it("rejects two tools with the same name, naming both positions", () => {
        const error = rejection([
            { name: "view", handler },
            { name: "other", handler },
            { name: "view", handler },
        ]);
        expect(error.code).toBe("DUPLICATE_TOOL_NAME");
        expect(error.message).toContain("'view' is defined twice (tools[0] and tools[2])");
        expect(error.toolNames).toEqual(["view"]);
    });

    it("rejects two tools whose names differ only in case", () => {
        const error = rejection([
            { name: "Deploy", handler },
            { name: "deploy", handler },
        ]);
        expect(error.code).toBe("DUPLICATE_TOOL_NAME");
        expect(error.message).toContain("differ only in case");
    });

    it("reports every invalid tool at once", () => {
        const error = rejection([
            { name: "bad name", handler },
            { name: "ok", handler },
            { name: "nohandler" },
        ]);
        expect(error.toolNames).toEqual(["bad name", "nohandler"]);
    });
});
