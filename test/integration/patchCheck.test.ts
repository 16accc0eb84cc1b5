/**
 * The start-up check as the patched SDK ships it, in both builds: it passes on the installed,
 * patched SDK; it names both versions and the fix when the patch sits on another SDK version
 * (a copy of the patched SDK whose package.json says so, as after patching without
 * `--error-on-warn`); and it is absent from the unpatched SDK, which is how an app's namespace
 * import tells the unpatched case apart.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const require = createRequire(import.meta.url);
/** The version this project pins, from its package.json (the patch under test is built for it). */
const PINNED: string = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).dependencies[
    "@github/copilot-sdk"
];
const INSTALLED = join(ROOT, "node_modules", "@github", "copilot-sdk");

type Sdk = { assertToolCustomizationPatch?: () => string };

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
    it("returns the installed version when the patch was built for it (ESM and CJS)", async () => {
        const { esm, cjs } = await loadBoth(INSTALLED);
        expect(esm.assertToolCustomizationPatch?.()).toBe(PINNED);
        expect(cjs.assertToolCustomizationPatch?.()).toBe(PINNED);
    });

    it("names the installed version, the patch's version and the fix when they differ", async () => {
        const { esm, cjs } = await loadBoth(patchedCopyClaiming("1.0.99"));
        for (const sdk of [esm, cjs]) {
            expect(() => sdk.assertToolCustomizationPatch?.()).toThrow(
                `@github/copilot-sdk 1.0.99 is installed, but its tool-customization patch was built for ${PINNED}. Swap the patch file: replace patches/@github+copilot-sdk+${PINNED}.patch with the one for 1.0.99`
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
