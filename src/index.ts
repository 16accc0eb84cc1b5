// The public API of the tool customization patch. The patch build compiles this module into the
// SDK as dist/toolCustomization.js and re-exports it from the package root, so an app imports
// everything here from "@github/copilot-sdk".

export {
    resolveToolFilter,
    ToolCatalogIndex,
    ReadonlyMapView,
    type ResolveToolFilterSettings,
    type ResolvedIdentifier,
    type IdentifierResolution,
    type ToolCatalog,
    type ToolCatalogTool,
    type ToolCatalogToolSet,
    type ToolFilterMode,
    type ToolFilterOptionName,
    type ToolFilterOptions,
    type ToolFilterResult,
    type ToolFilterWarning,
    type ToolFilterWarningCode,
    type UnknownToolIdentifier,
} from "./toolFilter.js";
export {
    ToolFilterError,
    type ToolFilterErrorCode,
    type ToolFilterErrorDetails,
    type ToolFilterErrorOption,
} from "./toolFilterError.js";
export {
    resolveChatOpenToolEnablement,
    type ChatOpenOptions,
    type ChatOpenToolEnablement,
    type ChatToolCatalog,
    type ChatToolData,
    type ChatToolSetData,
} from "./chatOpenOptions.js";
export {
    DEFAULT_TOOL_SETS,
    CUSTOM_TOOL_SET_NAME,
    BUILT_IN_TOOL_SET_NAME,
    type SessionToolSetDefinition,
} from "./defaultToolSets.js";
export {
    validateCustomTools,
    TOOL_NAME_PATTERN,
    PROTOTYPE_TOOL_NAMES,
    type CustomToolDeclarationOptions,
    type CustomToolLike,
} from "./customToolValidation.js";
export {
    resolveBuiltInToolOverrides,
    type BuiltInToolCollisionPolicy,
    type BuiltInToolOverrides,
    type ReservedToolNames,
} from "./builtInToolOverrides.js";
export { composeBuiltInToolCatalog, type BuiltInToolCatalog } from "./builtInToolCatalog.js";
export {
    resolveSessionToolFilter,
    buildSessionToolCatalog,
    validateToolSets,
    type SessionToolConfig,
    type SessionToolFilterResolution,
    type SessionToolInventory,
    type WireToolFilters,
} from "./sessionToolFilter.js";
export { type SessionToolClientOptions, type SessionToolResolution } from "./sessionToolSetup.js";
export { SessionToolError, type SessionToolErrorCode } from "./sessionToolError.js";
export type { SessionToolWarning, SessionToolWarningCode } from "./sessionToolWarning.js";
