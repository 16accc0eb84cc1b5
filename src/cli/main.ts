#!/usr/bin/env node
// copilot-sdk-tool-override: adopt, upgrade and check the tool-customization patch of
// @github/copilot-sdk in an app, and run the collision conformance suite against a runtime.

import { spawnSync } from "node:child_process";
import { homedir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { CliError } from "./app.js";
import { adopt } from "./adopt.js";
import { diagnose } from "./doctor.js";
import { packageIdentity } from "./patchFiles.js";

/** This package's folder: build/cli/main.js is two levels below it. */
/** build/cli, where this command and the conformance suite it runs are compiled. */
const HERE = dirname(fileURLToPath(import.meta.url));
const PACKAGE_ROOT = join(HERE, "..", "..");

const USAGE = `Usage: copilot-sdk-tool-override <command> [options]

Library form: no command needed. Import from "copilot-sdk-tool-override" instead of
"@github/copilot-sdk" (everything the SDK exports, CopilotClient with the tool customization).

Patch form, for apps that cannot change their imports (run in your app's folder, a clean git tree):
  init                      render the thin patch of the installed @github/copilot-sdk into
                            patches/, add this package and the SDK to dependencies (exact),
                            wire patch-package (npm) or patchedDependencies and packageExtensions
                            (pnpm), install, verify in ESM and CommonJS
  upgrade [<version>]       the same, from the self-contained patch of 0.3.0 or for another SDK
                            release (<version>), in one step
  doctor [--no-start]       checks each piece of the app's form (library: the package in
                            dependencies, what the app's imports get; patch: patch, package,
                            versions, pnpm entries) and the runtime starting under this Node, and
                            says how to fix each; exits 1 when something must be fixed
  conformance --runtime <copilot CLI> [--sdk <version>] [--names-from <file>] [--out <file>]
                            what a runtime does with custom tools named like built-ins,
                            unpatched and patched (offline, mock model on 127.0.0.1)
  conformance --compare <runtime A> <runtime B> [--tools <names> | --app <module>]
      [--sdk-a <version>] [--sdk-b <version>] [--accept <file>] [--json]
                            what upgrading from runtime A to B changes for the app's tools
                            (npm specs such as @github/copilot@1.0.83, or CLI paths), each
                            driven by its SDK release (--sdk-a/--sdk-b; default the pinned one);
                            --accept
                            names a file of reviewed differences, which do not fail; exits 1
                            when something else the app relies on changed, 2 on a usage error,
                            3 when a runtime could not be probed
  version                   this package's version (also --version; through npx, \`npx --no
                            copilot-sdk-tool-override version\`: npx reads --version itself)

Options:
  --dir <path>              the app's folder (default: the current folder)
  --package-manager <npm|pnpm>   instead of detecting it from the lockfile
  --package <spec>          (init, upgrade) what the app depends on for this package, e.g. a
                            tarball; default: the spec package.json already has, kept as
                            written (else this version, if the app's registry has it)`;

/** The commands, each of which answers `--help`. */
const COMMANDS: ReadonlySet<string> = new Set([
    "init",
    "upgrade",
    "doctor",
    "conformance",
    "version",
]);

/** Reads `--name value` and drops both from `args`. */
function takeOption(args: string[], name: string): string | undefined {
    const at = args.indexOf(`--${name}`);
    if (at === -1) return undefined;
    const value = args[at + 1];
    if (value === undefined || value.startsWith("--")) {
        throw new CliError(`--${name} needs a value.\n\n${USAGE}`);
    }
    args.splice(at, 2);
    return value;
}

function run(argv: string[]): number {
    const args = [...argv];
    const [command] = args.splice(0, 1);
    const log = (line: string) => console.log(line);
    if (command === undefined || command === "--help" || command === "-h" || command === "help") {
        log(USAGE);
        return command === undefined ? 1 : 0;
    }
    const identity = packageIdentity(PACKAGE_ROOT);
    if (command === "--version" || command === "version") {
        log(identity.version);
        return 0;
    }
    // Every command answers --help with the usage, and does nothing else (conformance --compare
    // has a usage of its own).
    const wantsHelp = args.includes("--help") || args.includes("-h");
    if (wantsHelp && !(command === "conformance" && args.includes("--compare"))) {
        if (!COMMANDS.has(command)) throw new CliError(`Unknown command '${command}'.\n\n${USAGE}`);
        log(USAGE);
        return 0;
    }
    if (command === "conformance") return conformance(args);

    const app = resolve(takeOption(args, "dir") ?? process.cwd());
    const packageManager = takeOption(args, "package-manager");
    if (command === "init" || command === "upgrade") {
        const ownSpec = takeOption(args, "package");
        const version =
            command === "upgrade" && args[0] !== undefined && !args[0].startsWith("--")
                ? args.shift()
                : undefined;
        refuseLeftovers(args, command);
        adopt(app, identity, { version, packageManager, ownSpec, log });
        return 0;
    }
    if (command === "doctor") {
        const noStart = args.indexOf("--no-start");
        if (noStart !== -1) args.splice(noStart, 1);
        refuseLeftovers(args, command);
        log(`${identity.name} ${identity.version} doctor: ${app}`);
        const diagnosis = diagnose(app, identity, { packageManager, startRuntime: noStart === -1 });
        const marks = { ok: "ok  ", warn: "warn", fail: "FAIL", info: "    " } as const;
        for (const finding of diagnosis.findings)
            log(`${marks[finding.status]} ${finding.message}`);
        const unchecked = diagnosis.uncheckedSpecs.map((spec) => `'${spec}'`).join(", ");
        log(
            !diagnosis.healthy
                ? "The app is not ready: apply the fixes above (lines marked FAIL)."
                : diagnosis.form === "library"
                  ? `The app's imports from "${identity.name}" run the tool customization (imports from ` +
                    `"@github/copilot-sdk" do not).${unchecked === "" ? "" : ` Whether the next install can fetch ${unchecked} was not checked.`}`
                  : unchecked === ""
                    ? "The app's SDK runs the tool customization and stays patched on the next install."
                    : `The app's SDK runs the tool customization; whether the next install can fetch ${unchecked} was not checked.`
        );
        return diagnosis.healthy ? 0 : 1;
    }
    throw new CliError(`Unknown command '${command}'.\n\n${USAGE}`);
}

function refuseLeftovers(args: readonly string[], command: string): void {
    if (args.length > 0) {
        throw new CliError(`${command} does not take '${args.join(" ")}'.\n\n${USAGE}`);
    }
}

/**
 * The repository's conformance suite (src/cli/conformance/conformance.ts, shipped in this package) against a
 * runtime the user names. Its SDK installs and patched copies go to a cache outside this package
 * (`$XDG_CACHE_HOME` or `~/.cache`); the report to `--out` (default `./copilot-conformance.md`).
 */
function conformance(args: string[]): number {
    const cache =
        process.env.COPILOT_SDK_TOOL_OVERRIDE_CACHE ??
        join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "copilot-sdk-tool-override");
    if (args.includes("--compare")) {
        return (
            spawnSync(
                process.execPath,
                [join(HERE, "conformance", "conformanceCompare.js"), ...args],
                {
                    stdio: "inherit",
                    env: { ...process.env, COPILOT_SDK_TOOL_OVERRIDE_CACHE: cache },
                }
            ).status ?? 1
        );
    }
    if (!args.includes("--runtime")) {
        throw new CliError(
            "conformance needs the runtime to probe: " +
                "--runtime <copilot CLI> (or --compare <runtime A> <runtime B>), e.g. " +
                "node_modules/.bin/copilot after `npm install @github/copilot@<version>`. " +
                "(The report for the SDK's bundled runtimes is CONFORMANCE.md of the repository.)"
        );
    }
    if (!args.includes("--out")) args.push("--out", "copilot-conformance.md");
    const result = spawnSync(
        process.execPath,
        [join(HERE, "conformance", "conformance.js"), ...args],
        { stdio: "inherit", env: { ...process.env, COPILOT_SDK_TOOL_OVERRIDE_CACHE: cache } }
    );
    return result.status ?? 1;
}

try {
    process.exitCode = run(process.argv.slice(2));
} catch (error) {
    if (!(error instanceof CliError)) throw error;
    console.error(`copilot-sdk-tool-override: ${error.message}`);
    process.exitCode = 1;
}
