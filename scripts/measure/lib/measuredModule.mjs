// The module rendered from the discovery's data files (data/measured-built-in-tools/*.json, read
// by the package's conformance suite, build/cli/conformance/measuredCatalog.js):
// src/toolCustomization/catalog/generated/measuredBuiltInTools.generated.ts, one entry per measured runtime. It declares
// every list that occurs more than once, across all entries, once, and keeps the shape src/ reads
// (`offeredByModel` per entry).

import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { readMeasurements } from "../../../build/cli/conformance/measuredCatalog.js";
import { compareVersions } from "../../../build/cli/conformance/sdkVersions.js";

/** @typedef {import("../../../build/cli/conformance/measuredCatalog.js").Measurement} Measurement */

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const OUT = join(
    ROOT,
    "src",
    "toolCustomization",
    "catalog",
    "generated",
    "measuredBuiltInTools.generated.ts"
);

/**
 * @param {Measurement[]} entries measurements, one per SDK version (with `offeredByModel`)
 * @returns {string} the TypeScript module (unformatted): every name list that occurs more than
 *   once is a `const` the entries refer to, so the exported value keeps its shape
 */
export function renderMeasuredModule(entries) {
    const ordered = [...entries].sort((a, b) => compareVersions(a.sdkVersion, b.sdkVersion));
    /** @returns {value is string[]} */
    const isNameList = (/** @type {unknown} */ value) =>
        Array.isArray(value) && value.every((item) => typeof item === "string");
    /** @type {Map<string, number>} */
    const counts = new Map();
    /**
     * @param {unknown} value
     * @param {(list: string[]) => void} each
     */
    const visit = (value, each) => {
        if (isNameList(value)) each(value);
        else if (value !== null && typeof value === "object") {
            for (const item of Object.values(value)) visit(item, each);
        }
    };
    visit(ordered, (list) => {
        const key = JSON.stringify(list);
        counts.set(key, (counts.get(key) ?? 0) + 1);
    });
    /** @type {Map<string, string>} */
    const shared = new Map(); // list as JSON -> const name, in order of first occurrence
    visit(ordered, (list) => {
        const key = JSON.stringify(list);
        if (list.length > 0 && (counts.get(key) ?? 0) > 1 && !shared.has(key)) {
            shared.set(key, `NAMES_${shared.size + 1}`);
        }
    });
    const MARK = "\u0000";
    const text = JSON.stringify(
        ordered,
        (_key, value) =>
            isNameList(value) && shared.has(JSON.stringify(value))
                ? `${MARK}${shared.get(JSON.stringify(value))}`
                : value,
        4
    ).replace(/"\\u0000(NAMES_\d+)"/g, "$1");
    const constants = [...shared]
        .map(([list, name]) => `const ${name}: readonly string[] = ${list};`)
        .join("\n");
    return `// GENERATED FILE - do not edit by hand.
// Made by: npm run discover:tool-names -- --sdk <version> (one data file per SDK version in
// data/measured-built-in-tools/), measured offline against each version's own runtime.

import type { MeasuredBuiltInTools } from "../measuredBuiltInTools.js";

// Name lists that occur more than once below, declared once.
${constants}

/** What each measured runtime does with tool names, oldest SDK version first. */
export const MEASURED_BUILT_IN_TOOLS: readonly MeasuredBuiltInTools[] = ${text};
`;
}

/** @returns {Promise<string>} the module the data files give, formatted as committed */
export async function measuredModuleText() {
    const prettier = await import("prettier");
    const options = (await prettier.resolveConfig(OUT)) ?? {};
    return prettier.format(renderMeasuredModule(readMeasurements()), { ...options, filepath: OUT });
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
    return `${relative(ROOT, OUT)} differs from what data/measured-built-in-tools/*.json give: run npm run discover:tool-names -- --generate-only (never edit the module by hand).`;
}
