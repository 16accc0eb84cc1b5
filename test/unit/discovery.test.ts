/**
 * The discovery's pure parts (scripts/measure/lib/discovery.mjs): the token runs and glued names
 * that make the candidates, the batch searches that narrow a batch of names to the ones the
 * runtime refuses, and the measurement's assembly. Expected values are written from the rules of
 * the module's documentation, with made-up runtimes as oracles.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import {
    batchSearch,
    chunksOf,
    conflictName,
    forbiddenName,
    gluedNames,
    measurementOf,
    narrowFailures,
    offeredByCondition,
    tokenRuns,
    toolSearchNamesElsewhere,
    type BatchAnswer,
    type ProbeConfig,
} from "../../scripts/measure/lib/discovery.mjs";

const bytes = (text: string) => new TextEncoder().encode(text);

describe("token runs", () => {
    it("are the maximal runs of lower-case letters, digits and underscores", () => {
        expect(tokenRuns(bytes("view\0read_file:Bash grep2 x"))).toEqual([
            "view",
            "read_file",
            "ash",
            "grep2",
            "x",
        ]);
    });

    it("start at their first letter, dropping leading digits and underscores", () => {
        expect(tokenRuns(bytes("__init 42abc _9z"))).toEqual(["init", "abc", "z"]);
    });

    it("include a run that ends the input", () => {
        expect(tokenRuns(bytes("\u00ffstr_replace_editor"))).toEqual(["str_replace_editor"]);
    });

    it("find nothing in bytes without a letter", () => {
        expect(tokenRuns(bytes("123 ___ !?"))).toEqual([]);
    });
});

describe("glued names", () => {
    /** Each word of `words` five times on its own: common words of the "binary". */
    const common = (...words: string[]) => words.flatMap((word) => Array(5).fill(word) as string[]);

    it("cuts a run where a rare chunk is two common words glued together", () => {
        const runs = [
            ...common("read", "file", "grep", "search", "lexical", "code"),
            "read_filegrep_searchlexical_code_search",
        ];
        // "filegrep" and "searchlexical" are seen once; "file"|"grep" and "search"|"lexical" are
        // common words: the run is cut after "file" and after "search".
        expect(gluedNames(runs).sort()).toEqual([
            "grep_search",
            "lexical_code_search",
            "read_file",
        ]);
    });

    it("keeps a run whole when no chunk is a glued pair", () => {
        const runs = [...common("read", "file"), "read_file_contents"];
        expect(gluedNames(runs)).toEqual(["read_file_contents"]);
    });

    it("does not cut a chunk that is itself common", () => {
        const runs = [...common("file", "grep", "filegrep"), "read_filegrep_search_tool"];
        expect(gluedNames(runs)).toEqual(["read_filegrep_search_tool"]);
    });

    it("does not cut into halves shorter than three letters", () => {
        const runs = [...common("ab", "cdef"), "name_abcdef_more_words"];
        expect(gluedNames(runs)).toEqual(["name_abcdef_more_words"]);
    });

    it("skips runs shorter than 12 characters or without an underscore", () => {
        const runs = [...common("read", "file"), "read_filex", "readfilegrepsearch"];
        expect(gluedNames(runs)).toEqual([]);
    });

    it("keeps only names with an underscore that look like tool names", () => {
        const runs = [...common("grep", "search", "view"), "grepsearch_view_tool_x"];
        // "grepsearch" splits into "grep" | "search": "grep" alone has no underscore.
        expect(gluedNames(runs)).toEqual(["search_view_tool_x"]);
    });
});

describe("the conflict scan's batch search", () => {
    /**
     * A made-up runtime: registering a batch answers with the first conflicting or forbidden
     * name in it, or with an error for a name that breaks any batch holding it.
     */
    function runtime({
        conflicts = [] as string[],
        forbidden = [] as string[],
        broken = [] as string[],
        flaky = [] as string[],
    }) {
        const tries: string[][] = [];
        const flakyLeft = new Set(flaky);
        const tryBatch = async (batch: string[]): Promise<BatchAnswer> => {
            tries.push(batch);
            const bad = batch.find((name) => forbidden.includes(name));
            if (bad !== undefined) return { forbidden: bad };
            const conflict = batch.find((name) => conflicts.includes(name));
            if (conflict !== undefined) return { conflict };
            const breaking = batch.find((name) => broken.includes(name));
            if (breaking !== undefined) return { error: `cannot register ${breaking}` };
            const hiccup = batch.find((name) => flakyLeft.has(name));
            if (hiccup !== undefined && batch.length === 1) {
                flakyLeft.delete(hiccup);
                return { error: "passing hiccup" };
            }
            return {};
        };
        const hits: [string, string][] = [];
        const refused: [string, string][] = [];
        const record = {
            onHit: (name: string, kind: string) => void hits.push([name, kind]),
            onRefused: (name: string, why: string) => void refused.push([name, why]),
        };
        return { tryBatch, record, tries, hits, refused };
    }

    it("records each conflicting and forbidden name and removes it before trying again", async () => {
        const r = runtime({ conflicts: ["view", "bash"], forbidden: ["task"] });
        await batchSearch(["a", "view", "b", "task", "bash"], r.tryBatch, r.record);
        expect(r.hits).toEqual([
            ["task", "forbidden"],
            ["view", "conflict"],
            ["bash", "conflict"],
        ]);
        expect(r.refused).toEqual([]);
        // one try per hit, and a last one that passes
        expect(r.tries).toHaveLength(4);
        expect(r.tries.at(-1)).toEqual(["a", "b"]);
    });

    it("halves a batch that fails otherwise until the name that breaks it stands alone", async () => {
        const r = runtime({ broken: ["odd"] });
        await batchSearch(["a", "b", "c", "odd"], r.tryBatch, r.record);
        expect(r.hits).toEqual([]);
        expect(r.refused).toEqual([["odd", "cannot register odd"]]);
        // a, b, c are never refused: the halves without "odd" pass
        expect(r.refused.map(([name]) => name)).not.toContain("a");
    });

    it("tries a single failing name twice before refusing it", async () => {
        const r = runtime({ broken: ["odd"] });
        await batchSearch(["odd"], r.tryBatch, r.record);
        expect(r.tries).toEqual([["odd"], ["odd"]]);
        expect(r.refused).toEqual([["odd", "cannot register odd"]]);
    });

    it("does not refuse a name whose failure passes on the second try", async () => {
        const r = runtime({ flaky: ["shy"] });
        await batchSearch(["shy"], r.tryBatch, r.record);
        expect(r.refused).toEqual([]);
    });

    it("treats a hit outside the batch as a failure, never as a free batch", async () => {
        const tries: string[][] = [];
        const refused: string[] = [];
        await batchSearch(
            ["a", "b"],
            async (batch) => {
                tries.push(batch);
                return { conflict: "elsewhere" };
            },
            { onHit: () => {}, onRefused: (name) => void refused.push(name) }
        );
        expect(refused.sort()).toEqual(["a", "b"]);
    });

    it("does nothing for an empty batch", async () => {
        const r = runtime({});
        await batchSearch([], r.tryBatch, r.record);
        expect(r.tries).toEqual([]);
    });
});

describe("the model-path scan's narrowing", () => {
    /** A made-up runtime whose handler runs for every name but the shadowed ones. */
    function probe(shadowed: string[]) {
        const batches: string[][] = [];
        const probeBatch = async (batch: string[]) => {
            batches.push(batch);
            return new Map(
                batch.map((name) => [
                    name,
                    shadowed.includes(name)
                        ? { ran: false, why: "another handler answered" }
                        : { ran: true, why: "custom handler ran" },
                ])
            );
        };
        return { probeBatch, batches };
    }

    it("finds every shadowed name, each confirmed alone", async () => {
        const names = Array.from({ length: 30 }, (_, i) => `name_${String(i).padStart(2, "0")}`);
        const shadowed = ["name_03", "name_17", "name_29"];
        const p = probe(shadowed);
        const failedAlone: string[] = [];
        const found = await narrowFailures(names, 10, p.probeBatch, undefined, (name) =>
            failedAlone.push(name)
        );
        expect([...found].sort()).toEqual(shadowed);
        expect(failedAlone.sort()).toEqual(shadowed);
        for (const name of shadowed) expect(p.batches).toContainEqual([name]);
    });

    it("probes a batch's failures in halves when more than four fail, alone otherwise", async () => {
        const names = ["a", "b", "c", "d", "e", "f"];
        const p = probe(names);
        await narrowFailures(names, 6, p.probeBatch);
        expect(p.batches[0]).toEqual(names);
        expect(p.batches[1]).toEqual(["a", "b", "c"]);
        // three failures: alone
        expect(p.batches.slice(2, 5)).toEqual([["a"], ["b"], ["c"]]);
    });

    it("counts a name that failed in a batch but runs alone as free", async () => {
        let first = true;
        const found = await narrowFailures(["a", "b"], 2, async (batch) => {
            const results = new Map(batch.map((name) => [name, { ran: !first, why: "" }]));
            first = false;
            return results;
        });
        expect([...found]).toEqual([]);
    });

    it("with several tries, counts a name only when it fails alone every time (a turn that timed out once is not a built-in)", async () => {
        // "a" fails in its batch and twice alone, then runs; "b" never runs.
        let aloneA = 0;
        const found = await narrowFailures(
            ["a", "b"],
            2,
            async (batch) => {
                if (batch.length === 1 && batch[0] === "a") aloneA++;
                return new Map(
                    batch.map((name) => [
                        name,
                        { ran: name === "a" && aloneA === 3, why: "timed out" },
                    ])
                );
            },
            undefined,
            undefined,
            3
        );
        expect([...found]).toEqual(["b"]);
        expect(aloneA).toBe(3);
    });

    it("probes the likely built-ins alone first, and the other names in batches", async () => {
        const batches: string[][] = [];
        const found = await narrowFailures(
            ["a", "view", "b", "c"],
            10,
            async (batch) => {
                batches.push(batch);
                return new Map(batch.map((name) => [name, { ran: name !== "view", why: "" }]));
            },
            undefined,
            undefined,
            1,
            undefined,
            new Set(["view"])
        );
        expect(batches).toEqual([["view"], ["a", "b", "c"]]);
        expect([...found]).toEqual(["view"]);
    });

    it("starts from batches of the given size", async () => {
        expect(chunksOf(["a", "b", "c", "d", "e"], 2)).toEqual([["a", "b"], ["c", "d"], ["e"]]);
        expect(chunksOf([], 2)).toEqual([]);
    });
});

describe("the runtime's refusals", () => {
    it("names the reserved name in both wordings of createSession's refusal", () => {
        expect(forbiddenName("Tool 'x': reserved task built-in")).toBe("task");
        expect(forbiddenName("tool name clash: report_intent is reserved")).toBe("report_intent");
        expect(forbiddenName("something else")).toBeUndefined();
    });

    it("names the conflicting name of initializeAndValidate's refusal", () => {
        expect(conflictName('External tool "view" conflicts with a built-in tool')).toBe("view");
        expect(conflictName("External tool view failed")).toBeUndefined();
    });
});

describe("the measurement", () => {
    const configs: ProbeConfig[] = [
        { label: "default", model: "gpt-4o" },
        { label: "default", model: "claude-sonnet-4.5" },
        { label: "mode autopilot", model: "gpt-4o", mode: "autopilot" },
        { label: "toolSearch (deferral active)", model: "claude-sonnet-4.5" },
        { label: "model", model: "o3" },
    ];

    it("records for each condition the built-ins it adds to its model's plain session", () => {
        const offered = new Map([
            ["default|gpt-4o", ["bash", "view"]],
            ["default|claude-sonnet-4.5", ["bash", "edit", "view"]],
            ["mode autopilot|gpt-4o", ["bash", "task_complete", "view"]],
            ["toolSearch (deferral active)|claude-sonnet-4.5", ["bash", "tool_search_tool"]],
            ["model|o3", ["apply_patch"]],
        ]);
        expect(offeredByCondition(configs, offered)).toEqual({
            autopilotMode: ["task_complete"],
            toolSearch: ["tool_search_tool"],
        });
    });

    it("is sorted: every list, and every map by key", () => {
        const measured = measurementOf({
            runtimeVersion: "1.0.85",
            sdkVersion: "1.0.14",
            delivery: "bundled",
            builtIns: ["bash", "view"],
            unsupported: new Set(["view", "bash", "view"]),
            keptOnlyWithToolSearch: ["tool_search_tool"],
            modelSees: { "gpt-4o": ["view"], "*": ["bash"] },
            byCondition: { toolSearch: ["x"], planMode: ["y"] },
            excludedWith: { rg: ["grep"], grep: ["rg"] },
            includedWith: {},
        });
        expect(JSON.stringify(measured)).toBe(
            JSON.stringify({
                runtimeVersion: "1.0.85",
                sdkVersion: "1.0.14",
                delivery: "bundled",
                builtIns: ["bash", "view"],
                unsupportedOverrides: ["bash", "view"],
                keptOnlyWithToolSearch: ["tool_search_tool"],
                offeredByModel: { "*": ["bash"], "gpt-4o": ["view"] },
                offeredByCondition: { planMode: ["y"], toolSearch: ["x"] },
                filterAliases: { excludedWith: { grep: ["rg"], rg: ["grep"] }, includedWith: {} },
            })
        );
    });
});

describe("toolSearchNamesElsewhere", () => {
    it("is every name some measurement keeps only with tool search, once, sorted", () => {
        const dir = mkdtempSync(join(tmpdir(), "discovery-test-"));
        try {
            const write = (file: string, keptOnlyWithToolSearch?: string[]) =>
                writeFileSync(
                    join(dir, file),
                    JSON.stringify({ builtIns: ["view"], keptOnlyWithToolSearch })
                );
            write("1.0.7.json", ["tool_search_tool"]);
            write("1.0.8.json", ["tool_search_tool", "session_store_sql"]);
            write("1.0.0.json", []);
            write("old.json");
            writeFileSync(join(dir, "notes.txt"), "not a measurement");
            expect(toolSearchNamesElsewhere(dir)).toEqual([
                "session_store_sql",
                "tool_search_tool",
            ]);
            expect(toolSearchNamesElsewhere(join(dir, "missing"))).toEqual([]);
        } finally {
            rmSync(dir, { recursive: true, force: true });
        }
    });
});
