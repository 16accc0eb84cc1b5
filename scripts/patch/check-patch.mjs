// npm run patch:check (part of npm test): for every supported SDK version, fails when
//  1. a committed patch (patch-package's, or pnpm's under patches/pnpm/) differs from what src/
//     generates (drift), or
//  2. the committed patch-package patch does not apply with patch-package to a clean copy of that
//     version, or the committed pnpm patch does not apply with pnpm (patchedDependencies) to a
//     clean pnpm install of that version, or either gives other files than src/ generates;
// and fails when
//  3. this project's node_modules does not hold the patched SDK the tests are meant to exercise,
//  4. the upstream pull requests (patches/upstream/<n>-<slug>/) were not generated from the
//     current upstream/ (or were edited by hand): their record, patches/upstream/SOURCES.sha256,
//     differs from the hashes of upstream/, the generator, BASE and the patches. Offline; the
//     byte-for-byte regeneration against upstream's tree is in `npm run upstream:check`.

import { checkArguments } from "../lib/cliArguments.mjs";
import {
    existsSync,
    mkdirSync,
    mkdtempSync,
    readFileSync,
    rmSync,
    writeFileSync,
    cpSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { basename, join, relative } from "node:path";
import { runPatchPackage } from "./lib/applyPatch.mjs";
import { pnpmInstallPatched } from "./lib/pnpmApply.mjs";
import {
    committedSeries,
    FINGERPRINT,
    seriesFingerprint,
} from "../upstream/lib/upstreamSeries.mjs";
import {
    buildPatchedFiles,
    PACKAGE_NAME,
    patchFilePath,
    pinnedVersion,
    pnpmPatchFilePath,
    pristineDir,
    releaseCapabilities,
    renderPatch,
    ROOT,
    supportedVersions,
} from "./lib/sdkPatch.mjs";
import { measuredModuleDrift } from "../measure/lib/measuredCatalog.mjs";
import { updateReadmeTable } from "./lib/compatibilityTable.mjs";
checkArguments(process.argv.slice(2), {
    usage: "Usage: npm run patch:check",
    flags: {},
    positionals: 0,
});

const failures = [];
const pnpmChecks = [];
/** @typedef {Awaited<ReturnType<typeof buildPatchedFiles>>["files"]} PatchedFiles */
/** @type {PatchedFiles | undefined} */
let pinnedFiles;
for (const version of supportedVersions()) {
    const { files } = await buildPatchedFiles(version);
    if (version === pinnedVersion()) pinnedFiles = files;
    checkDrift(patchFilePath(version), renderPatch(files));
    checkDrift(pnpmPatchFilePath(version), renderPatch(files, "pnpm"));
    checkVersion(version, files);
    if (existsSync(pnpmPatchFilePath(version))) pnpmChecks.push(checkPnpm(version, files));
}
await Promise.all(pnpmChecks);

/**
 * 1. Drift between src/ and a committed patch.
 *
 * @param {string} patchPath
 * @param {string} expected
 */
function checkDrift(patchPath, expected) {
    if (!existsSync(patchPath)) {
        failures.push(
            `${relative(ROOT, patchPath)} is missing: run 'npm run patch:build' and commit it.`
        );
        return;
    }
    const committed = readFileSync(patchPath, "utf8");
    if (committed !== expected) {
        const a = committed.split("\n");
        const b = expected.split("\n");
        let line = 0;
        while (line < a.length && a[line] === b[line]) line++;
        failures.push(
            `${relative(ROOT, patchPath)} differs from what src/ generates (first difference at line ${line + 1}:\n` +
                `  committed: ${JSON.stringify(a[line] ?? "<end of file>")}\n` +
                `  generated: ${JSON.stringify(b[line] ?? "<end of file>")}).\n` +
                "  Never edit the patch by hand: change src/ or scripts/patch/lib/sdkEdits.mjs, run 'npm run patch:build', commit both."
        );
    }
}

/**
 * What a failed command throws: its output, when it ran.
 *
 * @param {unknown} caught
 */
function commandOutput(caught) {
    const error = /** @type {Error & { stdout?: string, stderr?: string }} */ (caught);
    return `${error.stdout ?? ""}${error.stderr ?? error.message}`;
}

/**
 * 2. The committed pnpm patch, applied by pnpm itself to a clean install of its version.
 *
 * @param {string} version
 * @param {PatchedFiles} files
 */
async function checkPnpm(version, files) {
    let app;
    try {
        const installed = await pnpmInstallPatched(version, pnpmPatchFilePath(version));
        app = installed.app;
        for (const [packagePath, { after }] of files) {
            const path = join(installed.sdkDir, packagePath);
            if (!existsSync(path) || readFileSync(path, "utf8") !== after) {
                failures.push(
                    `pnpm, applying ${relative(ROOT, pnpmPatchFilePath(version))}, gives a different ${packagePath} than src/ generates.`
                );
                return;
            }
        }
    } catch (error) {
        failures.push(
            `pnpm does not apply ${relative(ROOT, pnpmPatchFilePath(version))} to a clean ${PACKAGE_NAME}@${version}:\n${commandOutput(error)}`
        );
    } finally {
        if (app !== undefined) rmSync(app, { recursive: true, force: true });
    }
}

/**
 * @param {string} version
 * @param {PatchedFiles} files
 */
function checkVersion(version, files) {
    const patchPath = patchFilePath(version);

    // 2. The committed patch applies to a clean install of the pinned version.
    const app = mkdtempSync(join(tmpdir(), "sdk-patch-check-"));
    try {
        if (existsSync(patchPath)) {
            writeFileSync(
                join(app, "package.json"),
                JSON.stringify({
                    name: "patch-check",
                    private: true,
                    dependencies: { [PACKAGE_NAME]: version },
                })
            );
            const clean = join(app, "node_modules", ...PACKAGE_NAME.split("/"));
            cpSync(pristineDir(version), clean, { recursive: true });
            mkdirSync(join(app, "patches"));
            cpSync(patchPath, join(app, "patches", basename(patchPath)));
            try {
                runPatchPackage(app);
                for (const [packagePath, { after }] of files) {
                    const applied = readFileSync(join(clean, packagePath), "utf8");
                    if (applied !== after && failures.length === 0) {
                        failures.push(
                            `Applying the committed patch gives a different ${packagePath} than src/ generates.`
                        );
                    }
                }
            } catch (error) {
                failures.push(
                    `The committed patch does not apply to a clean ${PACKAGE_NAME}@${version}:\n${commandOutput(error)}`
                );
            }
        }
    } finally {
        rmSync(app, { recursive: true, force: true });
    }
}

// 3. The project's own node_modules runs the patched SDK.
const installed = join(ROOT, "node_modules", ...PACKAGE_NAME.split("/"));
if (pinnedFiles === undefined) throw new Error(`The pinned ${PACKAGE_NAME} was not checked.`);
const stale = [...pinnedFiles].filter(([packagePath, { after }]) => {
    const path = join(installed, packagePath);
    return !existsSync(path) || readFileSync(path, "utf8") !== after;
});
if (stale.length > 0) {
    failures.push(
        `node_modules/${PACKAGE_NAME} is not patched with the current build (${stale[0]?.[0]} and ${stale.length - 1} more differ): ` +
            "run 'npm run patch:build' (or 'npm install', whose postinstall applies the committed patch)."
    );
}

const recorded = existsSync(FINGERPRINT) ? readFileSync(FINGERPRINT, "utf8") : "";
const current = seriesFingerprint(committedSeries());
if (recorded !== current) {
    const before = new Set(recorded.split("\n"));
    const changed = current
        .split("\n")
        .filter((line) => line && !before.has(line))
        .map((line) => line.slice(66));
    const after = new Set(current.split("\n"));
    const gone = recorded
        .split("\n")
        .filter((line) => line && !after.has(line))
        .map((line) => line.slice(66))
        .filter((path) => !changed.includes(path));
    failures.push(
        `patches/upstream/ was not generated from the current upstream/ (changed since the last build: ${[...changed, ...gone].join(", ")}): ` +
            "run 'npm run upstream:build -- <github/copilot-sdk clone>' and commit the result; never edit the patches by hand."
    );
}

// 4. The measurements compiled into every patch are what the discovery's data files say.
const measuredDrift = await measuredModuleDrift();
if (measuredDrift !== undefined) failures.push(measuredDrift);
const tableDrift = await updateReadmeTable(
    ROOT,
    supportedVersions(),
    (/** @type {string} */ version) => releaseCapabilities(pristineDir(version)),
    true
);
if (tableDrift !== undefined) failures.push(tableDrift);

if (failures.length > 0) {
    for (const failure of failures) console.error(`patch check failed: ${failure}`);
    process.exit(1);
}
console.log(
    `patch check passed: the patch-package and pnpm patches for ${supportedVersions().join(", ")} match src/ and apply cleanly to their versions with patch-package and pnpm; ${pinnedVersion()} is installed patched; patches/upstream/ matches upstream/; the measured built-ins module matches its data files.`
);
