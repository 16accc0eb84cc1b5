/**
 * The discovery's raw measurement files (scripts/data/measured-built-in-tools/*.json), read as
 * they are: tests take expected built-in names from here, never from the generated catalog the
 * code under test reads.
 */
import { readdirSync, readFileSync } from "node:fs";

/** The fields of a measurement file the tests read. */
export interface RawMeasurement {
    readonly runtimeVersion: string;
    readonly sdkVersion: string;
    readonly builtIns: readonly string[];
    readonly unsupportedOverrides: readonly string[];
}

const DATA_DIR = new URL("../../scripts/data/measured-built-in-tools/", import.meta.url);

/** Every measurement file, in file-name order. */
export const RAW_MEASUREMENTS: readonly RawMeasurement[] = readdirSync(DATA_DIR)
    .filter((file) => file.endsWith(".json"))
    .sort()
    .map((file) => JSON.parse(readFileSync(new URL(file, DATA_DIR), "utf8")) as RawMeasurement);

/**
 * The runtime whose measurements stand in for an unmeasured or silent one: the newest measured,
 * the runtime bundled with SDK 1.0.15-preview.4. Written by hand; a new measurement file moves
 * it on purpose.
 */
export const NEWEST_MEASURED_RUNTIME = "1.0.89-7";
