/**
 * Every published @github/copilot-sdk 1.0.x release from 1.0.0 on is installed, started and
 * measured (CONTRIBUTING.md, "Every 1.0 release"): a release that takes its runtime from the
 * dependency `@github/copilot` is pinned to the lowest published version its range allows (npm's
 * caret rule), data/sdk-releases.json records each release, and a failed install or start
 * names its cause.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import * as lib from "../../src/cli/conformance/sdkVersions.js";

const ROOT = join(import.meta.dirname, "..", "..");

/** The 1.0.x releases and previews published from 1.0.0 on (issue 19), oldest first. */
const SERVED = [
    "1.0.0",
    "1.0.1",
    "1.0.2",
    "1.0.3",
    "1.0.4",
    "1.0.5-preview.0",
    "1.0.5-preview.1",
    "1.0.5",
    "1.0.6-preview.1",
    "1.0.6",
    "1.0.7",
    "1.0.8",
    "1.0.9",
    "1.0.11",
    "1.0.13-preview.4",
    "1.0.13",
    "1.0.14",
    "1.0.15-preview.0",
    "1.0.15-preview.4",
];

describe("semantic-version precedence", () => {
    it("orders numeric pre-release identifiers as numbers, below the release", () => {
        // semver.org, item 11: 1.0.0-alpha.2 < 1.0.0-alpha.10 < 1.0.0
        const shuffled = [
            "1.0.83",
            "1.0.83-10",
            "1.0.83-2",
            "1.0.15-preview.4",
            "1.0.15-preview.0",
        ];
        expect([...shuffled].sort(lib.compareVersions)).toEqual([
            "1.0.15-preview.0",
            "1.0.15-preview.4",
            "1.0.83-2",
            "1.0.83-10",
            "1.0.83",
        ]);
    });
});

describe("the runtime a dependency release is pinned to", () => {
    it("is the lowest published version the caret range allows", () => {
        expect(lib.pinnedRuntimeVersion("^1.0.57", ["1.0.102", "1.0.58", "1.0.57", "1.0.56"])).toBe(
            "1.0.57"
        );
    });

    it("is the first published pre-release when the range names one never published", () => {
        // 1.0.13-preview.4 depends on ^1.0.83-0; 1.0.83-0 and 1.0.83-1 were never published
        expect(
            lib.pinnedRuntimeVersion("^1.0.83-0", ["1.0.82", "1.0.83-2", "1.0.83", "1.0.84-4"])
        ).toBe("1.0.83-2");
    });

    it("takes no pre-release of another version than the one the range names (npm's rule)", () => {
        expect(lib.satisfies("1.0.84-4", "^1.0.83-0")).toBe(false);
        expect(lib.satisfies("1.0.84-4", "^1.0.83")).toBe(false);
        expect(lib.pinnedRuntimeVersion("^1.0.83", ["1.0.84-4", "1.0.85"])).toBe("1.0.85");
    });

    it("stays below the next major version, and says so when nothing fits", () => {
        expect(lib.satisfies("2.0.0", "^1.0.57")).toBe(false);
        expect(lib.satisfies("1.9.0", "^1.0.57")).toBe(true);
        expect(() => lib.pinnedRuntimeVersion("^1.0.57", ["1.0.56", "2.0.0"])).toThrow("'^1.0.57'");
    });

    it("matches an exact version only itself", () => {
        expect(lib.satisfies("1.0.80", "1.0.80")).toBe(true);
        expect(lib.satisfies("1.0.81", "1.0.80")).toBe(false);
    });
});

describe("data/sdk-releases.json", () => {
    const file = lib.readSdkReleases();

    it("records every release and preview from 1.0.0 on, and the CI build as not served", () => {
        const served = [...file.releases.values()].filter((r) => r.notServed === undefined);
        expect(served.map((r) => r.sdkVersion)).toEqual(SERVED);
        const unstable = [...file.releases.keys()].filter((v) => v.includes("-unstable."));
        expect(unstable.length).toBeGreaterThan(0);
        for (const version of unstable) {
            expect(file.releases.get(version)?.notServed).toBe(lib.unservedReason(version));
            expect(lib.unservedReason(version)).toContain("CI build");
        }
    });

    it("pins each dependency release to the lowest recorded runtime its range allows", () => {
        for (const release of file.releases.values()) {
            if (release.runtime !== "dependency") continue;
            expect(release.runtimeRange).toMatch(/^\^/);
            const lower = file.runtimeVersionsPublished.filter(
                (v) => lib.compareVersions(v, release.runtimeVersion!) < 0
            );
            expect(lower.filter((v) => lib.satisfies(v, release.runtimeRange!))).toEqual([]);
            expect(lib.satisfies(release.runtimeVersion!, release.runtimeRange!)).toBe(true);
            expect(file.runtimeVersionsPublished).toContain(release.runtimeVersion);
        }
    });

    it("takes releases before 1.0.13 (and 1.0.13-preview.4) as dependency releases, later ones as bundled", () => {
        for (const version of SERVED) {
            const release = file.releases.get(version)!;
            const bundled = lib.compareVersions(version, "1.0.13") >= 0;
            expect(release.runtime).toBe(bundled ? "bundled" : "dependency");
            expect(release.runtimeRange === undefined).toBe(bundled);
        }
    });

    it("records the Node each runtime needs, and why Node 20 fails when it needs 22", () => {
        for (const version of SERVED) {
            const release = file.releases.get(version)!;
            expect([20, 22]).toContain(release.node);
            expect(release.runtimeVersion).toMatch(/^\d+\.\d+\.\d+/);
            if (release.node === 22) expect(release.node20Failure).toMatch(/\S/);
            else expect(release.node20Failure).toBeUndefined();
        }
    });

    it("agrees with the runtime version of every measurement of a release", () => {
        const dir = join(ROOT, "data", "measured-built-in-tools");
        // runtime-<version>.json: an external runtime, measured through the SDK in its sdkVersion.
        const ofReleases = readdirSync(dir).filter(
            (n) => n.endsWith(".json") && !n.startsWith("runtime-")
        );
        for (const name of ofReleases) {
            const measured = JSON.parse(readFileSync(join(dir, name), "utf8"));
            const release = file.releases.get(measured.sdkVersion);
            if (release === undefined) continue;
            expect(release.runtimeVersion, name).toBe(measured.runtimeVersion);
        }
    });
});

describe("reading release records", () => {
    const text = JSON.stringify({
        runtimeVersionsPublished: ["1.0.57"],
        releases: [
            { sdkVersion: "1.0.0", runtime: "dependency", runtimeRange: "^1.0.57", node: 22 },
            { sdkVersion: "1.0.15-unstable.1.gabc", notServed: "a CI build" },
        ],
    });

    it("keys the releases by version", () => {
        const { releases } = lib.readSdkReleases(text);
        expect(lib.sdkRelease("1.0.0", releases).runtimeRange).toBe("^1.0.57");
    });

    it("refuses a version that is not served, with the recorded reason", () => {
        const { releases } = lib.readSdkReleases(text);
        expect(() => lib.sdkRelease("1.0.15-unstable.1.gabc", releases)).toThrow("a CI build");
    });

    it("takes a version it does not know as a bundled release on Node 20", () => {
        const { releases } = lib.readSdkReleases(text);
        expect(lib.sdkRelease("1.0.16", releases)).toEqual({
            sdkVersion: "1.0.16",
            runtime: "bundled",
            node: 20,
        });
    });

    it("refuses a file that records a version twice", () => {
        const twice = JSON.stringify({
            runtimeVersionsPublished: [],
            releases: [{ sdkVersion: "1.0.0" }, { sdkVersion: "1.0.0" }],
        });
        expect(() => lib.readSdkReleases(twice)).toThrow("1.0.0 is recorded twice");
    });
});

describe("the cause of a failed install", () => {
    it("gives npm's own error lines for a version that does not exist (ETARGET)", () => {
        // npm 11's output for `npm install @github/copilot@1.0.999`
        const output = [
            "npm error code ETARGET",
            "npm error notarget No matching version found for @github/copilot@1.0.999.",
            "npm error notarget In most cases you or one of your dependencies are requesting",
            "npm error notarget a package version that doesn't exist.",
            "npm error A complete log of this run can be found in: /root/.npm/_logs/x-debug-0.log",
        ].join("\n");
        const cause = lib.npmErrorCause(output);
        expect(cause).toContain("code ETARGET");
        expect(cause).toContain("No matching version found for @github/copilot@1.0.999.");
        expect(cause).not.toContain("complete log");
        expect(cause).not.toContain("npm error");
    });

    it("gives the package a 404 names (E404), also in npm 6's 'npm ERR!' form", () => {
        const output = [
            "npm WARN something unrelated",
            "npm ERR! code E404",
            "npm ERR! 404 Not Found - GET https://registry.npmjs.org/@github%2fcopilot-sdk-x - Not found",
            "npm ERR! 404 ",
            "npm ERR! 404  '@github/copilot-sdk-x@1.0.0' is not in this registry.",
        ].join("\n");
        const cause = lib.npmErrorCause(output);
        expect(cause).toContain("code E404");
        expect(cause).toContain("'@github/copilot-sdk-x@1.0.0' is not in this registry.");
        expect(cause).not.toContain("unrelated");
    });

    it("says so when npm printed no error line", () => {
        expect(lib.npmErrorCause("")).toMatch(/no error/);
    });
});

describe("the cause of a runtime that does not start", () => {
    it("adds the runtime's first error line to the SDK's message", () => {
        // the SDK's error for 1.0.0's runtime (1.0.57) started under Node 20
        const message = [
            "CLI server exited with code 1",
            "stderr: node:internal/modules/esm/translators:391",
            "    throw new ERR_UNKNOWN_BUILTIN_MODULE(url);",
            "          ^",
            "",
            "Error [ERR_UNKNOWN_BUILTIN_MODULE]: No such built-in module: node:sqlite",
            "    at ModuleLoader.builtinStrategy (node:internal/modules/esm/translators:391:11)",
        ].join("\n");
        expect(lib.runtimeStartCause(message)).toBe(
            "CLI server exited with code 1: Error [ERR_UNKNOWN_BUILTIN_MODULE]: No such built-in module: node:sqlite"
        );
    });

    it("finds a TypeError as well", () => {
        const message =
            "CLI server exited with code 1\nstderr: file:///x/index.js:1\nTypeError: Promise.withResolvers is not a function\n    at x";
        expect(lib.runtimeStartCause(message)).toBe(
            "CLI server exited with code 1: TypeError: Promise.withResolvers is not a function"
        );
    });

    it("skips the source line Node prints above the error, however much of it reads like one", () => {
        const source = `var a=class extends Error{constructor(e){super(e)}};throw new TypeError("x: y")`;
        const message = `CLI server exited with code 1\nstderr: file:///x/app.js:1\n${source}\n   ^\n\nTypeError: Promise.withResolvers is not a function`;
        expect(lib.runtimeStartCause(message)).toBe(
            "CLI server exited with code 1: TypeError: Promise.withResolvers is not a function"
        );
    });

    it("keeps a one-line message as it is", () => {
        expect(lib.runtimeStartCause("Copilot CLI not found at /x")).toBe(
            "Copilot CLI not found at /x"
        );
    });
});
