import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
    resolveToolFilter,
    type ToolFilterCatalog,
    type ToolFilterOptions,
    type ToolFilterResult,
} from "../../src/toolFilter.js";

// Invariants over random catalogs and filters. Tool ids, toolset ids and reference names come
// from disjoint small pools (so every identifier names one kind of thing) that include names of
// Object.prototype members.
const TOOL_IDS = ["__proto__", "constructor", "a", "b", "c", "d", "e"];
const TOOL_SETS = ["toString", "s1", "s2", "s3"];

interface Case {
    readonly tools: readonly string[];
    readonly toolSets: readonly { readonly name: string; readonly members: readonly string[] }[];
    readonly options: { include?: string[]; exclude?: string[] };
}

const caseArb: fc.Arbitrary<Case> = fc
    .uniqueArray(fc.constantFrom(...TOOL_IDS), { minLength: 1 })
    .chain((tools) =>
        fc.record({
            tools: fc.constant(tools),
            toolSets: fc
                .uniqueArray(fc.constantFrom(...TOOL_SETS), { maxLength: 4 })
                .chain((names) =>
                    fc.tuple(
                        ...names.map((name) =>
                            fc.record({
                                name: fc.constant(name),
                                members: fc.uniqueArray(fc.constantFrom(...tools), {
                                    maxLength: 4,
                                }),
                            })
                        )
                    )
                ),
            options: fc.record(
                {
                    include: fc.array(fc.constantFrom(...tools, ...TOOL_SETS), {
                        minLength: 1,
                        maxLength: 5,
                    }),
                    exclude: fc.array(fc.constantFrom(...tools, ...TOOL_SETS), { maxLength: 5 }),
                },
                { requiredKeys: [] }
            ),
        })
    );

function catalogOf(c: Case): ToolFilterCatalog {
    return {
        tools: c.tools.map((id) => ({ id })),
        toolSets: c.toolSets.map(({ name, members }) => ({
            id: name,
            referenceName: name,
            tools: members,
        })),
    };
}

function resolve(c: Case, options: ToolFilterOptions = c.options): ToolFilterResult {
    return resolveToolFilter(catalogOf(c), options, {
        noToolsEnabled: "allow",
        onWarning: () => {},
    });
}

/** The specification's precedence, written independently: the expected enablement of a tool. */
function oracle(c: Case, tool: string): boolean {
    const named = (list?: string[]) => list?.includes(tool) === true;
    const inSet = (list?: string[]) =>
        c.toolSets.some((set) => list?.includes(set.name) === true && set.members.includes(tool));
    if (named(c.options.exclude)) return false;
    if (named(c.options.include)) return true;
    if (inSet(c.options.exclude)) return false;
    if (inSet(c.options.include)) return true;
    return c.options.include === undefined;
}

describe("tool filter invariants", () => {
    it("matches the specification's precedence for every tool", () => {
        fc.assert(
            fc.property(caseArb, (c) => {
                const result = resolve(c);
                for (const tool of c.tools)
                    expect(result.toolEnablement.get(tool)).toBe(oracle(c, tool));
            })
        );
    });

    it("always excludes a tool excluded by name", () => {
        fc.assert(
            fc.property(caseArb, fc.constantFrom(...TOOL_IDS), (c, tool) => {
                if (!c.tools.includes(tool)) return;
                const result = resolve(c, {
                    ...c.options,
                    exclude: [...(c.options.exclude ?? []), tool],
                });
                expect(result.toolEnablement.get(tool)).toBe(false);
            })
        );
    });

    it("keeps a tool included by name unless it is excluded by name", () => {
        fc.assert(
            fc.property(caseArb, (c) => {
                const result = resolve(c);
                for (const tool of c.options.include ?? []) {
                    if (!c.tools.includes(tool) || c.options.exclude?.includes(tool)) continue;
                    expect(result.toolEnablement.get(tool)).toBe(true);
                }
            })
        );
    });

    it("enables every tool when no option is given", () => {
        fc.assert(
            fc.property(caseArb, (c) => {
                expect(resolve(c, {}).enabledTools).toEqual(c.tools);
            })
        );
    });

    it("lists as enabled exactly the enabled tools, in catalog order", () => {
        fc.assert(
            fc.property(caseArb, (c) => {
                const result = resolve(c);
                expect(result.enabledTools).toEqual(
                    c.tools.filter((tool) => result.toolEnablement.get(tool))
                );
            })
        );
    });

    it("enables a toolset exactly when it has members and all of them are enabled", () => {
        fc.assert(
            fc.property(caseArb, (c) => {
                const result = resolve(c);
                for (const set of c.toolSets) {
                    const expected =
                        set.members.length > 0 && set.members.every((tool) => oracle(c, tool));
                    expect(result.toolSetEnablement.get(set.name)).toBe(expected);
                }
            })
        );
    });

    it("never enables a tool by adding an exclusion", () => {
        fc.assert(
            fc.property(caseArb, fc.constantFrom(...TOOL_IDS, ...TOOL_SETS), (c, extra) => {
                const before = resolve(c);
                const after = resolve(c, {
                    ...c.options,
                    exclude: [...(c.options.exclude ?? []), extra],
                });
                for (const tool of after.enabledTools)
                    expect(before.toolEnablement.get(tool)).toBe(true);
            })
        );
    });
});
