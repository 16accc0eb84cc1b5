import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import {
    CliError,
    declaredSdk,
    detectPackageManager,
    installedSdkVersion,
    isExactVersion,
    readManifest,
    section,
    type PackageManager,
} from "./app.js";
import { checkDockerfile, checkDockerignore } from "./containerCheck.js";
import {
    POSTINSTALL,
    PNPM_BUILT_DEPENDENCY,
    SDK_PACKAGE,
    buildHashOf,
    npmPatchName,
    patchVersionOf,
    pnpmPatchKey,
    type ShippedPatches,
} from "./patchFiles.js";
import { runsPatchPackage, runsPatchPackageStrictly } from "./wiring.js";

/** What `TOOL_CUSTOMIZATION_PATCH` of a patched SDK holds. */
export interface PatchMarker {
    readonly sdkVersion: string;
    readonly patchVersion?: string;
    readonly buildHash?: string;
    readonly measuredRuntimes?: readonly string[];
}

/** One line of the doctor's report. */
export interface Finding {
    /** `fail` makes the doctor exit non-zero. */
    readonly status: "ok" | "warn" | "fail" | "info";
    readonly message: string;
}

/** What the doctor found, and whether the app is ready. */
export interface Diagnosis {
    readonly manager: PackageManager;
    readonly installed: string | undefined;
    readonly marker: PatchMarker | undefined;
    readonly findings: readonly Finding[];
    readonly healthy: boolean;
}

/** The command that runs this package's CLI in an app. */
export function cliCommand(manager: PackageManager): string {
    return `${manager === "pnpm" ? "pnpm exec" : "npx"} copilot-sdk-tool-override`;
}

/** The patch as the app's SDK loads it: its marker and the start-up check's verdict. */
export function loadedPatch(app: string): {
    marker: PatchMarker | undefined;
    refusal: string | undefined;
} {
    let entry: string;
    try {
        entry = createRequire(join(app, "package.json")).resolve(SDK_PACKAGE);
    } catch (error) {
        throw new CliError(
            `${SDK_PACKAGE} cannot be loaded from ${app} (${(error as Error).message.split("\n")[0]}): install the app's dependencies first.`
        );
    }
    const probe =
        "const sdk = require(process.argv[1]);" +
        "let refusal = null;" +
        'if (typeof sdk.assertToolCustomizationPatch === "function") {' +
        "  try { sdk.assertToolCustomizationPatch(); } catch (error) { refusal = error.message; }" +
        "}" +
        "console.log(JSON.stringify({ marker: sdk.TOOL_CUSTOMIZATION_PATCH ?? null, refusal }));";
    let output: string;
    try {
        output = execFileSync(process.execPath, ["-e", probe, entry], {
            cwd: app,
            encoding: "utf8",
            stdio: ["ignore", "pipe", "pipe"],
        });
    } catch (error) {
        const stderr = (error as { stderr?: string }).stderr ?? (error as Error).message;
        throw new CliError(
            `Loading ${SDK_PACKAGE} from ${entry} failed, so whether it is patched cannot be told:\n${stderr.trim()}`
        );
    }
    const { marker, refusal } = JSON.parse(output) as {
        marker: PatchMarker | null;
        refusal: string | null;
    };
    return { marker: marker ?? undefined, refusal: refusal ?? undefined };
}

/** One line describing a marker: SDK version, patch build, measured runtimes. */
export function describeMarker(marker: PatchMarker): string {
    const build =
        marker.patchVersion === undefined
            ? "a patch from before 0.3.0 (no build recorded)"
            : `patch ${marker.patchVersion} (build ${marker.buildHash})`;
    const runtimes =
        marker.measuredRuntimes === undefined
            ? ""
            : `, runtimes measured: ${marker.measuredRuntimes.join(", ")}`;
    return `${build} for ${SDK_PACKAGE} ${marker.sdkVersion}${runtimes}`;
}

/**
 * Checks an app: is the installed SDK patched, for which release and build; will the next install
 * (and a container build) apply the patch again.
 *
 * @param app - the app's folder
 * @param shipped - this package's patches
 * @param requestedManager - `--package-manager`, when given
 */
export function diagnose(
    app: string,
    shipped: ShippedPatches,
    requestedManager?: string
): Diagnosis {
    const manifest = readManifest(app);
    const { manager, reason } = detectPackageManager(app, manifest, requestedManager);
    const cli = cliCommand(manager);
    const findings: Finding[] = [];
    const ok = (message: string) => findings.push({ status: "ok", message });
    const warn = (message: string) => findings.push({ status: "warn", message });
    const fail = (message: string) => findings.push({ status: "fail", message });
    findings.push({ status: "info", message: `package manager: ${manager} (${reason})` });

    const installed = installedSdkVersion(app);
    const declared = declaredSdk(manifest);
    if (installed === undefined) {
        const pinned = declared !== undefined && isExactVersion(declared.range);
        fail(
            `${SDK_PACKAGE} is not installed in ${app}. Fix: ${declared === undefined ? `\`${cli} upgrade <version>\` (patched releases: ${shipped.versions().join(", ")})` : `\`${manager} install\`${pinned ? " once the findings below are fixed" : ""}`}.`
        );
        // The wiring can still be checked for the version package.json pins.
        if (pinned) {
            if (manager === "npm")
                checkNpmWiring(app, manifest.json, declared.range, cli, ok, fail);
            else checkPnpmWiring(app, manifest.json, declared.range, cli, ok, warn, fail);
        }
        return { manager, installed, marker: undefined, findings, healthy: false };
    }
    const patchedVersions = shipped.versions();
    const supported = patchedVersions.includes(installed);
    findings.push({
        status: "info",
        message: `${SDK_PACKAGE} ${installed} installed${declared === undefined ? "" : `, package.json: ${declared.range}`}`,
    });
    if (!supported) {
        fail(
            `${SDK_PACKAGE} ${installed} has no patch in ${shipped.identity.name} ${shipped.identity.version} (patched releases: ${patchedVersions.join(", ")}). Fix: \`${cli} upgrade ${patchedVersions.at(-1)}\`.`
        );
    }

    // What the app's code gets when it imports the SDK.
    const { marker, refusal } = loadedPatch(app);
    if (marker === undefined) {
        fail(
            `${SDK_PACKAGE} ${installed} is NOT patched: custom tools named like built-ins and toolset filters do not work as documented. Fix: \`${cli} init\`${manager === "npm" ? " (if it is wired already: a bare `npm install`; `npm install <package>` does not run the postinstall)" : ""}.`
        );
    } else if (refusal !== undefined) {
        fail(`${refusal} Fix: \`${cli} init\` (it installs the patch of the installed version).`);
    } else {
        ok(`patched: ${describeMarker(marker)}`);
        const expected = supported ? shipped.buildHash(installed) : undefined;
        if (expected !== undefined && marker.buildHash !== expected) {
            warn(
                `the installed patch is another build than this package's (${shipped.identity.name} ${shipped.identity.version}, build ${expected}). To use this one: \`${cli} init\`.`
            );
        }
    }

    if (declared !== undefined && !isExactVersion(declared.range)) {
        warn(
            `package.json asks for ${SDK_PACKAGE} '${declared.range}', a range: an install may pick a version the patch was not built for (the install then fails). Fix: \`${cli} init\` pins it exactly.`
        );
    }

    const patchFile =
        manager === "npm"
            ? checkNpmWiring(app, manifest.json, installed, cli, ok, fail)
            : checkPnpmWiring(app, manifest.json, installed, cli, ok, warn, fail);
    if (patchFile !== undefined) checkContainer(app, patchFile, manager, findings);

    return {
        manager,
        installed,
        marker,
        findings,
        healthy: findings.every((finding) => finding.status !== "fail"),
    };
}

/** patch-package: the patch file, no other version's, the postinstall, patch-package itself. */
function checkNpmWiring(
    app: string,
    json: Record<string, unknown>,
    installed: string,
    cli: string,
    ok: (message: string) => void,
    fail: (message: string) => void
): string | undefined {
    const patchFile = npmPatchName(installed);
    const patches = join(app, "patches");
    const present = existsSync(patches) ? readdirSync(patches) : [];
    if (present.includes(patchFile)) {
        const hash = buildHashOf(readFileSync(join(patches, patchFile), "utf8"));
        ok(`patches/${patchFile} is there${hash === undefined ? "" : ` (build ${hash})`}`);
    } else {
        fail(
            `patches/${patchFile} is missing: the next \`npm install\` here, and every container build, leaves the SDK unpatched (patch-package prints "No patch files found" and exits 0). Fix: \`${cli} init\`, and copy patches/ into the image before \`npm ci\`.`
        );
    }
    const others = present.filter(
        (file) => file !== patchFile && patchVersionOf(file) !== undefined
    );
    if (others.length > 0) {
        fail(
            `patches/ also holds ${others.join(", ")}: patch-package applies every patch of the SDK it finds, and one of them cannot fit ${installed}. Fix: delete ${others.map((file) => `patches/${file}`).join(", ")}.`
        );
    }
    const postinstall = section(json, "scripts").postinstall;
    if (typeof postinstall === "string" && runsPatchPackageStrictly(postinstall)) {
        ok(`postinstall runs ${POSTINSTALL}`);
    } else {
        fail(
            `package.json's postinstall ${typeof postinstall === "string" ? `'${postinstall}' does not run patch-package --error-on-fail --error-on-warn` : "is missing"}, so installs do not apply the patch (or do not fail when it cannot be applied). Fix: \`${cli} init\`.`
        );
    }
    if (typeof section(json, "dependencies")["patch-package"] === "string") {
        ok("patch-package is in dependencies (an install with --omit=dev applies the patch too)");
    } else {
        fail(
            `patch-package is not in dependencies${typeof section(json, "devDependencies")["patch-package"] === "string" ? " (only in devDependencies: `npm ci --omit=dev` in a production image cannot run the postinstall)" : ""}. Fix: \`${cli} init\`.`
        );
    }
    return patchFile;
}

/** pnpm: patchedDependencies names an existing patch of the installed version; koffi; no patch-package. */
function checkPnpmWiring(
    app: string,
    json: Record<string, unknown>,
    installed: string,
    cli: string,
    ok: (message: string) => void,
    warn: (message: string) => void,
    fail: (message: string) => void
): string | undefined {
    const pnpm = section(json, "pnpm");
    const patched = section(pnpm, "patchedDependencies");
    const named = patched[pnpmPatchKey(installed)];
    let patchFile: string | undefined;
    if (typeof named !== "string") {
        fail(
            `pnpm.patchedDependencies has no entry for ${pnpmPatchKey(installed)}, so pnpm installs the SDK unpatched. Fix: \`${cli} init\`.`
        );
    } else if (!existsSync(join(app, named))) {
        fail(
            `pnpm.patchedDependencies names ${named}, which does not exist: \`pnpm install\` fails here and in every container build. Fix: \`${cli} init\`, and copy patches/ into the image before \`pnpm install\`.`
        );
    } else {
        ok(`pnpm.patchedDependencies: ${pnpmPatchKey(installed)} -> ${named}`);
        patchFile = named.replace(/^(\.\/)?patches\//, "");
    }
    const built = pnpm.onlyBuiltDependencies;
    if (!Array.isArray(built) || !built.includes(PNPM_BUILT_DEPENDENCY)) {
        warn(
            `pnpm.onlyBuiltDependencies does not list ${PNPM_BUILT_DEPENDENCY}, the SDK's native dependency, whose build script pnpm then skips. Fix: \`${cli} init\`.`
        );
    }
    const postinstall = section(json, "scripts").postinstall;
    if (typeof postinstall === "string" && runsPatchPackage(postinstall)) {
        fail(
            `package.json's postinstall runs patch-package ('${postinstall}') in a pnpm app: it edits files pnpm shares with other projects through its store. Fix: remove it; pnpm.patchedDependencies applies the patch.`
        );
    }
    return patchFile;
}

/** A Dockerfile or Containerfile and .dockerignore, where the app has them. */
function checkContainer(
    app: string,
    patchFile: string,
    manager: PackageManager,
    findings: Finding[]
): void {
    const files = ["Dockerfile", "Containerfile"].filter((file) => existsSync(join(app, file)));
    for (const file of files) {
        for (const finding of checkDockerfile(
            readFileSync(join(app, file), "utf8"),
            file,
            patchFile
        )) {
            findings.push({ status: finding.ok ? "ok" : "fail", message: finding.message });
        }
    }
    if (existsSync(join(app, ".dockerignore"))) {
        const finding = checkDockerignore(
            readFileSync(join(app, ".dockerignore"), "utf8"),
            patchFile
        );
        findings.push({ status: finding.ok ? "ok" : "fail", message: finding.message });
    }
    if (files.length === 0) {
        findings.push({
            status: "info",
            message: `no Dockerfile here: in a container build, copy patches/ into the image before \`${manager === "npm" ? "npm ci" : "pnpm install --frozen-lockfile"}\``,
        });
    }
}
