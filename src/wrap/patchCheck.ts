import {
    describePatch,
    TOOL_CUSTOMIZATION_PATCH,
    type ToolCustomizationPatch,
} from "./patchMarker.js";

/**
 * Throws unless the tool customization wraps the `@github/copilot-sdk` the app loaded and serves
 * its release. An app calls it once at start-up. In the patch form it goes through a namespace
 * import, so that the same line also notices an SDK without the patch (where this function does
 * not exist):
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
 * @returns the marker, {@link TOOL_CUSTOMIZATION_PATCH}: the SDK version, this package's version,
 *   the form and the runtime versions its measurements cover, for the app's start-up log
 * @throws Error naming what is wrong and the fix: the wrap has not run (the patch file is missing
 *   from the SDK's `client.js`), or the installed release cannot be served.
 * @beta
 */
export function assertToolCustomizationPatch(): ToolCustomizationPatch {
    const marker = TOOL_CUSTOMIZATION_PATCH;
    if (marker.form === "none") {
        throw new Error(
            `copilot-sdk-tool-override ${marker.patchVersion} is loaded, ` +
                `but it has not wrapped @github/copilot-sdk: its patch is missing from the SDK's dist/client.js. ` +
                ("Run `npx --no copilot-sdk-tool-override init` (pnpm: `pnpm exec copilot-sdk-tool-override init`), " +
                    "or import CopilotClient from 'copilot-sdk-tool-override' instead of '@github/copilot-sdk'.")
        );
    }
    if (!/^1\./.test(marker.sdkVersion)) {
        throw new Error(
            `@github/copilot-sdk ${marker.sdkVersion} cannot be served (${describePatch(marker)}): ` +
                `copilot-sdk-tool-override serves the 1.x releases. Move to a 1.x release of the SDK.`
        );
    }
    if (!marker.capabilities.builtInOverride) {
        throw new Error(
            `@github/copilot-sdk ${marker.sdkVersion} cannot be served (${describePatch(marker)}): ` +
                `its createSession does not send 'overridesBuiltInTool'. Move to a 1.0 release of the SDK.`
        );
    }
    return marker;
}
