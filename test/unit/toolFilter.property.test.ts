import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
    resolveToolFilter,
    type ToolFilterCatalog,
    type ToolFilterOptions,
    type ToolFilterResult,
} from "../../src/toolFilter/toolFilter.js";

// Invariants over random catalogs and filters, checked against an oracle written from the
// specification alone. Tool ids, tool reference names, toolset ids and toolset reference names
// come from disjoint pools (so an identifier names one kind of thing), with names of
// Object.prototype members among them and an identifier that names nothing.
const TOOL_IDS = ["__proto__", "constructor", "t2", "t3", "t4", "t5"];
const referenceName = (id: string): string => `ref_${id}`;
const TOOL_SET_NAMES = ["toString", "s1", "s2", "s3"];
const toolSetId = (name: string): string => `toolset:${name}`;
const UNKNOWN = "hasOwnProperty";

interface Case {
    readonly tools: readonly { readonly id: string; readonly ref: boolean }[];
    readonly toolSets: readonly { readonly name: string; readonly members: readonly string[] }[];
    readonly options: { include?: string[]; exclude?: string[] };
}

function identifiersOf(tools: Case["tools"], toolSets: readonly string[]): string[] {
    return [
        ...tools.flatMap((tool) => (tool.ref ? [tool.id, referenceName(tool.id)] : [tool.id])),
        ...toolSets.flatMap((name) => [name, toolSetId(name)]),
        UNKNOWN,
    ];
}

const caseArb: fc.Arbitrary<Case> = fc
    .record({
        tools: fc.uniqueArray(fc.record({ id: fc.constantFrom(...TOOL_IDS), ref: fc.boolean() }), {
            minLength: 1,
            selector: (tool) => tool.id,
        }),
        toolSetNames: fc.uniqueArray(fc.constantFrom(...TOOL_SET_NAMES), { maxLength: 4 }),
    })
    .chain(({ tools, toolSetNames }) => {
        // Members name a tool by id or reference name, or a tool the catalog does not have.
        const memberNames = [...TOOL_IDS, ...TOOL_IDS.map(referenceName)];
        const identifiers = identifiersOf(tools, toolSetNames);
        return fc.record({
            tools: fc.constant(tools),
            toolSets: fc.tuple(
                ...toolSetNames.map((name) =>
                    fc.record({
                        name: fc.constant(name),
                        members: fc.uniqueArray(fc.constantFrom(...memberNames), { maxLength: 4 }),
                    })
                )
            ),
            options: fc.record(
                {
                    include: fc.array(fc.constantFrom(...identifiers), {
                        minLength: 1,
                        maxLength: 5,
                    }),
                    exclude: fc.array(fc.constantFrom(...identifiers), { maxLength: 5 }),
                },
                { requiredKeys: [] }
            ),
        });
    });

const identifierArb = fc.constantFrom(
    ...TOOL_IDS,
    ...TOOL_IDS.map(referenceName),
    ...TOOL_SET_NAMES,
    ...TOOL_SET_NAMES.map(toolSetId),
    UNKNOWN
);

function catalogOf(c: Case): ToolFilterCatalog {
    return {
        tools: c.tools.map(({ id, ref }) =>
            ref ? { id, toolReferenceName: referenceName(id) } : { id }
        ),
        toolSets: c.toolSets.map(({ name, members }) => ({
            id: toolSetId(name),
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

// The oracle: what an identifier names, and the specification's precedence.
function namesTool(c: Case, identifier: string, tool: string): boolean {
    const entry = c.tools.find((t) => t.id === tool);
    return identifier === tool || (entry?.ref === true && identifier === referenceName(tool));
}

function toolSetMembers(c: Case, name: string): string[] {
    const set = c.toolSets.find((s) => s.name === name)!;
    return c.tools
        .filter((tool) => set.members.some((member) => namesTool(c, member, tool.id)))
        .map((tool) => tool.id);
}

function inNamedToolSet(c: Case, identifiers: readonly string[] | undefined, tool: string) {
    return c.toolSets.some(
        (set) =>
            (identifiers ?? []).some((x) => x === set.name || x === toolSetId(set.name)) &&
            toolSetMembers(c, set.name).includes(tool)
    );
}

function oracle(c: Case, options: Case["options"], tool: string): boolean {
    const named = (identifiers?: readonly string[]) =>
        (identifiers ?? []).some((identifier) => namesTool(c, identifier, tool));
    if (named(options.exclude)) return false;
    if (named(options.include)) return true;
    if (inNamedToolSet(c, options.exclude, tool)) return false;
    if (inNamedToolSet(c, options.include, tool)) return true;
    return options.include === undefined;
}

describe("tool filter invariants", () => {
    it("agrees with the specification's rules for every tool", () => {
        fc.assert(
            fc.property(caseArb, (c) => {
                const result = resolve(c);
                expect([...result.toolEnablement]).toEqual(
                    c.tools.map((tool) => [tool.id, oracle(c, c.options, tool.id)])
                );
            })
        );
    });

    it("always disables a tool that excludeTools names explicitly", () => {
        fc.assert(
            fc.property(caseArb, fc.nat(), fc.boolean(), (c, pick, byReference) => {
                const tool = c.tools[pick % c.tools.length]!;
                const identifier = byReference && tool.ref ? referenceName(tool.id) : tool.id;
                const result = resolve(c, {
                    include: c.options.include && [...c.options.include, identifier],
                    exclude: [...(c.options.exclude ?? []), identifier],
                });
                expect(result.toolEnablement.get(tool.id)).toBe(false);
            })
        );
    });

    it("enables a tool includeTools names explicitly whatever toolsets excludeTools names", () => {
        fc.assert(
            fc.property(caseArb, fc.nat(), (c, pick) => {
                const tool = c.tools[pick % c.tools.length]!.id;
                const toolSetExclusions = c.toolSets.map((set) => set.name);
                const result = resolve(c, {
                    include: [...(c.options.include ?? []), tool],
                    exclude: toolSetExclusions,
                });
                expect(result.toolEnablement.get(tool)).toBe(true);
            })
        );
    });

    it("enables every tool when no option is given", () => {
        fc.assert(
            fc.property(caseArb, (c) => {
                const result = resolve(c, {});
                expect(result.mode).toBe("default");
                expect(result.enabledTools).toEqual(c.tools.map((tool) => tool.id));
            })
        );
    });

    it("lists as enabledTools exactly the true entries of toolEnablement, in catalog order", () => {
        fc.assert(
            fc.property(caseArb, (c) => {
                const result = resolve(c);
                expect([...result.toolEnablement.keys()]).toEqual(c.tools.map((tool) => tool.id));
                expect(result.enabledTools).toEqual(
                    [...result.toolEnablement].filter(([, on]) => on).map(([id]) => id)
                );
            })
        );
    });

    it("enables a toolset exactly when it has members in the catalog and all are enabled", () => {
        fc.assert(
            fc.property(caseArb, (c) => {
                const result = resolve(c);
                expect(Object.fromEntries(result.toolSetEnablement)).toEqual(
                    Object.fromEntries(
                        c.toolSets.map((set) => {
                            const members = toolSetMembers(c, set.name);
                            return [
                                set.name,
                                members.length > 0 &&
                                    members.every((tool) => oracle(c, c.options, tool)),
                            ];
                        })
                    )
                );
            })
        );
    });

    it("never enables a tool by adding an exclusion", () => {
        fc.assert(
            fc.property(caseArb, identifierArb, (c, extra) => {
                const before = resolve(c);
                const after = resolve(c, {
                    ...c.options,
                    exclude: [...(c.options.exclude ?? []), extra],
                });
                for (const tool of after.enabledTools) {
                    expect(before.toolEnablement.get(tool)).toBe(true);
                }
            })
        );
    });
});
