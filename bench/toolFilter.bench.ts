/**
 * Benchmark of resolveToolFilter, measured side by side in one run:
 * - 10,000 tools in 1,000 toolsets with 1,000 include + 1,000 exclude identifiers (1x), and ten
 *   times that (10x), with the 10x/1x ratio;
 * - a realistic session: 20 tools, 6 toolsets, a few identifiers;
 * - a baseline: building a plain `Map` of the tool ids alone at 1x and 10x, with its ratio, so
 *   the filter's growth can be read against the memory hierarchy's.
 * Sizes are interleaved round by round so machine noise hits all alike; medians are printed.
 * Informational: no targets, exits 0.
 */

import { performance } from "node:perf_hooks";
import {
    resolveToolFilter,
    type ToolFilterCatalog,
    type ToolFilterOptions,
} from "../src/toolFilter/toolFilter.js";

const ROUNDS = 9;

interface Workload {
    readonly catalog: ToolFilterCatalog;
    readonly options: ToolFilterOptions;
    readonly ids: readonly string[];
}

/** `10,000 * scale` tools in toolsets of ten; identifiers of every kind, overlapping. */
function largeWorkload(scale: number): Workload {
    const toolCount = 10_000 * scale;
    const tools = Array.from({ length: toolCount }, (_, i) => ({
        id: `tool_${i}`,
        toolReferenceName: `ref_${i}`,
    }));
    const toolSets = Array.from({ length: toolCount / 10 }, (_, j) => ({
        id: `set_${j}`,
        referenceName: `set_ref_${j}`,
        tools: Array.from({ length: 10 }, (_, k) => `tool_${j * 10 + k}`),
    }));
    const identifier = (i: number): string =>
        [`set_${i}`, `set_ref_${i}`, `tool_${i * 7}`, `ref_${i * 3}`][i % 4]!;
    const count = 1_000 * scale;
    return {
        catalog: { tools, toolSets },
        options: {
            include: Array.from({ length: count }, (_, i) => identifier(i)),
            exclude: Array.from({ length: count }, (_, i) => identifier(i * 2 + 1)),
        },
        ids: tools.map((tool) => tool.id),
    };
}

/** What a session has: about 20 tools, the default toolsets, a few names. */
function realisticWorkload(): Workload {
    const names = [
        "view",
        "edit",
        "create",
        "bash",
        "read_bash",
        "write_bash",
        "stop_bash",
        "list_bash",
        "glob",
        "grep",
        "web_fetch",
        "task",
        "read_agent",
        "write_agent",
        "list_agents",
        "sql",
        "lint",
        "format",
        "deploy",
        "notes",
    ];
    const toolSets = Object.entries({
        read: ["view"],
        edit: ["edit", "create"],
        search: ["glob", "grep"],
        execute: ["bash", "read_bash", "write_bash", "stop_bash", "list_bash"],
        web: ["web_fetch"],
        agent: ["task", "read_agent", "write_agent", "list_agents"],
    }).map(([name, tools]) => ({ id: `toolset:${name}`, referenceName: name, tools }));
    return {
        catalog: { tools: names.map((id) => ({ id })), toolSets },
        options: {
            include: ["toolset:read", "toolset:edit", "lint", "notes"],
            exclude: ["create"],
        },
        ids: names,
    };
}

function median(values: number[]): number {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[sorted.length >> 1]!;
}

function time(runs: number, work: () => unknown): number {
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
        const start = performance.now();
        work();
        times.push(performance.now() - start);
    }
    return median(times);
}

const settings = { noToolsEnabled: "allow" as const, maxTools: Infinity, onWarning: () => {} };
const filter = (w: Workload) => () => resolveToolFilter(w.catalog, w.options, settings);
const baseline = (w: Workload) => () => new Map(w.ids.map((id, index) => [id, index]));

const workloads = {
    "1x": largeWorkload(1),
    "10x": largeWorkload(10),
    "20 tools": realisticWorkload(),
};
const runsPerRound = { "1x": 15, "10x": 3, "20 tools": 2_000 };
const cases = Object.entries(workloads).flatMap(([size, workload]) => [
    { size, kind: "filter", run: filter(workload) },
    { size, kind: "Map", run: baseline(workload) },
]);
for (const { run } of cases) for (let i = 0; i < 3; i++) run();

// Interleaved: every round times every case once, so machine noise hits all alike.
const roundMedians = new Map<string, number[]>();
for (let round = 0; round < ROUNDS; round++) {
    for (const { size, kind, run } of cases) {
        const key = `${kind} ${size}`;
        const runs = runsPerRound[size as keyof typeof runsPerRound];
        roundMedians.set(key, [...(roundMedians.get(key) ?? []), time(runs, run)]);
    }
}
const medianOf = (kind: string, size: string) => median(roundMedians.get(`${kind} ${size}`)!);
const ms = (value: number) =>
    value >= 1 ? `${value.toFixed(2)} ms` : `${(value * 1000).toFixed(1)} us`;
const rows: [string, string, string][] = [
    [
        "1x: 10,000 tools, 1,000 toolsets, 1,000 + 1,000 ids",
        ms(medianOf("filter", "1x")),
        ms(medianOf("Map", "1x")),
    ],
    [
        "10x: 100,000 tools, 10,000 toolsets, 10,000 + 10,000 ids",
        ms(medianOf("filter", "10x")),
        ms(medianOf("Map", "10x")),
    ],
    [
        "10x / 1x",
        (medianOf("filter", "10x") / medianOf("filter", "1x")).toFixed(1),
        (medianOf("Map", "10x") / medianOf("Map", "1x")).toFixed(1),
    ],
    [
        "realistic: 20 tools, 6 toolsets, 5 ids",
        ms(medianOf("filter", "20 tools")),
        ms(medianOf("Map", "20 tools")),
    ],
];
const header: [string, string, string] = ["case", "resolveToolFilter", "Map of tool ids"];
const widths = [0, 1, 2].map((column) =>
    Math.max(...[header, ...rows].map((row) => row[column]!.length))
);
const line = (row: readonly string[]) =>
    `| ${row.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join(" | ")} |`;
console.log(`Median of ${ROUNDS} interleaved rounds (each round's value is a median of its runs):`);
console.log(line(header));
console.log(
    `|${widths.map((width, column) => (column === 0 ? ` ${"-".repeat(width)} ` : ` ${"-".repeat(width - 1)}: `)).join("|")}|`
);
for (const row of rows) console.log(line(row));
