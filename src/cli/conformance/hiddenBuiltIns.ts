// Built-ins a runtime hides (never offered, yet answering calls of their name) that the name
// discovery once missed: the conformance suite and the end-to-end sweep always probe them.

export const HIDDEN_BUILT_INS: readonly string[] = Object.freeze([
    "semantic_search",
    "grep_search",
    "search_code_subagent",
    "lexical_code_search",
    "semantic_code_search",
    "extensions_manage",
]);
