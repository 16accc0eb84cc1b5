// What the installed @github/copilot-sdk release can do, read at run time from its own files,
// so that a release published after this package still gets the wrap, and what it lacks is
// refused with its name instead of attempted. This reads the SDK's files: it belongs to the seam.

import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * What the installed SDK release can do, read at run time from the release's own files (see this module); a feature a release lacks is refused with a `SessionToolError`
 * naming the release and the feature, never attempted.
 *
 * @beta
 */
export interface SdkCapabilities {
    /**
     * `createSession` / `resumeSession` send a custom tool's `overridesBuiltInTool` (every 1.0
     * release does; a client of a release without it is refused at construction).
     */
    readonly builtInOverride: boolean;
    /** The runtime request `session.tools.initializeAndValidate`, which `validateTools` needs. */
    readonly validateTools: boolean;
    /** The runtime request `session.tools.set`, which `session.setTools` needs. */
    readonly setTools: boolean;
    /**
     * One step that every way of disconnecting a session runs (`_markDisconnected`): without it a
     * running `setTools` is not cut short by a disconnect, and per-session tool state is released
     * only with the session object.
     */
    readonly disconnectHook: boolean;
    /** The extension entry point `resumeSessionForExtension` (behind `joinSession`). */
    readonly extensionResume: boolean;
    /**
     * The version of the runtime the release bundles (`@github/copilot-sdk-<platform>`); absent
     * for releases whose runtime is the `@github/copilot` dependency, whose version the session
     * step asks the runtime.
     */
    readonly bundledRuntimeVersion?: string;
}

/** The SDK's package name. */
export const SDK_PACKAGE = "@github/copilot-sdk";

/** The major version of the SDK this package serves. */
export const SERVED_MAJOR = 1;

/** One installed SDK release, as detected. */
export interface SdkRelease {
    /** The release's version, from its package.json (`(unknown)` when unreadable). */
    readonly version: string;
    /** The release's package folder, when it was found. */
    readonly root: string | undefined;
    /** What it can do. */
    readonly capabilities: SdkCapabilities;
    /**
     * Why the wrap cannot serve this release at all (then every client construction is refused
     * with a `SessionToolError` naming the release and this reason); undefined when it can.
     */
    readonly unsupported: string | undefined;
}

/** No capability assumed: a release not yet read, or one that could not be read. */
export const UNDETECTED: SdkCapabilities = Object.freeze({
    builtInOverride: false,
    validateTools: false,
    setTools: false,
    disconnectHook: false,
    extensionResume: false,
});

/**
 * The package folder of the SDK that holds `location`: the nearest folder above it whose
 * package.json names `@github/copilot-sdk`.
 *
 * @param location - a file inside the SDK (path or file URL)
 */
export function sdkRootOf(location: string | URL): string | undefined {
    const path =
        location instanceof URL || location.startsWith("file:")
            ? fileURLToPath(location)
            : location;
    let dir = dirname(path);
    for (;;) {
        const manifest = join(dir, "package.json");
        if (existsSync(manifest)) {
            try {
                const { name } = JSON.parse(readFileSync(manifest, "utf8")) as { name?: unknown };
                if (name === SDK_PACKAGE) return dir;
            } catch {
                // Not a readable manifest: keep looking above.
            }
        }
        const parent = dirname(dir);
        if (parent === dir) return undefined;
        dir = parent;
    }
}

/**
 * Detects the release that holds `location`: its version and capabilities, read from its files
 * (the generated RPC table for the runtime requests, both builds of `client.js` for the tool
 * fields it sends, `session.js` for the disconnect step, `cliVersion.js` for the bundled
 * runtime). A file that is missing or reads differently counts as "cannot", never as "can".
 *
 * @param location - a file inside the SDK (path or file URL)
 */
export function detectRelease(location: string | URL): SdkRelease {
    const root = sdkRootOf(location);
    if (root === undefined) {
        return {
            version: "(unknown)",
            root,
            capabilities: UNDETECTED,
            unsupported: `its package.json was not found above ${String(location)}, so neither its version nor what it can do can be read`,
        };
    }
    const read = (path: string) => {
        try {
            return readFileSync(join(root, path), "utf8");
        } catch {
            return "";
        }
    };
    let version = "(unknown)";
    try {
        const manifest = JSON.parse(read("package.json")) as { version?: unknown };
        if (typeof manifest.version === "string") version = manifest.version;
    } catch {
        // Stays unknown: refused below.
    }
    const rpc = read("dist/generated/rpc.js");
    const cliVersion = read("dist/cliVersion.js");
    // With COPILOT_CLI_USE_NPM_PACKAGE the release runs whichever @github/copilot package
    // resolves, so its version is asked, not assumed.
    const bundled = /COPILOT_CLI_USE_NPM_PACKAGE\s*=\s*true/.test(cliVersion)
        ? undefined
        : /COPILOT_CLI_VERSION\s*=\s*"([^"]+)"/.exec(cliVersion)?.[1];
    // Both builds send the flag from both createSession and resumeSession.
    const sendsFlag = (path: string) =>
        (read(path).match(/overridesBuiltInTool:\s*tool\.overridesBuiltInTool\b/g) ?? []).length >=
        2;
    const capabilities: SdkCapabilities = Object.freeze({
        builtInOverride: sendsFlag("dist/client.js") && sendsFlag("dist/cjs/client.js"),
        validateTools: rpc.includes('"session.tools.initializeAndValidate"'),
        setTools: rpc.includes('"session.tools.set"'),
        disconnectHook: /^\s*_markDisconnected\(\)\s*\{$/m.test(read("dist/session.js")),
        extensionResume: /^\s*async resumeSessionForExtension\(/m.test(read("dist/client.js")),
        ...(bundled === undefined ? {} : { bundledRuntimeVersion: bundled }),
    });
    return { version, root, capabilities, unsupported: unsupportedReason(version, capabilities) };
}

function unsupportedReason(version: string, capabilities: SdkCapabilities): string | undefined {
    const major = /^(\d+)\./.exec(version)?.[1];
    if (major === undefined) {
        return `its version '${version}' cannot be read, so what it can do cannot be told`;
    }
    if (Number(major) !== SERVED_MAJOR) {
        return (
            `this package serves ${SDK_PACKAGE} ${SERVED_MAJOR}.x only; ${version} is another major release, ` +
            `whose tool handling it has not been built against`
        );
    }
    if (/^1\.0\.0-/.test(version)) {
        return (
            `${version} is a pre-release of 1.0.0, older than the first release this package ` +
            "serves (1.0.0)"
        );
    }
    if (!capabilities.builtInOverride) {
        return (
            "its createSession / resumeSession were not found sending a custom tool's " +
            "'overridesBuiltInTool' (capability builtInOverride), " +
            "so no custom tool could be shown to replace a built-in"
        );
    }
    return undefined;
}

/** The release a wrap detected: what the public marker reports (`TOOL_CUSTOMIZATION_PATCH`). */
export interface DetectedRelease {
    readonly sdkVersion: string;
    readonly form: "library" | "patch";
    readonly capabilities: SdkCapabilities;
}

/** Set once by the wrap (library form or patch form); read by the public marker only. */
let detected: DetectedRelease | undefined;

/**
 * Records the release the wrap detected, for the public marker; the first one wins (one process
 * wraps one SDK copy per module format). A client's own code reads its release from the state its
 * constructor made, never from here.
 */
export function recordDetectedRelease(
    sdkVersion: string,
    form: "library" | "patch",
    capabilities: SdkCapabilities
): void {
    detected ??= Object.freeze({ sdkVersion, form, capabilities });
}

/** The release recorded by {@link recordDetectedRelease}, if any. */
export function detectedRelease(): DetectedRelease | undefined {
    return detected;
}
