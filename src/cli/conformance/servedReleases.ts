// The SDK releases this package serves and tests against, as its package.json names them: the
// pinned release (devDependencies in the repository; "toolCustomization.pinnedSdkVersion" in the
// packed manifest, which has no devDependencies) and the compatibility table
// ("toolCustomization.sdkVersions").
// Read by the conformance suite and by the repository's patch and release scripts.

import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** This package's root (the repository, or the installed package). */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/** The SDK's package name. */
export const PACKAGE_NAME = "@github/copilot-sdk";

interface Manifest {
    devDependencies?: Record<string, string>;
    toolCustomization?: { sdkVersions?: string[]; pinnedSdkVersion?: string };
}

function manifest(): Manifest {
    return JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as Manifest;
}

/** The exact SDK version this project pins (and tests against). */
export function pinnedVersion(): string {
    const { toolCustomization, devDependencies } = manifest();
    const version = toolCustomization?.pinnedSdkVersion ?? devDependencies?.[PACKAGE_NAME];
    if (version === undefined || !/^\d+\.\d+\.\d+(-[0-9A-Za-z.]+)?$/.test(version)) {
        throw new Error(
            `package.json must pin ${PACKAGE_NAME} to an exact version, found '${version}'.`
        );
    }
    return version;
}

/** Every SDK version the compatibility table serves. */
export function supportedVersions(): string[] {
    const versions = manifest().toolCustomization?.sdkVersions ?? [];
    if (!versions.includes(pinnedVersion())) {
        throw new Error(
            `package.json "toolCustomization.sdkVersions" must include the pinned ${PACKAGE_NAME} version ${pinnedVersion()}.`
        );
    }
    return versions;
}

/**
 * The versions a build or check covers: every supported one, or the one named with
 * `--sdk <version>`, which must be supported (so that a new version's build touches only its own
 * patches).
 *
 * @param args - command-line arguments
 */
export function requestedVersions(args: readonly string[]): string[] {
    const at = args.indexOf("--sdk");
    if (at === -1) return supportedVersions();
    const version = args[at + 1];
    if (version === undefined || version.startsWith("--")) {
        throw new Error("--sdk needs a version, for example --sdk 1.0.14.");
    }
    if (!supportedVersions().includes(version)) {
        throw new Error(
            `--sdk '${version}' is not in package.json "toolCustomization.sdkVersions" ` +
                `(${supportedVersions().join(", ")}): add it there first.`
        );
    }
    return [version];
}
