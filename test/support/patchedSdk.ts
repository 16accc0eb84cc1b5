// The tests' view of the patched SDK's types: the SDK as published plus src/ (its exports, and the
// members src/wrap/sdkTypes.ts merges into the SDK's types), whatever node_modules holds, so
// that the tests type-check on a clone installed with --ignore-scripts too. tsconfig.json maps
// "@github/copilot-sdk" here for type-checking only; at run time the tests load the patched SDK.
import type { BuiltInTools as PublishedBuiltInTools } from "copilot-sdk-unpatched";
import type { builtInToolGroups } from "../../src/toolCustomization/catalog/builtInToolGroups.js";

export * from "copilot-sdk-unpatched";
export * from "../../src/publicApi.js";

/** `BuiltInTools` with the groups the patch adds (toolSet.d.ts in the patch). */
export declare const BuiltInTools: typeof PublishedBuiltInTools & typeof builtInToolGroups;
