/**
 * The start-up check as the patched SDK ships it, in both builds: it passes on the installed,
 * patched SDK; it names both versions and the fix when the patch sits on another SDK version
 * (a copy of the patched SDK whose package.json says so, as after patching without
 * `--error-on-warn`); and it is absent from the unpatched SDK, which is how an app's namespace
 * import tells the unpatched case apart.
 */
import {
    cpSync,
    mkdirSync,
    mkdtempSync,
    readdirSync,
    readFileSync,
    rmSync,
    writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { RAW_MEASUREMENTS } from "../support/rawMeasurements.js";

const ROOT = join(import.meta.dirname, "..", "..");
const require = createRequire(import.meta.url);
/** The version this project pins, from its package.json (the patch under test is built for it). */
const PINNED: string = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).devDependencies[
    "@github/copilot-sdk"
];
const INSTALLED = join(ROOT, "node_modules", "@github", "copilot-sdk");

/** This project's version: the patch version the build writes into the marker. */
const PROJECT_VERSION: string = JSON.parse(
    readFileSync(join(ROOT, "package.json"), "utf8")
).version;
/**
 * The runtime versions the discovery measured, from its raw data files, in the order of the
 * releases in package.json.
 */
const MEASURED_RUNTIMES: string[] = (
    JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
        toolCustomization: { sdkVersions: string[] };
    }
).toolCustomization.sdkVersions.flatMap((sdk) =>
    RAW_MEASUREMENTS.filter((m) => m.sdkVersion === sdk).map((m) => m.runtimeVersion)
);

interface Marker {
    sdkVersion: string;
    patchVersion: string;
    buildHash: string;
    measuredRuntimes: string[];
}
type Sdk = { assertToolCustomizationPatch?: () => Marker; TOOL_CUSTOMIZATION_PATCH?: Marker };

async function loadBoth(sdkDir: string): Promise<{ esm: Sdk; cjs: Sdk }> {
    return {
        esm: await import(pathToFileURL(join(sdkDir, "dist", "index.js")).href),
        cjs: require(join(sdkDir, "dist", "cjs", "index.js")),
    };
}

/**
 * A copy of the patched SDK that claims another version. It lives under the project (in
 * .cache/) so that its own imports resolve to the project's node_modules.
 */
mkdirSync(join(ROOT, ".cache"), { recursive: true });
const scratch = mkdtempSync(join(ROOT, ".cache", "patch-check-test-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
function patchedCopyClaiming(version: string): string {
    const dir = join(scratch, version, "node_modules", "@github", "copilot-sdk");
    mkdirSync(dir, { recursive: true });
    cpSync(INSTALLED, dir, { recursive: true });
    const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    writeFileSync(join(dir, "package.json"), JSON.stringify({ ...manifest, version }));
    return dir;
}

describe("assertToolCustomizationPatch", () => {
    it("returns the marker (SDK version, patch build, measured runtimes) when the patch was built for the installed version (ESM and CJS)", async () => {
        const { esm, cjs } = await loadBoth(INSTALLED);
        for (const sdk of [esm, cjs]) {
            const marker = sdk.assertToolCustomizationPatch?.();
            expect(marker).toEqual({
                sdkVersion: PINNED,
                patchVersion: PROJECT_VERSION,
                buildHash: expect.stringMatching(/^[0-9a-f]{12}$/),
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
        }
        expect(esm.TOOL_CUSTOMIZATION_PATCH!.buildHash).toBe(
            cjs.TOOL_CUSTOMIZATION_PATCH!.buildHash
        );
    });

    it("carries one build hash in the patches of every SDK version, for npm and pnpm", async () => {
        const { esm } = await loadBoth(INSTALLED);
        const patches = readdirSync(join(ROOT, "patches"))
            .filter((file) => file.endsWith(".patch"))
            .map((file) => join(ROOT, "patches", file))
            .concat(
                readdirSync(join(ROOT, "patches", "pnpm")).map((file) =>
                    join(ROOT, "patches", "pnpm", file)
                )
            );
        // 19 served releases (1.0.0 to 1.0.15-preview.4), one patch each for npm and for pnpm.
        expect(patches).toHaveLength(38);
        for (const patch of patches) {
            const hashes = [
                ...readFileSync(patch, "utf8").matchAll(/^\+ {4}buildHash: "(\w+)",$/gm),
            ];
            expect(
                hashes.map((match) => match[1]),
                patch
            ).toEqual([
                esm.TOOL_CUSTOMIZATION_PATCH!.buildHash,
                esm.TOOL_CUSTOMIZATION_PATCH!.buildHash,
            ]);
        }
    });

    it("names the installed version, the patch's version and the fix when they differ", async () => {
        const { esm, cjs } = await loadBoth(patchedCopyClaiming("1.0.99"));
        for (const sdk of [esm, cjs]) {
            expect(() => sdk.assertToolCustomizationPatch?.()).toThrow(
                `@github/copilot-sdk 1.0.99 is installed, but its tool-customization patch was built for ${PINNED} (patch ${PROJECT_VERSION} (build ${esm.TOOL_CUSTOMIZATION_PATCH!.buildHash}) for @github/copilot-sdk ${PINNED}, runtimes measured: ${MEASURED_RUNTIMES.join(", ")}). Swap the patch file: replace patches/@github+copilot-sdk+${PINNED}.patch with the one for 1.0.99`
            );
        }
    });

    it("is absent from the unpatched SDK, seen through a namespace import", async () => {
        const unpatched = join(ROOT, "node_modules", "copilot-sdk-unpatched");
        const { esm, cjs } = await loadBoth(unpatched);
        expect(esm.assertToolCustomizationPatch).toBeUndefined();
        expect(cjs.assertToolCustomizationPatch).toBeUndefined();
    });
});
