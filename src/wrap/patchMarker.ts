import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { MODULE_URL } from "../shared/moduleLocation.js";
import { detectedRelease, UNDETECTED, type SdkCapabilities } from "../sdk/release.js";
import { MEASURED_BUILT_IN_TOOLS } from "../toolCustomization/catalog/generated/measuredBuiltInTools.generated.js";

export type { SdkCapabilities };

/**
 * What {@link TOOL_CUSTOMIZATION_PATCH} says about the tool customization the SDK runs with.
 *
 * @beta
 */
export interface ToolCustomizationPatch {
    /** The `@github/copilot-sdk` version the wrap detected (`0.0.0-unwrapped` before it ran). */
    readonly sdkVersion: string;
    /** The version of this package (`copilot-sdk-tool-override`) that wraps the SDK. */
    readonly patchVersion: string;
    /**
     * How the wrap reached the SDK: `library` (the app imports `copilot-sdk-tool-override`),
     * `patch` (the thin patch in the SDK's `client.js`), or `none` (not yet).
     */
    readonly form: "library" | "patch" | "none";
    /**
     * The runtime versions whose built-in tools were measured and are compiled into this package;
     * on any other runtime the SDK asks the runtime and warns `CATALOG_FALLBACK`.
     */
    readonly measuredRuntimes: readonly string[];
    /** What the installed SDK release can do, detected at run time. */
    readonly capabilities: SdkCapabilities;
}

/** This package's version, read from its package.json above this module. */
function ownVersion(): string {
    try {
        let dir = dirname(fileURLToPath(MODULE_URL));
        for (;;) {
            const manifest = join(dir, "package.json");
            if (existsSync(manifest)) {
                const { name, version } = JSON.parse(readFileSync(manifest, "utf8")) as {
                    name?: unknown;
                    version?: unknown;
                };
                if (name === "copilot-sdk-tool-override" && typeof version === "string") {
                    return version;
                }
            }
            const parent = dirname(dir);
            if (parent === dir) return "(unknown)";
            dir = parent;
        }
    } catch {
        return "(unknown)";
    }
}

const PATCH_VERSION = ownVersion();
const MEASURED_RUNTIMES = Object.freeze([
    // One runtime may be measured through two SDK releases (1.0.66-2): listed once.
    ...new Set(MEASURED_BUILT_IN_TOOLS.map((entry) => entry.runtimeVersion)),
]);

const marker: ToolCustomizationPatch = {
    get sdkVersion() {
        return detectedRelease()?.sdkVersion ?? "0.0.0-unwrapped";
    },
    patchVersion: PATCH_VERSION,
    get form() {
        return detectedRelease()?.form ?? "none";
    },
    get capabilities() {
        return detectedRelease()?.capabilities ?? UNDETECTED;
    },
    measuredRuntimes: MEASURED_RUNTIMES,
};
// `console.log(TOOL_CUSTOMIZATION_PATCH)` shows the values the getters give, not `[Getter]`.
Object.defineProperty(marker, Symbol.for("nodejs.util.inspect.custom"), {
    value: (): ToolCustomizationPatch => ({
        sdkVersion: marker.sdkVersion,
        patchVersion: marker.patchVersion,
        form: marker.form,
        measuredRuntimes: marker.measuredRuntimes,
        capabilities: marker.capabilities,
    }),
});

/**
 * Which SDK release the tool customization wraps, which version of this package wraps it, how
 * (library or patch form), what the release can do, and which runtime versions the measurements
 * cover. Exported from `copilot-sdk-tool-override` and, in the patch form, from
 * `@github/copilot-sdk` too; `assertToolCustomizationPatch()` checks it at start-up.
 *
 * @beta
 */
export const TOOL_CUSTOMIZATION_PATCH: ToolCustomizationPatch = Object.freeze(marker);

/**
 * One line for logs and messages: the SDK version, the form and the measured runtimes.
 *
 * @param patch - the marker to describe
 * @returns e.g. `copilot-sdk-tool-override 0.4.0 (patch form) on @github/copilot-sdk 1.0.14, runtimes measured: 1.0.83, 1.0.85`
 */
export function describePatch(patch: ToolCustomizationPatch): string {
    return (
        `copilot-sdk-tool-override ${patch.patchVersion} (${patch.form} form) ` +
        `on @github/copilot-sdk ${patch.sdkVersion}, runtimes measured: ${patch.measuredRuntimes.join(", ")}`
    );
}
