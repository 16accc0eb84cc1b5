// The public API of the tool customization: re-exported from the SDK's root, so an app imports
// everything here from "@github/copilot-sdk".

// The wrap's members of the SDK's own types (client options, session config, CopilotSession,
// ToolSet), as declaration merging.
import "./wrap/sdkTypes.js";

export {
    resolveToolFilter,
    ToolFilterError,
    type ResolveToolFilterSettings,
    type ToolFilterCatalog,
    type ToolFilterErrorCode,
    type ToolFilterMode,
    type ToolFilterOptionKey,
    type ToolFilterOptions,
    type ToolFilterResult,
    type ToolFilterTool,
    type ToolFilterToolSet,
    type ToolFilterWarning,
    type ToolFilterWarningCode,
    type UnknownToolIdentifier,
} from "./toolFilter/toolFilter.js";
export { DEFAULT_TOOL_SETS } from "./toolCustomization/catalog/defaultToolSets.js";
export {
    SessionToolError,
    type SessionToolErrorCode,
} from "./toolCustomization/api/sessionToolError.js";
export type {
    SessionToolWarning,
    SessionToolWarningCode,
} from "./toolCustomization/api/sessionToolWarning.js";
export type { BuiltInToolCollisionPolicy } from "./toolCustomization/api/publicTypes.js";
export type {
    CallAttributionConfig,
    ModelPreview,
    ModelToolCollision,
    PromptAgreementMode,
    PromptAgreementReport,
    PromptSectionEdit,
    PromptToolMention,
    SessionToolClientOptions,
    SessionToolConfig,
    SessionToolResolution,
    SessionToolUpdate,
    ToolAnswer,
    ToolAnswerer,
    ToolCallAgent,
} from "./toolCustomization/api/publicTypes.js";
export {
    TOOL_CUSTOMIZATION_PATCH,
    type SdkCapabilities,
    type ToolCustomizationPatch,
} from "./wrap/patchMarker.js";
export { assertToolCustomizationPatch } from "./wrap/patchCheck.js";
