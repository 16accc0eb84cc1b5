/**
 * The mock model of the end-to-end tests, benchmarks and demo: the project's one mock model,
 * `src/mockModel/mockChatModel.ts`, shipped as `copilot-sdk-tool-override/mock-model` (also what the discovery, the conformance suite and the
 * reproductions run against), with its types. See that module for what it answers.
 */
export {
    callsOfferedTools,
    contentText,
    descriptionOf,
    lastUserText,
    startMockModel,
    toolNameOf,
    toolResultTexts,
    turnUserText,
    userPrompt,
} from "../../src/mockModel/mockChatModel.js";
export type {
    MockModel,
    MockModelScript,
    OtherRequest,
    RecordedChatMessage,
    RecordedChatRequest,
    RecordedTool,
    RecordedToolResult,
    ScriptedToolCall,
} from "../../src/mockModel/mockChatModel.js";
