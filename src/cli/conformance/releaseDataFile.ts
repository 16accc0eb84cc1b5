// The data files `npm run conformance` writes per SDK release (data/prompt-agreement.json,
// data/sub-agents.json): `{ generatedBy, releases: { <version>: <measurement> } }`, the releases in
// release order; a release run again replaces its entry, the others stay.

import { existsSync, readFileSync, writeFileSync } from "node:fs";

/**
 * The measurements by SDK version (empty when the file does not exist yet).
 *
 * @param file - the data file
 */
export function readReleaseData<T>(file: string): Map<string, T> {
    if (!existsSync(file)) return new Map();
    const parsed = JSON.parse(readFileSync(file, "utf8")) as { releases?: Record<string, T> };
    return new Map(Object.entries(parsed.releases ?? {}));
}

/**
 * Writes the measurements of the releases run now over the earlier ones.
 *
 * @param file - the data file
 * @param measured - by SDK version, the releases run now
 * @param order - the served releases, in release order (the file lists them so)
 */
export function writeReleaseData<T>(
    file: string,
    measured: ReadonlyMap<string, T>,
    order: readonly string[]
): void {
    const all = readReleaseData<T>(file);
    for (const [version, measurement] of measured) all.set(version, measurement);
    const rank = (version: string) => {
        const at = order.indexOf(version);
        return at === -1 ? order.length : at;
    };
    const releases = Object.fromEntries(
        [...all].sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    );
    writeFileSync(
        file,
        `${JSON.stringify({ generatedBy: "npm run conformance", releases }, null, 4)}\n`
    );
}
