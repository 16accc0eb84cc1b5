/**
 * Present only in an `@github/copilot-sdk` that carries the tool-customization patch. `sdkVersion`
 * is the SDK version the patch was built for (the patch build writes it into the compiled
 * module). To check at start-up that the SDK is patched, and patched for the installed version,
 * call `assertToolCustomizationPatch()` through a namespace import instead of comparing this
 * value with a version written into the app.
 *
 * @experimental
 */
export const TOOL_CUSTOMIZATION_PATCH: { readonly sdkVersion: string } = Object.freeze({
    sdkVersion: "0.0.0-unbuilt",
});
