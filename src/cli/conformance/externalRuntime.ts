// An external Copilot runtime: a copilot CLI named with --runtime <path> (for example
// node_modules/.bin/copilot of `npm install @github/copilot@<version>`), which the discovery and
// the conformance suite drive through the SDK's own option for it,
// `connection: RuntimeConnection.forStdio({ path })`, instead of the SDK's bundled runtime.

import { existsSync, openSync, readSync, closeSync, readFileSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";

/**
 * Reads `--<name> <value>` from command-line arguments.
 *
 * @param name - option name without the dashes
 * @returns the value, or undefined when the option is absent
 */
export function optionValue(args: string[], name: string): string | undefined {
    const at = args.indexOf(`--${name}`);
    if (at === -1) return undefined;
    const value = args[at + 1];
    if (value === undefined || value.startsWith("--")) {
        throw new Error(`--${name} needs a value.`);
    }
    return value;
}

/**
 * @param args - command-line arguments
 * @returns the absolute path of the CLI named with --runtime, checked to exist
 */
export function runtimeOption(args: string[]): string | undefined {
    const value = optionValue(args, "runtime");
    if (value === undefined) return undefined;
    const path = resolve(value);
    if (!existsSync(path)) {
        throw new Error(
            `--runtime '${value}' does not exist: name a copilot CLI, ` +
                `for example node_modules/.bin/copilot after 'npm install @github/copilot@<version>'.`
        );
    }
    return path;
}

/**
 * The client options that run a CLI instead of the bundled runtime.
 *
 * @param sdk - the SDK module
 */
export function connectionTo<Connection>(
    sdk: { RuntimeConnection?: { forStdio(options: { path: string }): Connection } },
    cliPath: string
): { connection: Connection } {
    if (typeof sdk.RuntimeConnection?.forStdio !== "function") {
        throw new Error("This @github/copilot-sdk version has no RuntimeConnection.forStdio.");
    }
    return { connection: sdk.RuntimeConnection.forStdio({ path: cliPath }) };
}

/** The directory of the nearest package.json with a name above `file`. */
function packageRoot(file: string) {
    let dir = dirname(file);
    while (dir !== dirname(dir)) {
        const manifest = join(dir, "package.json");
        if (existsSync(manifest) && JSON.parse(readFileSync(manifest, "utf8")).name) return dir;
        dir = dirname(dir);
    }
    return undefined;
}

function startsWithShebang(file: string) {
    const fd = openSync(file, "r");
    try {
        const head = Buffer.alloc(2);
        readSync(fd, head, 0, 2, 0);
        return head.toString("latin1") === "#!";
    } finally {
        closeSync(fd);
    }
}

/**
 * Where the discovery looks for candidate names of an external runtime: its native binary and
 * the packages around it. `@github/copilot`'s `copilot` is a JavaScript loader that runs the
 * binary of the platform package `@github/copilot-<platform>-<arch>`; a path to a binary is
 * taken as it is.
 */
export function externalRuntimeFiles(cliPath: string): { binary: string; packageDirs: string[] } {
    const real = realpathSync(cliPath);
    const loaderPackage = packageRoot(real);
    if (!startsWithShebang(real)) {
        return { binary: real, packageDirs: loaderPackage === undefined ? [] : [loaderPackage] };
    }
    const platformPackage = `@github/copilot-${process.platform}-${process.arch}`;
    let binary;
    try {
        binary = realpathSync(createRequire(real).resolve(platformPackage));
    } catch {
        throw new Error(
            `${cliPath} is a script, and ${platformPackage} (the native binary it runs) ` +
                `cannot be found from it: pass the binary itself to --runtime.`
        );
    }
    return {
        binary,
        packageDirs: [loaderPackage, packageRoot(binary)].filter((dir) => dir !== undefined),
    };
}
