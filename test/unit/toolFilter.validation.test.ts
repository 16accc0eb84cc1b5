import { describe, expect, it } from "vitest";
import {
    resolveToolFilter,
    ToolFilterError,
    type ToolFilterCatalog,
    type ToolFilterWarning,
} from "../../src/toolFilter/toolFilter.js";

// Warnings, the caller's settings, malformed input, odd names, immutability and iterables.
const catalog: ToolFilterCatalog = {
    tools: [
        { id: "view" },
        { id: "edit" },
        { id: "bash" },
        { id: "web_fetch", toolReferenceName: "fetch" },
    ],
    toolSets: [
        { id: "toolset:read", referenceName: "read", tools: ["view"] },
        { id: "toolset:execute", referenceName: "execute", tools: ["bash"] },
    ],
};

function collect(): { warnings: ToolFilterWarning[]; onWarning: (w: ToolFilterWarning) => void } {
    const warnings: ToolFilterWarning[] = [];
    return { warnings, onWarning: (warning) => warnings.push(warning) };
}

function toolCatalog(count: number): ToolFilterCatalog {
    return { tools: Array.from({ length: count }, (_, i) => ({ id: `tool_${i}` })) };
}

describe("unknown identifiers", () => {
    it("gives one warning per option, listing its identifiers and the toolsets", () => {
        const { warnings, onWarning } = collect();
        const result = resolveToolFilter(
            catalog,
            { include: ["view", "nope", "nada"], exclude: ["zilch"] },
            { onWarning }
        );
        expect(warnings).toEqual([
            {
                code: "UNKNOWN_IDENTIFIERS",
                option: "includeTools",
                identifiers: ["nope", "nada"],
                message:
                    "2 includeTools entries name no known tool or toolset: 'nope', 'nada'. Toolsets: 'read', 'execute'.",
            },
            {
                code: "UNKNOWN_IDENTIFIERS",
                option: "excludeTools",
                identifiers: ["zilch"],
                message:
                    "1 excludeTools entry names no known tool or toolset: 'zilch'. Toolsets: 'read', 'execute'.",
            },
        ]);
        expect(result.warnings).toEqual(warnings);
    });

    it("gives exactly one short warning per option for 100,000 unknown identifiers", () => {
        const unknown = Array.from({ length: 100_000 }, (_, i) => `missing_tool_${i}`);
        const { warnings, onWarning } = collect();
        const result = resolveToolFilter(
            catalog,
            { include: ["view", ...unknown], exclude: unknown },
            { onWarning }
        );
        expect(warnings.map((w) => [w.code, w.option])).toEqual([
            ["UNKNOWN_IDENTIFIERS", "includeTools"],
            ["UNKNOWN_IDENTIFIERS", "excludeTools"],
        ]);
        for (const warning of warnings) {
            expect(warning.message.length).toBeLessThan(500);
            expect(warning.message).toMatch(/^100000 \w+ entries name no known tool or toolset: /);
            expect(warning.message).toMatch(/ and 99,9\d\d more\./);
            expect(warning.identifiers).toEqual(unknown);
        }
        expect(result.unknownIdentifiers).toHaveLength(200_000);
        expect(result.unknownIdentifiers[199_999]).toEqual({
            option: "excludeTools",
            identifier: "missing_tool_99999",
        });
        expect(result.enabledTools).toEqual(["view"]);
    });

    it("suggests the name that differs only in case", () => {
        const result = resolveToolFilter(
            catalog,
            { exclude: ["VIEW", "Execute"] },
            { onWarning() {} }
        );
        expect(result.unknownIdentifiers.map((entry) => entry.suggestion)).toEqual([
            "view",
            "execute",
        ]);
        expect(result.warnings[0]!.message).toContain(
            "Did you mean 'view' for 'VIEW', 'execute' for 'Execute'?"
        );
    });

    it("suggests a name one or two edits away, swaps of neighbours included", () => {
        const result = resolveToolFilter(
            catalog,
            { exclude: ["edti", "web_fetc", "exceute", "wb_fetcch", "fech"] },
            { onWarning() {} }
        );
        expect(result.unknownIdentifiers.map((entry) => entry.suggestion)).toEqual([
            "edit",
            "web_fetch",
            "execute",
            "web_fetch",
            "fetch",
        ]);
    });

    it("suggests nothing for names further away, and allows short names only one edit", () => {
        const result = resolveToolFilter(
            catalog,
            { exclude: ["browser", "terminal", "vw", "exit"] },
            { onWarning() {} }
        );
        expect(result.unknownIdentifiers.map((entry) => entry.suggestion)).toEqual([
            undefined,
            undefined,
            undefined,
            "edit",
        ]);
        expect(result.warnings[0]!.message).not.toContain("'browser' ->");
    });

    it("spells the options as the caller names them", () => {
        const result = resolveToolFilter(
            catalog,
            { exclude: ["nope"] },
            { optionNames: { include: "availableTools", exclude: "excludedTools" }, onWarning() {} }
        );
        expect(result.unknownIdentifiers[0]!.option).toBe("excludedTools");
        expect(result.warnings[0]!.message).toMatch(/^1 excludedTools entry names no known/);
    });
});

describe("settings for empty results", () => {
    it("returns no tools for include: [] when emptyInclude is 'allow'", () => {
        const { warnings, onWarning } = collect();
        const result = resolveToolFilter(
            catalog,
            { include: [] },
            { emptyInclude: "allow", onWarning }
        );
        expect(result.mode).toBe("include");
        expect(result.enabledTools).toEqual([]);
        expect(warnings).toEqual([]);
    });

    it("warns instead of throwing for an empty result when noToolsEnabled is 'warn'", () => {
        const { warnings, onWarning } = collect();
        const result = resolveToolFilter(
            catalog,
            { exclude: ["read", "execute", "edit", "fetch"] },
            { noToolsEnabled: "warn", onWarning }
        );
        expect(result.enabledTools).toEqual([]);
        expect(warnings).toEqual([
            {
                code: "NO_TOOLS_ENABLED",
                message:
                    "excludeTools leaves no tool enabled. Check the names against the available tools and toolsets, or widen the filter.",
            },
        ]);
    });

    it("stays silent about an empty result when noToolsEnabled is 'allow'", () => {
        const result = resolveToolFilter(
            catalog,
            { include: ["read"], exclude: ["view"] },
            { noToolsEnabled: "allow" }
        );
        expect(result.enabledTools).toEqual([]);
        expect(result.warnings).toEqual([]);
    });

    it("reports unknown identifiers before throwing for the empty result they cause", () => {
        const { warnings, onWarning } = collect();
        expect(() => resolveToolFilter(catalog, { include: ["veiw"] }, { onWarning })).toThrow(
            expect.objectContaining({ code: "NO_TOOLS_ENABLED" })
        );
        expect(warnings.map((w) => w.identifiers)).toEqual([["veiw"]]);
    });
});

describe("the per-request tool limit", () => {
    it("warns when a filter leaves 129 tools", () => {
        const result = resolveToolFilter(toolCatalog(130), { exclude: ["tool_0"] });
        expect(result.enabledTools).toHaveLength(129);
        expect(result.warnings).toEqual([
            {
                code: "TOO_MANY_TOOLS",
                message:
                    "The filter leaves 129 tools, more than the 128 a model accepts in one request; requests may be refused or tools dropped. Exclude the toolsets you do not need.",
            },
        ]);
    });

    it("does not warn when a filter leaves 128 tools", () => {
        expect(resolveToolFilter(toolCatalog(129), { exclude: ["tool_0"] }).warnings).toEqual([]);
    });

    it("does not warn in default mode, however many tools there are", () => {
        expect(resolveToolFilter(toolCatalog(500), {}).warnings).toEqual([]);
    });

    it("warns above the caller's maxTools", () => {
        const result = resolveToolFilter(toolCatalog(4), { exclude: ["tool_0"] }, { maxTools: 2 });
        expect(result.warnings.map((w) => w.code)).toEqual(["TOO_MANY_TOOLS"]);
    });
});

describe("malformed input", () => {
    it("refuses an option that is not an array, naming it and quoting the value", () => {
        expect(() => resolveToolFilter(catalog, { include: "view" as never })).toThrow(
            new ToolFilterError(
                "INVALID_FILTER_OPTION",
                "Invalid includeTools 'view': pass an array of tool or toolset names, e.g. ['view'].",
                "includeTools"
            )
        );
    });

    it("refuses an entry that is not a string, an empty string and an empty slot", () => {
        expect(() => resolveToolFilter(catalog, { exclude: ["view", 42 as never] })).toThrow(
            "Invalid excludeTools[1] 42: every entry must be a non-empty tool or toolset name."
        );
        expect(() => resolveToolFilter(catalog, { include: ["view", ""] })).toThrow(
            "Invalid includeTools[1] ''"
        );
        const sparse = ["view", "edit"];
        delete sparse[0];
        expect(() => resolveToolFilter(catalog, { include: sparse })).toThrow(
            "Invalid includeTools[0] (empty slot)"
        );
    });

    it("reads each list once, by index, and refuses one that cannot be read", () => {
        const { proxy, revoke } = Proxy.revocable(["view"], {});
        revoke();
        expect(() => resolveToolFilter(catalog, { include: proxy })).toThrow(
            expect.objectContaining({
                code: "INVALID_FILTER_OPTION",
                option: "includeTools",
                message: expect.stringMatching(
                    /^Invalid includeTools: it cannot be read \(.+\); pass an array of tool or toolset names\.$/
                ),
            })
        );
        // Neither the list's own iterator nor a second read of an entry decides what is used.
        let reads = 0;
        const list = new Proxy(["view", "bash"], {
            get(target, key, receiver) {
                if (key === "1") reads++;
                if (key === Symbol.iterator) throw new Error("iterated");
                return Reflect.get(target, key, receiver);
            },
        });
        expect(resolveToolFilter(catalog, { exclude: list }).enabledTools).toEqual([
            "edit",
            "web_fetch",
        ]);
        expect(reads).toBe(1);
    });

    it("refuses options that are not an object", () => {
        expect(() => resolveToolFilter(catalog, null as never)).toThrow(
            expect.objectContaining({ code: "INVALID_FILTER_OPTION" })
        );
    });

    it("refuses a malformed catalog with INVALID_CATALOG", () => {
        const cases: unknown[] = [
            null,
            { tools: 5 },
            { tools: [{ id: "a" }, { id: "a" }] },
            { tools: [{ id: "" }] },
            { tools: [null] },
            { tools: [{ id: "a" }], toolSets: 3 },
            { tools: [{ id: "a" }], toolSets: [{ id: "s", tools: [] }] },
            {
                tools: [{ id: "a" }],
                toolSets: [
                    { id: "s", referenceName: "x", tools: [] },
                    { id: "t", referenceName: "x", tools: [] },
                ],
            },
            { tools: [{ id: "a" }], toolSets: [{ id: "s", referenceName: "s", tools: [7] }] },
            { tools: [{ id: "a" }], toolSets: [{ id: "s", referenceName: "s" }] },
        ];
        for (const malformed of cases) {
            expect(() => resolveToolFilter(malformed as ToolFilterCatalog, {})).toThrow(
                expect.objectContaining({ name: "ToolFilterError", code: "INVALID_CATALOG" })
            );
        }
    });

    it("refuses sources that are not a list of names instead of reading a string's letters", () => {
        const cases: [unknown, string][] = [
            [
                { tools: [{ id: "view", sources: "builtin" }] },
                "Invalid catalog sources of tool 'view' 'builtin': pass an array or other iterable.",
            ],
            [
                { tools: [{ id: "view", sources: 5 }] },
                "Invalid catalog sources of tool 'view' 5: pass an array or other iterable.",
            ],
            [
                { tools: [{ id: "view" }], sources: "custom" },
                "Invalid catalog sources 'custom': pass an array or other iterable.",
            ],
            [
                { tools: [{ id: "view", sources: ["builtin", ""] }] },
                "Invalid source '': a source is a non-empty string such as 'builtin'.",
            ],
            [
                { tools: [{ id: "view" }], sources: [null] },
                "Invalid source null: a source is a non-empty string such as 'builtin'.",
            ],
        ];
        for (const [malformed, message] of cases) {
            expect(() =>
                resolveToolFilter(malformed as ToolFilterCatalog, { include: ["b:*"] })
            ).toThrow(new ToolFilterError("INVALID_CATALOG", message));
        }
    });

    it("throws ToolFilterError, an Error with a code and the option", () => {
        let caught: unknown;
        try {
            resolveToolFilter(
                catalog,
                { include: [] },
                { optionNames: { include: "in", exclude: "out" } }
            );
        } catch (error) {
            caught = error;
        }
        expect(caught).toBeInstanceOf(ToolFilterError);
        expect(caught).toBeInstanceOf(Error);
        expect(caught).toMatchObject({ code: "EMPTY_INCLUDE", option: "in" });
    });
});

describe("names of Object.prototype members", () => {
    const odd: ToolFilterCatalog = {
        tools: [
            { id: "__proto__", toolReferenceName: "hasOwnProperty" },
            { id: "constructor" },
            { id: "toString" },
        ],
        toolSets: [{ id: "valueOf", referenceName: "__defineGetter__", tools: ["__proto__"] }],
    };

    it("matches them as ordinary tool ids, reference names and toolset names", () => {
        expect(
            resolveToolFilter(odd, { include: ["__defineGetter__", "toString"] }).enabledTools
        ).toEqual(["__proto__", "toString"]);
        expect(
            resolveToolFilter(odd, { exclude: ["constructor", "hasOwnProperty"] }).enabledTools
        ).toEqual(["toString"]);
    });

    it("keys the result maps by them without touching prototypes", () => {
        const result = resolveToolFilter(odd, { exclude: ["valueOf"] });
        expect([...result.toolEnablement]).toEqual([
            ["__proto__", false],
            ["constructor", true],
            ["toString", true],
        ]);
        expect(result.toolSetEnablement.get("__defineGetter__")).toBe(false);
        expect(Object.getPrototypeOf({})).toBe(Object.prototype);
    });

    it("treats them as unknown where the catalog lacks them", () => {
        const result = resolveToolFilter(
            catalog,
            { exclude: ["__proto__", "constructor"] },
            { onWarning() {} }
        );
        expect(result.unknownIdentifiers.map((entry) => entry.identifier)).toEqual([
            "__proto__",
            "constructor",
        ]);
        expect(result.enabledTools).toHaveLength(4);
    });
});

describe("inputs and results", () => {
    it("returns a frozen result whose maps refuse set, delete and clear", () => {
        const result = resolveToolFilter(
            catalog,
            { include: ["read"], exclude: ["nope"] },
            { onWarning() {} }
        );
        for (const part of [
            result,
            result.enabledTools,
            result.namedToolSets,
            result.namedToolSets.include,
            result.namedToolSets.exclude,
            result.unknownIdentifiers,
            result.unknownIdentifiers[0],
            result.warnings,
            result.warnings[0],
            result.toolEnablement,
            result.toolSetEnablement,
        ]) {
            expect(Object.isFrozen(part)).toBe(true);
        }
        const tools = result.toolEnablement as Map<string, boolean>;
        const toolSets = result.toolSetEnablement as Map<string, boolean>;
        expect(() => tools.set("bash", true)).toThrow(TypeError);
        expect(() => tools.delete("view")).toThrow(TypeError);
        expect(() => toolSets.clear()).toThrow(TypeError);
        expect(tools.get("bash")).toBe(false);
        expect(toolSets.get("read")).toBe(true);
    });

    it("does not modify the catalog or the options", () => {
        const input = {
            tools: [{ id: "view", toolReferenceName: "v" }, { id: "bash" }],
            toolSets: [{ id: "toolset:read", referenceName: "read", tools: ["view"] }],
        };
        const options = { include: ["read", "bash", "nope"], exclude: ["v"] };
        const before = structuredClone({ input, options });
        const frozen = (value: unknown): unknown => {
            if (typeof value === "object" && value !== null) {
                Object.values(value).forEach(frozen);
                Object.freeze(value);
            }
            return value;
        };
        frozen(input);
        frozen(options);
        expect(resolveToolFilter(input, options, { onWarning() {} }).enabledTools).toEqual([
            "bash",
        ]);
        expect({ input, options }).toEqual(before);
    });

    it("reads tools from a generator, toolsets from a Set and members from a Set", () => {
        function* tools() {
            yield { id: "a" };
            yield { id: "b", toolReferenceName: "bee" };
            yield { id: "c" };
        }
        const result = resolveToolFilter(
            {
                tools: tools(),
                toolSets: new Set([{ id: "s", referenceName: "s", tools: new Set(["bee", "c"]) }]),
            },
            { include: ["s"], exclude: ["c"] }
        );
        expect(result.enabledTools).toEqual(["b"]);
        expect(result.toolSetEnablement.get("s")).toBe(false);
    });

    it("reads toolsets and members from generators", () => {
        function* members() {
            yield "a";
        }
        function* toolSets() {
            yield { id: "s", referenceName: "s", tools: members() };
        }
        const result = resolveToolFilter(
            { tools: new Set([{ id: "a" }, { id: "b" }]), toolSets: toolSets() },
            { exclude: ["s"] }
        );
        expect(result.enabledTools).toEqual(["b"]);
    });
});
