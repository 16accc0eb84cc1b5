// Every release of the compatibility table (package.json toolCustomization.sdkVersions), exercised
// in both forms without its runtime: the thin patch is rendered from the release's published
// files (the same code init runs), applied with patch-package to a scratch copy, and the patched
// SDK is loaded as an app's ESM and CommonJS code load it; the library form's detection reads the
// unpatched release. What the runs report (the capabilities detected at run time, whether a client
// constructs) is what the README's compatibility table shows.

import { execFileSync } from "node:child_process";
import {
    cpSync,
    mkdirSync,
    mkdtempSync,
    readdirSync,
    rmSync,
    symlinkSync,
    writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { runPatchPackage } from "./applyPatch.mjs";
import {
    PACKAGE_NAME,
    ROOT,
    supportedVersions,
} from "../../../build/cli/conformance/servedReleases.js";
import { pristineDir } from "./pristineSdk.mjs";
import { renderThinPatchFor } from "./thinPatch.mjs";

const PROBE = `
import { createRequire } from "node:module";
const [sdkDir, release] = process.argv.slice(2);
const require = createRequire(sdkDir + "/package.json");
const view = (sdk) => {
    let constructs;
    // A server URL: the constructor then needs no runtime installed.
    const options = typeof sdk.RuntimeConnection?.forUri === "function" ? { connection: sdk.RuntimeConnection.forUri("http://127.0.0.1:9") } : { cliUrl: "127.0.0.1:9" };
    try { new sdk.CopilotClient(options); constructs = "yes"; } catch (error) { constructs = String(error.message); }
    const m = sdk.TOOL_CUSTOMIZATION_PATCH;
    return {
        form: m?.form, sdkVersion: m?.sdkVersion, capabilities: m?.capabilities,
        sessionToolError: typeof sdk.SessionToolError === "function",
        addToolSet: typeof sdk.ToolSet?.prototype?.addToolSet === "function",
        wrapped: sdk.CopilotClient?.[Symbol.for("copilot-sdk-tool-override.wrapped")] === true,
        constructs,
    };
};
const esm = view(await import(sdkDir + "/dist/index.js"));
const cjs = view(require(sdkDir + "/dist/cjs/index.js"));

console.log("MATRIX " + JSON.stringify({ esm, cjs }));
`;

/**
 * @typedef {object} ReleaseRun
 * @property {string} version
 * @property {number} patchLines the thin patch's length (patch-package layout)
 * @property {{ form?: string, sdkVersion?: string, capabilities?: Record<string, unknown>, sessionToolError: boolean, addToolSet: boolean, wrapped: boolean, constructs: string }} esm
 * @property {ReleaseRun["esm"]} cjs
 * @property {Record<string, unknown>} library the library form's detection on the unpatched release
 */

/**
 * Runs every release (or `versions`); needs `npm run build` first.
 *
 * @param {string[]} [versions]
 * @returns {Promise<ReleaseRun[]>}
 */
export async function runReleaseMatrix(versions = supportedVersions()) {
    const { detectRelease } = await import(
        pathToFileURL(join(ROOT, "build", "esm", "sdk", "release.js")).href
    );
    const scratch = mkdtempSync(join(tmpdir(), "release-matrix-"));
    /** @type {ReleaseRun[]} */
    const runs = [];
    try {
        const probe = join(scratch, "probe.mjs");
        writeFileSync(probe, PROBE);
        for (const version of versions) {
            const pristine = pristineDir(version);
            const app = join(scratch, version);
            const modules = join(app, "node_modules");
            mkdirSync(join(modules, "@github"), { recursive: true });
            // The SDK's dependencies from this repository's install; this package as the app's.
            for (const entry of readdirSync(join(ROOT, "node_modules"))) {
                if (
                    entry === "@github" ||
                    entry === "copilot-sdk-tool-override" ||
                    entry.startsWith(".")
                )
                    continue;
                symlinkSync(join(ROOT, "node_modules", entry), join(modules, entry));
            }
            symlinkSync(ROOT, join(modules, "copilot-sdk-tool-override"));
            const sdkDir = join(modules, "@github", "copilot-sdk");
            cpSync(pristine, sdkDir, { recursive: true });
            writeFileSync(
                join(app, "package.json"),
                JSON.stringify({
                    name: "release-matrix",
                    private: true,
                    dependencies: { [PACKAGE_NAME]: version },
                })
            );
            const patch = renderThinPatchFor(version, "patch-package", pristine);
            mkdirSync(join(app, "patches"));
            writeFileSync(join(app, "patches", `@github+copilot-sdk+${version}.patch`), patch);
            runPatchPackage(app);
            const output = execFileSync(
                process.execPath,
                [
                    probe,
                    sdkDir,
                    pathToFileURL(join(ROOT, "build", "esm", "sdk", "release.js")).href,
                ],
                { cwd: app, encoding: "utf8" }
            );
            const line = output.split("\n").find((text) => text.startsWith("MATRIX "));
            if (line === undefined)
                throw new Error(`${version}: the probe gave no answer:\n${output}`);
            const { esm, cjs } = JSON.parse(line.slice("MATRIX ".length));
            const library = detectRelease(join(pristine, "package.json"));
            runs.push({
                version,
                patchLines: patch.split("\n").length - 1,
                esm,
                cjs,
                library: { ...library.capabilities, unsupported: library.unsupported },
            });
            rmSync(app, { recursive: true, force: true });
        }
    } finally {
        rmSync(scratch, { recursive: true, force: true });
    }
    return runs;
}
