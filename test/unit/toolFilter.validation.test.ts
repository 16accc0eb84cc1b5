import { describe, expect, it } from "vitest";
import { closestName } from "../../src/nameSuggestions.js";
import {
    resolveToolFilter,
    ToolFilterError,
    type ToolFilterCatalog,
    type ToolFilterWarning,
} from "../../src/toolFilter.js";

const catalog: ToolFilterCatalog = {
    tools: [{ id: "view" }, { id: "edit" }, { id: "bash" }, { id: "web_fetch" }],
    toolSets: [
        { id: "toolset:read", referenceName: "read", tools: ["view"] },
        { id: "toolset:execute", referenceName: "execute", tools: ["bash"] },
    ],
};

function collect(): { warnings: ToolFilterWarning[]; onWarning: (w: ToolFilterWarning) => void } {
    const warnings: ToolFilterWarning[] = [];
    return { warnings, onWarning: (warning) => warnings.push(warning) };
}

describe("unknown identifiers", () => {
    it("gives one warning per option that lists every unknown identifier", () => {
        const { warnings, onWarning } = collect();
        const result = resolveToolFilter(
            catalog,
            { include: ["view", "nope", "nada"], exclude: ["zilch"] },
            { onWarning }
        );
        expect(warnings.map((w) => [w.code, w.option, w.identifiers])).toEqual([
            ["UNKNOWN_IDENTIFIERS", "includeTools", ["nope", "nada"]],
            ["UNKNOWN_IDENTIFIERS", "excludeTools", ["zilch"]],
        ]);
        expect(result.warnings).toEqual(warnings);
        expect(warnings[0]!.message).toContain("'nope', 'nada'");
        expect(warnings[0]!.message).toContain("Toolsets: 'read', 'execute'");
    });

    it("keeps one short warning per option for 100,000 unknown identifiers", () => {
        const unknown = Array.from({ length: 100_000 }, (_, i) => `missing_tool_${i}`);
        const { warnings, onWarning } = collect();
        const result = resolveToolFilter(
            catalog,
            { include: ["view", ...unknown], exclude: unknown },
            { onWarning }
        );
        expect(warnings).toHaveLength(2);
        for (const warning of warnings) expect(warning.message.length).toBeLessThan(600);
        expect(warnings[0]!.message).toContain("and 99,9");
        expect(result.unknownIdentifiers).toHaveLength(200_000);
        expect(warnings[0]!.identifiers).toHaveLength(100_000);
    });

    it("suggests the known name that differs in case or by one or two edits", () => {
        const result = resolveToolFilter(
            catalog,
            { include: ["View", "edti", "web_fetc", "exceute", "something_else"] },
            { noToolsEnabled: "allow", onWarning() {} }
        );
        expect(result.unknownIdentifiers).toEqual([
            { option: "includeTools", identifier: "View", suggestion: "view" },
            { option: "includeTools", identifier: "edti", suggestion: "edit" },
            { option: "includeTools", identifier: "web_fetc", suggestion: "web_fetch" },
            { option: "includeTools", identifier: "exceute", suggestion: "execute" },
            { option: "includeTools", identifier: "something_else" },
        ]);
        expect(result.warnings[0]!.message).toContain("Did you mean 'View' -> 'view'");
    });

    it("finds no suggestion for names more than two edits away", () => {
        expect(closestName("browser", ["bash", "view", "edit"])).toBeUndefined();
        expect(closestName("vw", ["view"])).toBeUndefined();
        expect(closestName("veiw", ["view", "vie"])).toBe("view");
    });

    it("uses the caller's option names in messages", () => {
        const result = resolveToolFilter(
            catalog,
            { exclude: ["nope"] },
            { optionNames: { include: "availableTools", exclude: "excludedTools" }, onWarning() {} }
        );
        expect(result.unknownIdentifiers[0]!.option).toBe("excludedTools");
        expect(result.warnings[0]!.message).toMatch(/^1 excludedTools entry names no known/);
    });
});

describe("the per-request tool limit", () => {
    const many = (count: number): ToolFilterCatalog => ({
        tools: Array.from({ length: count }, (_, i) => ({ id: `tool_${i}` })),
    });

    it("warns when a filter leaves more than 128 tools", () => {
        const result = resolveToolFilter(many(130), { exclude: ["tool_0"] });
        expect(result.enabledTools).toHaveLength(129);
        expect(result.warnings.map((w) => w.code)).toEqual(["TOO_MANY_TOOLS"]);
        expect(result.warnings[0]!.message).toContain("129 tools");
    });

    it("does not warn at 128 tools, nor without a filter", () => {
        expect(resolveToolFilter(many(129), { exclude: ["tool_0"] }).warnings).toEqual([]);
        expect(resolveToolFilter(many(200), {}).warnings).toEqual([]);
    });
});

describe("malformed input", () => {
    it("refuses an option that is not an array, naming it and quoting the value", () => {
        expect(() => resolveToolFilter(catalog, { include: "view" as never })).toThrow(
            "Invalid includeTools 'view': pass an array of tool or toolset names, e.g. ['view']."
        );
    });

    it("refuses an entry that is not a non-empty string, and an empty slot", () => {
        expect(() => resolveToolFilter(catalog, { exclude: ["view", 42 as never] })).toThrow(
            "Invalid excludeTools[1] 42"
        );
        expect(() => resolveToolFilter(catalog, { include: ["view", ""] })).toThrow(
            "Invalid includeTools[1] ''"
        );
        // eslint-disable-next-line no-sparse-arrays
        expect(() =>
            resolveToolFilter(catalog, { include: ["view", , "edit"] as string[] })
        ).toThrow("Invalid includeTools[1] (empty slot)");
    });

    it("refuses a catalog with duplicate tool ids, duplicate toolsets or malformed members", () => {
        const cases: ToolFilterCatalog[] = [
            { tools: [{ id: "a" }, { id: "a" }] },
            { tools: [{ id: "" }] },
            {
                tools: [{ id: "a" }],
                toolSets: [
                    { id: "s", referenceName: "x", tools: [] },
                    { id: "t", referenceName: "x", tools: [] },
                ],
            },
            {
                tools: [{ id: "a" }],
                toolSets: [{ id: "s", referenceName: "s", tools: [7 as never] }],
            },
            { tools: 5 as never },
        ];
        for (const malformed of cases) {
            expect(() => resolveToolFilter(malformed, {})).toThrow(
                expect.objectContaining({ name: "ToolFilterError", code: "INVALID_CATALOG" })
            );
        }
    });

    it("throws ToolFilterError instances", () => {
        try {
            resolveToolFilter(catalog, { include: [] });
            expect.unreachable();
        } catch (error) {
            expect(error).toBeInstanceOf(ToolFilterError);
            expect(error).toBeInstanceOf(Error);
        }
    });
});

describe("names, inputs and results", () => {
    it("treats names of Object.prototype members like any other name", () => {
        const odd: ToolFilterCatalog = {
            tools: [{ id: "__proto__" }, { id: "constructor" }, { id: "toString" }],
            toolSets: [{ id: "hasOwnProperty", referenceName: "valueOf", tools: ["__proto__"] }],
        };
        expect(resolveToolFilter(odd, { include: ["valueOf", "toString"] }).enabledTools).toEqual([
            "__proto__",
            "toString",
        ]);
        expect(resolveToolFilter(odd, { exclude: ["constructor"] }).enabledTools).toEqual([
            "__proto__",
            "toString",
        ]);
    });

    it("reads tools, toolsets and members from any iterable", () => {
        function* tools() {
            yield { id: "a" };
            yield { id: "b" };
        }
        const result = resolveToolFilter(
            {
                tools: tools(),
                toolSets: new Set([{ id: "s", referenceName: "s", tools: new Set(["b"]) }]),
            },
            { include: ["s"] }
        );
        expect(result.enabledTools).toEqual(["b"]);
    });

    it("returns a frozen result whose maps refuse changes, and leaves the inputs alone", () => {
        const options = Object.freeze({
            include: Object.freeze(["read", "edit"]),
            exclude: Object.freeze(["view"]),
        });
        const frozenCatalog = Object.freeze({
            tools: Object.freeze(catalog.tools as readonly { id: string }[]).map((t) =>
                Object.freeze({ ...t })
            ),
            toolSets: Object.freeze([...(catalog.toolSets as [])]),
        });
        const result = resolveToolFilter(frozenCatalog, options);
        expect(result.enabledTools).toEqual(["edit"]);
        expect(Object.isFrozen(result)).toBe(true);
        expect(Object.isFrozen(result.enabledTools)).toBe(true);
        expect(() => (result.toolEnablement as Map<string, boolean>).set("bash", true)).toThrow(
            TypeError
        );
        expect(() => (result.toolSetEnablement as Map<string, boolean>).clear()).toThrow(TypeError);
        expect(result.toolEnablement.get("bash")).toBe(false);
    });
});
