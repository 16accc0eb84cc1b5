// `copilot-sdk-tool-override`: the library form. Everything the installed @github/copilot-sdk
// exports, with `CopilotClient` wrapped (the tool customization), plus this package's own
// exports. No patch: an app imports from here instead of from "@github/copilot-sdk".

import { createRequire } from "node:module";
import * as sdk from "@github/copilot-sdk";
import type { CopilotClient as PublishedClient } from "@github/copilot-sdk";
import { MODULE_URL } from "./shared/moduleLocation.js";
import type { builtInToolGroups } from "./toolCustomization/catalog/builtInToolGroups.js";
import { adoptSdk, type SdkRoot } from "./wrap/wrapSdk.js";

export * from "@github/copilot-sdk";
export * from "./publicApi.js";

/** Where the SDK's entry is, resolved from here as this module's own import resolves it. */
function sdkEntry(): string {
    return createRequire(MODULE_URL).resolve("@github/copilot-sdk");
}

/**
 * The SDK's `CopilotClient` with the tool customization: a custom tool named like a built-in
 * replaces it (`overridesBuiltInTool: true`), `availableTools` / `excludedTools` take
 * `toolset:<name>`, and `session.setTools` changes a running session's tools. Everything else is
 * the SDK's own client. A client of an SDK release that cannot be served is refused at
 * construction with a `SessionToolError` naming the release and what it lacks.
 *
 * @public
 */
export const CopilotClient: typeof PublishedClient = adoptSdk(
    sdk as unknown as SdkRoot,
    sdkEntry()
) as unknown as typeof PublishedClient;
/**
 * An instance of {@link (CopilotClient:variable)}.
 *
 * @public
 */
export type CopilotClient = PublishedClient;

/**
 * The SDK's `BuiltInTools`, with the groups this package installs on it (`Read`, `Edit`, `Search`,
 * `Execute`, ...: every measured built-in of their kind, so that excluding one fails closed).
 *
 * @public
 */
export const BuiltInTools: typeof sdk.BuiltInTools & BuiltInToolGroups =
    sdk.BuiltInTools as typeof sdk.BuiltInTools & typeof builtInToolGroups;

/**
 * The groups this package adds to `BuiltInTools`, by group name (each a list of built-in names).
 *
 * @public
 */
export type BuiltInToolGroups = {
    readonly [Group in "Read" | "Edit" | "Search" | "Execute" | "Web" | "Agent"]: readonly string[];
};
