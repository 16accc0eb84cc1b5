/**
 * Present only in an `@github/copilot-sdk` that carries the tool-customization patch. `sdkVersion`
 * is the SDK version the patch was built for (the patch build writes it into the compiled
 * module); an app checks it at start-up so that it can never run silently unpatched:
 *
 * @example
 * ```typescript
 * import * as copilotSdk from "@github/copilot-sdk";
 * if (copilotSdk.TOOL_CUSTOMIZATION_PATCH?.sdkVersion !== "1.0.14") throw new Error("@github/copilot-sdk 1.0.14 is not patched: run npm install (patch-package applies patches/)");
 * ```
 * @experimental
 */
export const TOOL_CUSTOMIZATION_PATCH: { readonly sdkVersion: string } = Object.freeze({
    sdkVersion: "0.0.0-unbuilt",
});
