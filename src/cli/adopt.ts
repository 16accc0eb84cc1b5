import { execFileSync } from "node:child_process";
import {
    existsSync,
    mkdirSync,
    mkdtempSync,
    readdirSync,
    readFileSync,
    rmSync,
    writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
    CliError,
    declaredSdk,
    detectPackageManager,
    findRunner,
    hasUncommittedChanges,
    installedSdkVersion,
    isExactVersion,
    readManifest,
    renderManifest,
    runPackageManager,
    type PackageManager,
} from "./app.js";
import { cliCommand } from "./doctor.js";
import {
    SDK_PACKAGE,
    compareVersions,
    npmPatchName,
    patchVersionOf,
    pnpmPatchName,
    type PackageIdentity,
} from "./patchFiles.js";
import { chooseOwnSpec, npmRegistryLookup, type RegistryLookup } from "./ownSpec.js";
import { describeMarker, probeApp } from "./probe.js";
import { CJS_START_UP_CHECK, ESM_START_UP_CHECK } from "./startUpCheck.js";
import { carriesSelfContainedPatch, carriesThinPatch, renderThinPatch } from "./thinPatch.js";
import { wirePatch } from "./wiring.js";

/** Options of `init` and `upgrade`. */
export interface AdoptOptions {
    /** The SDK version to move to (`upgrade <version>`); otherwise the installed one. */
    readonly version?: string;
    /** `--package-manager`, when given. */
    readonly packageManager?: string;
    /**
     * `--package <spec>`: what the app depends on for this package (default: the spec the app
     * already has, as written; else this version, when the app's registry has it).
     */
    readonly ownSpec?: string;
    /** How to ask the registry (default: `npm view` in the app); only asked when no spec is known. */
    readonly lookup?: RegistryLookup;
    /** Where the report goes. */
    readonly log: (line: string) => void;
}

/**
 * `init` and `upgrade [<version>]`: renders the thin patch for the SDK release (the installed one,
 * or `version`), puts it into the app's `patches/` (removing other SDK patches, the
 * self-contained patch of 0.3.0 included), pins the SDK exactly and keeps this package's spec as
 * the app has it (a tarball stays that tarball: see {@link chooseOwnSpec}) in `dependencies`, wires the patch for npm (patch-package and its postinstall) or pnpm
 * (`patchedDependencies`, `packageExtensions`, `onlyBuiltDependencies`), runs a bare install, and
 * checks that the app's SDK now runs the tool customization, in ESM and CommonJS. Nothing is
 * changed until the package manager is known to run and the patch could be rendered. Running it
 * again changes nothing and checks again.
 *
 * @param app - the app's folder
 * @param identity - this package's name, version and folder
 * @param options - the target version, the package spec and the output
 * @throws CliError for anything the user must decide or fix first
 */
export function adopt(app: string, identity: PackageIdentity, options: AdoptOptions): void {
    const { log } = options;
    const manifest = readManifest(app);
    const { manager, reason } = detectPackageManager(app, manifest, options.packageManager);
    const cli = cliCommand(manager);
    const runner = findRunner(manager, app);
    if (runner === undefined) {
        throw new CliError(
            `This app uses ${manager} (${reason}), but no ${manager} answers here: ` +
                `not on PATH${manager === "pnpm" ? ", not through corepack" : ""}, ` +
                `and this command was not started by it. Nothing was changed. ` +
                `Run it through ${manager} (\`${manager === "pnpm" ? "pnpm dlx" : "npx --yes"} --package <the ` +
                `absolute path of the .tgz, or the spec you install ${identity.name} from> ${identity.name} ` +
                `init\`)${manager === "pnpm" ? ", or install pnpm (`npm install -g pnpm`, or `corepack enable`)" : ""}, ` +
                `then run it again.`
        );
    }
    const installed = installedSdkVersion(app);
    const version = options.version ?? currentVersion(app, manifest, manager, cli);
    if (!/^1\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(version)) {
        const newest = newestServedRelease(identity);
        throw new CliError(
            `'${version}' is not a 1.x release of ${SDK_PACKAGE}: ` +
                `${identity.name} ${identity.version} serves the 1.x releases ` +
                `only.${newest === undefined ? "" : ` Nothing was changed. Fix: \`${cli} upgrade ${newest}\` moves the app to ${SDK_PACKAGE} ${newest} and patches it, in one step.`}`
        );
    }
    const ownSpec = chooseOwnSpec(
        manifest.json,
        options.ownSpec,
        identity.version,
        app,
        options.lookup ?? npmRegistryLookup
    );
    log(`${SDK_PACKAGE} ${version} with ${manager} (${reason}, run as ${runner.how}) in ${app}`);

    const layout = manager === "npm" ? "patch-package" : "pnpm";
    const patchText = withPristineSdk(app, version, installed, (read) =>
        renderThinPatch(read, version, layout)
    );
    const wiring = wirePatch(manifest.json, manager, version, ownSpec);
    const patchesDir = join(app, "patches");
    const patchName = manager === "npm" ? npmPatchName(version) : pnpmPatchName(version);
    const patchPath = join(patchesDir, patchName);
    const patchChanges = !existsSync(patchPath) || readFileSync(patchPath, "utf8") !== patchText;
    const others = existsSync(patchesDir)
        ? readdirSync(patchesDir).filter(
              (file) => file !== patchName && patchVersionOf(file) !== undefined
          )
        : [];
    if (
        (wiring.changes.length > 0 || patchChanges || others.length > 0) &&
        hasUncommittedChanges("package.json", app)
    ) {
        throw new CliError(
            `package.json has uncommitted changes, ` +
                `and this command would rewrite it ` +
                `(${[...wiring.changes, ...(patchChanges ? [`patches/${patchName}`] : [])].join("; ")}). ` +
                `Nothing was changed. Commit or stash your changes first, ` +
                `so that what it changes can be reviewed and undone, then run it again.`
        );
    }

    // Everything is known: from here on the app changes.
    if (wiring.changes.length > 0) {
        writeFileSync(manifest.path, renderManifest(manifest.text, wiring.json));
        for (const change of wiring.changes) log(`  package.json: ${change}`);
    } else {
        log("  package.json: already wired");
    }
    mkdirSync(patchesDir, { recursive: true });
    for (const file of others) {
        rmSync(join(patchesDir, file));
        log(
            `  patches/${file}: removed (another SDK patch: another version, or the self-contained patch of 0.3.0)`
        );
    }
    if (patchChanges) {
        writeFileSync(patchPath, patchText);
        log(`  patches/${patchName}: written (${patchText.split("\n").length - 1} lines)`);
    } else {
        log(`  patches/${patchName}: already there`);
    }
    // An SDK that carries another patch is installed again, as published, before the new one
    // applies (npm does not reinstall a package it has; pnpm re-links a re-patched one itself).
    const sdkDir = join(app, "node_modules", ...SDK_PACKAGE.split("/"));
    if (manager === "npm" && existsSync(sdkDir) && sdkCarriesPatch(sdkDir)) {
        rmSync(sdkDir, { recursive: true, force: true });
        log(
            `  node_modules/${SDK_PACKAGE}: removed (it carries a patch), so that the install lays it out again as published`
        );
    }

    // init changes the dependencies, so the lockfile must follow: pnpm freezes it when CI is
    // set (its default there), which would refuse the very change init just made.
    const installArgs = manager === "pnpm" ? ["install", "--no-frozen-lockfile"] : ["install"];
    log(`  running \`${manager} ${installArgs.join(" ")}\``);
    runPackageManager(runner, installArgs, app);

    const probe = probeApp(app, false);
    for (const [format, view] of [
        ["ESM", probe.esm],
        ["CommonJS", probe.cjs],
    ] as const) {
        const { marker } = view;
        if (
            view.error !== undefined ||
            marker === undefined ||
            marker.form !== "patch" ||
            marker.sdkVersion !== version ||
            view.refusal !== undefined
        ) {
            throw new CliError(
                `After \`${manager} install\`, ` +
                    `the app's ${format} code gets ${SDK_PACKAGE} ` +
                    `${view.error !== undefined ? `failing to load (${view.error})` : marker === undefined ? "without the tool customization" : `with ${describeMarker(marker)}`}${view.refusal === undefined ? "" : ` (${view.refusal})`}. ` +
                    `Run \`${cli} doctor\` for the details and the fix.`
            );
        }
    }
    log(`  verified (ESM and CommonJS): ${describeMarker(probe.esm.marker!)}`);
    log("");
    log(
        "Paste this start-up check into the module your app loads first; it throws, with the fix, " +
            "whenever the SDK runs without the patch:"
    );
    log("");
    log(manifest.json.type === "module" ? ESM_START_UP_CHECK : CJS_START_UP_CHECK);
    log("");
    log(
        "For production, construct each client with the fail-closed preset, " +
            "`new CopilotClient({ failClosed: true })`: it refuses unflagged overrides, filter " +
            "entries that name nothing and custom tools the runtime rejects " +
            `(${usingOptions(identity.name)}).`
    );
    log("");
    log(
        `In a container image, copy patches/ before the install ` +
            `(${manager === "npm" ? "COPY package.json package-lock.json ./ then COPY patches ./patches then RUN npm ci" : "COPY package.json pnpm-lock.yaml ./ then COPY patches ./patches then RUN pnpm install --frozen-lockfile"}); ` +
            `\`${cli} doctor\` checks a Dockerfile.`
    );
}

/** Where the preset is described, in the package as `init` installed it (under its own name). */
function usingOptions(name: string): string {
    return `node_modules/${name}/docs/using.md, Options, members and exports`;
}

/** The files the thin patch appends to, as the check for a patched SDK reads them. */
const PATCHED_FILES = [
    "dist/client.js",
    "dist/cjs/client.js",
    "dist/index.js",
    "dist/cjs/index.js",
];

/** Whether an installed SDK carries a patch of this package (thin, or self-contained). */
function sdkCarriesPatch(sdkDir: string): boolean {
    return PATCHED_FILES.some((file) => {
        const path = join(sdkDir, file);
        if (!existsSync(path)) return false;
        const text = readFileSync(path, "utf8");
        return carriesThinPatch(text) || carriesSelfContainedPatch(text);
    });
}

/** The version `init` patches: the installed one, else an exact one in package.json. */
function currentVersion(
    app: string,
    manifest: ReturnType<typeof readManifest>,
    manager: PackageManager,
    cli: string
): string {
    const installed = installedSdkVersion(app);
    if (installed !== undefined) return installed;
    const declared = declaredSdk(manifest);
    if (declared !== undefined && isExactVersion(declared.range)) return declared.range;
    throw new CliError(
        `${SDK_PACKAGE} is not installed in ` +
            `${app}${declared === undefined ? "" : ` (package.json asks for '${declared.range}')`}. ` +
            `Install it first (\`${manager === "npm" ? "npm install" : "pnpm add"} ${SDK_PACKAGE}@<version>\`), ` +
            `or name the version: \`${cli} upgrade <version>\`.`
    );
}

/**
 * Runs `use` with a reader of the release's files as published: the app's own SDK when it is that
 * version and carries no patch, otherwise the release's tarball from the registry (`npm pack`,
 * into a temporary folder that is removed afterwards).
 */
function withPristineSdk<T>(
    app: string,
    version: string,
    installed: string | undefined,
    use: (read: (path: string) => string) => T
): T {
    const sdkDir = join(app, "node_modules", ...SDK_PACKAGE.split("/"));
    const read = (dir: string) => (path: string) => readFileSync(join(dir, path), "utf8");
    if (installed === version) {
        const files = [
            "dist/client.js",
            "dist/cjs/client.js",
            "dist/index.js",
            "dist/cjs/index.js",
        ];
        const untouched = files.every((file) => {
            const text = read(sdkDir)(file);
            return !carriesThinPatch(text) && !carriesSelfContainedPatch(text);
        });
        if (untouched) return use(read(sdkDir));
    }
    const scratch = mkdtempSync(join(tmpdir(), "tool-override-sdk-"));
    try {
        let tarball: string;
        try {
            tarball = execFileSync(
                "npm",
                ["pack", `${SDK_PACKAGE}@${version}`, "--silent", "--loglevel=error"],
                {
                    cwd: scratch,
                    encoding: "utf8",
                    stdio: ["ignore", "pipe", "pipe"],
                }
            )
                .trim()
                .split("\n")
                .at(-1)!;
        } catch (error) {
            throw new CliError(
                `Could not fetch ${SDK_PACKAGE} ${version} as published (\`npm pack ${SDK_PACKAGE}@${version}\`: ` +
                    `${((error as { stderr?: string }).stderr ?? (error as Error).message).trim().split("\n")[0]}), ` +
                    `which the patch is rendered from. Nothing was changed. Check the version and the registry, ` +
                    `then run this command again.`
            );
        }
        execFileSync("tar", ["xzf", tarball], { cwd: scratch });
        return use(read(join(scratch, "package")));
    } finally {
        rmSync(scratch, { recursive: true, force: true });
    }
}

/**
 * The newest release (not a preview) this package's compatibility table lists, which `upgrade`
 * can move an app to in one step.
 */
export function newestServedRelease(identity: PackageIdentity): string | undefined {
    const manifest = JSON.parse(readFileSync(join(identity.root, "package.json"), "utf8")) as {
        toolCustomization?: { sdkVersions?: unknown };
    };
    const versions = manifest.toolCustomization?.sdkVersions;
    if (!Array.isArray(versions)) return undefined;
    return versions
        .filter((version): version is string => typeof version === "string")
        .filter((version) => /^1\.\d+\.\d+$/.test(version))
        .sort(compareVersions)
        .at(-1);
}
