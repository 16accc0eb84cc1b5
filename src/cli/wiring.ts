import { CliError, section, type PackageManager } from "./app.js";
import {
    OWN_PACKAGE,
    PATCH_PACKAGE_VERSION,
    PNPM_BUILT_DEPENDENCY,
    POSTINSTALL,
    SDK_PACKAGE,
    pnpmPatchKey,
    pnpmPatchName,
} from "./patchFiles.js";

/** A package.json with the patch wired in, and what changed, one line per change. */
export interface Wiring {
    readonly json: Record<string, unknown>;
    readonly changes: readonly string[];
}

/** Whether a postinstall command already runs patch-package the way the patch needs. */
export function runsPatchPackageStrictly(command: string): boolean {
    return (
        /(^|[;&|]\s*|\s)patch-package(\s|$)/.test(command) &&
        command.includes("--error-on-fail") &&
        command.includes("--error-on-warn")
    );
}

/** Whether a command runs patch-package at all. */
export function runsPatchPackage(command: string): boolean {
    return /(^|[;&|]\s*|\s)patch-package(\s|$)/.test(command);
}

/**
 * The app's package.json with the SDK pinned to `version`, this package pinned in `dependencies`
 * (the patched SDK imports it at run time, so an install with `--omit=dev` must keep it), and the
 * patch wired in: for npm, patch-package in `dependencies` and the postinstall; for pnpm,
 * `patchedDependencies` (only this version of the SDK), `packageExtensions` (which makes this
 * package a dependency of the SDK, so that the SDK resolves it in every pnpm layout, `hoistPattern:
 * []` included) and koffi in `onlyBuiltDependencies`. The input is not modified; a manifest
 * already wired gives no changes.
 *
 * @param json - the app's package.json
 * @param manager - the app's package manager
 * @param version - the SDK version to pin and patch
 * @param ownSpec - what to depend on for this package: its exact version, or a tarball
 * @returns the new package.json and the changes
 * @throws CliError when the app's own settings would have to be overwritten (another
 *   postinstall; patch-package with pnpm)
 */
export function wirePatch(
    json: Record<string, unknown>,
    manager: PackageManager,
    version: string,
    ownSpec: string
): Wiring {
    const result: Record<string, unknown> = structuredClone(json);
    const changes: string[] = [];
    const set = (key: string, name: string, value: unknown, what: string) => {
        const target = { ...section(result, key) };
        if (JSON.stringify(target[name]) === JSON.stringify(value)) return;
        target[name] = value;
        result[key] = target;
        changes.push(what);
    };

    const sdkSection =
        typeof section(result, "dependencies")[SDK_PACKAGE] === "string" ||
        typeof section(result, "devDependencies")[SDK_PACKAGE] !== "string"
            ? "dependencies"
            : "devDependencies";
    set(sdkSection, SDK_PACKAGE, version, `${sdkSection}: ${SDK_PACKAGE} pinned to ${version}`);
    if (typeof section(result, "devDependencies")[OWN_PACKAGE] === "string") {
        const devDependencies = { ...section(result, "devDependencies") };
        delete devDependencies[OWN_PACKAGE];
        result.devDependencies = devDependencies;
        changes.push(
            `devDependencies: ${OWN_PACKAGE} moved to dependencies (the patched SDK imports it at run time)`
        );
    }
    set("dependencies", OWN_PACKAGE, ownSpec, `dependencies: ${OWN_PACKAGE} ${ownSpec}`);

    const postinstall = section(result, "scripts").postinstall;
    if (manager === "npm") {
        const devDependencies = { ...section(result, "devDependencies") };
        if (devDependencies["patch-package"] !== undefined) {
            delete devDependencies["patch-package"];
            result.devDependencies = devDependencies;
            changes.push(
                "devDependencies: patch-package moved to dependencies (an install with --omit=dev must apply the patch too)"
            );
        }
        const current = section(result, "dependencies")["patch-package"];
        if (typeof current !== "string") {
            set(
                "dependencies",
                "patch-package",
                PATCH_PACKAGE_VERSION,
                `dependencies: patch-package ${PATCH_PACKAGE_VERSION}`
            );
        }
        if (typeof postinstall === "string" && !runsPatchPackageStrictly(postinstall)) {
            if (!/^\s*patch-package(\s+--[a-z-]+)*\s*$/.test(postinstall)) {
                throw new CliError(
                    `package.json has a postinstall of its own, '${postinstall}', which this command would overwrite. ` +
                        `Add the patch step to it yourself, e.g. "postinstall": "${POSTINSTALL} && ${postinstall}", ` +
                        `then run this command again.`
                );
            }
        }
        if (typeof postinstall !== "string" || !runsPatchPackageStrictly(postinstall)) {
            set("scripts", "postinstall", POSTINSTALL, `scripts: postinstall "${POSTINSTALL}"`);
        }
        return { json: result, changes };
    }

    if (typeof postinstall === "string" && runsPatchPackage(postinstall)) {
        throw new CliError(
            `package.json runs patch-package in its postinstall ('${postinstall}'), but this app uses pnpm: ` +
                `patch-package would edit the files pnpm shares between projects from its store. ` +
                `Remove patch-package from the postinstall (pnpm applies the patch itself, ` +
                `through pnpm.patchedDependencies), then run this command again.`
        );
    }
    const pnpm = { ...section(result, "pnpm") };
    const patched = { ...section(pnpm, "patchedDependencies") };
    for (const key of Object.keys(patched)) {
        if (key === SDK_PACKAGE) {
            // A bare key beside the versioned one: pnpm stops with ERR_PNPM_UNUSED_PATCH.
            delete patched[key];
            changes.push(
                `pnpm.patchedDependencies: ${key} (no version: pnpm would install other releases unpatched) ` +
                    `replaced by ${pnpmPatchKey(version)}`
            );
        } else if (key.startsWith(`${SDK_PACKAGE}@`) && key !== pnpmPatchKey(version)) {
            delete patched[key];
            changes.push(`pnpm.patchedDependencies: ${key} removed`);
        }
    }
    const patchPath = `patches/${pnpmPatchName(version)}`;
    if (patched[pnpmPatchKey(version)] !== patchPath) {
        patched[pnpmPatchKey(version)] = patchPath;
        changes.push(`pnpm.patchedDependencies: ${pnpmPatchKey(version)} -> ${patchPath}`);
    }
    pnpm.patchedDependencies = patched;
    const extensions = { ...section(pnpm, "packageExtensions") };
    const extension = { ...section(extensions, SDK_PACKAGE) };
    const extensionDependencies = { ...section(extension, "dependencies") };
    if (extensionDependencies[OWN_PACKAGE] !== ownSpec) {
        extensionDependencies[OWN_PACKAGE] = ownSpec;
        extension.dependencies = extensionDependencies;
        extensions[SDK_PACKAGE] = extension;
        pnpm.packageExtensions = extensions;
        changes.push(
            `pnpm.packageExtensions: ${SDK_PACKAGE} depends on ${OWN_PACKAGE} ${ownSpec} (so that the patched ` +
                `SDK resolves it in every pnpm layout)`
        );
    }
    const built = Array.isArray(pnpm.onlyBuiltDependencies)
        ? [...(pnpm.onlyBuiltDependencies as unknown[])]
        : [];
    if (!built.includes(PNPM_BUILT_DEPENDENCY)) {
        pnpm.onlyBuiltDependencies = [...built, PNPM_BUILT_DEPENDENCY];
        changes.push(
            `pnpm.onlyBuiltDependencies: ${PNPM_BUILT_DEPENDENCY} (the SDK's native dependency)`
        );
    }
    result.pnpm = pnpm;
    return { json: result, changes };
}
