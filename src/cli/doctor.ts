import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import {
    declaredSdk,
    detectPackageManager,
    findRunner,
    installedSdkVersion,
    isExactVersion,
    readManifest,
    section,
    type PackageManager,
} from "./app.js";
import { checkDockerfile, checkDockerignore } from "./containerCheck.js";
import {
    OWN_PACKAGE,
    POSTINSTALL,
    PNPM_BUILT_DEPENDENCY,
    SDK_PACKAGE,
    npmPatchName,
    patchVersionOf,
    pnpmPatchKey,
    recordedReleases,
    type PackageIdentity,
} from "./patchFiles.js";
import {
    checkSpec,
    declaredOwnSpecs,
    npmRegistryLookup,
    ownInstallArgument,
    type RegistryLookup,
} from "./ownSpec.js";
import { findStrayImports } from "./strayImports.js";
import { describeMarker, probeApp, probeLibrary, type PatchMarker, type Probe } from "./probe.js";
import { carriesSelfContainedPatch, carriesThinPatch } from "./thinPatch.js";
import { runsPatchPackage, runsPatchPackageStrictly } from "./wiring.js";

/** One line of the doctor's report. */
export interface Finding {
    /** `fail` makes the doctor exit non-zero. */
    readonly status: "ok" | "warn" | "fail" | "info";
    readonly message: string;
}

/** What the doctor found, and whether the app is ready. */
export interface Diagnosis {
    /** The form checked: the library form when the app depends on this package and no SDK patch is wired. */
    readonly form: AppForm;
    readonly manager: PackageManager;
    readonly installed: string | undefined;
    readonly marker: PatchMarker | undefined;
    readonly findings: readonly Finding[];
    readonly healthy: boolean;
    /**
     * Specs of this package the next install needs that could not be checked (a git repository,
     * an unreachable registry): the doctor then does not promise that the next install works.
     */
    readonly uncheckedSpecs: readonly string[];
}

/** How an app takes the tool customization: importing this package, or patching the SDK. */
export type AppForm = "library" | "patch";

/** The command that runs this package's CLI in an app. */
export function cliCommand(manager: PackageManager): string {
    // `--no`: npx runs the installed copy, never a download of whatever holds the name.
    return `${manager === "pnpm" ? "pnpm exec" : "npx --no"} copilot-sdk-tool-override`;
}

/** Options of the doctor. */
export interface DiagnoseOptions {
    /** `--package-manager`, when given. */
    readonly packageManager?: string;
    /** Whether to start the release's runtime once (default true). */
    readonly startRuntime?: boolean;
    /** How to ask the registry about a registry spec of this package (default: `npm view`). */
    readonly lookup?: RegistryLookup;
}

/**
 * Checks an app's patch form piece by piece, each with its fix: the package manager runs; the
 * SDK is installed and pinned; this package is installed, in `dependencies`, resolvable from the
 * SDK and the same version as this command; the thin patch of the installed version is in
 * `patches/` and wired (npm: patch-package's postinstall; pnpm: the versioned
 * `patchedDependencies` key and the `packageExtensions` entry); the app's ESM and CommonJS code
 * get the tool customization; the release's runtime starts under this Node; a container build
 * copies the patch.
 *
 * @param app - the app's folder
 * @param identity - this package's name, version and folder
 * @param options - `--package-manager`; whether to start the runtime
 */
export function diagnose(
    app: string,
    identity: PackageIdentity,
    options: DiagnoseOptions = {}
): Diagnosis {
    const manifest = readManifest(app);
    const { manager, reason } = detectPackageManager(app, manifest, options.packageManager);
    const cli = cliCommand(manager);
    const findings: Finding[] = [];
    const ok = (message: string) => findings.push({ status: "ok", message });
    const warn = (message: string) => findings.push({ status: "warn", message });
    const fail = (message: string) => findings.push({ status: "fail", message });
    const runner = findRunner(manager, app);
    if (runner === undefined) {
        fail(
            `package manager: ${manager} (${reason}), ` +
                `but no ${manager} answers here (not on PATH${manager === "pnpm" ? ", not through corepack" : ""}): ` +
                `installs cannot apply the patch. Fix: ` +
                `${manager === "pnpm" ? "`npm install -g pnpm` or `corepack enable`" : "install Node.js with npm"}.`
        );
    } else {
        findings.push({
            status: "info",
            message: `package manager: ${manager} (${reason}, run as ${runner.how})`,
        });
    }

    const installed = installedSdkVersion(app);
    const declared = declaredSdk(manifest);
    if (installed === undefined) {
        fail(
            `${SDK_PACKAGE} is not installed in ${app}. Fix: ` +
                `${declared === undefined ? `\`${manager === "npm" ? "npm install" : "pnpm add"} ${SDK_PACKAGE}@<version>\`, then \`${cli} init\`` : `\`${manager} install\``}.`
        );
        return {
            form: "patch",
            manager,
            installed,
            marker: undefined,
            findings,
            healthy: false,
            uncheckedSpecs: [],
        };
    }
    const form = detectForm(app, manifest.json);
    findings.push({ status: "info", message: `form: ${form.form} (${form.reason})` });
    if (form.form === "library") {
        return diagnoseLibrary(app, manifest.json, installed, identity, manager, options, findings);
    }
    findings.push({
        status: "info",
        message: `${SDK_PACKAGE} ${installed} installed${declared === undefined ? "" : `, package.json: ${declared.range}`}`,
    });
    if (declared !== undefined && !isExactVersion(declared.range)) {
        warn(
            `package.json asks for ${SDK_PACKAGE} '${declared.range}', a range: ` +
                `an install may pick another release, whose patch this app does not have (the install then fails). ` +
                `Fix: \`${cli} init\` pins it exactly.`
        );
    }

    checkOwnPackage(app, manifest.json, identity, cli, ok, warn, fail);
    const uncheckedSpecs = checkOwnSpecs(app, manifest.json, "patch", manager, options, findings);
    const patchFile =
        manager === "npm"
            ? checkNpmWiring(app, manifest.json, installed, cli, ok, fail)
            : checkPnpmWiring(app, manifest.json, installed, identity, cli, ok, warn, fail);

    // What the app's code gets when it imports the SDK, and whether the runtime starts.
    const probe = probeApp(app, options.startRuntime ?? true);
    let marker: PatchMarker | undefined;
    for (const [format, view] of [
        ["ESM", probe.esm],
        ["CommonJS", probe.cjs],
    ] as const) {
        if (view.error !== undefined) {
            fail(
                `the app's ${format} code cannot load ${SDK_PACKAGE}: ${view.error}. Fix: ` +
                    `${/copilot-sdk-tool-override/.test(view.error) ? `the SDK cannot resolve ${OWN_PACKAGE}: \`${cli} init\` (it adds ${OWN_PACKAGE} to dependencies${manager === "pnpm" ? " and to the SDK's through pnpm.packageExtensions" : ""})` : `\`${manager} install\``}.`
            );
        } else if (view.marker === undefined) {
            fail(
                `the app's ${format} code gets ${SDK_PACKAGE} ${installed} WITHOUT the tool customization: ` +
                    `custom tools named like built-ins and toolset filters do not work as documented. Fix: ` +
                    `\`${cli} init\`${manager === "npm" ? " (if it is wired already: a bare `npm install`; `npm install <package>` does not run the postinstall)" : ""}.`
            );
        } else if (view.unsupported !== undefined) {
            fail(`the app's ${format} code gets a CopilotClient that refuses: ${view.unsupported}`);
        } else if (view.marker.form === "self-contained" || view.marker.form === undefined) {
            fail(
                `the app's ${format} code gets ${describeMarker(view.marker)}, the old self-contained patch. Fix: ` +
                    `\`${cli} upgrade\` replaces it with the thin patch.`
            );
        } else if (view.refusal !== undefined) {
            fail(`${format}: ${view.refusal}`);
        } else if (view.marker.sdkVersion !== installed) {
            fail(
                `the app's ${format} code gets the tool customization on ${SDK_PACKAGE} ${view.marker.sdkVersion}, ` +
                    `but ${installed} is installed. Fix: \`${manager} install\`.`
            );
        } else if (view.sessionToolError !== true) {
            fail(
                `the app's ${format} code cannot import SessionToolError from ${SDK_PACKAGE}: ` +
                    `the SDK's root module lacks the patch's re-export. Fix: \`${cli} init\`.`
            );
        } else {
            marker ??= view.marker;
        }
    }
    if (marker !== undefined) ok(`ESM and CommonJS: ${describeMarker(marker)}`);
    checkRuntimeStart(probe, installed, identity, ok, fail);
    if (patchFile !== undefined) checkContainer(app, patchFile, manager, findings);
    return {
        form: "patch",
        manager,
        installed,
        marker,
        findings,
        healthy: findings.every((finding) => finding.status !== "fail"),
        uncheckedSpecs,
    };
}

/**
 * That every spec of this package in package.json can be installed by the next clean install: a
 * tarball or folder exists, a registry version is on the app's registry (a 404 there also means
 * that whoever registers the name would have their code installed). A spec that cannot be checked
 * (git, a URL, an unreachable registry) is a warning, and is returned.
 */
function checkOwnSpecs(
    app: string,
    json: Record<string, unknown>,
    form: AppForm,
    manager: PackageManager,
    options: DiagnoseOptions,
    findings: Finding[]
): string[] {
    const unchecked: string[] = [];
    const fix =
        form === "patch"
            ? `\`${cliCommand(manager)} init --package <spec>\` with what the app installs ${OWN_PACKAGE} from ` +
              `(e.g. \`--package ./${OWN_PACKAGE}-<version>.tgz\` for a packed copy in the app's folder); ` +
              `it writes that spec everywhere package.json names one`
            : `\`${manager === "npm" ? "npm install --save-exact" : "pnpm add --save-exact"} <spec>\` with what ` +
              `the app installs ${OWN_PACKAGE} from (e.g. a packed \`./${OWN_PACKAGE}-<version>.tgz\`)`;
    for (const { where, spec } of declaredOwnSpecs(json)) {
        const check = checkSpec(app, OWN_PACKAGE, spec, options.lookup ?? npmRegistryLookup);
        const named = `${where}: ${OWN_PACKAGE} '${spec}'`;
        if (check.status === "ok") {
            findings.push({ status: "ok", message: `${named} can be installed (${check.detail})` });
        } else if (check.status === "missing") {
            findings.push({
                status: "fail",
                message:
                    `${named} cannot be installed: ${check.detail}. ` +
                    `The next clean install${form === "patch" ? " (and every container build)" : ""} ` +
                    `fails${/registry/.test(check.detail) ? ", or installs whatever another publisher registers under that name" : ""}. Fix: ${fix}.`,
            });
        } else {
            unchecked.push(spec);
            findings.push({
                status: "warn",
                message: `${named}: whether the next install can fetch it was not checked (${check.detail}).`,
            });
        }
    }
    return unchecked;
}

/**
 * The failure of a library-form app that lists this package only in `devDependencies` or
 * `optionalDependencies`, with a fix that installs it from the app's own spec (never the bare
 * registry name: see {@link ownInstallArgument}).
 *
 * @param json - the app's package.json, which names this package outside `dependencies`
 * @param manager - the app's package manager
 */
export function notInDependencies(json: Record<string, unknown>, manager: PackageManager): string {
    const dev = section(json, "devDependencies")[OWN_PACKAGE];
    const where = typeof dev === "string" ? "devDependencies" : "optionalDependencies";
    const spec = section(json, where)[OWN_PACKAGE];
    const install = manager === "npm" ? "npm install --save-prod" : "pnpm add --save-prod";
    return (
        `${OWN_PACKAGE} is not in dependencies (only in ${where}): an install with --omit=dev, ` +
        `or one that skips optional packages, leaves the app's import of it failing. Fix: ` +
        `\`${install} ${ownInstallArgument(String(spec))}\` (it moves the entry, '${String(spec)}', to dependencies).`
    );
}

/**
 * Library form: each file that takes a client value from the SDK itself gets the SDK's own client,
 * without the tool customization (the app's other files may be right: nothing at run time says
 * so).
 */
function checkStrayImports(
    app: string,
    ok: (message: string) => void,
    fail: (message: string) => void
): void {
    const strays = findStrayImports(app);
    if (strays.length === 0) {
        ok(`no file of the app imports CopilotClient or joinSession from ${SDK_PACKAGE} itself`);
    }
    for (const { file, line, module, name, instead } of strays) {
        fail(
            `${file}:${line} imports ${name} from "${module}": ` +
                `that ${name} runs without the tool customization (custom tools named like built-ins and toolset ` +
                `filters do not work as documented there). Fix: ` +
                `import it from "${instead}" (\`import { ${name} } from "${instead}"\`, which exports its type too), ` +
                `and add ${OWN_PACKAGE}/eslint to the app's ESLint config so the next one is caught (README, "Library form").`
        );
    }
}

/**
 * The patch form when any piece of it is in the app (an SDK patch in patches/, a pnpm
 * patchedDependencies entry for the SDK, a postinstall running patch-package), so that a half-made
 * patch form is diagnosed as one; else the library form when the app depends on this package.
 */
function detectForm(app: string, json: Record<string, unknown>): { form: AppForm; reason: string } {
    const patches = join(app, "patches");
    const patchFiles = existsSync(patches)
        ? readdirSync(patches).filter((file) => patchVersionOf(file) !== undefined)
        : [];
    if (patchFiles.length > 0) return { form: "patch", reason: `patches/${patchFiles[0]}` };
    const patched = section(section(json, "pnpm"), "patchedDependencies");
    const key = Object.keys(patched).find(
        (name) => name === SDK_PACKAGE || name.startsWith(`${SDK_PACKAGE}@`)
    );
    if (key !== undefined) return { form: "patch", reason: `pnpm.patchedDependencies: ${key}` };
    const postinstall = section(json, "scripts").postinstall;
    if (typeof postinstall === "string" && runsPatchPackage(postinstall)) {
        return { form: "patch", reason: "the postinstall runs patch-package" };
    }
    for (const field of ["dependencies", "devDependencies", "optionalDependencies"]) {
        if (typeof section(json, field)[OWN_PACKAGE] === "string") {
            return {
                form: "library",
                reason: `package.json lists ${OWN_PACKAGE} in ${field} and no SDK patch is wired: the app imports from "${OWN_PACKAGE}"`,
            };
        }
    }
    return {
        form: "patch",
        reason: `neither form is set up: ${OWN_PACKAGE} is not in package.json`,
    };
}

/**
 * The library form: this package in `dependencies` (the app imports it at run time), resolvable
 * from the app, the same version as this command; the app's ESM and CommonJS code get the wrapped
 * client on the installed SDK; the release's runtime starts.
 */
function diagnoseLibrary(
    app: string,
    json: Record<string, unknown>,
    installed: string,
    identity: PackageIdentity,
    manager: PackageManager,
    options: DiagnoseOptions,
    findings: Finding[]
): Diagnosis {
    const ok = (message: string) => findings.push({ status: "ok", message });
    const warn = (message: string) => findings.push({ status: "warn", message });
    const fail = (message: string) => findings.push({ status: "fail", message });
    const add = manager === "npm" ? "npm install" : "pnpm add";
    const declared = section(json, "dependencies")[OWN_PACKAGE];
    if (typeof declared === "string") {
        ok(`${OWN_PACKAGE} is in dependencies (${declared})`);
    } else {
        fail(notInDependencies(json, manager));
    }
    const uncheckedSpecs = checkOwnSpecs(app, json, "library", manager, options, findings);
    checkStrayImports(app, ok, fail);
    let probe: Probe;
    try {
        probe = probeLibrary(app, options.startRuntime ?? true);
    } catch (error) {
        fail(`${(error as Error).message} Fix: \`${manager} install\`.`);
        return {
            form: "library",
            manager,
            installed,
            marker: undefined,
            findings,
            healthy: false,
            uncheckedSpecs,
        };
    }
    let marker: PatchMarker | undefined;
    for (const [format, view] of [
        ["ESM", probe.esm],
        ["CommonJS", probe.cjs],
    ] as const) {
        if (view.error !== undefined) {
            fail(
                `the app's ${format} code cannot load ${OWN_PACKAGE}: ${view.error}. Fix: \`${manager} install\`.`
            );
        } else if (view.unsupported !== undefined) {
            fail(`the app's ${format} code gets a CopilotClient that refuses: ${view.unsupported}`);
        } else if (view.marker === undefined || view.marker.form === "none") {
            fail(
                `the app's ${format} code gets ${OWN_PACKAGE} without the tool ` +
                    `customization${view.refusal === undefined ? "" : ` (${view.refusal})`}. Fix: ` +
                    `\`${manager} install\`, or a ${SDK_PACKAGE} release it serves (the compatibility table in its README).`
            );
        } else if (view.marker.form === "self-contained") {
            fail(
                `the app's ${format} code gets ${describeMarker(view.marker)}: ` +
                    `the installed SDK still carries the old self-contained patch. Fix: ` +
                    `\`${manager} install\` after deleting its patch from patches/, or \`${cliCommand(manager)} upgrade\`.`
            );
        } else if (view.refusal !== undefined) {
            fail(`${format}: ${view.refusal}`);
        } else if (view.marker.sdkVersion !== installed) {
            fail(
                `the app's ${format} code gets the tool customization on ${SDK_PACKAGE} ${view.marker.sdkVersion}, ` +
                    `but the app has ${installed}: ${OWN_PACKAGE} resolves another copy of the SDK. Fix: ` +
                    `\`${manager} install\` (one copy), or \`${add} ${SDK_PACKAGE}@${view.marker.sdkVersion}\`.`
            );
        } else {
            marker ??= view.marker;
        }
    }
    if (marker !== undefined) {
        ok(`ESM and CommonJS: ${describeMarker(marker)}`);
        if (marker.patchVersion !== undefined && marker.patchVersion !== identity.version) {
            warn(
                `the app loads ${OWN_PACKAGE} ${marker.patchVersion}, but this command is ${identity.version}: ` +
                    `the versions disagree. Fix: run the app's own copy (\`${cliCommand(manager)} doctor\`).`
            );
        }
    }
    checkRuntimeStart(probe, installed, identity, ok, fail);
    return {
        form: "library",
        manager,
        installed,
        marker,
        findings,
        healthy: findings.every((finding) => finding.status !== "fail"),
        uncheckedSpecs,
    };
}

/** Whether the release's runtime started under this Node, when the probe started it. */
function checkRuntimeStart(
    probe: Probe,
    installed: string,
    identity: PackageIdentity,
    ok: (message: string) => void,
    fail: (message: string) => void
): void {
    if (probe.start === undefined) return;
    if (probe.start.started) {
        ok(
            `the release's runtime starts under Node ${process.versions.node} (${probe.start.detail})`
        );
    } else {
        fail(runtimeFailure(installed, probe.start.detail, identity));
    }
}

/** The start failure of a release's runtime, with the fix this package measured for it. */
function runtimeFailure(installed: string, detail: string, identity: PackageIdentity): string {
    // The error line (`TypeError: ...`, `Error [ERR_...]: ...`), not the minified source Node prints above it.
    const lines = detail.split(/\r?\n/).map((line) => line.trim());
    const errorLine = lines.find((line) => /^(?:[A-Z]\w*)?Error(?: \[[A-Z_]+\])?: \S/.test(line));
    const first = lines[0] ?? "";
    const cause = (errorLine === undefined ? first : `${first.slice(0, 200)}: ${errorLine}`).slice(
        0,
        400
    );
    const release = recordedReleases(identity.root).get(installed);
    const nodeMajor = Number(process.versions.node.split(".")[0]);
    const fixes: string[] = [];
    if (release?.node !== undefined && nodeMajor < release.node) {
        fixes.push(
            `run the app on Node ${release.node} or later (${SDK_PACKAGE} ${installed}'s runtime fails on Node ` +
                `${nodeMajor}${release.node20Failure === undefined ? "" : `: ${release.node20Failure}`})`
        );
    }
    if (release?.runtime === "dependency" && release.runtimeVersion !== undefined) {
        fixes.push(
            `pin its runtime, \`npm install --save-exact @github/copilot@${release.runtimeVersion}\` (a fresh ` +
                `install resolves the newest @github/copilot, which this release may not find a platform package of)`
        );
    }
    if (fixes.length === 0)
        fixes.push(`\`npm install\` again, or move to a newer ${SDK_PACKAGE} release`);
    return `the release's runtime does not start under Node ${process.versions.node}: ${cause}. Fix: ${fixes.join("; and ")}.`;
}

/** This package: installed, in `dependencies`, exact, the same version as this command, resolvable from the SDK. */
function checkOwnPackage(
    app: string,
    json: Record<string, unknown>,
    identity: PackageIdentity,
    cli: string,
    ok: (message: string) => void,
    warn: (message: string) => void,
    fail: (message: string) => void
): void {
    const declared = section(json, "dependencies")[OWN_PACKAGE];
    if (typeof declared === "string") {
        ok(`${OWN_PACKAGE} is in dependencies (${declared})`);
    } else {
        fail(
            `${OWN_PACKAGE} is not in dependencies${typeof section(json, "devDependencies")[OWN_PACKAGE] === "string" ? " (only in devDependencies: an install with --omit=dev leaves the patched SDK unable to load it)" : ""}. ` +
                `Fix: \`${cli} init\`.`
        );
    }
    const sdkManifest = join(app, "node_modules", ...SDK_PACKAGE.split("/"), "package.json");
    let resolved: string | undefined;
    try {
        resolved = createRequire(sdkManifest).resolve(`${OWN_PACKAGE}/package.json`);
    } catch {
        resolved = undefined;
    }
    if (resolved === undefined) {
        fail(
            `${SDK_PACKAGE} cannot resolve ${OWN_PACKAGE}, which its patch imports. Fix: \`${cli} init\`.`
        );
        return;
    }
    const { version } = JSON.parse(readFileSync(resolved, "utf8")) as { version?: string };
    if (version === identity.version) {
        ok(`${SDK_PACKAGE} resolves ${OWN_PACKAGE} ${version}, this command's version`);
    } else {
        warn(
            `${SDK_PACKAGE} resolves ${OWN_PACKAGE} ${version ?? "(unknown)"}, ` +
                `but this command is ${identity.version}: the versions disagree. Fix: ` +
                `run the app's own copy (\`${cli} doctor\`), or \`${cli} init\` with the version you want.`
        );
    }
}

/** What an SDK patch file in the app is: the thin patch, or the old self-contained one. */
function describePatchFile(path: string): "thin" | "self-contained" | "other" {
    const text = readFileSync(path, "utf8");
    if (carriesThinPatch(text)) return "thin";
    return carriesSelfContainedPatch(text) ? "self-contained" : "other";
}

/** patch-package: the thin patch file, no other SDK patch, the postinstall, patch-package itself. */
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
    if (!present.includes(patchFile)) {
        fail(
            `patches/${patchFile} is missing: the next \`npm install\` here, and every container build, ` +
                `leaves the SDK unpatched (patch-package prints "No patch files found" and exits 0). Fix: ` +
                `\`${cli} init\`, and copy patches/ into the image before \`npm ci\`.`
        );
    } else if (describePatchFile(join(patches, patchFile)) !== "thin") {
        fail(
            `patches/${patchFile} is not the thin patch (the self-contained patch of 0.3.0?). Fix: \`${cli} upgrade\`.`
        );
    } else {
        ok(`patches/${patchFile} is the thin patch of the installed release`);
    }
    const others = present.filter(
        (file) => file !== patchFile && patchVersionOf(file) !== undefined
    );
    if (others.length > 0) {
        fail(
            `patches/ also holds ${others.join(", ")}: patch-package applies every patch of the SDK it finds, ` +
                `and one of them cannot fit ${installed}. Fix: delete ${others.map((file) => `patches/${file}`).join(", ")}.`
        );
    }
    const postinstall = section(json, "scripts").postinstall;
    if (typeof postinstall === "string" && runsPatchPackageStrictly(postinstall)) {
        ok(`postinstall runs ${POSTINSTALL}`);
    } else {
        fail(
            `package.json's postinstall ${typeof postinstall === "string" ? `'${postinstall}' does not run patch-package --error-on-fail --error-on-warn` : "is missing"}, ` +
                `so installs do not apply the patch (or do not fail when it cannot be applied). Fix: \`${cli} init\`.`
        );
    }
    if (typeof section(json, "dependencies")["patch-package"] === "string") {
        ok("patch-package is in dependencies (an install with --omit=dev applies the patch too)");
    } else {
        fail(
            `patch-package is not in dependencies${typeof section(json, "devDependencies")["patch-package"] === "string" ? " (only in devDependencies: `npm ci --omit=dev` in a production image cannot run the postinstall)" : ""}. ` +
                `Fix: \`${cli} init\`.`
        );
    }
    return patchFile;
}

/** pnpm: the versioned patchedDependencies key, packageExtensions, koffi, no patch-package. */
function checkPnpmWiring(
    app: string,
    json: Record<string, unknown>,
    installed: string,
    identity: PackageIdentity,
    cli: string,
    ok: (message: string) => void,
    warn: (message: string) => void,
    fail: (message: string) => void
): string | undefined {
    const pnpm = section(json, "pnpm");
    const patched = section(pnpm, "patchedDependencies");
    const named = patched[pnpmPatchKey(installed)];
    let patchFile: string | undefined;
    if (typeof patched[SDK_PACKAGE] === "string") {
        fail(
            `pnpm.patchedDependencies names ${SDK_PACKAGE} without a version: ` +
                `pnpm then installs other releases unpatched with only a warning. Fix: ` +
                `\`${cli} init\` (it writes ${pnpmPatchKey(installed)}).`
        );
    }
    if (typeof named !== "string") {
        fail(
            `pnpm.patchedDependencies has no entry for ${pnpmPatchKey(installed)}, ` +
                `so pnpm installs the SDK unpatched. Fix: \`${cli} init\`.`
        );
    } else if (!existsSync(join(app, named))) {
        fail(
            `pnpm.patchedDependencies names ${named}, which does not exist: ` +
                `\`pnpm install\` fails here and in every container build. Fix: \`${cli} init\`, ` +
                `and copy patches/ into the image before \`pnpm install\`.`
        );
    } else if (describePatchFile(join(app, named)) !== "thin") {
        fail(
            `${named} is not the thin patch (the self-contained patch of 0.3.0?). Fix: \`${cli} upgrade\`.`
        );
    } else {
        ok(`pnpm.patchedDependencies: ${pnpmPatchKey(installed)} -> ${named} (the thin patch)`);
        patchFile = named.replace(/^(\.\/)?patches\//, "");
    }
    const extension = section(
        section(section(pnpm, "packageExtensions"), SDK_PACKAGE),
        "dependencies"
    )[OWN_PACKAGE];
    if (typeof extension === "string") {
        ok(`pnpm.packageExtensions: ${SDK_PACKAGE} depends on ${OWN_PACKAGE} ${extension}`);
    } else {
        fail(
            `pnpm.packageExtensions does not add ${OWN_PACKAGE} to ${SDK_PACKAGE}'s dependencies: ` +
                `with hoistPattern [] or the global virtual store the patched SDK cannot resolve it ` +
                `(ERR_MODULE_NOT_FOUND). Fix: \`${cli} init\`.`
        );
    }
    const built = pnpm.onlyBuiltDependencies;
    if (!Array.isArray(built) || !built.includes(PNPM_BUILT_DEPENDENCY)) {
        warn(
            `pnpm.onlyBuiltDependencies does not list ${PNPM_BUILT_DEPENDENCY}, the SDK's native dependency, ` +
                `whose build script pnpm then skips. Fix: \`${cli} init\`.`
        );
    }
    const postinstall = section(json, "scripts").postinstall;
    if (typeof postinstall === "string" && runsPatchPackage(postinstall)) {
        fail(
            `package.json's postinstall runs patch-package ('${postinstall}') in a pnpm app: ` +
                `it edits files pnpm shares with other projects through its store. Fix: remove it; ` +
                `pnpm.patchedDependencies applies the patch.`
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
            message:
                `no Dockerfile here: in a container build, ` +
                `copy patches/ into the image before \`${manager === "npm" ? "npm ci" : "pnpm install --frozen-lockfile"}\``,
        });
    }
}
