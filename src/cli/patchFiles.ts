import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The package the patches are for. */
export const SDK_PACKAGE = "@github/copilot-sdk";

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

/**
 * The build hash a patch writes into `TOOL_CUSTOMIZATION_PATCH` (both builds carry the same one).
 *
 * @param patchText - the text of a patch file
 * @returns the hash, or undefined when the patch carries none
 */
export function buildHashOf(patchText: string): string | undefined {
    return /^\+ {4}buildHash: "([0-9a-f]+)",$/m.exec(patchText)?.[1];
}

/** The patches this package ships, one pair per SDK version. */
export class ShippedPatches {
    /** @param root - the package's own folder (holding `patches/` and `package.json`) */
    constructor(readonly root: string) {}

    /** This package's name and version, for messages. */
    get identity(): { name: string; version: string } {
        const manifest = JSON.parse(readFileSync(join(this.root, "package.json"), "utf8")) as {
            name: string;
            version: string;
        };
        return { name: manifest.name, version: manifest.version };
    }

    /** The SDK versions with a patch for both npm and pnpm, in the order of their files. */
    versions(): string[] {
        const dir = join(this.root, "patches");
        if (!existsSync(dir)) return [];
        return readdirSync(dir)
            .map((file) => NPM_PATCH.exec(file)?.[1])
            .filter((version): version is string => version !== undefined)
            .filter((version) => existsSync(this.pnpmPatch(version)))
            .sort(compareVersions);
    }

    /** The patch-package patch of a version. */
    npmPatch(version: string): string {
        return join(this.root, "patches", npmPatchName(version));
    }

    /** The pnpm patch of a version. */
    pnpmPatch(version: string): string {
        return join(this.root, "patches", "pnpm", pnpmPatchName(version));
    }

    /** The build hash of this package's patches (the same for every version). */
    buildHash(version: string): string | undefined {
        const file = this.npmPatch(version);
        return existsSync(file) ? buildHashOf(readFileSync(file, "utf8")) : undefined;
    }
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
