import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The package the patches are for. */
export const SDK_PACKAGE = "@github/copilot-sdk";

/** This package's name, as apps depend on it. */
export const OWN_PACKAGE = "copilot-sdk-tool-override";

/** The patch-package version this project's patches are built and checked with. */
export const PATCH_PACKAGE_VERSION = "8.0.1";

/** The postinstall that applies a patch-package patch and fails the install when it cannot. */
export const POSTINSTALL = "patch-package --error-on-fail --error-on-warn";

/** A package whose build script pnpm must be allowed to run for the SDK to work (koffi). */
export const PNPM_BUILT_DEPENDENCY = "koffi";

/** patch-package's name for the SDK's patch of one version. */
export function npmPatchName(version: string): string {
    return `@github+copilot-sdk+${version}.patch`;
}

/** pnpm's name for the SDK's patch of one version (as `pnpm patch-commit` writes it). */
export function pnpmPatchName(version: string): string {
    return `@github__copilot-sdk@${version}.patch`;
}

/** The `patchedDependencies` key of the SDK at one version. */
export function pnpmPatchKey(version: string): string {
    return `${SDK_PACKAGE}@${version}`;
}

const NPM_PATCH = /^@github\+copilot-sdk\+(.+)\.patch$/;
const PNPM_PATCH = /^@github__copilot-sdk@(.+)\.patch$/;

/**
 * The SDK version a patch file name is for, in either tool's naming.
 *
 * @param file - a file name in a `patches/` folder
 * @returns the version, or undefined for a file that is not an SDK patch
 */
export function patchVersionOf(file: string): string | undefined {
    return (NPM_PATCH.exec(file) ?? PNPM_PATCH.exec(file))?.[1];
}

/** This package's own name and version (its package.json). */
export interface PackageIdentity {
    readonly name: string;
    readonly version: string;
    /** The package's folder. */
    readonly root: string;
}

/** Reads this package's identity from its folder. */
export function packageIdentity(root: string): PackageIdentity {
    const manifest = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
        name: string;
        version: string;
    };
    return { name: manifest.name, version: manifest.version, root };
}

/** A release's record in this package's data/sdk-releases.json, where it has one. */
export interface RecordedRelease {
    readonly sdkVersion: string;
    readonly runtime?: "bundled" | "dependency";
    readonly runtimeVersion?: string;
    readonly node?: number;
    readonly node20Failure?: string;
}

/** The releases this package measured (which runtime and Node each needs to start). */
export function recordedReleases(root: string): Map<string, RecordedRelease> {
    const file = join(root, "data", "sdk-releases.json");
    const byVersion = new Map<string, RecordedRelease>();
    if (!existsSync(file)) return byVersion;
    const { releases } = JSON.parse(readFileSync(file, "utf8")) as {
        releases?: RecordedRelease[];
    };
    for (const release of releases ?? []) byVersion.set(release.sdkVersion, release);
    return byVersion;
}

/** Orders versions like `1.0.9` < `1.0.13` < `1.0.15-preview.4` < `1.0.15`. */
export function compareVersions(a: string, b: string): number {
    const parse = (version: string) => {
        const [core = "", pre] = version.split("-", 2);
        return { numbers: core.split(".").map(Number), pre };
    };
    const x = parse(a);
    const y = parse(b);
    for (let index = 0; index < 3; index++) {
        const difference = (x.numbers[index] ?? 0) - (y.numbers[index] ?? 0);
        if (difference !== 0) return difference;
    }
    if (x.pre === y.pre) return 0;
    if (x.pre === undefined) return 1;
    if (y.pre === undefined) return -1;
    return x.pre.localeCompare(y.pre, "en", { numeric: true });
}
