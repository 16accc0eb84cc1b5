import { MEASURED_BUILT_IN_TOOLS } from "./safetyNet/measuredBuiltInTools.generated.js";

/**
 * What the SDK release a patch was built for can do, read by the patch build from the release's
 * own files; a feature a release lacks is refused with a `SessionToolError` naming the release
 * and the feature, never attempted.
 *
 * @experimental
 */
export interface SdkCapabilities {
    /**
     * `createSession` / `resumeSession` send a custom tool's `overridesBuiltInTool` (every served
     * release does; the build refuses a release without it).
     */
    readonly builtInOverride: boolean;
    /** The runtime request `session.tools.initializeAndValidate`, which `validateTools` needs. */
    readonly validateTools: boolean;
    /** The runtime request `session.tools.set`, which `session.setTools` needs. */
    readonly setTools: boolean;
    /**
     * One step that every way of disconnecting a session runs (`_markDisconnected`): without it a
     * running `setTools` is not cut short by a disconnect, and per-session tool state is released
     * only with the session object.
     */
    readonly disconnectHook: boolean;
    /** The extension entry point `resumeSessionForExtension` (behind `joinSession`). */
    readonly extensionResume: boolean;
    /**
     * The version of the runtime the release bundles (`@github/copilot-sdk-<platform>`); absent
     * for releases whose runtime is the `@github/copilot` dependency, whose version the session
     * step asks the runtime.
     */
    readonly bundledRuntimeVersion?: string;
}

/**
 * What {@link TOOL_CUSTOMIZATION_PATCH} says about the patch an SDK carries.
 *
 * @experimental
 */
export interface ToolCustomizationPatch {
    /** The `@github/copilot-sdk` version the patch was built for. */
    readonly sdkVersion: string;
    /** The version of the project that built the patch (`copilot-sdk-tool-override`). */
    readonly patchVersion: string;
    /**
     * A hash of what the patch adds (the compiled modules and the edits to the SDK's files),
     * the same in the patches of every SDK version built from one source: two SDKs whose
     * `buildHash` differs run different tool-customization code.
     */
    readonly buildHash: string;
    /**
     * The runtime versions whose built-in tools were measured and are compiled into the patch;
     * on any other runtime the SDK asks the runtime and warns `CATALOG_FALLBACK`.
     */
    readonly measuredRuntimes: readonly string[];
    /** What the SDK release the patch was built for can do. */
    readonly capabilities: SdkCapabilities;
}

/** No capability assumed until the patch build writes the release's own in place of this name. */
const UNBUILT_CAPABILITIES: SdkCapabilities = Object.freeze({
    builtInOverride: false,
    validateTools: false,
    setTools: false,
    disconnectHook: false,
    extensionResume: false,
});

/**
 * Present only in an `@github/copilot-sdk` that carries the tool-customization patch: which SDK
 * version the patch was built for, which build of the patch it is, and which runtime versions its
 * measurements cover (the patch build writes the first three into the compiled module). To check
 * at start-up that the SDK is patched, and patched for the installed version, call
 * `assertToolCustomizationPatch()` through a namespace import instead of comparing this value with
 * a version written into the app.
 *
 * @experimental
 */
export const TOOL_CUSTOMIZATION_PATCH: ToolCustomizationPatch = Object.freeze({
    sdkVersion: "0.0.0-unbuilt",
    patchVersion: "0.0.0-unbuilt-patch",
    buildHash: "unbuilt",
    capabilities: UNBUILT_CAPABILITIES,
    measuredRuntimes: Object.freeze(MEASURED_BUILT_IN_TOOLS.map((entry) => entry.runtimeVersion)),
});

/**
 * One line for logs and messages: the SDK version, the patch build and the measured runtimes.
 *
 * @param patch - the marker to describe
 * @returns e.g. `patch 0.3.0 (build 1a2b3c4d5e6f) for @github/copilot-sdk 1.0.14, runtimes measured: 1.0.83, 1.0.85`
 */
export function describePatch(patch: ToolCustomizationPatch): string {
    return `patch ${patch.patchVersion} (build ${patch.buildHash}) for @github/copilot-sdk ${patch.sdkVersion}, runtimes measured: ${patch.measuredRuntimes.join(", ")}`;
}
