// Builds the patches for @github/copilot-sdk from src/.
//
// Steps: compile src/ twice (ESM with declarations, CJS), lay the compiled modules into a copy of
// the pristine SDK's dist/, apply the edit table of sdkEdits.mjs (appends that wire the modules
// in, one type declaration), record what the release can do, and render the difference
// in git-diff format twice: for patch-package (paths under node_modules/@github/copilot-sdk/) and
// for pnpm's patchedDependencies (paths relative to the package). One pair per supported SDK
// version (package.json "toolCustomization.sdkVersions"), all from the same compiled src/; the
// only per-version data are the version and the release's capabilities written into
// TOOL_CUSTOMIZATION_PATCH.

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
    cpSync,
    existsSync,
    mkdirSync,
    mkdtempSync,
    readFileSync,
    readdirSync,
    rmSync,
    writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { pristineSdkDir } from "./pristineSdk.mjs";
import { EXPORTS_MODULE, applyEdits, editsByFile, editsFor, sdkEdits } from "./sdkEdits.mjs";

/** The project root. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
/** The patched package. */
export const PACKAGE_NAME = "@github/copilot-sdk";
/** The untouched copy of the same version, installed through an npm alias. */
export const PRISTINE_ALIAS = "copilot-sdk-unpatched";

/** The placeholders src/patchMarker.ts holds until the build writes the patch's identity in. */
const MARKER_PLACEHOLDERS = {
    sdkVersion: '"0.0.0-unbuilt"',
    patchVersion: '"0.0.0-unbuilt-patch"',
    buildHash: '"unbuilt"',
};
const MARKER_FILE = "patchMarker.js";
/** Where the compiled marker takes the release's capabilities. */
const CAPABILITIES_PLACEHOLDER = "capabilities: UNBUILT_CAPABILITIES";

/**
 * What a release can do, read from its own files (see `SdkCapabilities` in src/patchMarker.ts).
 *
 * @param {string} sdkDir an untouched SDK package directory
 * @returns {{ builtInOverride: boolean, validateTools: boolean, setTools: boolean, disconnectHook: boolean, extensionResume: boolean, bundledRuntimeVersion?: string }}
 */
export function releaseCapabilities(sdkDir) {
    /** @param {string} path */
    const read = (path) =>
        existsSync(join(sdkDir, path)) ? readFileSync(join(sdkDir, path), "utf8") : "";
    const rpcFile = "dist/generated/rpc.js";
    if (!existsSync(join(sdkDir, rpcFile))) {
        throw new Error(
            `${sdkDir} has no ${rpcFile}, where the build reads which runtime requests the release has: read how it names them now and adapt releaseCapabilities in scripts/patch/lib/sdkPatch.mjs.`
        );
    }
    const rpc = read(rpcFile);
    const cliVersion = read("dist/cliVersion.js");
    // With COPILOT_CLI_USE_NPM_PACKAGE the release runs whichever @github/copilot package
    // resolves, so its version is asked, not assumed.
    const bundled = /COPILOT_CLI_USE_NPM_PACKAGE = true/.test(cliVersion)
        ? undefined
        : /COPILOT_CLI_VERSION = "([^"]+)"/.exec(cliVersion)?.[1];
    // Both builds send the flag from both createSession and resumeSession.
    const sendsFlag = (/** @type {string} */ path) =>
        (read(path).match(/^ {10}overridesBuiltInTool: tool\.overridesBuiltInTool,$/gm) ?? [])
            .length >= 2;
    return {
        builtInOverride: sendsFlag("dist/client.js") && sendsFlag("dist/cjs/client.js"),
        validateTools: rpc.includes('"session.tools.initializeAndValidate"'),
        setTools: rpc.includes('"session.tools.set"'),
        disconnectHook: /^ {2}_markDisconnected\(\) \{$/m.test(read("dist/session.js")),
        extensionResume: /^ {2}async resumeSessionForExtension\(/m.test(read("dist/client.js")),
        ...(bundled === undefined ? {} : { bundledRuntimeVersion: bundled }),
    };
}

function manifest() {
    return JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
}

/** @returns {string} the exact SDK version this project pins (and tests against) */
export function pinnedVersion() {
    const version = manifest().devDependencies?.[PACKAGE_NAME];
    if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.]+)?$/.test(version ?? "")) {
        throw new Error(
            `package.json must pin ${PACKAGE_NAME} to an exact version, found '${version}'.`
        );
    }
    return version;
}

/** @returns {string} this project's version, the patch version in TOOL_CUSTOMIZATION_PATCH */
export function projectVersion() {
    return manifest().version;
}

/** @returns {string[]} every SDK version a patch is built for */
export function supportedVersions() {
    const versions = manifest().toolCustomization?.sdkVersions ?? [];
    if (!versions.includes(pinnedVersion())) {
        throw new Error(
            `package.json "toolCustomization.sdkVersions" must include the pinned ${PACKAGE_NAME} version ${pinnedVersion()}.`
        );
    }
    return versions;
}

/** @returns {string} the patch-package patch file path for a version */
export function patchFilePath(version = pinnedVersion()) {
    return join(ROOT, "patches", `${PACKAGE_NAME.replace("/", "+")}+${version}.patch`);
}

/** @returns {string} the pnpm patch file path for a version (pnpm's own naming) */
export function pnpmPatchFilePath(version = pinnedVersion()) {
    return join(ROOT, "patches", "pnpm", `${PACKAGE_NAME.replace("/", "__")}@${version}.patch`);
}

/**
 * The versions a build or check covers: every supported one, or the one named with
 * `--sdk <version>`, which must be supported (so that a new version's build touches only its own
 * patches).
 *
 * @param {string[]} args command-line arguments
 * @returns {string[]}
 */
export function requestedVersions(args) {
    const at = args.indexOf("--sdk");
    if (at === -1) return supportedVersions();
    const version = args[at + 1];
    if (version === undefined || version.startsWith("--")) {
        throw new Error("--sdk needs a version, for example --sdk 1.0.14.");
    }
    if (!supportedVersions().includes(version)) {
        throw new Error(
            `--sdk '${version}' is not in package.json "toolCustomization.sdkVersions" (${supportedVersions().join(", ")}): add it there first.`
        );
    }
    return [version];
}

/** @returns {string} directory of an untouched copy of the SDK at `version` */
export function pristineDir(version = pinnedVersion()) {
    return pristineSdkDir(ROOT, PACKAGE_NAME, PRISTINE_ALIAS, version);
}

/** @param {string} project a tsconfig file, from the project root */
function runTsc(project) {
    const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
    execFileSync(process.execPath, [tsc, "-p", join(ROOT, project)], {
        cwd: ROOT,
        stdio: "inherit",
    });
}

/**
 * @param {string} dir
 * @param {string} [base]
 * @returns {string[]} every file under `dir`, relative to `base`, sorted
 */
function listFiles(dir, base = dir) {
    /** @type {string[]} */
    const out = [];
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const full = join(dir, entry.name);
        if (entry.isDirectory()) out.push(...listFiles(full, base));
        else out.push(relative(base, full));
    }
    return out.sort();
}

/** @type {{ esm: string[], cjs: string[] } | undefined} */
let compiled;

/**
 * Compiles src/ into build/patch/{esm,cjs} once per process (JavaScript without comments, the
 * declaration files with their documentation); returns the compiled file lists.
 */
export function compileSources() {
    if (compiled !== undefined) return compiled;
    rmSync(join(ROOT, "build", "patch"), { recursive: true, force: true });
    runTsc("tsconfig.patch-esm.json");
    runTsc("tsconfig.patch-types.json");
    runTsc("tsconfig.patch-cjs.json");
    // `import.meta` does not exist in CommonJS: this module's location comes from __filename there.
    writeFileSync(
        join(ROOT, "build", "patch", "cjs", "moduleLocation.js"),
        '"use strict";\nObject.defineProperty(exports, "__esModule", { value: true });\nexports.MODULE_URL = require("node:url").pathToFileURL(__filename).href;\n'
    );
    compiled = {
        esm: listFiles(join(ROOT, "build", "patch", "esm")),
        cjs: listFiles(join(ROOT, "build", "patch", "cjs")),
    };
    return compiled;
}

/**
 * src/ types itself against the SDK's own types (`import type ... from "@github/copilot-sdk"`);
 * inside the SDK those imports point at its own dist/index.d.ts. Type imports leave nothing in
 * the JavaScript, which must not import the package by name.
 *
 * @param {string} file
 * @param {string} text
 */
function withinPackage(file, text) {
    if (!file.endsWith(".d.ts")) {
        if (
            /^\s*(import|export)\b[^\n]*"@github\/copilot-sdk"|require\("@github\/copilot-sdk"\)/m.test(
                text
            )
        ) {
            throw new Error(
                `src/ compiles ${file} to an import of @github/copilot-sdk: use 'import type' there.`
            );
        }
        return text;
    }
    const depth = file.split("/").length - 1;
    const index = depth === 0 ? "./index.js" : `${"../".repeat(depth)}index.js`;
    return text
        .replace(/^(import type [^\n]* from )"@github\/copilot-sdk";$/gm, `$1"${index}";`)
        .replace(/^declare module "@github\/copilot-sdk" \{$/gm, `declare module "${index}" {`);
}

/**
 * Where a compiled src file lands inside the SDK's dist folder.
 *
 * @param {string} compiled
 */
function targetName(compiled) {
    return compiled.replace(/^index\./, `${EXPORTS_MODULE}.`);
}

/**
 * Builds the patched tree of every file the patch for `version` touches.
 *
 * @param {string} version the SDK version to patch
 * @returns {Promise<{ files: Map<string, { before: string | null, after: string }>, marker: object }>} keyed by
 *   the path inside the package; `before` is null for new files.
 */
export async function buildPatchedFiles(version = pinnedVersion()) {
    const pristine = pristineDir(version);
    const compiled = compileSources();
    const exportsUrl = pathToFileURL(join(ROOT, "build", "patch", "esm", "index.js")).href;
    const runtimeExportNames = Object.keys(await import(exportsUrl)).sort();
    const edits = editsFor(sdkEdits(runtimeExportNames), version);
    const capabilities = releaseCapabilities(pristine);
    if (!capabilities.builtInOverride) {
        throw new Error(
            `${PACKAGE_NAME} ${version} cannot be served: its createSession does not send overridesBuiltInTool, so no custom tool can replace a built-in there. Remove it from package.json "toolCustomization.sdkVersions".`
        );
    }
    const marker = {
        sdkVersion: version,
        patchVersion: projectVersion(),
        buildHash: buildHash(compiled, edits),
        capabilities,
    };
    /**
     * @param {string} file
     * @param {string} text
     */
    const withVersion = (file, text) => {
        if (file !== MARKER_FILE) return text;
        let result = text;
        for (const [field, placeholder] of /** @type {[string, string][]} */ ([
            ...Object.entries(MARKER_PLACEHOLDERS),
            ["capabilities", CAPABILITIES_PLACEHOLDER],
        ])) {
            if (result.split(placeholder).length !== 2) {
                throw new Error(
                    `${file} must hold ${placeholder} (the ${field} placeholder) exactly once: keep it in src/patchMarker.ts.`
                );
            }
            const value =
                field === "capabilities"
                    ? `capabilities: Object.freeze(${JSON.stringify(capabilities)})`
                    : JSON.stringify(marker[/** @type {keyof typeof marker} */ (field)]);
            result = result.replace(placeholder, value);
        }
        return result;
    };
    /** @type {Map<string, { before: string | null, after: string }>} */
    const files = new Map();
    /**
     * @param {string} packagePath
     * @param {string} text
     */
    const addNew = (packagePath, text) => {
        if (existsSync(join(pristine, packagePath))) {
            throw new Error(
                `src/ compiles to ${packagePath}, which ${PACKAGE_NAME} ${version} already ships: rename the source module.`
            );
        }
        files.set(packagePath, { before: null, after: text });
    };
    for (const file of compiled.esm) {
        const text = readFileSync(join(ROOT, "build", "patch", "esm", file), "utf8");
        addNew(`dist/${targetName(file)}`, withVersion(file, withinPackage(file, text)));
    }
    for (const file of compiled.cjs) {
        const text = readFileSync(join(ROOT, "build", "patch", "cjs", file), "utf8");
        addNew(`dist/cjs/${targetName(file)}`, withVersion(file, withinPackage(file, text)));
    }

    const upstreamIndex = await import(pathToFileURL(join(pristine, "dist", "index.js")).href);
    const clashes = runtimeExportNames.filter((name) => name in upstreamIndex);
    if (clashes.length > 0) {
        throw new Error(
            `src/index.ts exports ${clashes.map((n) => `'${n}'`).join(", ")}, which ${PACKAGE_NAME} ${version} already exports: rename them.`
        );
    }

    for (const [packagePath, fileEdits] of editsByFile(edits)) {
        const before = readFileSync(join(pristine, packagePath), "utf8");
        files.set(packagePath, { before, after: applyEdits(before, fileEdits, version) });
    }
    return { files, marker };
}

/**
 * The build's identity: a hash of every compiled module but the marker (which holds the hash)
 * and of the edits to the SDK's files. It does not depend on the SDK version (unless an edit has
 * a per-release alternative), so the patches of all versions built from one source carry the
 * same hash.
 *
 * @param {{ esm: string[], cjs: string[] }} compiled the compiled file lists
 * @param {object[]} edits the edits to the SDK's own files
 * @returns {string} 12 hex digits
 */
function buildHash(compiled, edits) {
    const hash = createHash("sha256");
    for (const flavour of /** @type {const} */ (["esm", "cjs"])) {
        for (const file of compiled[flavour]) {
            if (file === MARKER_FILE) continue;
            hash.update(`${flavour}/${file}\0`);
            hash.update(readFileSync(join(ROOT, "build", "patch", flavour, file), "utf8"));
            hash.update("\0");
        }
    }
    hash.update(
        JSON.stringify(edits, (_key, value) => (value instanceof RegExp ? String(value) : value))
    );
    return hash.digest("hex").slice(0, 12);
}

/**
 * Lays out, in `.cache/sdk-checks/<version>`, a copy of the SDK whose client runs the fork's
 * construction checks alone (duplicate names, `validateTools`, the `BuiltInTools` groups: the
 * `checks` variant of the edit table), without the rest of the safety net, for the benchmark to
 * show what those checks cost. Rebuilt only when src/ or the edits changed. Its dependencies
 * resolve from this project's node_modules.
 *
 * @param {string} version the SDK version
 * @returns {string} the package directory (import its dist/index.js)
 */
export function constructionChecksSdkDir(version = pinnedVersion()) {
    const target = join(ROOT, ".cache", "sdk-checks", version);
    const compiled = compileSources();
    const edits = editsFor(sdkEdits([], "checks"), version);
    const stamp = buildHash(compiled, edits);
    const stampFile = join(target, ".checks-build");
    if (existsSync(stampFile) && readFileSync(stampFile, "utf8") === stamp) return target;

    const pristine = pristineDir(version);
    rmSync(target, { recursive: true, force: true });
    mkdirSync(dirname(target), { recursive: true });
    cpSync(pristine, target, { recursive: true });
    for (const [flavour, dist] of /** @type {const} */ ([
        ["esm", "dist"],
        ["cjs", join("dist", "cjs")],
    ])) {
        for (const file of compiled[flavour]) {
            writeText(
                join(target, dist, targetName(file)),
                readFileSync(join(ROOT, "build", "patch", flavour, file), "utf8")
            );
        }
    }
    for (const [packagePath, fileEdits] of editsByFile(edits)) {
        const path = join(target, packagePath);
        writeFileSync(path, applyEdits(readFileSync(path, "utf8"), fileEdits, version));
    }
    writeFileSync(stampFile, stamp);
    return target;
}

/**
 * Renders the patch text in git-diff format: for patch-package (the default) with paths under
 * node_modules/@github/copilot-sdk/, for pnpm with paths relative to the package (`a/dist/...`).
 *
 * @param {Map<string, { before: string | null, after: string }>} files
 * @param {"patch-package" | "pnpm"} [layout]
 * @returns {string}
 */
export function renderPatch(files, layout = "patch-package") {
    const work = mkdtempSync(join(tmpdir(), "sdk-patch-"));
    try {
        const prefix = layout === "pnpm" ? "." : join("node_modules", ...PACKAGE_NAME.split("/"));
        for (const [packagePath, { before, after }] of files) {
            if (before !== null) writeText(join(work, "a", prefix, packagePath), before);
            writeText(join(work, "b", prefix, packagePath), after);
        }
        mkdirSync(join(work, "a", prefix), { recursive: true });
        let diff;
        try {
            diff = execFileSync(
                "git",
                [
                    "-c",
                    "core.quotepath=off",
                    "-c",
                    "diff.noprefix=false",
                    "diff",
                    "--no-index",
                    "--no-color",
                    "--no-ext-diff",
                    "--no-renames",
                    "--diff-algorithm=myers",
                    "a",
                    "b",
                ],
                { cwd: work, encoding: "utf8", maxBuffer: 64 * 1024 * 1024 }
            );
        } catch (caught) {
            // git diff --no-index exits 1 when the trees differ, which they always do here.
            const error = /** @type {Error & { status?: number, stdout: string }} */ (caught);
            if (error.status !== 1) throw error;
            diff = error.stdout;
        }
        // git names each side after its folder (a/a/..., b/b/..., a/b/... for a new file);
        // both tools expect a/<path> and b/<path> in the header lines.
        return diff.replace(
            /^(diff --git |--- |\+\+\+ )(.*)$/gm,
            (_line, /** @type {string} */ head, /** @type {string} */ paths) =>
                head + paths.replace(/(^| )([ab])\/[ab]\//g, "$1$2/")
        );
    } finally {
        rmSync(work, { recursive: true, force: true });
    }
}

/**
 * @param {string} path
 * @param {string} text
 */
function writeText(path, text) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
}

/**
 * Copies a directory tree (used to lay a clean SDK into a scratch project).
 *
 * @param {string} from
 * @param {string} to
 */
export function copyTree(from, to) {
    cpSync(from, to, { recursive: true });
}
