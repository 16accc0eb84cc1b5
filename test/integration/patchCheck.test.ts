/**
 * The start-up check and the run-time detection as the patch form ships them, in both builds: on
 * the installed SDK (the thin patch) the marker names the release, this package's version and
 * what the release's files show; a copy of the SDK that claims a release never seen is served
 * with that release's name (detected, not built in); a copy that claims another major, or whose
 * client does not send `overridesBuiltInTool`, is refused when a client is constructed, naming
 * the release and what it lacks; the unpatched SDK has no check at all; and the library entry
 * over an SDK that already carries the wrap wraps nothing twice.
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { inspect } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { RAW_MEASUREMENTS } from "../support/rawMeasurements.js";

const ROOT = join(import.meta.dirname, "..", "..");
const require = createRequire(import.meta.url);
const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    version: string;
    devDependencies: Record<string, string>;
    toolCustomization: { sdkVersions: string[] };
};
/** The items in first-seen order, each once (one runtime may come with two SDK releases). */
function uniqueOf(items: string[]): string[] {
    return [...new Set(items)];
}
/** The version this project pins (its own install carries the thin patch for it). */
const PINNED = manifest.devDependencies["@github/copilot-sdk"]!;
const INSTALLED = join(ROOT, "node_modules", "@github", "copilot-sdk");
/** The runtime versions the discovery measured, in the order of the releases in package.json. */
const MEASURED_RUNTIMES: string[] = uniqueOf(
    manifest.toolCustomization.sdkVersions.flatMap((sdk) =>
        RAW_MEASUREMENTS.filter((m) => m.sdkVersion === sdk).map((m) => m.runtimeVersion)
    )
);

interface Marker {
    sdkVersion: string;
    patchVersion: string;
    form: string;
    capabilities: Record<string, unknown>;
    measuredRuntimes: string[];
}
interface Sdk {
    assertToolCustomizationPatch?: () => Marker;
    TOOL_CUSTOMIZATION_PATCH?: Marker;
    CopilotClient: new (options?: object) => unknown;
    RuntimeConnection: { forUri(url: string): unknown };
}

async function loadBoth(sdkDir: string): Promise<{ esm: Sdk; cjs: Sdk }> {
    return {
        esm: (await import(pathToFileURL(join(sdkDir, "dist", "index.js")).href)) as Sdk,
        cjs: require(join(sdkDir, "dist", "cjs", "index.js")) as Sdk,
    };
}

/**
 * The marker and the start-up check of an SDK copy, in a process of its own: a process keeps the
 * marker of the first SDK copy it wrapped (one app loads one copy per module format).
 */
function checkInOwnProcess(sdkDir: string): { sdkVersion?: string; refusal?: string } {
    const script = `const sdk = await import(${JSON.stringify(pathToFileURL(join(sdkDir, "dist", "index.js")).href)});
let refusal;
try { sdk.assertToolCustomizationPatch(); } catch (error) { refusal = error.message; }
console.log(JSON.stringify({ sdkVersion: sdk.TOOL_CUSTOMIZATION_PATCH.sdkVersion, refusal }));`;
    const file = join(dirname(dirname(dirname(sdkDir))), "check.mjs");
    writeFileSync(file, script);
    return JSON.parse(execFileSync(process.execPath, [file], { encoding: "utf8" })) as {
        sdkVersion?: string;
        refusal?: string;
    };
}

/** A client that needs no runtime: one for a server at a URL. */
function construct(sdk: Sdk): unknown {
    return new sdk.CopilotClient({
        connection: sdk.RuntimeConnection.forUri("http://127.0.0.1:9"),
    });
}

/**
 * A copy of the installed (thin-patched) SDK under the project's .cache, so that its imports
 * (its dependencies, and this package through node_modules/copilot-sdk-tool-override) resolve to
 * the project's node_modules; `edit` changes its files first.
 */
mkdirSync(join(ROOT, ".cache"), { recursive: true });
const scratch = mkdtempSync(join(ROOT, ".cache", "patch-check-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
function patchedCopy(name: string, edit: (dir: string) => void): string {
    const dir = join(scratch, name, "node_modules", "@github", "copilot-sdk");
    mkdirSync(dir, { recursive: true });
    cpSync(INSTALLED, dir, { recursive: true });
    edit(dir);
    return dir;
}
function claimVersion(dir: string, version: string): void {
    const json = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    writeFileSync(join(dir, "package.json"), JSON.stringify({ ...json, version }));
}

describe("assertToolCustomizationPatch and the run-time detection", () => {
    it("returns the marker of the installed release, its capabilities read from its files (ESM and CJS)", async () => {
        const { esm, cjs } = await loadBoth(INSTALLED);
        for (const sdk of [esm, cjs]) {
            const marker = sdk.assertToolCustomizationPatch?.();
            expect({ ...marker }).toEqual({
                sdkVersion: PINNED,
                patchVersion: manifest.version,
                form: "patch",
                measuredRuntimes: MEASURED_RUNTIMES,
                // 1.0.14 has session.tools.set, _markDisconnected and resumeSessionForExtension,
                // and bundles runtime 1.0.85 (its dist/cliVersion.js).
                capabilities: {
                    builtInOverride: true,
                    validateTools: true,
                    setTools: true,
                    disconnectHook: true,
                    extensionResume: true,
                    bundledRuntimeVersion: "1.0.85",
                },
            });
            expect(marker).toBe(sdk.TOOL_CUSTOMIZATION_PATCH);
            expect(Object.isFrozen(marker)).toBe(true);
            // Logged, it shows its values (not `[Getter]`), each measured runtime once.
            expect(inspect(marker)).not.toContain("[Getter]");
            expect(inspect(marker)).toContain(`sdkVersion: '${PINNED}'`);
            expect(new Set(marker!.measuredRuntimes).size).toBe(marker!.measuredRuntimes.length);
        }
    });

    it("serves a 1.x release it has never seen under that release's name", async () => {
        const dir = patchedCopy("1.0.99", (copy) => claimVersion(copy, "1.0.99"));
        const { esm, cjs } = await loadBoth(dir);
        for (const sdk of [esm, cjs]) expect(construct(sdk)).toBeInstanceOf(sdk.CopilotClient);
        expect(checkInOwnProcess(dir)).toEqual({ sdkVersion: "1.0.99" });
    });

    it("refuses another major at construction, naming the release", async () => {
        const dir = patchedCopy("2.0.0", (copy) => claimVersion(copy, "2.0.0"));
        const { esm, cjs } = await loadBoth(dir);
        for (const sdk of [esm, cjs]) {
            expect(() => construct(sdk)).toThrow(
                expect.objectContaining({
                    name: "SessionToolError",
                    code: "UNSUPPORTED_BY_RELEASE",
                    message: expect.stringContaining(
                        "copilot-sdk-tool-override cannot serve @github/copilot-sdk 2.0.0: this package serves @github/copilot-sdk 1.x only"
                    ),
                })
            );
        }
        expect(checkInOwnProcess(dir).refusal).toMatch(
            /^@github\/copilot-sdk 2\.0\.0 cannot be served/
        );
    });

    it("refuses a pre-release of 1.0.0 at construction, naming the release", async () => {
        const dir = patchedCopy("1.0.0-beta.9", (copy) => claimVersion(copy, "1.0.0-beta.9"));
        const { esm, cjs } = await loadBoth(dir);
        for (const sdk of [esm, cjs]) {
            expect(() => construct(sdk)).toThrow(
                expect.objectContaining({
                    code: "UNSUPPORTED_BY_RELEASE",
                    message: expect.stringContaining(
                        "cannot serve @github/copilot-sdk 1.0.0-beta.9: 1.0.0-beta.9 is a pre-release of 1.0.0"
                    ),
                })
            );
        }
    });

    it("refuses at construction a release whose client does not send overridesBuiltInTool, naming the capability", async () => {
        const dir = patchedCopy("no-override", (copy) => {
            claimVersion(copy, "1.0.98");
            for (const file of ["dist/client.js", "dist/cjs/client.js"]) {
                const path = join(copy, file);
                writeFileSync(
                    path,
                    readFileSync(path, "utf8").replace(
                        /overridesBuiltInTool: tool\.overridesBuiltInTool,/g,
                        ""
                    )
                );
            }
        });
        const { esm, cjs } = await loadBoth(dir);
        for (const sdk of [esm, cjs]) {
            expect(() => construct(sdk)).toThrow(
                /cannot serve @github\/copilot-sdk 1\.0\.98: its createSession \/ resumeSession were not found sending a custom tool's 'overridesBuiltInTool' \(capability builtInOverride\)/
            );
        }
    });

    it("is absent from the unpatched SDK, seen through a namespace import", async () => {
        const unpatched = join(ROOT, "node_modules", "copilot-sdk-unpatched");
        const { esm, cjs } = await loadBoth(unpatched);
        expect(esm.assertToolCustomizationPatch).toBeUndefined();
        expect(cjs.assertToolCustomizationPatch).toBeUndefined();
    });

    it("wraps once: the library entry over the patched SDK hands out the SDK's own wrapped class", async () => {
        const library = (await import(
            pathToFileURL(join(ROOT, "build", "esm", "library.js")).href
        )) as Sdk;
        const { esm } = await loadBoth(INSTALLED);
        expect(library.CopilotClient).toBe(esm.CopilotClient);
        const cjsLibrary = require(join(ROOT, "build", "cjs", "library.js")) as Sdk;
        expect(cjsLibrary.CopilotClient).toBe(
            require(join(INSTALLED, "dist", "cjs", "index.js")).CopilotClient
        );
    });
});
