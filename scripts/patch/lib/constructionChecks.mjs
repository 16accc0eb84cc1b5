// A copy of the SDK whose client runs the construction checks alone (duplicate names,
// `validateTools`, the `BuiltInTools` groups: the `checks` variant of the edit table in
// sdkEdits.mjs), without the rest of the safety net, for the benchmark and the unit test that show
// what those checks cost and do. src/ is compiled once per process into build/patch/{esm,cjs}
// (JavaScript without comments, the declaration files with their documentation).

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import {
    cpSync,
    existsSync,
    mkdirSync,
    readFileSync,
    readdirSync,
    rmSync,
    writeFileSync,
} from "node:fs";
import { dirname, join, relative } from "node:path";
import { pinnedVersion, ROOT } from "../../../build/cli/conformance/servedReleases.js";
import { pristineDir } from "./pristineSdk.mjs";
import { EXPORTS_MODULE, applyEdits, editsByFile, editsFor, sdkEdits } from "./sdkEdits.mjs";

/** The compiled marker, which holds the build hash and so is left out of it. */
const MARKER_FILE = "wrap/patchMarker.js";

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
function compileSources() {
    if (compiled !== undefined) return compiled;
    rmSync(join(ROOT, "build", "patch"), { recursive: true, force: true });
    runTsc("tsconfig/patch-esm.json");
    runTsc("tsconfig/patch-types.json");
    runTsc("tsconfig/patch-cjs.json");
    // `import.meta` does not exist in CommonJS: this module's location comes from __filename there.
    writeFileSync(
        join(ROOT, "build", "patch", "cjs", "shared", "moduleLocation.js"),
        '"use strict";\nObject.defineProperty(exports, "__esModule", { value: true });\nexports.MODULE_URL = require("node:url").pathToFileURL(__filename).href;\n'
    );
    compiled = {
        esm: listFiles(join(ROOT, "build", "patch", "esm")),
        cjs: listFiles(join(ROOT, "build", "patch", "cjs")),
    };
    return compiled;
}

/**
 * Where a compiled src file lands inside the SDK's dist folder.
 *
 * @param {string} compiled
 */
function targetName(compiled) {
    return compiled.replace(/^publicApi\./, `${EXPORTS_MODULE}.`);
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
 * @param {string} path
 * @param {string} text
 */
function writeText(path, text) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text);
}
