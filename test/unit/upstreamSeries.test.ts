/**
 * The upstream pull requests (patches/upstream/<n>-<slug>/) are generated from the current
 * upstream/ and never edited by hand: their record, patches/upstream/SOURCES.sha256, equals the
 * hashes of upstream/, the generator, BASE and the patches. Offline; the byte-for-byte
 * regeneration against upstream's tree is `npm run upstream:check`. (The upstream tooling is an
 * area of its own that no script imports, so this check is a test, not a step of patch:check.)
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const { committedSeries, FINGERPRINT, seriesFingerprint } = (await import(
    pathToFileURL(join(ROOT, "scripts", "upstream", "lib", "upstreamSeries.mjs")).href
)) as {
    committedSeries(): Map<string, string>;
    FINGERPRINT: string;
    seriesFingerprint(series: Map<string, string>): string;
};

/** The paths of the fingerprint lines (`<sha256>  <path>`) in `lines` that `other` lacks. */
function pathsMissingFrom(lines: string, other: string): string[] {
    const present = new Set(other.split("\n"));
    return lines
        .split("\n")
        .filter((line) => line !== "" && !present.has(line))
        .map((line) => line.slice(66));
}

describe("patches/upstream/", () => {
    it("was generated from the current upstream/ (run 'npm run upstream:build -- <github/copilot-sdk clone>' and commit the result)", () => {
        const recorded = existsSync(FINGERPRINT) ? readFileSync(FINGERPRINT, "utf8") : "";
        const current = seriesFingerprint(committedSeries());
        const changed = pathsMissingFrom(current, recorded);
        const gone = pathsMissingFrom(recorded, current).filter((path) => !changed.includes(path));
        expect({ changed, gone }).toEqual({ changed: [], gone: [] });
    });
});
