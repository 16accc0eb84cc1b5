#!/usr/bin/env node
/**
 * Writes data/sdk-releases.json: for every published @github/copilot-sdk 1.0.x release and
 * preview from 1.0.0 on, where its runtime comes from, the runtime it runs with, and the Node it
 * needs, measured by starting the runtime.
 *
 * Usage: node scripts/measure/record-sdk-releases.mjs [<version> ...]
 *
 * With versions, only those are measured again; the others keep their record. Needs the npm
 * registry (`npm view`, and an install of each measured release into .cache/sdk/<version>).
 *
 * - runtime: "bundled" when the release has no `@github/copilot` dependency (its runtime ships in
 *   `@github/copilot-sdk-<platform>`), else "dependency";
 * - runtimeVersion: for a dependency release, the LOWEST published `@github/copilot` version its
 *   range allows (pinnedRuntimeVersion), checked against what the started runtime reports; for a
 *   bundled one, what the started runtime reports;
 * - node: 20 when the runtime starts under this Node 20, else 22 when it starts under Node 22
 *   (node20Failure says why it did not start under Node 20);
 * - notServed: why a published version is not served (unservedReason).
 */
import { execFileSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { checkArguments } from "../../build/cli/cliArguments.js";
import {
    RELEASES_FILE,
    compareVersions,
    installNode22,
    installSdkVersion,
    parseVersion,
    pinnedRuntimeVersion,
    readSdkReleases,
    startRuntime,
    unservedReason,
} from "../../build/cli/conformance/sdkVersions.js";

const args = process.argv.slice(2);
checkArguments(args, {
    usage: "Usage: node scripts/measure/record-sdk-releases.mjs [<version> ...]",
    flags: {},
    positionals: Infinity,
});
const t0 = performance.now();

/**
 * `npm view <spec> <field> --json`, parsed.
 *
 * @param {string} spec
 * @param {string} field
 * @returns {any} npm's JSON answer
 */
function npmView(spec, field) {
    const out = execFileSync("npm", ["view", spec, field, "--json", "--loglevel=error"], {
        encoding: "utf8",
    });
    return out.trim() === "" ? undefined : JSON.parse(out);
}

const sdkVersions = npmView("@github/copilot-sdk", "versions")
    .filter(
        (/** @type {string} */ v) => parseVersion(v).major === 1 && compareVersions(v, "1.0.0") >= 0
    )
    .sort(compareVersions);
const runtimeVersionsPublished = npmView("@github/copilot", "versions").sort(compareVersions);
const previous = existsSync(RELEASES_FILE) ? readSdkReleases().releases : new Map();
const remeasure = new Set(args.length > 0 ? args : sdkVersions);

/** Writes the file as it stands (installs read the records of dependency releases from it). */
/** @param {Map<string, import("../../build/cli/conformance/sdkVersions.js").SdkRelease>} releases */
function write(releases) {
    const data = {
        comment:
            "Written by node scripts/measure/record-sdk-releases.mjs. runtimeVersion of a dependency release: the lowest published @github/copilot version its runtimeRange allows; node: the Node major its runtime starts under.",
        platform: `${process.platform}-${process.arch}`,
        runtimeVersionsPublished,
        releases: [...releases.values()].sort((a, b) =>
            compareVersions(a.sdkVersion, b.sdkVersion)
        ),
    };
    writeFileSync(RELEASES_FILE, `${JSON.stringify(data, null, 4)}\n`);
}

const releases = new Map(previous);
// Records without measurements first, so that installs can read the pinned runtimes.
for (const version of sdkVersions) {
    const reason = unservedReason(version);
    if (reason !== undefined) {
        releases.set(version, { sdkVersion: version, notServed: reason });
        continue;
    }
    if (!remeasure.has(version) && releases.has(version)) continue;
    const range = (npmView(`@github/copilot-sdk@${version}`, "dependencies") ?? {})[
        "@github/copilot"
    ];
    releases.set(
        version,
        range === undefined
            ? { sdkVersion: version, runtime: "bundled" }
            : {
                  sdkVersion: version,
                  runtime: "dependency",
                  runtimeRange: range,
                  runtimeVersion: pinnedRuntimeVersion(range, runtimeVersionsPublished),
              }
    );
}
write(releases);

const failures = [];
for (const version of sdkVersions.filter(
    (/** @type {string} */ v) => remeasure.has(v) && !unservedReason(v)
)) {
    const record = releases.get(version);
    const started = performance.now();
    try {
        const sdkDir = await installSdkVersion(version);
        const on20 = startRuntime(sdkDir, process.execPath);
        let outcome = on20;
        let node = 20;
        if (!on20.started) {
            outcome = startRuntime(sdkDir, installNode22());
            node = 22;
        }
        if (!outcome.started) {
            const cause20 = on20.started ? "" : on20.cause;
            throw new Error(
                `the runtime starts under neither Node 20 (${cause20}) nor Node 22 (${outcome.cause})`
            );
        }
        if (record.runtime === "dependency" && outcome.version !== record.runtimeVersion) {
            throw new Error(
                `the pinned runtime ${record.runtimeVersion} reports version ${outcome.version}`
            );
        }
        const measured = { ...record, runtimeVersion: outcome.version, node };
        if (!on20.started) measured.node20Failure = on20.cause;
        else delete measured.node20Failure;
        releases.set(version, measured);
        write(releases);
        console.error(
            `${version}: ${record.runtime} runtime ${outcome.version}, Node ${node} (${((performance.now() - started) / 1000).toFixed(1)} s)`
        );
    } catch (error) {
        failures.push(version);
        console.error(`${version}: ${error instanceof Error ? error.message : error}`);
    }
}
console.error(`wrote ${RELEASES_FILE} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
process.exit(failures.length > 0 ? 1 : 0);
