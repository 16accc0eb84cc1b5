// Renders src/safetyNet/measuredBuiltInTools.generated.ts from the discovery's data files,
// scripts/data/measured-built-in-tools/<sdk version>.json, one entry per runtime version.

import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const DATA = join(ROOT, "scripts", "data", "measured-built-in-tools");
const OUT = join(ROOT, "src", "safetyNet", "measuredBuiltInTools.generated.ts");

/** Orders versions like 1.0.13 < 1.0.14 < 1.0.15-preview.4 (numeric parts, then the rest). */
function compareVersions(a, b) {
    const parts = (v) => v.split(/[.-]/).map((p) => (/^\d+$/.test(p) ? Number(p) : p));
    const [x, y] = [parts(a), parts(b)];
    for (let i = 0; i < Math.max(x.length, y.length); i++) {
        if (x[i] === y[i]) continue;
        if (x[i] === undefined) return 1; // a release sorts after its pre-releases
        if (y[i] === undefined) return -1;
        return typeof x[i] === typeof y[i]
            ? x[i] < y[i]
                ? -1
                : 1
            : typeof x[i] === "number"
              ? -1
              : 1;
    }
    return 0;
}

/**
 * @param {object[]} entries measurements, one per SDK version
 * @returns {string} the TypeScript module (unformatted)
 */
export function renderMeasuredModule(entries) {
    const ordered = [...entries].sort((a, b) => compareVersions(a.sdkVersion, b.sdkVersion));
    return `// GENERATED FILE - do not edit by hand.
// Made by: npm run discover:tool-names -- --sdk <version> (one data file per SDK version in
// scripts/data/measured-built-in-tools/), measured offline against each version's own runtime.

import type { MeasuredBuiltInTools } from "./measuredBuiltInTools.js";

/** What each measured runtime does with tool names, oldest SDK version first. */
export const MEASURED_BUILT_IN_TOOLS: readonly MeasuredBuiltInTools[] = ${JSON.stringify(ordered, null, 4)};
`;
}

/** @returns {Promise<string>} the module the data files give, formatted as committed */
export async function measuredModuleText() {
    const entries = readdirSync(DATA)
        .filter((name) => name.endsWith(".json"))
        .map((name) => JSON.parse(readFileSync(join(DATA, name), "utf8")));
    const prettier = await import("prettier");
    const options = (await prettier.resolveConfig(OUT)) ?? {};
    return prettier.format(renderMeasuredModule(entries), { ...options, filepath: OUT });
}

/** @returns {Promise<string>} the path written, relative to the project */
export async function writeMeasuredModule() {
    writeFileSync(OUT, await measuredModuleText());
    return relative(ROOT, OUT);
}

/**
 * @returns {Promise<string | undefined>} why the committed module differs from what the data
 *   files give, or undefined when it matches
 */
export async function measuredModuleDrift() {
    const expected = await measuredModuleText();
    const committed = readFileSync(OUT, "utf8");
    if (committed === expected) return undefined;
    return `${relative(ROOT, OUT)} differs from what scripts/data/measured-built-in-tools/*.json give: run npm run discover:tool-names -- --generate-only (never edit the module by hand).`;
}
