/**
 * The discovery's raw measurement files (data/measured-built-in-tools/*.json), read as
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
    readonly offeredByFamily: Readonly<Record<string, readonly string[]>>;
    readonly familyOfModel: Readonly<Record<string, string>>;
}

const DATA_DIR = new URL("../../data/measured-built-in-tools/", import.meta.url);

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

/**
 * The SDK release the end-to-end tests run against: the pinned one, or the one
 * `npm run test:release -- <version>` names (COPILOT_SDK_RELEASE).
 */
export const RELEASE_UNDER_TEST: string =
    process.env.COPILOT_SDK_RELEASE ??
    (
        JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
            devDependencies: Record<string, string>;
        }
    ).devDependencies["@github/copilot-sdk"]!;

/** The raw measurement of the release under test's runtime (the discovery's file of it). */
function releaseMeasurement(): RawMeasurement {
    const measurement = RAW_MEASUREMENTS.find((m) => m.sdkVersion === RELEASE_UNDER_TEST);
    if (measurement === undefined) {
        throw new Error(
            `data/measured-built-in-tools/ has no measurement of @github/copilot-sdk ${RELEASE_UNDER_TEST}: run npm run discover:tool-names -- --sdk ${RELEASE_UNDER_TEST}.`
        );
    }
    return measurement;
}

/** The built-ins the release under test's runtime offers `model` in a session without options. */
export function offeredWithoutOptions(model: string): readonly string[] {
    const measurement = releaseMeasurement();
    const family = measurement.familyOfModel[model] ?? measurement.familyOfModel["*"] ?? "*";
    return measurement.offeredByFamily[family] ?? [];
}

/** Whether the release under test's runtime has a built-in of this name (offered or hidden). */
export function isBuiltInOfReleaseUnderTest(name: string): boolean {
    return releaseMeasurement().builtIns.includes(name);
}

/** The runtime version of the release under test, as its measurement file records it. */
export function runtimeOfReleaseUnderTest(): string {
    return releaseMeasurement().runtimeVersion;
}
