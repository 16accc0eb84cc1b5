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
// - an item of a list of tool names: "grep, glob, view, edit", "view/edit", "`rg`, `glob`, and
//   `view`" (at least two items of the list are tool names), or "the view tool or apply_patch"
//   (each item marked as a tool: joined by "or" / "and" alone, such items are still a list);
// - the head of a phrase of a list of phrases: a ranking ("code intelligence > glob > grep with a
//   glob": `glob` and `grep`, not the English "a glob"; a phrase may hold a parenthesis, "lsp (if
//   available)") or pairs ("**grep** instead of ...,
//   **glob** instead of ...").
// A mention inside a condition on the tool's availability ("If the ask_user tool is not
// available, ...", "use the ask_user tool (if available)") is marked `conditional`: the sentence
// is true whether or not the session offers the tool.
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
    /** For a list item (or a phrase's head): the list this name is an item of. */
    readonly list?: ToolNameList;
    /** True inside a condition on the tool's availability (see the top of this module). */
    readonly conditional?: boolean;
}

/**
 * A list in a text of which at least two items are (or start with) tool names: single words
 * ("grep, glob, view"; an item's span takes its backticks or bold markers), or phrases (a
 * ranking's "grep with a glob", a pair's "**grep** instead of `grep`/`rg`").
 */
export interface ToolNameList {
    readonly items: readonly {
        /** The item's word, or its phrase's first word. */
        readonly word: string;
        /** Where the item starts (its opening backtick or bold marker included). */
        readonly start: number;
        /** Where the item ends (its closing marker included). */
        readonly end: number;
    }[];
    /** The separators between the items, in order (one fewer than the items). */
    readonly separators: readonly string[];
}

/** A word: a letter, then letters, digits, `_` or `-`. */
const WORD = /[A-Za-z][A-Za-z0-9_-]*/g;

/** What separates two items of a list of words. */
const LIST_SEPARATOR = /^(?:\s*,\s*(?:(?:and|or)\s+)?|\/|\s+(?:and|or)\s+)$/;

/**
 * Before a backticked word, when it is a shell command rather than a tool: "commands such as
 * `grep`/`rg`" (the word, or one of backticked words joined by slashes after "commands such as"
 * or "commands like"). Looked for in the 80 characters before the word.
 */
const SHELL_COMMANDS = /\bcommands?\s+(?:such\s+as|like)\s+(?:`[A-Za-z][\w-]*`\/)*`$/;

/** At most this many characters between two words of one list (markers aside). */
const MAX_SEPARATOR = 8;

/** At most this many characters in one phrase of a ranking or a pair. */
const MAX_PHRASE = 120;

/** A word with its span: the word itself, and with the backticks or bold markers around it. */
interface Word {
    readonly word: string;
    readonly start: number;
    readonly end: number;
    readonly spanStart: number;
    readonly spanEnd: number;
    /** "the view tool": the span takes "the" and "tool" (a list item marked as a tool by them). */
    readonly toolPhrase?: boolean;
}

/**
 * The places where `text` names one of `names`, by the rule at the top of this module, in order.
 *
 * @param text - any text (a section of the runtime's prompt, the app's systemMessage)
 * @param names - the tool names to look for (matched exactly, case-sensitively)
 * @returns the mentions, in order of position
 */
export function toolMentions(text: string, names: ReadonlySet<string>): ToolMention[] {
    const byStart = new Map<number, ToolMention>();
    const words: Word[] = [];
    for (const match of text.matchAll(WORD)) {
        const word = match[0];
        const start = match.index;
        const end = start + word.length;
        words.push({ word, start, end, ...spanOf(text, start, end) });
        if (!names.has(word)) continue;
        const kind = contextKind(text, word, start, end);
        if (kind !== undefined) byStart.set(start, { name: word, kind, start, end });
    }
    const lists = [
        ...wordLists(text, withToolPhrases(text, words, names), names),
        ...rankings(text, names),
        ...insteadOfPairs(text),
    ];
    for (const { list, heads } of lists) {
        for (const head of heads) {
            if (!names.has(head.word)) continue;
            const known = byStart.get(head.start);
            byStart.set(head.start, {
                name: head.word,
                kind: known?.kind ?? "list",
                start: head.start,
                end: head.end,
                list,
            });
        }
    }
    return [...byStart.values()]
        .map((mention) =>
            isConditional(text, mention.start, mention.end)
                ? { ...mention, conditional: true }
                : mention
        )
        .sort((a, b) => a.start - b.start);
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
        return isShellCommand(text, start) ? undefined : "code";
    }
    if ((before.endsWith("<") || before === "</") && after.startsWith(">")) return "block";
    if (/^\s+(?:tool\b|calls?\b)/.test(after)) return "tool-word";
    if (word.includes("_") && !before.endsWith("/") && !/^[/]/.test(after)) return "identifier";
    return undefined;
}

function isShellCommand(text: string, start: number): boolean {
    return SHELL_COMMANDS.test(text.slice(Math.max(0, start - 80), start));
}

/** The word's span with its backticks or bold markers, when it has them on both sides. */
function spanOf(text: string, start: number, end: number): { spanStart: number; spanEnd: number } {
    if (text[start - 1] === "`" && text[end] === "`")
        return { spanStart: start - 1, spanEnd: end + 1 };
    if (text.slice(start - 2, start) === "**" && text.slice(end, end + 2) === "**") {
        return { spanStart: start - 2, spanEnd: end + 2 };
    }
    return { spanStart: start, spanEnd: end };
}

/**
 * Whether the mention is inside a condition on the tool's availability: "(if available)" right
 * after the name (or "the X tool"), or "if / when / unless [the] X [tool] is (not) available".
 */
function isConditional(text: string, start: number, end: number): boolean {
    const after = text.slice(end, end + 40).replace(/^(?:`|\*\*)?(?:\s+tools?\b)?/, "");
    if (/^\s*\((?:if|when)\s+(?:it\s+is\s+)?available\)/i.test(after)) return true;
    const before = text.slice(Math.max(0, start - 24), start);
    return (
        /^\s+(?:is|are)\s+(?:not\s+|un)?available\b/i.test(after) &&
        /\b(?:if|when|unless|whether)\s+(?:the\s+)?(?:`|\*\*)?$/i.test(before)
    );
}

/** A list found in the text, and the words that stand for its items (their names). */
interface FoundList {
    readonly list: ToolNameList;
    readonly heads: readonly {
        readonly word: string;
        readonly start: number;
        readonly end: number;
    }[];
}

/**
 * The words with each "the <name> tool" taken as one word whose span is the phrase: an item of a
 * list such as "when the view tool or apply_patch would suffice".
 */
function withToolPhrases(text: string, words: readonly Word[], names: ReadonlySet<string>): Word[] {
    const out: Word[] = [];
    for (let i = 0; i < words.length; i++) {
        const [the, name, tool] = [words[i]!, words[i + 1], words[i + 2]];
        if (
            the.word.toLowerCase() === "the" &&
            name !== undefined &&
            tool?.word === "tool" &&
            names.has(name.word) &&
            text.slice(the.end, name.spanStart) === " " &&
            text.slice(name.spanEnd, tool.start) === " "
        ) {
            out.push({ ...name, spanStart: the.start, spanEnd: tool.end, toolPhrase: true });
            i += 2;
            continue;
        }
        out.push(the);
    }
    return out;
}

/**
 * Whether a word is marked as a tool's name whatever its neighbours: backticked or bold, an
 * identifier no English word is (read_bash), or "the <name> tool".
 */
function markedAsTool(word: Word): boolean {
    return word.toolPhrase === true || word.spanStart < word.start || word.word.includes("_");
}

/** The lists of words with at least two tool names among them (see {@link LIST_SEPARATOR}). */
function wordLists(text: string, words: readonly Word[], names: ReadonlySet<string>): FoundList[] {
    const lists: FoundList[] = [];
    let items: Word[] = [];
    let separators: string[] = [];
    const close = () => {
        if (items.filter((item) => names.has(item.word)).length >= 2 && isList(items, separators)) {
            lists.push({
                list: {
                    items: items.map(({ word, spanStart, spanEnd }) => ({
                        word,
                        start: spanStart,
                        end: spanEnd,
                    })),
                    separators,
                },
                heads: items,
            });
        }
        items = [];
        separators = [];
    };
    const isList = (found: readonly Word[], between: readonly string[]) => {
        // Backticked shell commands ("commands such as `grep`/`rg`") are no list of tools.
        const first = found[0]!;
        if (first.spanStart < first.start && isShellCommand(text, first.start)) return false;
        // "create and edit files" is English: a list needs a comma between its items, unless
        // each item is a tool name marked as one ("the view tool or apply_patch"). A slash
        // between names and other words is a path or a shell alternative (grep/head): a list
        // joined by slashes alone counts only when every item is a tool name.
        return between.every((separator) => separator === "/")
            ? found.every((item) => names.has(item.word))
            : between.some((separator) => separator.includes(",")) ||
                  found.every((item) => names.has(item.word) && markedAsTool(item));
    };
    for (const word of words) {
        // "and" / "or" are part of a separator (", and ", " or "), not items.
        if (word.word === "and" || word.word === "or") continue;
        const previous = items.at(-1);
        if (previous !== undefined) {
            const gap = word.spanStart - previous.spanEnd;
            const separator =
                gap <= MAX_SEPARATOR ? text.slice(previous.spanEnd, word.spanStart) : "";
            // The items of a list are written alike: "`rg`, **glob**" joins two phrases; "the
            // view tool" is a list's item beside any other tool name.
            const alike =
                word.start - word.spanStart === previous.start - previous.spanStart ||
                word.toolPhrase === true ||
                previous.toolPhrase === true;
            if (alike && gap <= MAX_SEPARATOR && LIST_SEPARATOR.test(separator)) {
                items.push(word);
                separators.push(separator);
                continue;
            }
            close();
        }
        items.push(word);
    }
    close();
    return lists;
}

/** A character a phrase of a ranking may hold (words, spaces, markers, parentheses). */
const PHRASE_CHAR = /[A-Za-z0-9_`* ()-]/;

/**
 * Rankings: phrases joined by " > " ("available LSP > glob > grep with a glob > bash"), each
 * phrase within a clause (after a ":" or "," and before the clause's end). An item is a phrase;
 * the name it stands for is its first word.
 */
function rankings(text: string, names: ReadonlySet<string>): FoundList[] {
    const lists: FoundList[] = [];
    let from = 0;
    for (;;) {
        const arrow = text.indexOf(" > ", from);
        if (arrow < 0) break;
        // A parenthesis within a phrase ("lsp (if available)") is part of it; one opened before
        // the phrase is not.
        let start = arrow;
        let depth = 0;
        while (start > 0 && arrow - start < MAX_PHRASE && PHRASE_CHAR.test(text[start - 1]!)) {
            depth += text[start - 1] === ")" ? 1 : text[start - 1] === "(" ? -1 : 0;
            if (depth < 0) break;
            start--;
        }
        const items: { word: string; start: number; end: number }[] = [];
        const separators: string[] = [];
        let at = start;
        for (;;) {
            let end = at;
            let open = 0;
            while (end < text.length && end - at < MAX_PHRASE && PHRASE_CHAR.test(text[end]!)) {
                if (text.startsWith(" > ", end)) break;
                open += text[end] === "(" ? 1 : text[end] === ")" ? -1 : 0;
                if (open < 0) break;
                end++;
            }
            const phrase = trimmed(text, at, end);
            if (phrase !== undefined) items.push(phrase);
            if (!text.startsWith(" > ", end) || phrase === undefined) break;
            separators.push(" > ");
            at = end + 3;
        }
        from = Math.max(at, arrow + 3);
        if (items.length !== separators.length + 1) continue;
        const heads = items.map((item) => headOf(text, item.start));
        if (heads.filter((head) => names.has(head.word)).length < 2) continue;
        lists.push({
            list: {
                items: items.map((item, i) => ({ ...item, word: heads[i]!.word })),
                separators,
            },
            heads,
        });
    }
    return lists;
}

/** The span without its spaces, or undefined when empty. */
function trimmed(text: string, start: number, end: number) {
    let from = start;
    let to = end;
    while (from < to && text[from] === " ") from++;
    // A list item's marker ("* ", "- ") is not part of the phrase.
    while (/^[*-] /.test(text.slice(from, from + 2)) && text[from + 1] !== "*") from += 2;
    while (to > from && text[to - 1] === " ") to--;
    return from < to ? { word: "", start: from, end: to } : undefined;
}

/** The first word of a phrase (its markers skipped). */
function headOf(text: string, start: number): { word: string; start: number; end: number } {
    let at = start;
    while (text[at] === "`" || text[at] === "*") at++;
    const word = /^[A-Za-z][A-Za-z0-9_-]*/.exec(text.slice(at, at + 64))?.[0] ?? "";
    return { word, start: at, end: at + word.length };
}

/** A pair's head: "**grep** instead of ". */
const INSTEAD_OF = /\*\*([A-Za-z][A-Za-z0-9_-]*)\*\* instead of /g;

/**
 * Pairs: "**grep** instead of commands such as `grep`/`rg`, **glob** instead of `find`/`ls`, and
 * **view** instead of `cat`" (at least two, joined by ", " or ", and "). An item is a pair,
 * ending where the next begins or at the end of its sentence.
 */
function insteadOfPairs(text: string): FoundList[] {
    const lists: FoundList[] = [];
    let starts: { word: string; start: number }[] = [];
    const close = () => {
        if (starts.length >= 2) {
            const items: { word: string; start: number; end: number }[] = [];
            const separators: string[] = [];
            starts.forEach((pair, i) => {
                const next = starts[i + 1];
                if (next !== undefined) {
                    const separator = /,\s+(?:and\s+)?$/.exec(text.slice(pair.start, next.start))!;
                    items.push({
                        word: pair.word,
                        start: pair.start,
                        end: separator.index + pair.start,
                    });
                    separators.push(separator[0]);
                } else {
                    items.push({
                        word: pair.word,
                        start: pair.start,
                        end: clauseEnd(text, pair.start),
                    });
                }
            });
            lists.push({
                list: { items, separators },
                heads: items.map((item) => ({
                    word: item.word,
                    start: item.start + 2,
                    end: item.start + 2 + item.word.length,
                })),
            });
        }
        starts = [];
    };
    for (const match of text.matchAll(INSTEAD_OF)) {
        const previous = starts.at(-1);
        if (previous !== undefined) {
            const between = text.slice(previous.start, match.index);
            const joined =
                between.length <= MAX_PHRASE &&
                /,\s+(?:and\s+)?$/.test(between) &&
                clauseEnd(text, previous.start) >= match.index;
            if (!joined) close();
        }
        starts.push({ word: match[1]!, start: match.index });
    }
    close();
    return lists;
}

/** Where the clause at `start` ends: before ". ", ".", ";" or a line break (within a bound). */
function clauseEnd(text: string, start: number): number {
    const limit = Math.min(text.length, start + MAX_PHRASE * 4);
    for (let at = start; at < limit; at++) {
        const char = text[at];
        if (char === "\n" || char === ";") return at;
        if (char === "." && (at + 1 >= text.length || /\s/.test(text[at + 1]!))) return at;
    }
    return limit;
}
