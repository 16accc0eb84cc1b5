// Which Copilot runtime an app's lockfile gives it, as an npm spec to install:
//   @github/copilot@<version>      the app pins @github/copilot itself, or its SDK release takes its
//                                  runtime from that package (1.0.11 and older);
//   @github/copilot-sdk@<version>  the runtime the SDK release bundles (1.0.13 and later), in its
//                                  platform package @github/copilot-sdk-<platform>.
// Usage: node lockfile-runtime.mjs [--sdk] <package-lock.json | pnpm-lock.yaml>
// Prints the spec on stdout (with --sdk: the @github/copilot-sdk version the lockfile locks, the
// release that drives the runtime in the comparison); exits 2 with the reason on stderr when the
// lockfile does not tell.

import { readFileSync } from "node:fs";
import { basename } from "node:path";

const SDK = "@github/copilot-sdk";
const CLI = "@github/copilot";

function fail(message) {
    console.error(`lockfile-runtime: ${message}`);
    process.exit(2);
}

const args = process.argv.slice(2);
const sdkOnly = args[0] === "--sdk";
const [file, extra] = sdkOnly ? args.slice(1) : args;
if (file === undefined || extra !== undefined || file.startsWith("-")) {
    fail("usage: node lockfile-runtime.mjs [--sdk] <package-lock.json | pnpm-lock.yaml>");
}
let text;
try {
    text = readFileSync(file, "utf8");
} catch (error) {
    fail(`cannot read '${file}' (${error.code ?? error.message}): name the app's lockfile.`);
}

/** From package-lock.json (lockfileVersion 2 or 3). */
function fromNpm() {
    let lock;
    try {
        lock = JSON.parse(text);
    } catch (error) {
        fail(`'${file}' is not JSON (${error.message}): name a package-lock.json.`);
    }
    const packages = lock.packages;
    if (packages === undefined) {
        fail(
            `'${file}' has no "packages" (lockfileVersion ${lock.lockfileVersion}): run npm 7 or later.`
        );
    }
    const root = packages[""] ?? {};
    const direct = (name) =>
        root.dependencies?.[name] ??
        root.devDependencies?.[name] ??
        root.optionalDependencies?.[name];
    const sdk = packages[`node_modules/${SDK}`];
    const cli = packages[`node_modules/${CLI}`];
    return {
        sdkVersion: sdk?.version,
        cliVersion: cli?.version,
        appPinsCli: direct(CLI) !== undefined,
        bundled: Object.keys(sdk?.optionalDependencies ?? {}).some((name) =>
            name.startsWith(`${SDK}-`)
        ),
    };
}

/** From pnpm-lock.yaml (lockfileVersion 9): the root importer and the package keys. */
function fromPnpm() {
    const lines = text.split("\n");
    const version = (name) => {
        // importers: / '.': / dependencies: / '<name>': / specifier: / version: <v>(peers)
        let inRoot = false;
        for (let i = 0; i < lines.length; i++) {
            const line = lines[i];
            if (/^ {2}\S/.test(line)) inRoot = /^ {2}(\.|'\.'):\s*$/.test(line);
            if (!inRoot) continue;
            if (line.trim() === `'${name}':` || line.trim() === `${name}:`) {
                for (let j = i + 1; j < i + 4 && j < lines.length; j++) {
                    const match = /^\s+version:\s*'?([^'(\s]+)/.exec(lines[j]);
                    if (match) return match[1];
                }
            }
        }
        return undefined;
    };
    if (!/^importers:/m.test(text))
        fail(`'${file}' has no importers: name a pnpm 9 or later lockfile.`);
    const sdkVersion = version(SDK);
    const cliKey = new RegExp(`^ {2}'?${CLI.replace("/", "\\/")}@([^'(:]+)'?:`, "m");
    const appCli = version(CLI);
    return {
        sdkVersion,
        cliVersion: appCli ?? cliKey.exec(text)?.[1],
        appPinsCli: appCli !== undefined,
        bundled: new RegExp(`^ {2}'?${SDK.replace("/", "\\/")}-[a-z0-9]+-[a-z0-9]+@`, "m").test(
            text
        ),
    };
}

const kind = basename(file).endsWith(".yaml") || basename(file).endsWith(".yml") ? "pnpm" : "npm";
const found = kind === "pnpm" ? fromPnpm() : fromNpm();
if (found.sdkVersion === undefined) {
    fail(`'${file}' locks no ${SDK}: the app does not depend on it, or this is not its lockfile.`);
}
if (sdkOnly) {
    console.log(found.sdkVersion);
} else if (found.appPinsCli && found.cliVersion !== undefined) {
    console.log(`${CLI}@${found.cliVersion}`);
} else if (found.bundled) {
    console.log(`${SDK}@${found.sdkVersion}`);
} else if (found.cliVersion !== undefined) {
    console.log(`${CLI}@${found.cliVersion}`);
} else {
    fail(
        `'${file}' locks ${SDK} ${found.sdkVersion}, but neither a platform package of its bundled runtime nor ${CLI}: cannot tell which runtime the app runs.`
    );
}
