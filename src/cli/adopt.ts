import { spawnSync } from "node:child_process";
import {
    copyFileSync,
    existsSync,
    mkdirSync,
    readdirSync,
    readFileSync,
    rmSync,
    writeFileSync,
} from "node:fs";
import { join } from "node:path";
import {
    CliError,
    declaredSdk,
    detectPackageManager,
    hasUncommittedChanges,
    installedSdkVersion,
    isExactVersion,
    readManifest,
    renderManifest,
    type PackageManager,
} from "./app.js";
import { cliCommand, describeMarker, loadedPatch } from "./doctor.js";
import {
    SDK_PACKAGE,
    npmPatchName,
    patchVersionOf,
    pnpmPatchName,
    type ShippedPatches,
} from "./patchFiles.js";
import { CJS_START_UP_CHECK, ESM_START_UP_CHECK } from "./startUpCheck.js";
import { wirePatch } from "./wiring.js";

/** Options of `init` and `upgrade`. */
export interface AdoptOptions {
    /** The SDK version to move to (`upgrade`); `init` keeps the installed one. */
    readonly version?: string;
    /** `--package-manager`, when given. */
    readonly packageManager?: string;
    /** Where the report goes. */
    readonly log: (line: string) => void;
}

/**
 * `init` and `upgrade <version>`: pins the SDK, puts this package's patch of that version into the
 * app's `patches/` (removing other versions' patches of the SDK), wires it for npm (patch-package
 * in `dependencies`, the postinstall) or pnpm (`patchedDependencies`, `onlyBuiltDependencies`),
 * runs a bare install, and checks that the app's SDK now loads the patch. Running it again
 * changes nothing and checks again.
 *
 * @param app - the app's folder
 * @param shipped - this package's patches
 * @param options - the target version and the output
 * @throws CliError for anything the user must decide or fix first
 */
export function adopt(app: string, shipped: ShippedPatches, options: AdoptOptions): void {
    const { log } = options;
    const manifest = readManifest(app);
    const { manager, reason } = detectPackageManager(app, manifest, options.packageManager);
    const cli = cliCommand(manager);
    const patched = shipped.versions();
    const version = options.version ?? currentVersion(app, manifest, manager, patched, cli);
    if (!patched.includes(version)) {
        throw new CliError(
            `${shipped.identity.name} ${shipped.identity.version} has no patch for ${SDK_PACKAGE} ${version}. Patched releases: ${patched.join(", ")}. Move the app to one of them: \`${cli} upgrade ${patched.at(-1)}\`.`
        );
    }
    log(`${SDK_PACKAGE} ${version} with ${manager} (${reason}) in ${app}`);

    const wiring = wirePatch(manifest.json, manager, version);
    if (wiring.changes.length > 0) {
        if (hasUncommittedChanges("package.json", app)) {
            throw new CliError(
                `package.json has uncommitted changes, and this command would rewrite it (${wiring.changes.join("; ")}). Commit or stash your changes first, so that what it changes can be reviewed and undone, then run it again.`
            );
        }
        writeFileSync(manifest.path, renderManifest(manifest.text, wiring.json));
        for (const change of wiring.changes) log(`  package.json: ${change}`);
    } else {
        log("  package.json: already wired");
    }
    placePatch(app, shipped, manager, version, log);

    const command = manager === "npm" ? ["npm", "install"] : ["pnpm", "install"];
    log(`  running \`${command.join(" ")}\``);
    runInstall(app, manager);

    const installed = installedSdkVersion(app);
    const { marker, refusal } = loadedPatch(app);
    if (installed !== version || marker === undefined || refusal !== undefined) {
        throw new CliError(
            `After \`${command.join(" ")}\`, ${SDK_PACKAGE} ${installed ?? "(not installed)"} is ${marker === undefined ? "not patched" : `patched for ${marker.sdkVersion}`}${refusal === undefined ? "" : ` (${refusal})`}. Run \`${cli} doctor\` for the details and the fix.`
        );
    }
    const expected = shipped.buildHash(version);
    if (expected !== undefined && marker.buildHash !== expected) {
        throw new CliError(
            `After \`${command.join(" ")}\`, the SDK carries build ${marker.buildHash ?? "(none)"}, not this package's ${expected}: something else patched it. Run \`${cli} doctor\`.`
        );
    }
    log(`  verified: ${describeMarker(marker)}`);
    log("");
    log(
        "Paste this start-up check into the module your app loads first; it throws, with the fix, whenever the SDK runs unpatched or with another version's patch:"
    );
    log("");
    log(manifest.json.type === "module" ? ESM_START_UP_CHECK : CJS_START_UP_CHECK);
    log("");
    log(
        `In a container image, copy patches/ before the install (${manager === "npm" ? "COPY package.json package-lock.json ./ then COPY patches ./patches then RUN npm ci" : "COPY package.json pnpm-lock.yaml ./ then COPY patches ./patches then RUN pnpm install --frozen-lockfile"}); \`${cli} doctor\` checks a Dockerfile.`
    );
}

/** The version `init` patches: the installed one, else an exact one in package.json. */
function currentVersion(
    app: string,
    manifest: ReturnType<typeof readManifest>,
    manager: PackageManager,
    patched: readonly string[],
    cli: string
): string {
    const installed = installedSdkVersion(app);
    if (installed !== undefined) return installed;
    const declared = declaredSdk(manifest);
    if (declared !== undefined && isExactVersion(declared.range)) return declared.range;
    throw new CliError(
        `${SDK_PACKAGE} is not installed in ${app}${declared === undefined ? "" : ` (package.json asks for '${declared.range}')`}. Install it first (\`${manager === "npm" ? "npm install" : "pnpm add"} ${SDK_PACKAGE}@${patched.at(-1)}\`), or name the version: \`${cli} upgrade <version>\` (patched releases: ${patched.join(", ")}).`
    );
}

/** Puts the version's patch into the app's patches/ and removes other versions' SDK patches. */
function placePatch(
    app: string,
    shipped: ShippedPatches,
    manager: PackageManager,
    version: string,
    log: (line: string) => void
): void {
    const dir = join(app, "patches");
    mkdirSync(dir, { recursive: true });
    const name = manager === "npm" ? npmPatchName(version) : pnpmPatchName(version);
    const source = manager === "npm" ? shipped.npmPatch(version) : shipped.pnpmPatch(version);
    for (const file of readdirSync(dir)) {
        if (file !== name && patchVersionOf(file) !== undefined) {
            rmSync(join(dir, file));
            log(`  patches/${file}: removed (another version's patch of the SDK)`);
        }
    }
    const target = join(dir, name);
    if (existsSync(target) && readFileSync(target, "utf8") === readFileSync(source, "utf8")) {
        log(`  patches/${name}: already there`);
        return;
    }
    copyFileSync(source, target);
    log(`  patches/${name}: copied from ${source}`);
}

/**
 * A bare install, as the user would type it. Under `pnpm exec` the same pnpm runs it; otherwise
 * the one on PATH.
 */
function runInstall(app: string, manager: PackageManager): void {
    const execPath = process.env.npm_execpath;
    const [command, args] =
        manager === "pnpm" && execPath !== undefined && /pnpm\.c?js$/.test(execPath)
            ? [process.execPath, [execPath, "install"]]
            : [manager, ["install"]];
    const run = spawnSync(command, args, { cwd: app, stdio: "inherit", env: process.env });
    if (run.error !== undefined) {
        throw new CliError(`Could not run \`${manager} install\`: ${run.error.message}.`);
    }
    if (run.status !== 0) {
        throw new CliError(
            `\`${manager} install\` failed (exit code ${run.status}); its output above says why. Fix that, then run this command again.`
        );
    }
}
