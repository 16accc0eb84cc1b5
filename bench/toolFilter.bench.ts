/*---------------------------------------------------------------------------------------------
 *  Benchmark for resolveToolFilter: median time at 1x (10,000 tools, 1,000 toolsets, 1,000
 *  include + 1,000 exclude identifiers) and at 10x, and their ratio, which shows whether the
 *  work grows linearly. Informational: prints PASS / MISS against the targets, always exits 0.
 *
 *  Build and run: tsc -p tsconfig.build.json && node build/bench/toolFilter.bench.js
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
 * Times `runs` calls after `warmUp` untimed ones.
 *
 * @returns The median in milliseconds and the number of enabled tools (so the work is used).
 */
function measure(
    workload: Workload,
    warmUp: number,
    runs: number
): { median: number; enabled: number } {
    const settings = { onWarning: () => {} };
    let enabled = 0;
    for (let i = 0; i < warmUp; i++) {
        enabled = resolveToolFilter(workload.catalog, workload.options, settings).enabledTools
            .length;
    }
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
        const start = performance.now();
        const result = resolveToolFilter(workload.catalog, workload.options, settings);
        times.push(performance.now() - start);
        enabled = result.enabledTools.length;
    }
    return { median: median(times), enabled };
}

/**
 * Times building one `Map` from every tool id, the least any id-keyed catalog index must do
 * (duplicate ids have to be detected). Its 10x/1x ratio shows how much of the filter's ratio
 * comes from V8 maps and garbage collection outgrowing the CPU caches rather than from the
 * algorithm, whose operation count grows exactly tenfold.
 *
 * @returns The median in milliseconds.
 */
function measureMapBaseline(workload: Workload, warmUp: number, runs: number): number {
    const build = (): number => {
        const positions = new Map<string, number>();
        const tools = workload.catalog.tools;
        for (let i = 0; i < tools.length; i++) {
            positions.set(tools[i]!.id, i);
        }
        return positions.size;
    };
    for (let i = 0; i < warmUp; i++) {
        build();
    }
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
        const start = performance.now();
        build();
        times.push(performance.now() - start);
    }
    return median(times);
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
const one = measure(small, 20, 51);
const ten = measure(large, 5, 21);
const ratio = ten.median / one.median;
const mapOne = measureMapBaseline(small, 20, 51);
const mapTen = measureMapBaseline(large, 5, 21);

console.log(
    `toolFilter 1x  (10,000 tools / 1,000 toolsets / 1,000+1,000 identifiers): median ${one.median.toFixed(2)} ms, ${one.enabled} enabled [${verdict(one.median < TARGET_MEDIAN_MS)}: target < ${TARGET_MEDIAN_MS} ms]`
);
console.log(
    `toolFilter 10x (100,000 tools / 10,000 toolsets / 10,000+10,000 identifiers): median ${ten.median.toFixed(2)} ms, ${ten.enabled} enabled`
);
console.log(
    `toolFilter ratio median(10x)/median(1x): ${ratio.toFixed(1)} [${verdict(ratio < TARGET_RATIO)}: target < ${TARGET_RATIO}]`
);
console.log(
    `reference: one Map of every tool id takes ${mapOne.toFixed(2)} ms at 1x and ${mapTen.toFixed(2)} ms at 10x, ratio ${(mapTen / mapOne).toFixed(1)} (memory effects any id-keyed index pays on this machine)`
);
