import { TOOL_SET_PREFIX } from "../catalog/defaultToolSets.js";

/**
 * One `availableTools` / `excludedTools` entry, parsed once when its list is read: every later
 * step switches on `kind` instead of looking for a colon again. No tool name has a colon, so the
 * text before the first one is the prefix, and `name` is everything after it (unchecked here: it
 * may be empty, `*` or malformed; the checks say so).
 *
 * - `tool`: a bare tool name (`view`);
 * - `toolSet`: `toolset:<name>` (`toolset:edit`);
 * - `builtin`, `custom`, `mcp`: a pattern the runtime matches against that source's tools
 *   (`builtin:view`, `custom:*`, `mcp:github-list_issues`);
 * - `otherPrefix`: any other `<prefix>:` (`Builtin:view`, `mpc:github-x`), which is refused.
 */
export type FilterEntry =
    | { readonly kind: "tool"; readonly text: string; readonly name: string }
    | { readonly kind: "toolSet"; readonly text: string; readonly name: string }
    | { readonly kind: "builtin"; readonly text: string; readonly name: string }
    | { readonly kind: "custom"; readonly text: string; readonly name: string }
    | { readonly kind: "mcp"; readonly text: string; readonly name: string }
    | {
          readonly kind: "otherPrefix";
          readonly text: string;
          readonly prefix: string;
          readonly name: string;
      };

/** The prefix of a `toolset:<name>` entry, without its colon. */
const TOOL_SET_ENTRY_PREFIX = TOOL_SET_PREFIX.slice(0, -1);

/**
 * Parses a filter entry (a non-empty string, already read from the caller's list).
 *
 * @param text - the entry as given
 * @returns its kind and the name after the prefix, frozen
 */
export function parseFilterEntry(text: string): FilterEntry {
    const colon = text.indexOf(":");
    if (colon === -1) return Object.freeze({ kind: "tool", text, name: text });
    const prefix = text.slice(0, colon);
    const name = text.slice(colon + 1);
    switch (prefix) {
        case TOOL_SET_ENTRY_PREFIX:
            return Object.freeze({ kind: "toolSet", text, name });
        case "builtin":
            return Object.freeze({ kind: "builtin", text, name });
        case "custom":
            return Object.freeze({ kind: "custom", text, name });
        case "mcp":
            return Object.freeze({ kind: "mcp", text, name });
        default:
            return Object.freeze({ kind: "otherPrefix", text, prefix, name });
    }
}

/**
 * The end of an exhaustive `switch` over {@link FilterEntry} kinds: a new kind that some switch
 * does not handle is a type error there.
 *
 * @param entry - the entry no case handled (never, when the switch is exhaustive)
 */
export function unhandledFilterEntry(entry: never): never {
    throw new Error(`Unhandled filter entry kind: ${JSON.stringify(entry)}`);
}
