// The discovery's data files, data/measured-built-in-tools/<sdk version>.json, one per measured
// runtime, as the conformance suite reads them (the module rendered from them,
// src/toolCustomization/catalog/generated/measuredBuiltInTools.generated.ts, is scripts/measure/lib/measuredModule.mjs's).
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

import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
export const MEASURED_DATA = join(ROOT, "data", "measured-built-in-tools");

/**
 * What the discovery measures of one runtime (scripts/measure/lib/discovery.mjs,
 * `measurementOf`), with `offeredByModel` by model id. Fields are kept in this order.
 */
export interface Measurement {
    runtimeVersion: string;
    sdkVersion: string;
    /** Which delivery of the runtime was measured (see `MeasuredBuiltInTools.delivery`). */
    delivery: "bundled" | "cli";
    builtIns: string[];
    unsupportedOverrides: string[];
    keptOnlyWithToolSearch: string[];
    offeredByModel: Record<string, string[]>;
    offeredByCondition: Record<string, string[]>;
    filterAliases: {
        excludedWith: Record<string, string[]>;
        includedWith: Record<string, string[]>;
    };
}

/**
 * The stored form of a measurement (a data file): `offeredByFamily` and `familyOfModel` in the
 * place of `offeredByModel`.
 */
export type StoredMeasurement = Record<string, unknown> & {
    sdkVersion?: string;
    offeredByFamily?: Record<string, string[]>;
    familyOfModel?: Record<string, string>;
};

/**
 * The stored form of a measurement: `offeredByModel` becomes `offeredByFamily` and
 * `familyOfModel`, in its place; the other fields are kept as they are, in their order.
 * @param measured - a measurement with `offeredByModel`
 */
export function compactMeasurement(measured: Measurement): StoredMeasurement {
    const stored: StoredMeasurement = {};
    for (const [key, value] of Object.entries(measured)) {
        if (key !== "offeredByModel") {
            stored[key] = value;
            continue;
        }
        const byModel = value as Record<string, string[]>;
        const families: Map<string, string> = new Map(); // the list, as JSON -> its family name
        const offeredByFamily: Record<string, string[]> = {};
        const familyOfModel: Record<string, string> = {};
        for (const model of Object.keys(byModel).sort()) {
            const list = JSON.stringify(byModel[model]);
            if (!families.has(list)) {
                families.set(list, model);
                offeredByFamily[model] = byModel[model] as string[];
            }
            familyOfModel[model] = families.get(list) as string;
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
 * @param stored - the parsed data file
 */
export function expandMeasurement(stored: StoredMeasurement): Measurement {
    if (stored.offeredByFamily === undefined) return stored as unknown as Measurement;
    const familyOfModel = stored.familyOfModel ?? {};
    const measured: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(stored)) {
        if (key === "familyOfModel") continue;
        if (key !== "offeredByFamily") {
            measured[key] = value;
            continue;
        }
        const families = new Map(Object.entries(value as Record<string, string[]>));
        measured.offeredByModel = Object.fromEntries(
            Object.keys(familyOfModel)
                .sort()
                .map((model) => {
                    const family = familyOfModel[model] as string;
                    if (!families.has(family)) {
                        throw new Error(
                            `${stored.sdkVersion}: model '${model}' belongs to family '${family}', which offeredByFamily lacks.`
                        );
                    }
                    return [model, families.get(family)];
                })
        );
    }
    return measured as unknown as Measurement;
}

/**
 * @param measured - a measurement with `offeredByModel`
 * @returns the text of its data file
 */
export function measurementFileText(measured: Measurement): string {
    return `${JSON.stringify(compactMeasurement(measured), null, 4)}\n`;
}

/** Every data file's measurement, expanded. */
export function readMeasurements(): Measurement[] {
    return readdirSync(MEASURED_DATA)
        .filter((name) => name.endsWith(".json"))
        .map((name) =>
            expandMeasurement(JSON.parse(readFileSync(join(MEASURED_DATA, name), "utf8")))
        );
}
