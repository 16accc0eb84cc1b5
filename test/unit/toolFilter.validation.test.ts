import { afterEach, describe, expect, it, vi } from "vitest";
import {
    resolveToolFilter,
    type ToolCatalog,
    type ToolFilterOptions,
    type ToolFilterWarning,
} from "../../src/toolFilter.js";
import { ToolFilterError } from "../../src/toolFilterError.js";

const catalog: ToolCatalog = {
    tools: [
        { id: "vscode_editFile", toolReferenceName: "editFile" },
        { id: "vscode_fetch", toolReferenceName: "fetch" },
        { id: "view" },
    ],
    toolSets: [
        { id: "toolset:edit", referenceName: "edit", tools: ["vscode_editFile"] },
        { id: "toolset:web", referenceName: "web", tools: ["vscode_fetch"] },
    ],
};

const silent = { onWarning: () => {} };

/** Runs `action` and returns what it threw, failing the test when it does not throw. */
function thrown(action: () => unknown): ToolFilterError {
    try {
        action();
    } catch (error) {
        expect(error).toBeInstanceOf(ToolFilterError);
        return error as ToolFilterError;
    }
    throw new Error("expected a ToolFilterError");
}

/** Calls resolveToolFilter with options the types would reject, as a JavaScript caller might. */
function resolveUntyped(
    options: unknown,
    onCatalog: unknown = catalog
): ReturnType<typeof resolveToolFilter> {
    return resolveToolFilter(onCatalog as ToolCatalog, options as ToolFilterOptions, silent);
}

function deepFreeze<T>(value: T): T {
    if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
        for (const key of Reflect.ownKeys(value)) {
            deepFreeze((value as Record<PropertyKey, unknown>)[key]);
        }
        Object.freeze(value);
    }
    return value;
}

describe("options object", () => {
    it("treats null and undefined options as no filter", () => {
        expect(resolveUntyped(null).mode).toBe("default");
        expect(resolveUntyped(undefined).enabledTools).toEqual([
            "vscode_editFile",
            "vscode_fetch",
            "view",
        ]);
    });

    it("rejects options that are not an object with INVALID_OPTION", () => {
        for (const options of ["view", 42, true]) {
            const error = thrown(() => resolveUntyped(options));
            expect(error.code).toBe("INVALID_OPTION");
            expect(error.message).toContain(`'${String(options)}'`);
            expect(error.message).toContain("expected an object such as { includeTools:");
        }
    });

    it("rejects an array passed as the options object with INVALID_OPTION", () => {
        const error = thrown(() => resolveUntyped(["view"]));
        expect(error).toMatchObject({ code: "INVALID_OPTION", value: ["view"] });
        expect(error.message).toMatch(/^Invalid tool filter options '\["view"\]'/);
    });

    it("ignores unrelated properties of the options object", () => {
        expect(resolveUntyped({ query: "hi", includeTools: ["view"] }).enabledTools).toEqual([
            "view",
        ]);
    });
});

describe("option values", () => {
    it("treats null includeTools and excludeTools as omitted", () => {
        expect(resolveUntyped({ includeTools: null, excludeTools: null }).mode).toBe("default");
        expect(resolveUntyped({ includeTools: null, excludeTools: ["web"] }).mode).toBe(
            "blacklist"
        );
    });

    it("rejects a bare string includeTools and says to wrap it in an array", () => {
        const error = thrown(() => resolveUntyped({ includeTools: "view" }));
        expect(error).toMatchObject({
            code: "INVALID_OPTION",
            option: "includeTools",
            value: "view",
        });
        expect(error.message).toBe(
            `Invalid includeTools 'view': expected an array of tool or toolset identifiers. Wrap a single identifier in an array: includeTools: ["view"].`
        );
    });

    it("rejects a bare string excludeTools and says to wrap it in an array", () => {
        const error = thrown(() => resolveUntyped({ excludeTools: "web" }));
        expect(error).toMatchObject({ code: "INVALID_OPTION", option: "excludeTools" });
        expect(error.message).toContain(`excludeTools: ["web"]`);
    });

    it("rejects includeTools and excludeTools that are not arrays", () => {
        for (const value of [42, {}, new Set(["view"]), true]) {
            expect(thrown(() => resolveUntyped({ includeTools: value }))).toMatchObject({
                code: "INVALID_OPTION",
                option: "includeTools",
            });
            const error = thrown(() => resolveUntyped({ excludeTools: value }));
            expect(error).toMatchObject({ code: "INVALID_OPTION", option: "excludeTools" });
            expect(error.message).toContain("Omit excludeTools to exclude nothing");
        }
    });
});

describe("identifiers", () => {
    it("rejects non-string entries with INVALID_IDENTIFIER naming the index and value", () => {
        const error = thrown(() => resolveUntyped({ includeTools: ["view", 42] }));
        expect(error).toMatchObject({
            code: "INVALID_IDENTIFIER",
            option: "includeTools",
            index: 1,
            value: 42,
        });
        expect(error.message).toMatch(
            /^Invalid includeTools entry at index 1 '42': identifiers must be strings/
        );
        for (const entry of [null, undefined, {}, ["view"], Symbol("view")]) {
            expect(thrown(() => resolveUntyped({ excludeTools: [entry] }))).toMatchObject({
                code: "INVALID_IDENTIFIER",
                option: "excludeTools",
                index: 0,
            });
        }
    });

    it("rejects holes in a sparse array with INVALID_IDENTIFIER", () => {
        // eslint-disable-next-line no-sparse-arrays
        const error = thrown(() => resolveUntyped({ includeTools: ["view", , "edit"] }));
        expect(error).toMatchObject({ code: "INVALID_IDENTIFIER", index: 1 });
    });

    it("rejects empty and whitespace-only entries with INVALID_IDENTIFIER", () => {
        for (const entry of ["", "   ", "\t\n"]) {
            const error = thrown(() => resolveUntyped({ includeTools: ["view", entry] }));
            expect(error).toMatchObject({
                code: "INVALID_IDENTIFIER",
                option: "includeTools",
                index: 1,
            });
            expect(error.message).toContain("cannot be empty or whitespace only");
        }
    });

    it("reports an identifier with stray whitespace as unknown and suggests the trimmed name", () => {
        const result = resolveUntyped({ includeTools: [" edit ", "view"] });
        expect(result.unknownIdentifiers).toEqual([
            { option: "includeTools", identifier: " edit " },
        ]);
        expect(result.warnings[0]?.message).toContain("Did you mean 'edit'?");
    });

    it("warns about a duplicate identifier and ignores the repeat", () => {
        const result = resolveUntyped({ includeTools: ["edit", "view", "edit"] });
        expect(result.enabledTools).toEqual(["vscode_editFile", "view"]);
        expect(result.warnings).toEqual([
            {
                code: "DUPLICATE_IDENTIFIER",
                option: "includeTools",
                identifier: "edit",
                message:
                    "Duplicate includeTools identifier 'edit' at index 2: it is already listed, so the repeat has no effect. Remove it.",
            },
        ]);
        expect(result.resolutions).toHaveLength(2);
    });

    it("lists a repeated unknown identifier once", () => {
        const result = resolveUntyped({ excludeTools: ["nope", "nope"] });
        expect(result.unknownIdentifiers).toEqual([{ option: "excludeTools", identifier: "nope" }]);
        expect(result.warnings.map((warning) => warning.code)).toEqual([
            "UNKNOWN_IDENTIFIER",
            "DUPLICATE_IDENTIFIER",
        ]);
    });

    it("does not treat an identifier listed in both options as a duplicate", () => {
        const result = resolveUntyped({ includeTools: ["view", "edit"], excludeTools: ["view"] });
        expect(result.warnings).toEqual([]);
        expect(result.enabledTools).toEqual(["vscode_editFile"]);
    });

    it("treats __proto__, constructor, toString and hasOwnProperty as ordinary names", () => {
        const names = ["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"];
        const special: ToolCatalog = {
            tools: names.map((name) => ({ id: `tool_${name}`, toolReferenceName: name })),
            toolSets: [{ id: "__proto__", referenceName: "constructor", tools: ["tool_toString"] }],
        };
        // "__proto__" and "constructor" name the toolset (toolset names are matched first).
        const result = resolveToolFilter(
            special,
            { includeTools: ["__proto__", "hasOwnProperty"], excludeTools: ["valueOf"] },
            silent
        );
        expect(result.enabledTools).toEqual(["tool_toString", "tool_hasOwnProperty"]);
        expect(result.toolSetEnablement.get("__proto__")).toBe(true);
        expect(result.resolutions.map((entry) => entry.resolution.kind)).toEqual([
            "toolSet",
            "tool",
            "tool",
        ]);
        const blacklist = resolveToolFilter(
            special,
            { excludeTools: ["constructor", "__proto__"] },
            silent
        );
        expect(blacklist.enabledTools).toEqual(
            names.filter((n) => n !== "toString").map((n) => `tool_${n}`)
        );
    });

    it("reports __proto__ and friends as unknown when the catalog has no such name", () => {
        const result = resolveUntyped({
            includeTools: ["view", "__proto__", "constructor", "toString", "hasOwnProperty"],
        });
        expect(result.enabledTools).toEqual(["view"]);
        expect(result.unknownIdentifiers.map((entry) => entry.identifier)).toEqual([
            "__proto__",
            "constructor",
            "toString",
            "hasOwnProperty",
        ]);
    });
});

describe("catalog validation", () => {
    it("rejects a catalog that is not an object or has no tools array", () => {
        for (const bad of [
            null,
            undefined,
            "tools",
            {},
            { tools: "view" },
            { tools: { view: {} } },
        ]) {
            expect(
                thrown(() => resolveToolFilter(bad as unknown as ToolCatalog, {}, silent)).code
            ).toBe("INVALID_CATALOG");
        }
    });

    it("rejects malformed tools with INVALID_CATALOG naming the entry", () => {
        for (const tool of [null, "view", {}, { id: "" }, { id: 7 }]) {
            const error = thrown(() => resolveUntyped({}, { tools: [{ id: "ok" }, tool] }));
            expect(error).toMatchObject({ code: "INVALID_CATALOG", index: 1 });
            expect(error.message).toContain("tools[1]");
        }
        const error = thrown(() =>
            resolveUntyped({}, { tools: [{ id: "view", toolReferenceName: 3 }] })
        );
        expect(error.message).toContain("tools[0].toolReferenceName '3' of tool 'view'");
    });

    it("rejects duplicate tool ids with INVALID_CATALOG naming the id", () => {
        const error = thrown(() =>
            resolveUntyped({}, { tools: [{ id: "view" }, { id: "grep" }, { id: "view" }] })
        );
        expect(error).toMatchObject({ code: "INVALID_CATALOG", index: 2, value: "view" });
        expect(error.message).toBe(
            "Invalid tool catalog: duplicate tool id 'view' at tools[0] and tools[2]. Tool ids must be unique; remove or rename one of them."
        );
    });

    it("rejects duplicate toolset ids with INVALID_CATALOG naming the id", () => {
        const error = thrown(() =>
            resolveUntyped(
                {},
                {
                    tools: [{ id: "view" }],
                    toolSets: [
                        { id: "set", referenceName: "one", tools: [] },
                        { id: "set", referenceName: "two", tools: [] },
                    ],
                }
            )
        );
        expect(error).toMatchObject({ code: "INVALID_CATALOG", index: 1, value: "set" });
        expect(error.message).toContain(
            "duplicate toolset id 'set' at toolSets[0] and toolSets[1]"
        );
    });

    it("rejects malformed toolsets with INVALID_CATALOG", () => {
        const bad = [
            "edit",
            { id: "x", tools: [] },
            { referenceName: "x", tools: [] },
            { id: "x", referenceName: "x" },
            { id: "x", referenceName: "", tools: [] },
            { id: "x", referenceName: "x", tools: [42] },
        ];
        for (const toolSet of bad) {
            expect(
                thrown(() => resolveUntyped({}, { tools: [{ id: "view" }], toolSets: [toolSet] }))
            ).toMatchObject({ code: "INVALID_CATALOG", index: 0 });
        }
        expect(thrown(() => resolveUntyped({}, { tools: [], toolSets: "edit" })).code).toBe(
            "INVALID_CATALOG"
        );
    });

    it("accepts null or omitted toolSets and a null toolReferenceName", () => {
        expect(
            resolveUntyped({}, { tools: [{ id: "a", toolReferenceName: null }], toolSets: null })
                .enabledTools
        ).toEqual(["a"]);
    });

    it("warns about a toolset member missing from the catalog and ignores it", () => {
        const warnings: ToolFilterWarning[] = [];
        const result = resolveToolFilter(
            {
                tools: [{ id: "a" }, { id: "b" }],
                toolSets: [{ id: "set", referenceName: "s", tools: ["a", "ghost"] }],
            },
            { includeTools: ["s"] },
            { onWarning: (warning) => warnings.push(warning) }
        );
        expect(result.enabledTools).toEqual(["a"]);
        expect(result.toolSetEnablement.get("set")).toBe(true);
        expect(warnings).toEqual([
            {
                code: "UNKNOWN_TOOLSET_MEMBER",
                identifier: "ghost",
                toolSetId: "set",
                message:
                    "Toolset 'set' lists tool 'ghost', which is not in the tool catalog; that member is ignored. Register the tool or remove it from the toolset.",
            },
        ]);
        expect(result.warnings).toEqual(warnings);
    });

    it("counts a member listed twice in a toolset once", () => {
        const result = resolveToolFilter(
            {
                tools: [{ id: "a" }],
                toolSets: [{ id: "set", referenceName: "s", tools: ["a", "a"] }],
            },
            { includeTools: ["set"] },
            silent
        );
        expect(result.resolutions[0]?.resolution).toMatchObject({ toolIds: ["a"] });
        expect(result.warnings).toEqual([]);
    });

    it("applies a reference name shared by several tools to all of them and warns", () => {
        const result = resolveToolFilter(
            {
                tools: [
                    { id: "builtin_grep", toolReferenceName: "grep" },
                    { id: "custom_grep", toolReferenceName: "grep" },
                    { id: "view" },
                ],
            },
            { excludeTools: ["grep"] },
            silent
        );
        expect(result.enabledTools).toEqual(["view"]);
        expect(result.warnings).toEqual([
            expect.objectContaining({
                code: "AMBIGUOUS_IDENTIFIER",
                option: "excludeTools",
                identifier: "grep",
            }),
        ]);
        expect(result.warnings[0]?.message).toContain("'builtin_grep', 'custom_grep'");
    });

    it("applies a reference name shared by several toolsets to all of them and warns", () => {
        const result = resolveToolFilter(
            {
                tools: [{ id: "a" }, { id: "b" }, { id: "c" }],
                toolSets: [
                    { id: "one", referenceName: "shared", tools: ["a"] },
                    { id: "two", referenceName: "shared", tools: ["b", "a"] },
                ],
            },
            { includeTools: ["shared"] },
            silent
        );
        expect(result.enabledTools).toEqual(["a", "b"]);
        expect(result.resolutions[0]?.resolution).toEqual({
            kind: "toolSet",
            matchedBy: "referenceName",
            toolSetIds: ["one", "two"],
            toolIds: ["a", "b"],
        });
        expect(result.warnings.map((warning) => warning.code)).toEqual(["AMBIGUOUS_IDENTIFIER"]);
    });

    it("returns an empty result for an empty catalog when no filter is given", () => {
        const result = resolveToolFilter({ tools: [] }, {}, silent);
        expect(result.enabledTools).toEqual([]);
        expect(result.mode).toBe("default");
    });

    it("throws NO_TOOLS_ENABLED for an empty catalog when a filter is given", () => {
        const error = thrown(() =>
            resolveToolFilter({ tools: [] }, { excludeTools: ["x"] }, silent)
        );
        expect(error.code).toBe("NO_TOOLS_ENABLED");
        expect(error.message).toContain("The tool catalog is empty");
    });
});

describe("warning delivery", () => {
    afterEach(() => {
        vi.restoreAllMocks();
    });

    it("logs warnings with console.warn by default", () => {
        const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
        resolveToolFilter(catalog, { includeTools: ["view", "nope"] });
        expect(warn).toHaveBeenCalledTimes(1);
        expect(warn.mock.calls[0]?.[0]).toMatch(/^Unknown includeTools identifier 'nope'/);
    });

    it("uses console.warn when settings or onWarning are null", () => {
        const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
        resolveUntyped({ excludeTools: ["nope"] });
        resolveToolFilter(catalog, { excludeTools: ["nope"] }, null as never);
        resolveToolFilter(catalog, { excludeTools: ["nope"] }, { onWarning: null as never });
        expect(warn).toHaveBeenCalledTimes(2);
    });

    it("rejects an onWarning that is not a function with INVALID_OPTION", () => {
        const error = thrown(() => resolveToolFilter(catalog, {}, { onWarning: "log" as never }));
        expect(error).toMatchObject({ code: "INVALID_OPTION", option: "onWarning", value: "log" });
        expect(error.message).toContain("pass () => {} to silence them");
        expect(thrown(() => resolveToolFilter(catalog, {}, "quiet" as never)).code).toBe(
            "INVALID_OPTION"
        );
    });

    it("reports warnings before throwing NO_TOOLS_ENABLED, since they explain it", () => {
        const codes: string[] = [];
        const error = thrown(() =>
            resolveToolFilter(
                catalog,
                { includeTools: ["eidt"] },
                { onWarning: (w) => codes.push(w.code) }
            )
        );
        expect(codes).toEqual(["UNKNOWN_IDENTIFIER"]);
        expect(error).toMatchObject({ code: "NO_TOOLS_ENABLED", option: "includeTools" });
        expect(error.message).toContain("No includeTools identifier names a known tool");
    });

    it("lets an exception from onWarning propagate", () => {
        expect(() =>
            resolveToolFilter(
                catalog,
                { includeTools: ["nope", "view"] },
                {
                    onWarning: () => {
                        throw new Error("stop");
                    },
                }
            )
        ).toThrow("stop");
    });
});

describe("errors", () => {
    it("are ToolFilterError instances with a name and a code", () => {
        const error = thrown(() => resolveToolFilter(catalog, { includeTools: [] }));
        expect(error).toBeInstanceOf(Error);
        expect(error.name).toBe("ToolFilterError");
        expect(String(error)).toMatch(/^ToolFilterError: Invalid includeTools '\[\]'/);
    });

    it("carry only the details that apply", () => {
        const error = thrown(() => resolveUntyped({}, { tools: [{ id: "a" }, { id: "a" }] }));
        expect("option" in error).toBe(false);
        expect(Object.keys(error).sort()).toEqual(["code", "index", "name", "value"]);
    });

    it("shorten very long values in messages", () => {
        const error = thrown(() => resolveUntyped({ includeTools: "x".repeat(500) }));
        expect(error.message.length).toBeLessThan(700);
        const entry = thrown(() => resolveUntyped({ includeTools: [{ long: "y".repeat(500) }] }));
        expect(entry.message).toContain("...'");
    });

    it("keep the message readable for a cyclic value", () => {
        const cyclic: Record<string, unknown> = {};
        cyclic.self = cyclic;
        expect(thrown(() => resolveUntyped({ includeTools: cyclic })).message).toContain(
            "'[object Object]'"
        );
    });
});

describe("immutability", () => {
    const frozenCatalog = (): ToolCatalog =>
        deepFreeze({
            tools: [{ id: "a", toolReferenceName: "refA" }, { id: "b" }, { id: "c" }],
            toolSets: [
                { id: "set", referenceName: "s", tools: ["a", "b", "ghost", "a"] },
                { id: "empty", referenceName: "e", tools: [] },
            ],
        });

    it("accepts deeply frozen inputs without modifying them", () => {
        const input = frozenCatalog();
        const before = structuredClone(input);
        const options = deepFreeze({
            includeTools: ["s", "c", "c", "nope", "e"],
            excludeTools: ["refA"],
        });
        const optionsBefore = structuredClone(options);
        const result = resolveToolFilter(input, options, silent);
        expect(result.enabledTools).toEqual(["b", "c"]);
        expect(input).toEqual(before);
        expect(options).toEqual(optionsBefore);
    });

    it("does not modify mutable inputs either", () => {
        const input = structuredClone(frozenCatalog()) as ToolCatalog;
        const before = structuredClone(input);
        const includeTools = ["s", "c"];
        resolveToolFilter(input, { includeTools, excludeTools: ["b"] }, silent);
        expect(input).toEqual(before);
        expect(includeTools).toEqual(["s", "c"]);
    });

    it("returns a frozen result whose arrays and entries are frozen", () => {
        const result = resolveToolFilter(
            frozenCatalog(),
            { includeTools: ["s", "nope", "nope"] },
            silent
        );
        expect(Object.isFrozen(result)).toBe(true);
        for (const array of [
            result.enabledTools,
            result.unknownIdentifiers,
            result.resolutions,
            result.warnings,
        ]) {
            expect(Object.isFrozen(array)).toBe(true);
            for (const entry of array) {
                expect(Object.isFrozen(entry)).toBe(true);
            }
        }
        expect(() => (result.enabledTools as string[]).push("c")).toThrow(TypeError);
    });

    it("returns enablement maps that cannot be modified even through a cast", () => {
        const result = resolveToolFilter(frozenCatalog(), {}, silent);
        const map = result.toolEnablement as unknown as Map<string, boolean>;
        expect(map.set).toBeUndefined();
        expect(map.delete).toBeUndefined();
        expect(map.clear).toBeUndefined();
        expect(Object.isFrozen(map)).toBe(true);
        expect(new Map(result.toolEnablement)).toEqual(
            new Map([
                ["a", true],
                ["b", true],
                ["c", true],
            ])
        );
        expect(new Map(result.toolSetEnablement)).toEqual(
            new Map([
                ["set", true],
                ["empty", false],
            ])
        );
    });

    it("reads each option once, so a getter cannot change the outcome halfway", () => {
        let reads = 0;
        const options = {
            get includeTools(): string[] {
                reads++;
                return reads === 1 ? ["a"] : [];
            },
        };
        const result = resolveToolFilter(frozenCatalog(), options, silent);
        expect(result.enabledTools).toEqual(["a"]);
        expect(reads).toBe(1);
    });
});
