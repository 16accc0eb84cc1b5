// The discovery's data files, data/measured-built-in-tools/<sdk version>.json, and the
// module rendered from them, src/safetyNet/measuredBuiltInTools.generated.ts, one entry per
// measured runtime.
//
// A data file stores the tool sets the model is offered per model id compactly: most models get
// one of two or three identical lists, so each distinct list is stored once, as a family named
// after the first model id (in sorted order) that gets it, with a map from model id to family:
//
//     "offeredByFamily": { "*": ["bash", ...], "gpt-4o": ["apply_patch", ...] },
//     "familyOfModel": { "*": "*", "claude-sonnet-4.5": "*", "gpt-4o": "gpt-4o", ... }
//
// The module keeps the shape src/ reads (`offeredByModel` per entry) and declares every list that
// occurs more than once, across all entries, once.

import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { compareVersions } from "./sdkVersions.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
export const MEASURED_DATA = join(ROOT, "data", "measured-built-in-tools");
const OUT = join(ROOT, "src", "safetyNet", "measuredBuiltInTools.generated.ts");

/**
 * What the discovery measures of one runtime (scripts/measure/lib/discovery.mjs,
 * `measurementOf`), with `offeredByModel` by model id. Fields are kept in this order.
 *
 * @typedef {object} Measurement
 * @property {string} runtimeVersion
 * @property {string} sdkVersion
 * @property {string[]} builtIns
 * @property {string[]} unsupportedOverrides
 * @property {string[]} keptOnlyWithToolSearch
 * @property {Record<string, string[]>} offeredByModel
 * @property {Record<string, string[]>} offeredByCondition
 * @property {{ excludedWith: Record<string, string[]>, includedWith: Record<string, string[]> }} filterAliases
 */

/**
 * The stored form of a measurement (a data file): `offeredByFamily` and `familyOfModel` in the
 * place of `offeredByModel`.
 *
 * @typedef {Record<string, unknown> & { sdkVersion?: string, offeredByFamily?: Record<string, string[]>, familyOfModel?: Record<string, string> }} StoredMeasurement
 */

/**
 * The stored form of a measurement: `offeredByModel` becomes `offeredByFamily` and
 * `familyOfModel`, in its place; the other fields are kept as they are, in their order.
 * @param {Measurement} measured a measurement with `offeredByModel`
 * @returns {StoredMeasurement}
 */
export function compactMeasurement(measured) {
    /** @type {StoredMeasurement} */
    const stored = {};
    for (const [key, value] of Object.entries(measured)) {
        if (key !== "offeredByModel") {
            stored[key] = value;
            continue;
        }
        const byModel = /** @type {Record<string, string[]>} */ (value);
        /** @type {Map<string, string>} */
        const families = new Map(); // the list, as JSON -> its family name
        /** @type {Record<string, string[]>} */
        const offeredByFamily = {};
        /** @type {Record<string, string>} */
        const familyOfModel = {};
        for (const model of Object.keys(byModel).sort()) {
            const list = JSON.stringify(byModel[model]);
            if (!families.has(list)) {
                families.set(list, model);
                offeredByFamily[model] = /** @type {string[]} */ (byModel[model]);
            }
            familyOfModel[model] = /** @type {string} */ (families.get(list));
        }
        stored.offeredByFamily = offeredByFamily;
        stored.familyOfModel = familyOfModel;
    }
    return stored;
}

/**
 * The measurement a data file stores, with `offeredByModel` rebuilt (sorted by model id) in the
 * place of `offeredByFamily` and `familyOfModel`. A file in the earlier form, with
 * `offeredByModel` itself, is returned as it is.
 * @param {StoredMeasurement} stored the parsed data file
 * @returns {Measurement}
 */
export function expandMeasurement(stored) {
    if (stored.offeredByFamily === undefined) return /** @type {Measurement} */ (stored);
    const familyOfModel = stored.familyOfModel ?? {};
    /** @type {Record<string, unknown>} */
    const measured = {};
    for (const [key, value] of Object.entries(stored)) {
        if (key === "familyOfModel") continue;
        if (key !== "offeredByFamily") {
            measured[key] = value;
            continue;
        }
        const families = new Map(Object.entries(/** @type {Record<string, string[]>} */ (value)));
        measured.offeredByModel = Object.fromEntries(
            Object.keys(familyOfModel)
                .sort()
                .map((model) => {
                    const family = /** @type {string} */ (familyOfModel[model]);
                    if (!families.has(family)) {
                        throw new Error(
                            `${stored.sdkVersion}: model '${model}' belongs to family '${family}', which offeredByFamily lacks.`
                        );
                    }
                    return [model, families.get(family)];
                })
        );
    }
    return /** @type {Measurement} */ (/** @type {unknown} */ (measured));
}

/**
 * @param {Measurement} measured a measurement with `offeredByModel`
 * @returns {string} the text of its data file
 */
export function measurementFileText(measured) {
    return `${JSON.stringify(compactMeasurement(measured), null, 4)}\n`;
}

/** @returns {Measurement[]} every data file's measurement, expanded */
export function readMeasurements() {
    return readdirSync(MEASURED_DATA)
        .filter((name) => name.endsWith(".json"))
        .map((name) =>
            expandMeasurement(JSON.parse(readFileSync(join(MEASURED_DATA, name), "utf8")))
        );
}

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

import type { MeasuredBuiltInTools } from "./measuredBuiltInTools.js";

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
