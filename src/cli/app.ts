import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SDK_PACKAGE } from "./patchFiles.js";

/** A mistake of the user's setup: printed without a stack, with the fix, and exit code 1. */
export class CliError extends Error {
    constructor(message: string) {
        super(message);
        this.name = "CliError";
    }
}

/** The package managers whose patch mechanism this package serves. */
export type PackageManager = "npm" | "pnpm";

/** An app's package.json as read: its text (for the indentation) and its content. */
export interface Manifest {
    readonly path: string;
    readonly text: string;
    readonly json: Record<string, unknown>;
}

/**
 * Reads an app's package.json.
 *
 * @param app - the app's folder
 * @throws CliError when there is none or it is not a JSON object
 */
export function readManifest(app: string): Manifest {
    const path = join(app, "package.json");
    if (!existsSync(path)) {
        throw new CliError(
            `No package.json in ${app}: run this command in your app's folder (where package.json is).`
        );
    }
    const text = readFileSync(path, "utf8");
    let json: unknown;
    try {
        json = JSON.parse(text);
    } catch (error) {
        throw new CliError(
            `${path} is not valid JSON (${(error as Error).message}): fix it first.`
        );
    }
    if (json === null || typeof json !== "object" || Array.isArray(json)) {
        throw new CliError(`${path} does not hold a JSON object: fix it first.`);
    }
    return { path, text, json: json as Record<string, unknown> };
}

/**
 * Renders a package.json the way it was written: the same indentation and final newline, so that
 * a rewrite changes only the lines whose content changed.
 */
export function renderManifest(previous: string, json: Record<string, unknown>): string {
    const indent = /^\{\r?\n([ \t]+)"/.exec(previous)?.[1] ?? "  ";
    const newline = previous.includes("\r\n") ? "\r\n" : "\n";
    const body = JSON.stringify(json, null, indent).replace(/\n/g, newline);
    return previous.endsWith("\n") || previous === "" ? body + newline : body;
}

/** A string-keyed section of package.json (`dependencies`, `scripts`, ...), if it is one. */
export function section(json: Record<string, unknown>, key: string): Record<string, unknown> {
    const value = json[key];
    return value !== null && typeof value === "object" && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : {};
}

/**
 * Which package manager an app uses: its lockfile, else `packageManager`, else the one that
 * started this command. yarn is refused here, with the reason.
 *
 * @param app - the app's folder
 * @param manifest - its package.json
 * @param requested - `--package-manager`, when given
 * @returns the package manager and how it was recognised
 */
export function detectPackageManager(
    app: string,
    manifest: Manifest,
    requested?: string
): { manager: PackageManager; reason: string } {
    const packageManager =
        typeof manifest.json.packageManager === "string" ? manifest.json.packageManager : "";
    const agent = process.env.npm_config_user_agent ?? "";
    const found: [string, string][] = [
        ["yarn", existsSync(join(app, "yarn.lock")) ? "yarn.lock" : ""],
        ["pnpm", existsSync(join(app, "pnpm-lock.yaml")) ? "pnpm-lock.yaml" : ""],
        ["npm", existsSync(join(app, "package-lock.json")) ? "package-lock.json" : ""],
        ["yarn", packageManager.startsWith("yarn@") ? `packageManager: ${packageManager}` : ""],
        ["pnpm", packageManager.startsWith("pnpm@") ? `packageManager: ${packageManager}` : ""],
        ["npm", packageManager.startsWith("npm@") ? `packageManager: ${packageManager}` : ""],
        ["yarn", agent.startsWith("yarn/") ? "started by yarn" : ""],
        ["pnpm", agent.startsWith("pnpm/") ? "started by pnpm" : ""],
    ];
    let [manager, reason] = found.find(([, why]) => why !== "") ?? ["npm", "no lockfile: npm"];
    if (requested !== undefined) {
        [manager, reason] = [requested, "--package-manager"];
    }
    if (manager === "yarn") {
        throw new CliError(
            `This app uses yarn (${reason}), which this package does not serve: ` +
                `its patches are applied by patch-package (npm) and by pnpm's patchedDependencies, and yarn's patch: ` +
                `protocol has not been tested with them. Use npm or pnpm for this app, or the library form, ` +
                `which needs no patch (import from "copilot-sdk-tool-override" instead of "@github/copilot-sdk"). ` +
                `To try yarn's patch: protocol yourself (untested), ` +
                `render the pnpm-form patch of your release in a clone of the repository: ` +
                `\`npm run patch:build -- <version> --pnpm --out <file>\` (docs/adopting.md, "By hand").`
        );
    }
    if (manager !== "npm" && manager !== "pnpm") {
        throw new CliError(
            `Unknown package manager '${manager}' (${reason}): use --package-manager npm or --package-manager pnpm.`
        );
    }
    return { manager, reason };
}

/**
 * The SDK version installed in the app (what `node_modules/@github/copilot-sdk` holds, for npm
 * and pnpm alike), or undefined when it is not installed.
 */
export function installedSdkVersion(app: string): string | undefined {
    const manifest = join(app, "node_modules", ...SDK_PACKAGE.split("/"), "package.json");
    if (!existsSync(manifest)) return undefined;
    const version: unknown = (JSON.parse(readFileSync(manifest, "utf8")) as { version?: unknown })
        .version;
    return typeof version === "string" ? version : undefined;
}

/** The SDK's version range in the app's package.json, and the section it is in. */
export function declaredSdk(
    manifest: Manifest
): { section: "dependencies" | "devDependencies"; range: string } | undefined {
    for (const key of ["dependencies", "devDependencies"] as const) {
        const range = section(manifest.json, key)[SDK_PACKAGE];
        if (typeof range === "string") return { section: key, range };
    }
    return undefined;
}

/** Whether a range is one exact version. */
export function isExactVersion(range: string): boolean {
    return /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(range);
}

/**
 * Whether git has uncommitted changes to the app's package.json; false outside a git work tree
 * or without git.
 */
export function hasUncommittedChanges(file: string, app: string): boolean {
    try {
        const status = execFileSync("git", ["status", "--porcelain", "--", file], {
            cwd: app,
            encoding: "utf8",
            stdio: ["ignore", "pipe", "ignore"],
        });
        return status.trim() !== "";
    } catch {
        return false;
    }
}

/** How to run a package manager: the program and the arguments before the command's own. */
export interface Runner {
    readonly command: string;
    readonly prefix: readonly string[];
    /** How it was found, for messages. */
    readonly how: string;
}

function answers(command: string, args: readonly string[], cwd: string): boolean {
    const run = spawnSync(command, [...args, "--version"], {
        cwd,
        stdio: "ignore",
        timeout: 60_000,
        env: process.env,
    });
    return run.error === undefined && run.status === 0;
}

/**
 * Finds a way to run the app's package manager before anything is changed: the one that started
 * this command (`npm_execpath`), the one on PATH, or (pnpm) corepack's.
 *
 * @param manager - the app's package manager
 * @param app - the app's folder
 * @returns the runner, or undefined when none answers
 */
export function findRunner(manager: PackageManager, app: string): Runner | undefined {
    const execPath = process.env.npm_execpath;
    const started =
        manager === "pnpm"
            ? /pnpm(\.c?js)?$/.test(execPath ?? "")
            : /npm-cli\.js$/.test(execPath ?? "");
    if (execPath !== undefined && started) {
        const viaNode = /\.c?js$/.test(execPath);
        const runner: Runner = viaNode
            ? { command: process.execPath, prefix: [execPath], how: `npm_execpath ${execPath}` }
            : { command: execPath, prefix: [], how: `npm_execpath ${execPath}` };
        if (answers(runner.command, runner.prefix, app)) return runner;
    }
    const parent = manager === "pnpm" ? startingPnpm() : undefined;
    if (parent !== undefined && answers(parent.command, parent.prefix, app)) return parent;
    if (answers(manager, [], app)) {
        return { command: manager, prefix: [], how: `${manager} on PATH` };
    }
    if (manager === "pnpm" && answers("corepack", ["pnpm"], app)) {
        return { command: "corepack", prefix: ["pnpm"], how: "corepack pnpm" };
    }
    return undefined;
}

/**
 * The pnpm that started this command through `pnpm exec` or `pnpm dlx` (which, unlike `pnpm
 * run`, set no npm_execpath): read from the parent processes' command lines where the system
 * shows them (Linux's /proc).
 */
function startingPnpm(): Runner | undefined {
    let pid = process.ppid;
    for (let depth = 0; depth < 3 && pid > 1; depth++) {
        let argv: string[];
        let parentPid: number;
        try {
            argv = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean);
            const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
            parentPid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
        } catch {
            return undefined;
        }
        const [first, second] = argv;
        const how = `the pnpm that started this command (${second ?? first})`;
        if (first !== undefined && /(^|\/)node$/.test(first) && /pnpm\.c?js$/.test(second ?? "")) {
            return { command: first, prefix: [second!], how };
        }
        if (first !== undefined && /(^|\/)pnpm$/.test(first)) {
            return { command: first, prefix: [], how };
        }
        pid = parentPid;
    }
    return undefined;
}

/**
 * Runs the package manager in the app.
 *
 * @throws CliError when it cannot be started or fails
 */
export function runPackageManager(runner: Runner, args: readonly string[], app: string): void {
    const run = spawnSync(runner.command, [...runner.prefix, ...args], {
        cwd: app,
        stdio: "inherit",
        env: process.env,
    });
    const shown = `${[runner.command === process.execPath ? "" : runner.command, ...runner.prefix, ...args].filter(Boolean).join(" ")}`;
    if (run.error !== undefined) {
        throw new CliError(`Could not run \`${shown}\`: ${run.error.message}.`);
    }
    if (run.status !== 0) {
        throw new CliError(
            `\`${shown}\` failed (exit code ${run.status}); its output above says why. Fix that, then run this command again.`
        );
    }
}
