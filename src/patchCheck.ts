import { readFileSync } from "node:fs";
import {
    describePatch,
    TOOL_CUSTOMIZATION_PATCH,
    type ToolCustomizationPatch,
} from "./patchMarker.js";

/** The SDK's own package.json; the patch points this module at it when the SDK loads. */
let sdkManifest: string | URL | undefined;

/**
 * Tells this module where the SDK's `package.json` is. Called by the SDK's root module (the
 * patch adds the call to both builds, which know their own location); not part of the public API.
 *
 * @param location path or file URL of `@github/copilot-sdk/package.json`
 */
export function useSdkManifest(location: string | URL): void {
    sdkManifest = location;
}

function installedSdkVersion(): string | undefined {
    if (sdkManifest === undefined) return undefined;
    try {
        const manifest: unknown = JSON.parse(readFileSync(sdkManifest, "utf8"));
        const version =
            typeof manifest === "object" && manifest !== null && Object.hasOwn(manifest, "version")
                ? (manifest as { version: unknown }).version
                : undefined;
        return typeof version === "string" ? version : undefined;
    } catch {
        return undefined;
    }
}

/**
 * Throws unless the installed `@github/copilot-sdk` is the version its tool-customization patch
 * was built for. An app calls it once at start-up, through a namespace import, so that the same
 * line also notices an SDK without the patch (where this function does not exist):
 *
 * @example
 * ```typescript
 * import * as copilotSdk from "@github/copilot-sdk";
 * if (typeof copilotSdk.assertToolCustomizationPatch !== "function") {
 *     throw new Error("@github/copilot-sdk runs without its tool-customization patch");
 * }
 * copilotSdk.assertToolCustomizationPatch();
 * ```
 *
 * The README's start-up check also names the installed version in the unpatched case.
 *
 * @returns the patch marker, {@link TOOL_CUSTOMIZATION_PATCH}: the SDK version, the patch build
 *   and the runtime versions its measurements cover, for the app's start-up log
 * @throws Error naming the installed version, the patch (version, build, measured runtimes), and
 *   the fix: swap the patch file for the installed version's and reinstall the SDK.
 * @experimental
 */
export function assertToolCustomizationPatch(): ToolCustomizationPatch {
    const builtFor = TOOL_CUSTOMIZATION_PATCH.sdkVersion;
    const installed = installedSdkVersion();
    if (installed === builtFor) return TOOL_CUSTOMIZATION_PATCH;
    const shown = installed ?? "(version unreadable)";
    throw new Error(
        `@github/copilot-sdk ${shown} is installed, but its tool-customization patch was built for ${builtFor} (${describePatch(TOOL_CUSTOMIZATION_PATCH)}). ` +
            `Swap the patch file: replace patches/@github+copilot-sdk+${builtFor}.patch with the one for ${shown} ` +
            `(pnpm: patches/@github__copilot-sdk@${shown}.patch in pnpm.patchedDependencies), ` +
            "delete node_modules/@github/copilot-sdk and run a bare `npm install` (or `pnpm install`)."
    );
}
