import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
    resolveToolFilter,
    ToolCatalogIndex,
    type ToolCatalog,
    type ToolCatalogTool,
    type ToolCatalogToolSet,
    type ToolFilterOptions,
    type ToolFilterResult,
} from "../../src/toolFilter.js";
import { ToolFilterError } from "../../src/toolFilterError.js";

// Invariants over random catalogs. Names come from a small pool so that tool ids, toolset ids
// and reference names collide often, and the pool includes Object.prototype member names.
const NAMES = [
    "__proto__",
    "constructor",
    "toString",
    "hasOwnProperty",
    "valueOf",
    "edit",
    "web",
    "a",
    "b",
    "c",
    "d",
] as const;

const name = fc.constantFrom(...NAMES);

const catalogArb: fc.Arbitrary<ToolCatalog> = fc
    .uniqueArray(name, { maxLength: 9 })
    .chain((toolIds) =>
        fc.record({
            tools: fc.tuple(
                ...toolIds.map((id) =>
                    fc
                        .option(name, { nil: undefined })
                        .map((ref): ToolCatalogTool =>
                            ref === undefined ? { id } : { id, toolReferenceName: ref }
                        )
                )
            ),
            toolSets: fc.uniqueArray(name, { maxLength: 5 }).chain((ids) =>
                fc.tuple(
                    ...ids.map((id) =>
                        fc.record({
                            id: fc.constant(id),
                            referenceName: name,
                            // Mostly catalog tools, sometimes a missing one or a repeat.
                            tools: fc.array(
                                toolIds.length > 0
                                    ? fc.oneof(
                                          { weight: 4, arbitrary: fc.constantFrom(...toolIds) },
                                          { weight: 1, arbitrary: name }
                                      )
                                    : name,
                                { maxLength: 5 }
                            ),
                        })
                    )
                )
            ),
        })
    );

const identifiers = fc.array(fc.oneof(name, fc.constantFrom("unknown", "zzz")), {
    minLength: 1,
    maxLength: 6,
});

const optionsArb: fc.Arbitrary<ToolFilterOptions> = fc.record(
    { includeTools: identifiers, excludeTools: fc.array(name, { maxLength: 6 }) },
    { requiredKeys: [] }
);

const silent = { onWarning: () => {} };

/** The result, or `undefined` when filtering legitimately leaves no tool enabled. */
function tryResolve(
    catalog: ToolCatalog,
    options: ToolFilterOptions
): ToolFilterResult | undefined {
    try {
        return resolveToolFilter(catalog, options, silent);
    } catch (error) {
        if (error instanceof ToolFilterError && error.code === "NO_TOOLS_ENABLED") {
            return undefined;
        }
        throw error;
    }
}

/**
 * An independent, deliberately naive model of the documented rules: resolve by scanning the
 * catalog in the documented order, then apply the precedence ladder tool by tool.
 */
function oracle(catalog: ToolCatalog, options: ToolFilterOptions): Map<string, boolean> {
    const toolIds = catalog.tools.map((tool) => tool.id);
    const toolSets = catalog.toolSets ?? [];
    const membersOf = (toolSet: ToolCatalogToolSet): string[] =>
        toolSet.tools.filter((id) => toolIds.includes(id));
    const expand = (identifier: string): { direct: boolean; ids: string[] } => {
        for (const field of ["id", "referenceName"] as const) {
            const sets = toolSets.filter((toolSet) => toolSet[field] === identifier);
            if (sets.length > 0) {
                return { direct: false, ids: sets.flatMap(membersOf) };
            }
        }
        for (const field of ["id", "toolReferenceName"] as const) {
            const tools = catalog.tools.filter((tool) => tool[field] === identifier);
            if (tools.length > 0) {
                return { direct: true, ids: tools.map((tool) => tool.id) };
            }
        }
        return { direct: false, ids: [] };
    };
    const collect = (list: readonly string[] | undefined, direct: boolean): Set<string> =>
        new Set(
            (list ?? []).flatMap((identifier) => {
                const expanded = expand(identifier);
                return expanded.direct === direct ? expanded.ids : [];
            })
        );
    const directInclude = collect(options.includeTools, true);
    const toolSetInclude = collect(options.includeTools, false);
    const directExclude = collect(options.excludeTools, true);
    const toolSetExclude = collect(options.excludeTools, false);
    return new Map(
        toolIds.map((id) => {
            if (directExclude.has(id)) return [id, false];
            if (directInclude.has(id)) return [id, true];
            if (toolSetExclude.has(id)) return [id, false];
            return [id, options.includeTools === undefined || toolSetInclude.has(id)];
        })
    );
}

function sortedEntries<V>(map: ReadonlyMap<string, V>): [string, V][] {
    return [...map].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function permutation<T>(items: readonly T[]): fc.Arbitrary<T[]> {
    return fc.shuffledSubarray([...items], { minLength: items.length, maxLength: items.length });
}

describe("tool filter invariants", () => {
    it("agrees with a naive model of the documented rules", () => {
        fc.assert(
            fc.property(catalogArb, optionsArb, (catalog, options) => {
                const expected = oracle(catalog, options);
                const result = tryResolve(catalog, options);
                const anyEnabled = [...expected.values()].some(Boolean);
                const filtering =
                    options.includeTools !== undefined || (options.excludeTools ?? []).length > 0;
                if (result === undefined) {
                    expect(filtering && !anyEnabled).toBe(true);
                    return;
                }
                expect(new Map(result.toolEnablement)).toEqual(expected);
                expect(result.enabledTools).toEqual(
                    catalog.tools.map((tool) => tool.id).filter((id) => expected.get(id))
                );
            }),
            { numRuns: 500 }
        );
    });

    it("never enables a tool named directly in excludeTools", () => {
        fc.assert(
            fc.property(catalogArb, optionsArb, (catalog, options) => {
                const result = tryResolve(catalog, options);
                if (result === undefined) return;
                const index = ToolCatalogIndex.fromCatalog(catalog);
                for (const identifier of options.excludeTools ?? []) {
                    const resolved = index.resolve(identifier);
                    if (resolved.kind === "tool") {
                        for (const id of resolved.toolIds) {
                            expect(result.toolEnablement.get(id)).toBe(false);
                        }
                    }
                }
            }),
            { numRuns: 300 }
        );
    });

    it("enables in whitelist and combined mode only tools reached through includeTools", () => {
        fc.assert(
            fc.property(catalogArb, optionsArb, (catalog, options) => {
                const result = tryResolve(catalog, options);
                if (result === undefined || options.includeTools === undefined) return;
                expect(["whitelist", "combined"]).toContain(result.mode);
                const index = ToolCatalogIndex.fromCatalog(catalog);
                const reached = new Set(
                    options.includeTools.flatMap((identifier) => {
                        const resolved = index.resolve(identifier);
                        return resolved.kind === "unknown" ? [] : resolved.toolIds;
                    })
                );
                for (const id of result.enabledTools) {
                    expect(reached.has(id)).toBe(true);
                }
            }),
            { numRuns: 300 }
        );
    });

    it("enables a toolset exactly when it has members and all of them are enabled", () => {
        fc.assert(
            fc.property(catalogArb, optionsArb, (catalog, options) => {
                const result = tryResolve(catalog, options);
                if (result === undefined) return;
                const index = ToolCatalogIndex.fromCatalog(catalog);
                expect([...result.toolSetEnablement.keys()]).toEqual(index.toolSetIds);
                for (const [toolSetId, enabled] of result.toolSetEnablement) {
                    const members = index.toolSetMembers(toolSetId) ?? [];
                    expect(enabled).toBe(
                        members.length > 0 &&
                            members.every((id) => result.toolEnablement.get(id) === true)
                    );
                }
            }),
            { numRuns: 300 }
        );
    });

    it("does not depend on the order of identifiers or catalog entries", () => {
        const scenario = fc.tuple(catalogArb, optionsArb).chain(([catalog, options]) =>
            fc.record({
                catalog: fc.constant(catalog),
                options: fc.constant(options),
                tools: permutation(catalog.tools),
                toolSets: permutation(catalog.toolSets ?? []),
                includeTools: options.includeTools
                    ? permutation(options.includeTools)
                    : fc.constant(undefined),
                excludeTools: options.excludeTools
                    ? permutation(options.excludeTools)
                    : fc.constant(undefined),
            })
        );
        fc.assert(
            fc.property(scenario, (s) => {
                const original = tryResolve(s.catalog, s.options);
                const shuffledOptions: ToolFilterOptions = {
                    ...(s.includeTools ? { includeTools: s.includeTools } : {}),
                    ...(s.excludeTools ? { excludeTools: s.excludeTools } : {}),
                };
                const shuffled = tryResolve(
                    { tools: s.tools, toolSets: s.toolSets },
                    shuffledOptions
                );
                if (original === undefined || shuffled === undefined) {
                    expect(shuffled).toBe(original);
                    return;
                }
                expect(shuffled.mode).toBe(original.mode);
                expect(sortedEntries(shuffled.toolEnablement)).toEqual(
                    sortedEntries(original.toolEnablement)
                );
                expect(sortedEntries(shuffled.toolSetEnablement)).toEqual(
                    sortedEntries(original.toolSetEnablement)
                );
                expect(new Set(shuffled.enabledTools)).toEqual(new Set(original.enabledTools));
                expect(
                    new Set(shuffled.unknownIdentifiers.map((u) => `${u.option}:${u.identifier}`))
                ).toEqual(
                    new Set(original.unknownIdentifiers.map((u) => `${u.option}:${u.identifier}`))
                );
            }),
            { numRuns: 300 }
        );
    });

    it("reports exactly the identifiers that resolve to nothing as unknown", () => {
        fc.assert(
            fc.property(catalogArb, optionsArb, (catalog, options) => {
                const result = tryResolve(catalog, options);
                if (result === undefined) return;
                const index = ToolCatalogIndex.fromCatalog(catalog);
                const expected = (["includeTools", "excludeTools"] as const).flatMap((option) =>
                    [...new Set(options[option] ?? [])]
                        .filter((identifier) => index.resolve(identifier).kind === "unknown")
                        .map((identifier) => ({ option, identifier }))
                );
                expect(result.unknownIdentifiers).toEqual(expected);
            }),
            { numRuns: 300 }
        );
    });
});
