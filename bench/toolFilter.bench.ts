/*---------------------------------------------------------------------------------------------
 *  Benchmark for resolveToolFilter: median time at 1x (10,000 tools, 1,000 toolsets, 1,000
 *  include + 1,000 exclude identifiers) and at 10x, and their ratio, which shows whether the
 *  work grows linearly. Informational: prints PASS / MISS against the targets, always exits 0.
 *
 *  Methodology: after warming up both sizes, it runs ROUNDS rounds, each timing RUNS_1X calls
 *  at 1x and then RUNS_10X calls at 10x, and takes the median of each size within each round.
 *  The figures judged against the targets are the lowest round median of each size (min of
 *  medians): on a shared machine other processes and badly timed garbage collections slow
 *  whole stretches of runs, and interleaving the sizes exposes both to the same conditions
 *  while the best round shows what the code costs when undisturbed. The median over all runs
 *  of each size is printed too, for comparison with a plain median.
 *
 *  Build and run: tsc -p tsconfig.bench.json && node build/bench/bench/toolFilter.bench.js
 *--------------------------------------------------------------------------------------------*/

import { performance } from "node:perf_hooks";
import {
    resolveToolFilter,
    type ToolCatalog,
    type ToolCatalogTool,
    type ToolCatalogToolSet,
    type ToolFilterOptions,
} from "../src/toolFilter.js";

const TOOLS_PER_SET = 10;
const TARGET_MEDIAN_MS = 10;
const TARGET_RATIO = 12;
const ROUNDS = 7;
const RUNS_1X = 21;
const RUNS_10X = 7;
const WARM_UP_1X = 20;
const WARM_UP_10X = 5;

/** One benchmark input: a catalog and options, both scaled by `scale`. */
interface Workload {
    readonly catalog: ToolCatalog;
    readonly options: ToolFilterOptions;
}

/**
 * Builds `10,000 * scale` tools in `1,000 * scale` toolsets of ten, and `1,000 * scale`
 * identifiers per option, alternating between the four kinds of name so every lookup path runs.
 * Inclusions and exclusions overlap, so all precedence rules are exercised.
 *
 * @param scale - Size multiplier (1 or 10).
 * @returns The catalog and the options.
 */
function buildWorkload(scale: number): Workload {
    const toolCount = 10_000 * scale;
    const toolSetCount = toolCount / TOOLS_PER_SET;
    const tools: ToolCatalogTool[] = [];
    for (let i = 0; i < toolCount; i++) {
        tools.push({ id: `tool_${i}`, toolReferenceName: `ref_${i}` });
    }
    const toolSets: ToolCatalogToolSet[] = [];
    for (let j = 0; j < toolSetCount; j++) {
        const members: string[] = [];
        for (let k = 0; k < TOOLS_PER_SET; k++) {
            members.push(`tool_${j * TOOLS_PER_SET + k}`);
        }
        toolSets.push({ id: `toolset:${j}`, referenceName: `set_${j}`, tools: members });
    }

    const toolSetName = (j: number): string => (j % 2 === 0 ? `toolset:${j}` : `set_${j}`);
    const toolName = (i: number): string => (i % 2 === 0 ? `tool_${i}` : `ref_${i}`);
    const half = 500 * scale;
    const includeTools: string[] = [];
    const excludeTools: string[] = [];
    for (let k = 0; k < half; k++) {
        // Include the first half of the toolsets and single tools from the second half.
        includeTools.push(toolSetName(k));
        includeTools.push(toolName(toolCount / 2 + 2 * k + (k % 2)));
        // Exclude toolsets overlapping the included ones, and scattered single tools.
        excludeTools.push(toolSetName(half / 2 + k));
        excludeTools.push(toolName(3 * k + 1));
    }
    return { catalog: { tools, toolSets }, options: { includeTools, excludeTools } };
}

/**
 * Times `runs` calls.
 *
 * @returns The call times in milliseconds and the number of enabled tools (so the work is
 *   used).
 */
function measure(workload: Workload, runs: number): { times: number[]; enabled: number } {
    const settings = { onWarning: () => {} };
    let enabled = 0;
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
        const start = performance.now();
        const result = resolveToolFilter(workload.catalog, workload.options, settings);
        times.push(performance.now() - start);
        enabled = result.enabledTools.length;
    }
    return { times, enabled };
}

/**
 * Times `runs` builds of one `Map` from every tool id, the least any id-keyed catalog index
 * must do (duplicate ids have to be detected). Its 10x/1x ratio shows how much of the filter's
 * ratio comes from V8 maps and garbage collection outgrowing the CPU caches rather than from
 * the algorithm, whose operation count grows exactly tenfold.
 *
 * @returns The build times in milliseconds.
 */
function measureMapBaseline(workload: Workload, runs: number): number[] {
    const tools = workload.catalog.tools;
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
        const start = performance.now();
        const positions = new Map<string, number>();
        for (let j = 0; j < tools.length; j++) {
            positions.set(tools[j]!.id, j);
        }
        times.push(performance.now() - start);
        if (positions.size !== tools.length) {
            throw new Error("duplicate tool id in the benchmark workload");
        }
    }
    return times;
}

/** Interleaved rounds of a 1x and a 10x measurement; see the header for why. */
interface Rounds {
    /** Lowest per-round median at 1x and at 10x, in milliseconds. */
    readonly best: { readonly one: number; readonly ten: number };
    /** Median of all runs at 1x and at 10x, in milliseconds. */
    readonly overall: { readonly one: number; readonly ten: number };
}

function runRounds(
    timeOne: (runs: number) => number[],
    timeTen: (runs: number) => number[]
): Rounds {
    timeOne(WARM_UP_1X);
    timeTen(WARM_UP_10X);
    const allOne: number[] = [];
    const allTen: number[] = [];
    let bestOne = Infinity;
    let bestTen = Infinity;
    for (let round = 0; round < ROUNDS; round++) {
        const one = timeOne(RUNS_1X);
        const ten = timeTen(RUNS_10X);
        allOne.push(...one);
        allTen.push(...ten);
        bestOne = Math.min(bestOne, median(one));
        bestTen = Math.min(bestTen, median(ten));
    }
    return {
        best: { one: bestOne, ten: bestTen },
        overall: { one: median(allOne), ten: median(allTen) },
    };
}

function median(times: number[]): number {
    times.sort((a, b) => a - b);
    const middle = Math.floor(times.length / 2);
    return times.length % 2 === 1 ? times[middle]! : (times[middle - 1]! + times[middle]!) / 2;
}

function verdict(pass: boolean): string {
    return pass ? "PASS" : "MISS";
}

const small = buildWorkload(1);
const large = buildWorkload(10);
let enabledOne = 0;
let enabledTen = 0;
const filter = runRounds(
    (runs) => {
        const { times, enabled } = measure(small, runs);
        enabledOne = enabled;
        return times;
    },
    (runs) => {
        const { times, enabled } = measure(large, runs);
        enabledTen = enabled;
        return times;
    }
);
const map = runRounds(
    (runs) => measureMapBaseline(small, runs),
    (runs) => measureMapBaseline(large, runs)
);
const ratio = filter.best.ten / filter.best.one;

console.log(
    `toolFilter 1x  (10,000 tools / 1,000 toolsets / 1,000+1,000 identifiers): median ${filter.best.one.toFixed(2)} ms, ${enabledOne} enabled [${verdict(filter.best.one < TARGET_MEDIAN_MS)}: target < ${TARGET_MEDIAN_MS} ms]`
);
console.log(
    `toolFilter 10x (100,000 tools / 10,000 toolsets / 10,000+10,000 identifiers): median ${filter.best.ten.toFixed(2)} ms, ${enabledTen} enabled`
);
console.log(
    `toolFilter ratio median(10x)/median(1x): ${ratio.toFixed(1)} [${verdict(ratio < TARGET_RATIO)}: target < ${TARGET_RATIO}]`
);
console.log(
    `  (medians are the best of ${ROUNDS} interleaved rounds; over all runs: 1x ${filter.overall.one.toFixed(2)} ms, 10x ${filter.overall.ten.toFixed(2)} ms, ratio ${(filter.overall.ten / filter.overall.one).toFixed(1)})`
);
console.log(
    `reference: one Map of every tool id takes ${map.best.one.toFixed(2)} ms at 1x and ${map.best.ten.toFixed(2)} ms at 10x, ratio ${(map.best.ten / map.best.one).toFixed(1)} (memory effects any id-keyed index pays on this machine)`
);
