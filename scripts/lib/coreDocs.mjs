// Documentation lines the core adds to upstream's option types. The upstream series writes them
// into nodejs/src/types.ts and the patch into dist/types.d.ts, so both say the same.

/**
 * The `validateTools` session option with its TSDoc, indented for a member of SessionConfigBase.
 *
 * @param {string} indent the member indentation of the file (4 spaces in both)
 * @returns {string}
 */
export function validateToolsMember(indent = "    ") {
    return [
        "/**",
        " * When true, `createSession` / `resumeSession` ask the runtime to build and validate",
        " * the session's tool list before they return, so a custom tool the runtime refuses (a",
        " * built-in tool's name without {@link Tool.overridesBuiltInTool}) rejects the call, and the",
        " * session is removed, instead of failing every `send`. The runtime checks the built-ins it",
        " * lists; one it hides can still answer a custom tool of its name. With MCP servers configured,",
        " * the check waits for them to start. Sessions without custom tools send nothing extra.",
        " *",
        " * @default false",
        " */",
        "validateTools?: boolean;",
    ]
        .map((line) => `${indent}${line}\n`)
        .join("");
}
