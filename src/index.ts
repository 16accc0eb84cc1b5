// The public API of the tool customization: re-exported from the SDK's root, so an app imports
// everything here from "@github/copilot-sdk".

// The wrap's members of the SDK's own types (client options, session config, CopilotSession,
// ToolSet), as declaration merging.
import "./sdkSeam/sdkTypes.js";

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
export { DEFAULT_TOOL_SETS } from "./safetyNet/defaultToolSets.js";
export { SessionToolError, type SessionToolErrorCode } from "./safetyNet/sessionToolError.js";
export type { SessionToolWarning, SessionToolWarningCode } from "./safetyNet/sessionToolWarning.js";
export type { BuiltInToolCollisionPolicy } from "./safetyNet/builtInToolOverrides.js";
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
} from "./safetyNet/publicTypes.js";
export {
    TOOL_CUSTOMIZATION_PATCH,
    type SdkCapabilities,
    type ToolCustomizationPatch,
} from "./patchMarker.js";
export { assertToolCustomizationPatch } from "./patchCheck.js";
