#!/usr/bin/env node
/**
 * Measures which tool names a Copilot runtime treats as built-in, writes
 * data/measured-built-in-tools/<sdk version>.json and regenerates
 * src/toolCustomization/catalog/generated/measuredBuiltInTools.generated.ts from every such file.
 *
 * Usage: node scripts/measure/discover-reserved-tool-names.mjs [--sdk <version>] [--quiet] [--full]
 *        node scripts/measure/discover-reserved-tool-names.mjs --runtime <copilot CLI> [--out <file>]
 *        node scripts/measure/discover-reserved-tool-names.mjs --generate-only
 *
 * With --runtime, the SDK (the pinned version's unpatched copy, or --sdk) drives that CLI through
 * `connection: RuntimeConnection.forStdio({ path })` instead of its bundled runtime, and the
 * candidates come from the CLI's native binary and packages. The result is written to
 * data/measured-built-in-tools/runtime-<runtime version>.json (and the generated module
 * is regenerated, so the patch stops falling back for that runtime), or only to --out <file>.
 *
 * It drives the UNPATCHED SDK ("copilot-sdk-unpatched", an npm alias of
 * @github/copilot-sdk, or --sdk <version> installed into .cache/sdk/<version>) and its runtime,
 * fully offline: sessions point at a tiny OpenAI-compatible mock on 127.0.0.1 (node:http, below).
 * A release before 1.0.13 takes its runtime from `@github/copilot`, pinned as
 * data/sdk-releases.json records; that runtime is JavaScript the SDK starts with the Node
 * running it, so when the release needs Node 22 the discovery runs itself again under Node 22
 * (installed from the npm registry into .cache/node/). A failed install or start stops it with
 * npm's or the runtime's own error; every run ends with the time it took. Steps:
 *
 * 1. Candidates: every identifier-like string (/^[a-z][a-z0-9_]{1,40}$/) in the
 *    runtime binary and in the text files of the runtime package (bundled JS, agent
 *    definitions, schemas, built-in skills); the names the binary stores back to back
 *    (`..._searchgrep_searchlexical_code_search...`), cut where a run of words is glued
 *    to the next (see gluedNames); every built-in measured on another runtime; plus the
 *    names of `tools.list`,
 *    `session.rpc.tools.getBuiltinDescriptors` and every probed session's tool set.
 * 2. Offered sets: for each probed configuration (two model families, and the
 *    options that switch on extra built-ins), the names the session offers the model
 *    (from `getCurrentMetadata`; for the plain sessions also from a real model
 *    request to the mock).
 * 3. Conflicts: custom tools without `overridesBuiltInTool` are registered in
 *    batches; `createSession` rejects names the runtime forbids outright, and
 *    `session.rpc.tools.initializeAndValidate()` (the same check `send` runs) reports
 *    one conflicting name at a time, which is removed before retrying. A batch failing
 *    otherwise is halved; a single name still refused for another reason (twice) counts
 *    as forbidden: inconclusive is never taken to mean free.
 * 4. Shadowing: in a plain session, custom tools (no flag) that do not conflict are
 *    executed through `session.rpc.tools.execute` (the runtime's own dispatch path,
 *    the same as a model tool call); names whose custom handler does not run are
 *    dispatched to a hidden built-in. Candidates containing digits are skipped unless
 *    --full is given (no built-in name has one). Names the execute path cannot reach
 *    (it answers "Tool '<name>' does not exist") are checked through the model instead.
 *    Runtimes without `session.tools.execute` (before 1.0.13's) are scanned through the model
 *    alone: the mock calls a batch of custom tools at once, and names whose handler does not
 *    run are probed again in smaller batches, then alone.
 * 5. Overrides: every built-in name found is registered with
 *    `overridesBuiltInTool: true` in a plain session and in one that offers it, and the
 *    mock model calls it; the model must see exactly one definition (the custom one) and the
 *    custom handler must run. A name that fails, or whose probe is inconclusive, is
 *    unsupported, unless it works while tool search defers tools (keptOnlyWithToolSearch).
 *    The names are probed many per session (the mock calls them all in one turn, as parallel
 *    tool calls); a name failing in a batch is probed again alone, and a batch that changes
 *    the other tools offered is redone name by name, so batching cannot change a verdict.
 *    Then a name another runtime keeps only with tool search (tool_search_tool) and not found
 *    here is probed with the flag while tool search defers tools: a runtime can reserve it there
 *    without offering it (1.0.69 drops the custom tool), and then it is a built-in whose override
 *    is unsupported. Last, a free name with the flag must be accepted and run its custom handler.
 * 6. Filter aliases: which offered built-ins the runtime removes when another name is in
 *    excludedTools, or allows when another name is in availableTools (grep and rg, ...).
 *
 * Deterministic (sorted output); takes 3 to 6 minutes per version on 2 cores; cleans up its temp
 * dirs and runtime processes, also when interrupted.
 */
import { checkArguments } from "../../build/cli/cliArguments.js";
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";
import { availableParallelism, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { writeMeasuredModule } from "./lib/measuredModule.mjs";
import { startMockChatModel } from "../../build/esm/mockModel/mockChatModel.js";
import {
    installSdkVersion,
    nodeFor,
    runtimeFilesOf,
    runtimeStartCause,
    sdkRelease,
} from "../../build/cli/conformance/sdkVersions.js";
import {
    connectionTo,
    externalRuntimeFiles,
    optionValue,
    runtimeOption,
} from "../../build/cli/conformance/externalRuntime.js";
import {
    candidateSources,
    checkFreeNameOverride,
    measureFilterAliases,
    measureOfferedSets,
    measurementOf,
    NAME,
    offeredByCondition,
    probeConfigs,
    probeOverrides,
    probeToolSearchReserved,
    rigOf,
    scanConflicts,
    scanShadowed,
    sorted,
    toolSearchNamesElsewhere,
    writeMeasurement,
} from "./lib/discovery.mjs";
checkArguments(process.argv.slice(2), {
    usage: "Usage: npm run discover:tool-names [-- [--sdk <version>] [--runtime <copilot CLI>] [--out <file>] [--quiet] [--full] [--only <names>] [--generate-only]]",
    flags: {
        sdk: "value",
        runtime: "value",
        out: "value",
        quiet: "switch",
        full: "switch",
        only: "value",
        "generate-only": "switch",
    },
    positionals: 0,
});

if (process.argv.includes("--generate-only")) {
    console.error(`wrote ${await writeMeasuredModule()}`);
    process.exit(0);
}

const projectRoot = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");
const dataDir = join(projectRoot, "data", "measured-built-in-tools");
const args = process.argv.slice(2);
/** The whole run, install included, for the time printed at the end. */
const runStart = performance.now();
const seconds = (/** @type {number} */ since) =>
    `${((performance.now() - since) / 1000).toFixed(1)} s`;
const quiet = args.includes("--quiet");
/** Also execute-scan candidates containing digits (no built-in name has any; ~25% slower). */
const full = args.includes("--full");
/**
 * Debugging: restrict the candidates to a comma-separated list. The result is then partial, so
 * it goes to stdout and no file is written.
 */
const only = optionValue(args, "only")?.split(",");
const log = (/** @type {unknown[]} */ ...parts) => {
    if (!quiet) console.error(...parts);
};
/** Runtime processes used in parallel for the long scans. */
const CLIENTS = Math.max(1, Math.min(2, availableParallelism()));

// ---------------------------------------------------------------- install and start
const require = createRequire(join(projectRoot, "package.json"));
/**
 * The directory of the nearest package.json with a name above `file` (skips dist/cjs's).
 *
 * @param {string} file
 */
function packageRoot(file) {
    let dir = dirname(file);
    while (
        !existsSync(join(dir, "package.json")) ||
        !JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).name
    ) {
        dir = dirname(dir);
    }
    return dir;
}
const requestedSdk = optionValue(args, "sdk");
/** An external CLI to measure instead of the SDK's bundled runtime. */
const externalRuntime = runtimeOption(args);
/** @type {string} */
let sdkDir;
try {
    sdkDir =
        requestedSdk === undefined
            ? packageRoot(require.resolve("copilot-sdk-unpatched"))
            : await installSdkVersion(requestedSdk);
} catch (error) {
    console.error(
        `Cannot install @github/copilot-sdk@${requestedSdk}: ${error instanceof Error ? error.message : error}`
    );
    console.error(`discovery stopped after ${seconds(runStart)}`);
    process.exit(1);
}
const sdkVersion = JSON.parse(readFileSync(join(sdkDir, "package.json"), "utf8")).version;
// The SDK starts a JavaScript runtime (releases before 1.0.13) with the Node that runs it, and
// some of those runtimes need Node 22: run the whole discovery under the Node the release needs.
if (requestedSdk !== undefined && externalRuntime === undefined) {
    const node = await nodeFor(requestedSdk);
    if (node !== process.execPath) {
        console.error(
            `@github/copilot-sdk@${sdkVersion}'s runtime needs another Node: running under ${node}`
        );
        const child = spawnSync(node, [fileURLToPath(import.meta.url), ...args], {
            stdio: "inherit",
        });
        console.error(`discovery of ${sdkVersion} took ${seconds(runStart)} in all`);
        process.exit(child.status ?? 1);
    }
}
/** @type {import("./lib/discovery.mjs").Sdk} */
const sdk = await import(pathToFileURL(join(sdkDir, "dist", "index.js")).href);
const { CopilotClient, approveAll } = sdk;
const outFile = optionValue(args, "out");
/** The runtime's native binary and the package folders whose text files hold candidates. */
const runtimeFiles =
    externalRuntime === undefined ? runtimeFilesOf(sdkDir) : externalRuntimeFiles(externalRuntime);
const clientOptions = externalRuntime === undefined ? {} : connectionTo(sdk, externalRuntime);

const tempRoot = mkdtempSync(join(tmpdir(), "reserved-tool-names-"));
const baseDirectory = join(tempRoot, "base");
const workingDirectory = join(tempRoot, "work");
const skillDir = join(tempRoot, "skills");
mkdirSync(workingDirectory, { recursive: true });
mkdirSync(join(skillDir, "probe"), { recursive: true });
writeFileSync(
    join(skillDir, "probe/SKILL.md"),
    "---\nname: probe\ndescription: Probe skill\n---\nNothing to do.\n"
);

const t0 = performance.now();
const mock = await startMockChatModel();
const clients = Array.from(
    { length: CLIENTS },
    (_, i) => new CopilotClient({ ...clientOptions, baseDirectory: join(baseDirectory, String(i)) })
);
const rig = rigOf({
    clients,
    mock,
    approveAll,
    workingDirectory,
    configs: probeConfigs(skillDir),
    log,
});
let exitCode = 0;
/** Stops the runtime processes and removes the temp dir; also run on Ctrl-C / SIGTERM. */
const cleanUp = async () => {
    await Promise.all(clients.map((c) => c.stop().catch(() => {})));
    await mock.close();
    rmSync(tempRoot, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
};
for (const signal of ["SIGINT", "SIGTERM"]) {
    process.once(signal, () => cleanUp().finally(() => process.exit(130)));
}
const at = () => `${((performance.now() - t0) / 1000).toFixed(1)} s`;
try {
    try {
        await Promise.all(clients.map((c) => c.start()));
    } catch (error) {
        const runtime = externalRuntime ?? runtimeFiles.packageDirs[0];
        throw new Error(
            `Cannot start the runtime (${runtime}) of @github/copilot-sdk@${sdkVersion} under Node ${process.version}: ${runtimeStartCause(error instanceof Error ? error.message : String(error))}`,
            { cause: error }
        );
    }

    // 1+2. candidates and offered sets
    const sources = candidateSources(runtimeFiles, dataDir);
    const candidates = new Set(Object.values(sources).flatMap((names) => [...names]));
    for (const [source, names] of Object.entries(sources)) {
        const others = Object.values(sources).filter((n) => n !== names);
        const own = [...names].filter((name) => !others.some((n) => n.has(name))).length;
        log(`candidates: ${names.size} ${source} (${own} found nowhere else)`);
    }
    const sets = await measureOfferedSets(rig, candidates);
    const candidateList = [...candidates]
        .filter((n) => NAME.test(n) && (only === undefined || only.includes(n)))
        .sort();
    log(`${candidateList.length} candidates, offered sets measured`);

    // 3. conflicts (group testing)
    const conflicting = await scanConflicts(rig, candidateList, sets);
    log(`phase 3 done at ${at()}`);
    log(
        `conflicts: ${sorted(conflicting.keys()).join(" ")}; forbidden: ${sorted(rig.forbidden).join(" ")}`
    );

    // 4. shadowed names: no conflict, yet executing runs a built-in
    const shadowed = await scanShadowed(rig, {
        candidateList,
        sets,
        conflicting,
        full,
        only,
        measuredElsewhere: [...(sources["built-ins measured on other runtimes"] ?? [])],
    });
    log(`phase 4 done at ${at()}`);
    log(`shadowed: ${sorted(shadowed.keys()).join(" ")}`);

    // 5. overrides honoured? Anything short of a proven custom run is unsupported.
    const found = sorted([...conflicting.keys(), ...shadowed.keys(), ...rig.forbidden]);
    const t5 = performance.now();
    const overrides = await probeOverrides(rig, { builtIns: found, sets, shadowed });
    // 5b. tool-search names reserved while tool search is on, found nowhere else
    const reserved = await probeToolSearchReserved(rig, {
        names: toolSearchNamesElsewhere(dataDir).filter(
            (n) => only === undefined || only.includes(n)
        ),
        builtIns: found,
        sets,
    });
    reserved.forEach((name) => overrides.unsupported.add(name));
    const builtIns = sorted([...found, ...reserved]);
    log(`phase 5 (overrides) took ${((performance.now() - t5) / 1000).toFixed(1)} s`);
    log(
        `unsupported: ${sorted(overrides.unsupported).join(" ")}; only with tool search: ${sorted(overrides.keptOnlyWithToolSearch).join(" ")}`
    );
    await checkFreeNameOverride(rig);

    // 6. filter aliases: what excluding or allowing one name does to the others
    const aliases = await measureFilterAliases(rig, sets.modelSees);
    log(
        `filter aliases: excluded with ${JSON.stringify(aliases.excludedWith)}, allowed with ${JSON.stringify(aliases.includedWith)}`
    );
    if (rig.odd.length > 0) log(`unexpected results:\n  ${rig.odd.join("\n  ")}`);

    // ------------------------------------------------------------ output
    const measured = measurementOf({
        runtimeVersion: (await rig.client.getStatus()).version,
        sdkVersion,
        // The runtime measured: the release's bundled one, or the @github/copilot CLI (--runtime,
        // or the dependency of a release before 1.0.13); the catalog matches on both.
        delivery:
            externalRuntime === undefined && sdkRelease(sdkVersion).runtime === "bundled"
                ? "bundled"
                : "cli",
        builtIns,
        ...overrides,
        modelSees: sets.modelSees,
        byCondition: offeredByCondition(rig.configs, sets.offered),
        ...aliases,
    });
    await writeMeasurement(measured, {
        only,
        outFile,
        dataDir,
        external: externalRuntime !== undefined,
        elapsed: at(),
        log,
    });
} catch (error) {
    console.error(error);
    exitCode = 1;
} finally {
    await cleanUp();
    console.error(
        `discovery of ${externalRuntime ?? sdkVersion} ${exitCode === 0 ? "took" : "failed after"} ${seconds(runStart)}`
    );
}
process.exit(exitCode);
