#!/usr/bin/env node
// conformance --compare <runtime A> <runtime B> [--sdk-a <version>] [--sdk-b <version>]
// [--tools <names> | --app <module>] [--json]: what a runtime upgrade changes for an app. Both
// runtimes (npm specs such as @github/copilot@1.0.83, or paths of a copilot CLI or of a folder
// that installed one) are driven offline, with the mock model on 127.0.0.1 (compareProbe.ts), each
// by the SDK release its side names (--sdk-a/--sdk-b: the release the app's lockfile locks on that
// side; default the release this package pins), and the results compared (runtimeComparison.ts).
//
// Exit codes: 0 nothing the app relies on changed; 1 something did (each difference is named);
// 2 a usage error (the message names the bad value); 3 a runtime could not be probed. Runtime installs are cached in
// $COPILOT_SDK_TOOL_OVERRIDE_CACHE/runtimes (default: the repository's .cache/).

import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { appSessionConfig, type CompareProbeResult } from "./compareProbe.js";
import {
    acceptDifferences,
    compareRuntimes,
    unmatchedAcceptances,
    formatComparison,
    readAcceptedDifferences,
    type AcceptedDifference,
} from "./runtimeComparison.js";
import { CACHE, freshPrefix, installSdkVersion, nodeFor, npmInstall } from "./sdkVersions.js";
import { promptAgreementSummary } from "./promptReport.js";

const USAGE =
    "Usage: conformance --compare <runtime A> <runtime B> [--sdk-a <version>] [--sdk-b <version>]\n" +
    "  [--tools <name,name,...> | --app <module>] [--accept <file>] [--json]\n" +
    "  <runtime>: an npm spec (@github/copilot@1.0.83) or the path of a copilot CLI (or of a folder\n" +
    "  whose node_modules/.bin/copilot is one). --sdk-a, --sdk-b: the @github/copilot-sdk release\n" +
    "  that drives each runtime, as the app's lockfile has it on that side (default: the release\n" +
    "  this package pins). --accept: a reviewed-differences file,\n" +
    '  { "accepted": [{ "code": "NEW_BUILT_IN", "tool": "apply_patch", "model"?: "gpt-4o", "reason"?: "..." }] }.\n' +
    "  Exit 0: nothing the app relies on changed, or only accepted differences; 1: something else\n" +
    "  did; 2: usage error; 3: a runtime could not be probed.";
const PROBE = join(dirname(fileURLToPath(import.meta.url)), "compareProbe.js");
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const NPM_SPEC = /^(@[a-z0-9][a-z0-9._-]*\/)?[a-z0-9][a-z0-9._-]*@[A-Za-z0-9._^~<>=*+-]+$/;

const KNOWN_FLAGS = new Set([
    "--compare",
    "--tools",
    "--app",
    "--json",
    "--accept",
    "--sdk-a",
    "--sdk-b",
]);
const SDK_VERSION = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;

class UsageError extends Error {}

export function readCompareArguments(args: string[]): {
    a: string;
    b: string;
    tools: string[] | undefined;
    app: string | undefined;
    json: boolean;
    accept: string | undefined;
    sdkA: string | undefined;
    sdkB: string | undefined;
} {
    const unknown = args.find((arg) => arg.startsWith("-") && !KNOWN_FLAGS.has(arg));
    if (unknown !== undefined) throw new UsageError(`Unknown option '${unknown}'.`);
    const rest = [...args];
    const take = (flag: string) => {
        const at = rest.indexOf(flag);
        if (at === -1) return undefined;
        const value = rest[at + 1];
        if (value === undefined || value.startsWith("--")) {
            throw new UsageError(`${flag} needs a value.`);
        }
        rest.splice(at, 2);
        return value;
    };
    const json = rest.includes("--json");
    if (json) rest.splice(rest.indexOf("--json"), 1);
    const at = rest.indexOf("--compare");
    if (at === -1) throw new UsageError("--compare needs two runtimes.");
    const [a, b] = rest.splice(at, 3).slice(1);
    if (a === undefined || b === undefined || a.startsWith("--") || b.startsWith("--")) {
        throw new UsageError(
            `--compare needs two runtimes, found ${
                [a, b]
                    .filter((v) => v !== undefined)
                    .map((v) => `'${v}'`)
                    .join(" and ") || "none"
            }.`
        );
    }
    const toolList = take("--tools");
    const app = take("--app");
    const accept = take("--accept");
    const [sdkA, sdkB] = (["--sdk-a", "--sdk-b"] as const).map((flag) => {
        const version = take(flag);
        if (version !== undefined && !SDK_VERSION.test(version)) {
            throw new UsageError(
                `Invalid ${flag} '${version}': give the @github/copilot-sdk version the app's ` +
                    `lockfile locks on that side, e.g. ${flag} 1.0.14.`
            );
        }
        return version;
    });
    if (accept !== undefined && !existsSync(accept)) {
        throw new UsageError(
            `--accept '${accept}' does not exist: name the reviewed-differences file (docs/runtime-proof.md).`
        );
    }
    if (rest.length > 0) throw new UsageError(`Unexpected argument '${rest[0]}'.`);
    if (toolList !== undefined && app !== undefined) {
        throw new UsageError(
            "Give --tools or --app, not both: --app reads the tools from the app's session config."
        );
    }
    let tools;
    if (toolList !== undefined) {
        tools = toolList.split(",").map((name) => name.trim());
        const bad = tools.find((name) => !TOOL_NAME.test(name));
        if (bad !== undefined) {
            throw new UsageError(
                `Invalid --tools entry '${bad}': list tool names separated by commas, e.g. ` +
                    `--tools view,bash,apply_patch (letters, digits, '_' and '-').`
            );
        }
    }
    if (app !== undefined && !existsSync(app)) {
        throw new UsageError(
            `--app '${app}' does not exist: name a module that exports the app's session config.`
        );
    }
    for (const runtime of [a, b]) {
        if (!existsSync(runtime) && !NPM_SPEC.test(runtime)) {
            throw new UsageError(
                `Runtime '${runtime}' is neither an existing path nor an npm spec: use e.g. ` +
                    `@github/copilot@1.0.102, or the path of a copilot CLI.`
            );
        }
    }
    return { a, b, tools, app, json, accept, sdkA, sdkB };
}

/**
 * The copilot CLI of a runtime argument, installing an npm spec into the cache once.
 */
function cliOf(runtime: string): string {
    if (existsSync(runtime)) {
        const path = resolve(runtime);
        if (!statSync(path).isDirectory()) return path;
        const cli = join(path, "node_modules", ".bin", "copilot");
        if (existsSync(cli)) return cli;
        throw new UsageError(
            `Runtime '${runtime}' is a folder without node_modules/.bin/copilot: name the copilot CLI itself.`
        );
    }
    const prefix = join(CACHE, "runtimes", runtime.replace(/[^A-Za-z0-9._@-]/g, "+"));
    const cli = join(prefix, "node_modules", ".bin", "copilot");
    if (existsSync(cli)) return cli;
    const [, name = "", version = ""] = /^(.+)@([^@]+)$/.exec(runtime) ?? [];
    freshPrefix(prefix, { [name]: version });
    try {
        npmInstall(prefix, runtime);
    } catch (error) {
        rmSync(prefix, { recursive: true, force: true });
        throw new UsageError(
            `Runtime '${runtime}' could not be installed: ${error instanceof Error ? error.message : error}`
        );
    }
    if (!existsSync(cli)) {
        rmSync(prefix, { recursive: true, force: true });
        throw new UsageError(
            `Runtime '${runtime}' installed no copilot CLI (node_modules/.bin/copilot): name a @github/copilot release.`
        );
    }
    return cli;
}

/**
 * Runs the probe on one runtime.
 */
function probe(
    sdk: DrivingSdk,
    cli: string,
    tools: readonly string[],
    app: string | undefined
): CompareProbeResult {
    const dir = mkdtempSync(join(tmpdir(), "conformance-compare-out-"));
    try {
        const out = join(dir, "result.json");
        const extra = [sdk.patchedDir, ...(app === undefined ? [] : [resolve(app)])];
        const args = [PROBE, sdk.sdkDir, cli, JSON.stringify(tools), out, ...extra];
        execFileSync(sdk.node, args, {
            stdio: ["ignore", "ignore", "inherit"],
        });
        return JSON.parse(readFileSync(out, "utf8"));
    } finally {
        rmSync(dir, { recursive: true, force: true });
    }
}

/** The SDK release that drives one side's runtime, installed with its patched copy. */
interface DrivingSdk {
    readonly version: string;
    readonly sdkDir: string;
    /** The same release with the package's patch, for the prompt cases and the app's config. */
    readonly patchedDir: string;
    /** The Node that runs the release (Node 22 for releases that need it). */
    readonly node: string;
}

/** Installs (once, into the cache) the SDK release that drives a side. */
async function drivingSdk(version: string): Promise<DrivingSdk> {
    const sdkDir = await installSdkVersion(version);
    const { patchedCopy } = await import("./patchedInstall.js");
    return {
        version,
        sdkDir,
        patchedDir: patchedCopy(version, sdkDir, "compare"),
        node: await nodeFor(version),
    };
}

/**
 * @returns the exit code
 */
export async function runComparison(args: string[]): Promise<number> {
    const started = performance.now();
    if (args.includes("--help") || args.includes("-h")) {
        console.log(USAGE);
        return 0;
    }
    let options;
    try {
        options = readCompareArguments(args);
    } catch (error) {
        if (!(error instanceof UsageError)) throw error;
        console.error(`${error.message}\n\n${USAGE}`);
        return 2;
    }
    const { a, b, app, json } = options;
    let acceptedEntries: AcceptedDifference[] = [];
    if (options.accept !== undefined) {
        try {
            acceptedEntries = readAcceptedDifferences(
                readFileSync(options.accept, "utf8"),
                options.accept
            );
        } catch (error) {
            console.error(`${error instanceof Error ? error.message : error}\n\n${USAGE}`);
            return 2;
        }
    }
    let tools = options.tools ?? [];
    let cliA;
    let cliB;
    try {
        if (app !== undefined) {
            const config = await appSessionConfig(app);
            tools = (Array.isArray(config.tools) ? config.tools : []).map((tool) =>
                String(tool?.name)
            );
        }
        console.error(`runtime A: ${a}`);
        cliA = cliOf(a);
        console.error(`runtime B: ${b}`);
        cliB = cliOf(b);
    } catch (error) {
        if (
            !(error instanceof UsageError) &&
            !(error instanceof Error && /--app/.test(error.message))
        )
            throw error;
        console.error(`${error.message}\n\n${USAGE}`);
        return 2;
    }
    const { pinnedVersion } = await import("./servedReleases.js");
    const sdkA = options.sdkA ?? pinnedVersion();
    const sdkB = options.sdkB ?? pinnedVersion();
    const sdks = new Map<string, DrivingSdk>();
    const results: CompareProbeResult[] = [];
    for (const [label, spec, cli, version] of [
        ["A", a, cliA, sdkA],
        ["B", b, cliB, sdkB],
    ] as const) {
        let sdk = sdks.get(version);
        try {
            sdk ??= await drivingSdk(version);
        } catch (error) {
            console.error(
                `The SDK release ${version} that drives runtime ${label} could not be installed ` +
                    `(${error instanceof Error ? error.message.split("\n")[0] : error}): ` +
                    `name a published @github/copilot-sdk release.`
            );
            return 3;
        }
        sdks.set(version, sdk);
        console.error(`probing ${label} (${cli}, driven by @github/copilot-sdk ${version})`);
        try {
            results.push(probe(sdk, cli, tools, app));
        } catch (error) {
            // Not a difference: nothing is known about what changed.
            console.error(
                `Runtime ${label} '${spec}' could not be probed ` +
                    `(${error instanceof Error ? error.message.split("\n")[0] : error}): see the probe's error above.`
            );
            return 3;
        }
    }
    const [resultA, resultB] = results as [CompareProbeResult, CompareProbeResult];
    const compared = compareRuntimes(resultA, resultB, tools);
    const { added, promptMentionsAdded } = compared;
    // Reviewed differences (--accept) do not fail the comparison; every other one does.
    const { accepted, unaccepted: differences } = acceptDifferences(
        compared.differences,
        acceptedEntries
    );
    const unmatchedAccepted = unmatchedAcceptances(compared.differences, acceptedEntries);
    for (const entry of unmatchedAccepted) {
        console.error(
            `--accept '${options.accept}': the entry ${JSON.stringify(entry)} accepts no difference found: ` +
                `remove it, or correct its code, tool or model.`
        );
    }
    const exitCode = differences.length > 0 ? 1 : 0;
    const report = {
        a: { spec: a, version: resultA.runtimeVersion, sdk: sdkA },
        b: { spec: b, version: resultB.runtimeVersion, sdk: sdkB },
        tools,
        differences,
        accepted,
        unmatchedAccepted,
        added,
        prompt: {
            a: promptAgreementSummary(resultA.prompt ?? []),
            b: promptAgreementSummary(resultB.prompt ?? []),
        },
        promptMentionsAdded,
        observed: { a: resultA.names, b: resultB.names },
        promptMentions: { a: resultA.prompt ?? [], b: resultB.prompt ?? [] },
        agents: { a: resultA.agents, b: resultB.agents },
        exitCode,
        seconds: Math.round((performance.now() - started) / 100) / 10,
    };
    console.log(json ? JSON.stringify(report, null, 2) : formatComparison(report));
    return exitCode;
}

if (import.meta.url === `file://${process.argv[1]}`) {
    process.exitCode = await runComparison(process.argv.slice(2));
}
