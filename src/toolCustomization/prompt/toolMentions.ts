// The one rule for "this text names a tool", used by the check of the app's own systemMessage
// (PROMPT_NAMES_REMOVED_TOOL) and by the rewrite of the runtime's sections (promptAgreement).
//
// Many tool names are English words (view, edit, create, task): a word counts as naming a tool
// only by its context, as the runtime's own text writes tool names:
// - bold or backticked: **grep**, `view` (not a backticked shell command: "commands such as
//   `grep`/`rg`");
// - an XML block of its own: <bash> ... </bash> (the runtime's per-tool instructions);
// - followed by "tool" or "calls": "the bash tool", "3 view tool calls", "independent view calls";
// - an identifier no English word is: read_bash, apply_patch (a name with an underscore);
// - an item of a list of tool names: "grep, glob, view, edit", "view/edit", "glob > grep"
//   (at least two items of the list are tool names).
//
// Bounded: one pass of a regular expression without nested quantifiers over the words, and for
// each word a look at a fixed number of characters around it; no recursion, so any text (a 10 MB
// single token included) takes time linear in its length and constant stack.

/** How a text names a tool, see the top of this module. */
export type ToolMentionKind = "bold" | "code" | "block" | "tool-word" | "identifier" | "list";

/** One place where a text names a tool. */
export interface ToolMention {
    readonly name: string;
    readonly kind: ToolMentionKind;
    /** Where the name starts in the text. */
    readonly start: number;
    /** Where the name ends in the text. */
    readonly end: number;
    /** For a list item: the list this name is an item of. */
    readonly list?: ToolNameList;
}

/** A list of words in a text, of which at least two are tool names. */
export interface ToolNameList {
    readonly items: readonly {
        readonly word: string;
        readonly start: number;
        readonly end: number;
    }[];
    /** The separators between the items, in order (one fewer than the items). */
    readonly separators: readonly string[];
}

/** A word: a letter, then letters, digits, `_` or `-`. */
const WORD = /[A-Za-z][A-Za-z0-9_-]*/g;

/** What separates two items of a list of names. */
const LIST_SEPARATOR = /^(?:\s*,\s*(?:(?:and|or)\s+)?|\/|\s+>\s+|\s+(?:and|or)\s+)$/;

/**
 * Before a backticked word, when it is a shell command rather than a tool: "commands such as
 * `grep`/`rg`" (the word, or one of backticked words joined by slashes after "commands such as"
 * or "commands like"). Looked for in the 80 characters before the word.
 */
const SHELL_COMMANDS = /\bcommands?\s+(?:such\s+as|like)\s+(?:`[A-Za-z][\w-]*`\/)*`$/;

/** At most this many characters between two words of one list. */
const MAX_SEPARATOR = 8;

/**
 * The places where `text` names one of `names`, by the rule at the top of this module, in order.
 *
 * @param text - any text (a section of the runtime's prompt, the app's systemMessage)
 * @param names - the tool names to look for (matched exactly, case-sensitively)
 * @returns the mentions, in order of position
 */
export function toolMentions(text: string, names: ReadonlySet<string>): ToolMention[] {
    const mentions: ToolMention[] = [];
    const words: { word: string; start: number; end: number }[] = [];
    for (const match of text.matchAll(WORD)) {
        const word = match[0];
        const start = match.index;
        const end = start + word.length;
        words.push({ word, start, end });
        if (!names.has(word)) continue;
        const kind = contextKind(text, word, start, end);
        if (kind !== undefined) mentions.push({ name: word, kind, start, end });
    }
    const counted = new Set(mentions.map((mention) => mention.start));
    for (const list of nameLists(text, words, names)) {
        for (const item of list.items) {
            if (names.has(item.word) && !counted.has(item.start)) {
                mentions.push({
                    name: item.word,
                    kind: "list",
                    start: item.start,
                    end: item.end,
                    list,
                });
            }
        }
    }
    return mentions.sort((a, b) => a.start - b.start);
}

/**
 * The tool names `text` names (see {@link toolMentions}), each once, in order of first mention.
 *
 * @param text - the text
 * @param names - the tool names to look for
 */
export function toolNamesInPrompt(text: string, names: ReadonlySet<string>): readonly string[] {
    return [...new Set(toolMentions(text, names).map((mention) => mention.name))];
}

/** How the characters around a name make it a tool's name, or undefined (an ordinary word). */
function contextKind(
    text: string,
    word: string,
    start: number,
    end: number
): ToolMentionKind | undefined {
    const before = text.slice(Math.max(0, start - 2), start);
    const after = text.slice(end, end + 12);
    // Part of a path or a file name (src/read_file.ts, a.view): not a tool's name.
    if (/[\\.]$/.test(before) || /^\.[A-Za-z0-9]/.test(after)) return undefined;
    if (before.endsWith("**") && after.startsWith("**")) return "bold";
    if (before.endsWith("`") && after.startsWith("`")) {
        return SHELL_COMMANDS.test(text.slice(Math.max(0, start - 80), start)) ? undefined : "code";
    }
    if ((before.endsWith("<") || before === "</") && after.startsWith(">")) return "block";
    if (/^\s+(?:tool\b|calls?\b)/.test(after)) return "tool-word";
    if (word.includes("_") && !before.endsWith("/") && !/^[/]/.test(after)) return "identifier";
    return undefined;
}

/** The lists of words with at least two tool names among them (see {@link LIST_SEPARATOR}). */
function nameLists(
    text: string,
    words: readonly { word: string; start: number; end: number }[],
    names: ReadonlySet<string>
): ToolNameList[] {
    const lists: ToolNameList[] = [];
    let items: (typeof words)[number][] = [];
    let separators: string[] = [];
    const close = () => {
        if (items.filter((item) => names.has(item.word)).length >= 2) {
            lists.push({ items, separators });
        }
        items = [];
        separators = [];
    };
    for (const word of words) {
        // "and" / "or" are part of a separator (", and ", " or "), not items.
        if (word.word === "and" || word.word === "or") continue;
        const previous = items.at(-1);
        if (previous !== undefined) {
            const gap = word.start - previous.end;
            const separator = gap <= MAX_SEPARATOR ? text.slice(previous.end, word.start) : "";
            if (gap <= MAX_SEPARATOR && LIST_SEPARATOR.test(separator)) {
                items.push(word);
                separators.push(separator);
                continue;
            }
            close();
        }
        items.push(word);
    }
    close();
    // "create and edit files" is English: a list needs a comma or a ">" between its items. A
    // slash between names and other words is a path or a shell alternative (grep/head): a list
    // joined by slashes alone counts only when every item is a tool name.
    return lists.filter((list) =>
        list.separators.every((separator) => separator === "/")
            ? list.items.every((item) => names.has(item.word))
            : list.separators.some((separator) => /[,>]/.test(separator))
    );
}
