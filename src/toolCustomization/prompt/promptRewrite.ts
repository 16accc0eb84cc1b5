// The rewrite of one section of the runtime's instructions so that it agrees with the session's
// tools: what names (by toolMentions' rule) a tool to drop goes, in the smallest unit that leaves
// correct text, and nothing else changes.
//
// The units, from the largest:
// - a tool's own block, <name> ... </name> (nested blocks of the same tag included), as the
//   runtime's per-tool instructions are written;
// - a list item (a line starting with "*", "-" or "1."), or a line that is one sentence;
// - a clause of a sentence of clauses joined by "; ", when all it says is about dropped tools and
//   another clause stays ("never delegate a trace; follow it directly with grep/view." loses
//   "; follow ..."; of "use X for edits; use `view`/X instead of scripts" the first clause goes
//   and the second loses X from its list), each clause judged as a sentence is; a first clause
//   that goes leaves its opening phrase ("After defining a scope, do not use grep on it; compile
//   the report." keeps "After defining a scope, compile the report."), which the clause after it
//   depends on;
// - a phrase that only says with which tools something is done, when all its tools are dropped:
//   "using grep/glob/view", "by calling grep/view", "(1-2 tool calls with grep/glob/view)" loses
//   " with ...", and a parenthesis of only the tools, "(not grep/glob)";
// - a sentence (ended by ".", "!" or "?" and a space, or by the end of its line), without the
//   list item's marker when others sentences of the item stay; a following sentence of the item
//   that refers back to it ("Formatting commands ... are exempt.", "This ...") goes with it;
// - in a sentence whose only dropped mentions are items of lists that keep another item, each
//   list is written again without them, in every form the runtime writes: "use grep, glob, view,
//   edit" becomes "use edit"; also `a`/`b`, `rg`, `glob`, and `view`, rankings ("LSP > glob >
//   grep with a glob > bash") and pairs ("**grep** instead of ..., **glob** instead of ...");
//   a list left with one item makes a "they" after it in its clause singular ("use `view`/`x`
//   when they suffice" becomes "use `view` when it suffices").
// What stays: a mention inside a condition on the tool's availability ("If the ask_user tool is
// not available, ...": true either way), and for a built-in a custom tool replaces, everything
// but the built-in's own block: when to call a tool of that name, and that calls of it run in
// parallel, hold for the app's tool too; the block documents the built-in's parameters and
// behaviour, and the note tells the model to follow the app's description.
// An XML block left with nothing inside (<tool_preferences></tool_preferences>) goes too.
// Linear in the text's length: no regular expression here backtracks over more than a line.

import { toolMentions, type ToolMention, type ToolNameList } from "./toolMentions.js";

/** One change the rewrite made (or, in warn mode, would make). */
export interface PromptEdit {
    /** The dropped names the removed text named. */
    readonly names: readonly string[];
    /** `"removed"`: a block, line or sentence went; `"rewritten"`: a list lost items. */
    readonly action: "removed" | "rewritten";
    /** The text removed or rewritten, at most 160 characters. */
    readonly excerpt: string;
}

/** A section's text after the rewrite, and what changed. */
export interface RewrittenText {
    readonly text: string;
    readonly edits: readonly PromptEdit[];
    /** The mentions of dropped names in the text as given (toolMentions' rule), in order. */
    readonly mentions: readonly ToolMention[];
}

const MAX_EXCERPT = 160;

/** A sentence is looked for this far on either side of a mention (a bound on any text). */
const MAX_SENTENCE = 4000;

interface Range {
    start: number;
    end: number;
    names: Set<string>;
    replacement: string;
    action: PromptEdit["action"];
    /** The character just after the range starts a sentence now: it is written as a capital. */
    capitalize?: boolean;
}

/**
 * Rewrites `text` without the mentions of `dropped` (see the top of this module).
 *
 * @param text - the section's text
 * @param names - every tool name to recognise (built-ins the runtime knows, the app's tools)
 * @param dropped - the names the text must not recommend or describe
 * @param replaced - those of `dropped` a custom tool replaces: only their blocks go
 * @returns the text, and the edits in order
 */
export function rewriteWithoutTools(
    text: string,
    names: ReadonlySet<string>,
    dropped: ReadonlySet<string>,
    replaced: ReadonlySet<string> = NO_NAMES
): RewrittenText {
    const mentions = droppedMentions(text, names, dropped, replaced);
    if (mentions.length === 0) return { text, edits: [], mentions };
    const ranges: Range[] = [];
    // Blocks first (mentions come in order, blocks do not overlap): a mention inside a removed
    // block needs nothing more.
    const rest: ToolMention[] = [];
    let blockEnd = 0;
    for (const mention of mentions) {
        if (mention.start < blockEnd) continue;
        if (mention.kind === "block" && text[mention.start - 2] !== "<") {
            const close = matchingClose(text, mention.name, mention.end);
            if (close >= 0) {
                const start = lineStart(text, mention.start);
                blockEnd = lineEndWithBreak(text, close);
                ranges.push(removal(start, blockEnd, [mention.name]));
                continue;
            }
        }
        rest.push(mention);
    }
    // The others, grouped by the sentence they are in (mentions come in order: a mention before
    // the current sentence's end is in it, so each part of the text is looked at about once).
    const sentences: { start: number; end: number; mentions: ToolMention[] }[] = [];
    for (const mention of rest) {
        const current = sentences.at(-1);
        if (current !== undefined && mention.start < current.end) {
            current.mentions.push(mention);
            continue;
        }
        const [start, end] = sentenceAround(text, mention.start);
        sentences.push({ start, end, mentions: [mention] });
    }
    // A list loses an item only where a mention to remove is: not a replaced built-in's name (see
    // the top of this module), nor one in a condition on its availability ("lsp (if available)").
    // Mentions come in order: the first at or after the item's start is looked up by halving.
    const removable: Removable = (item) => {
        let low = 0;
        let high = mentions.length;
        while (low < high) {
            const middle = (low + high) >>> 1;
            if (mentions[middle]!.start < item.start) low = middle + 1;
            else high = middle;
        }
        return low < mentions.length && mentions[low]!.start < item.end;
    };
    const recognised = names;
    for (const { start, end: sentenceEnd, mentions: inSentence } of sentences) {
        const lists = listsToRewrite(inSentence, removable);
        if (lists !== undefined) {
            for (const list of lists) ranges.push(...listRewrite(text, list, removable));
            continue;
        }
        const names = inSentence.map((mention) => mention.name);
        // "Never delegate a trace; follow it directly with grep/view.": only the clause goes.
        const byClause = clauseEdits(text, start, sentenceEnd, inSentence, removable, recognised);
        if (byClause !== undefined) {
            ranges.push(...byClause);
            continue;
        }
        // "Do it yourself using grep/glob/view.": only the phrase goes.
        const byPhrase = phraseEdits(text, start, inSentence, removable);
        if (byPhrase !== undefined) {
            ranges.push(...byPhrase);
            continue;
        }
        const end = referringBack(text, sentenceEnd);
        const lineFrom = lineStart(text, start);
        const lineTo = lineEndWithBreak(text, start);
        // The sentence is its line (a list item's marker aside): the line goes.
        const wholeLine =
            /^\s*(?:(?:[*-]|\d+\.)\s+)?$/.test(text.slice(lineFrom, start)) &&
            text.slice(end, lineTo).trim() === "";
        ranges.push(
            wholeLine
                ? removal(lineFrom, lineTo, names)
                : text.slice(end, lineTo).trim() === ""
                  ? removal(skipSpacesBack(text, start), end, names)
                  : removal(start, skipSpaces(text, end), names)
        );
    }
    return { ...apply(text, ranges), mentions };
}

/**
 * The mentions of `dropped` names in `text` that the rewrite removes, by toolMentions' rule:
 * not those inside a condition on the tool's availability, and of a replaced built-in only its
 * own block (see the top of this module).
 *
 * @param text - the text
 * @param names - every tool name to recognise
 * @param dropped - the names looked for among them
 * @param replaced - those of `dropped` a custom tool replaces
 */
export function droppedMentions(
    text: string,
    names: ReadonlySet<string>,
    dropped: ReadonlySet<string>,
    replaced: ReadonlySet<string> = NO_NAMES
): ToolMention[] {
    return toolMentions(text, names).filter(
        (mention) =>
            dropped.has(mention.name) &&
            mention.conditional !== true &&
            (mention.kind === "block" || !replaced.has(mention.name))
    );
}

const NO_NAMES: ReadonlySet<string> = new Set();

/** At most this many characters of a mention's excerpt on either side of the name. */
const EXCERPT_SIDE = 50;

/**
 * A short excerpt of the line around a mention: at most {@link EXCERPT_SIDE} characters on either
 * side of the name, within its line, spaces collapsed, "…" where it was cut.
 *
 * @param text - the text the mention is in
 * @param mention - where the name is
 */
export function mentionExcerpt(text: string, mention: Pick<ToolMention, "start" | "end">): string {
    const from = Math.max(0, mention.start - EXCERPT_SIDE);
    const to = Math.min(text.length, mention.end + EXCERPT_SIDE);
    const before = text.slice(from, mention.start);
    const after = text.slice(mention.end, to);
    const lineBreakBefore = before.lastIndexOf("\n");
    const lineBreakAfter = after.indexOf("\n");
    const head = lineBreakBefore >= 0 ? before.slice(lineBreakBefore + 1) : before;
    const tail = lineBreakAfter >= 0 ? after.slice(0, lineBreakAfter) : after;
    const cutBefore = lineBreakBefore < 0 && from > 0;
    const cutAfter = lineBreakAfter < 0 && to < text.length;
    const excerpt = `${head}${text.slice(mention.start, mention.end)}${tail}`
        .replace(/\s+/g, " ")
        .trim();
    return `${cutBefore ? "…" : ""}${excerpt}${cutAfter ? "…" : ""}`;
}

function removal(start: number, end: number, names: readonly string[]): Range {
    return { start, end, names: new Set(names), replacement: "", action: "removed" };
}

/** Whether a list's item goes (a mention to remove is in it). */
type Removable = (item: ToolNameList["items"][number]) => boolean;

/** The lists to rewrite when every dropped mention of the sentence is an item of one. */
function listsToRewrite(
    mentions: readonly ToolMention[],
    dropped: Removable
): ToolNameList[] | undefined {
    const lists = new Set<ToolNameList>();
    for (const mention of mentions) {
        if (mention.list === undefined) return undefined;
        lists.add(mention.list);
    }
    for (const list of lists) {
        // A list that would keep no item goes with its sentence.
        if (list.items.every(dropped)) return undefined;
    }
    return [...lists];
}

/**
 * The list written again with the items not dropped (each item's text as written: its markers,
 * or its whole phrase), joined as the list was; and where one item is left of several, a "they"
 * after it in its clause made singular.
 */
function listRewrite(text: string, list: ToolNameList, dropped: Removable): Range[] {
    const kept = list.items
        .filter((item) => !dropped(item))
        .map((item) => text.slice(item.start, item.end));
    const { separators } = list;
    const joinedBy = separators.join(" ");
    const conjunction = /\bor\b/.test(joinedBy) ? "or" : /\band\b/.test(joinedBy) ? "and" : "";
    // Joined as the list was: "a/b", "a > b" and "a, b, c" by their one separator; "a, b, and c"
    // keeps its conjunction.
    const joined =
        conjunction === "" && separators.every((separator) => separator === separators[0])
            ? kept.join(separators[0])
            : conjunction === ""
              ? kept.join(", ")
              : kept.length <= 2
                ? kept.join(` ${conjunction} `)
                : `${kept.slice(0, -1).join(", ")}, ${conjunction} ${kept.at(-1)!}`;
    const names = new Set(list.items.filter(dropped).map((item) => item.word));
    const rewritten: Range = {
        start: list.items[0]!.start,
        end: list.items.at(-1)!.end,
        names,
        replacement: joined,
        action: "rewritten",
    };
    return kept.length === 1 ? [rewritten, ...singular(text, rewritten.end, names)] : [rewritten];
}

/** At most this many characters after a list are looked at for its "they" (a bound per list). */
const MAX_PHRASE_AFTER = 160;

/** Plural verbs whose singular is not the verb with "s" added. */
const SINGULAR_OF: ReadonlyMap<string, string> = new Map([
    ["are", "is"],
    ["were", "was"],
    ["have", "has"],
    ["do", "does"],
    ["don't", "doesn't"],
    ["aren't", "isn't"],
    ["weren't", "wasn't"],
]);

/** Verbs that are the same for "it" and "they" (modals), and adverbs between "they" and a verb. */
const SAME_FOR_IT = /^(?:can|could|may|might|must|shall|should|will|would|can't|won't)$/;
const ADVERB = /^(?:also|always|never|often|only|all|then|usually|both)$|ly$/;

/**
 * A "they" (and "them", "their") in the clause after `from` written for one tool: "they suffice"
 * becomes "it suffices". The clause ends at ";", a sentence's end or the line's end.
 */
function singular(text: string, from: number, names: ReadonlySet<string>): Range[] {
    let to = from;
    while (to < text.length && to - from < MAX_PHRASE_AFTER && !/[;\n]/.test(text[to]!)) {
        if (isSentenceEnd(text, to)) break;
        to++;
    }
    const ranges: Range[] = [];
    const rewrite = (start: number, end: number, replacement: string): void => {
        ranges.push({ start, end, names: new Set(names), replacement, action: "rewritten" });
    };
    for (const match of text.slice(from, to).matchAll(/\b(they|them|their)\b/gi)) {
        const at = from + match.index;
        const word = match[1]!;
        const capital = word[0] === "T";
        if (word.toLowerCase() === "them") {
            rewrite(at, at + word.length, capital ? "It" : "it");
            continue;
        }
        if (word.toLowerCase() === "their") {
            rewrite(at, at + word.length, capital ? "Its" : "its");
            continue;
        }
        // "they [adverb] verb": the verb agrees with "it".
        for (const next of text.slice(at + 4, to).matchAll(/\s+([A-Za-z']+)/g)) {
            const verb = next[1]!;
            if (ADVERB.test(verb.toLowerCase())) continue;
            const verbAt = at + 4 + next.index + next[0].length - verb.length;
            const agreed = SAME_FOR_IT.test(verb) ? verb : singularVerb(verb);
            const between = text.slice(at + 4, verbAt);
            rewrite(at, verbAt + verb.length, `${capital ? "It" : "it"}${between}${agreed}`);
            break;
        }
    }
    return ranges;
}

/** "suffice" -> "suffices", "run" -> "runs", "match" -> "matches", "apply" -> "applies". */
function singularVerb(verb: string): string {
    const irregular = SINGULAR_OF.get(verb);
    if (irregular !== undefined) return irregular;
    if (/(?:s|sh|ch|x|z|o)$/.test(verb)) return `${verb}es`;
    if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ies`;
    return `${verb}s`;
}

/**
 * The edits of a sentence whose dropped mentions are each in a list that keeps another item (the
 * list is written again) or in a phrase that only says with which tools something is done (the
 * phrase goes, see {@link toolPhrase}); undefined when a mention is elsewhere: the sentence goes.
 *
 * @param text - the section's text
 * @param start - where the sentence starts
 * @param mentions - the dropped mentions in it, in order
 * @param removable - whether a list's item goes
 */
function phraseEdits(
    text: string,
    start: number,
    mentions: readonly ToolMention[],
    removable: Removable
): Range[] | undefined {
    const ranges: Range[] = [];
    const done = new Set<ToolNameList>();
    for (const mention of mentions) {
        const { list } = mention;
        if (list !== undefined && done.has(list)) continue;
        if (list !== undefined) done.add(list);
        if (list !== undefined && !list.items.every(removable)) {
            ranges.push(...listRewrite(text, list, removable));
            continue;
        }
        const [from, to] =
            list !== undefined
                ? [list.items[0]!.start, list.items.at(-1)!.end]
                : mention.kind === "code"
                  ? [mention.start - 1, mention.end + 1]
                  : mention.kind === "bold"
                    ? [mention.start - 2, mention.end + 2]
                    : [mention.start, mention.end];
        const names = list !== undefined ? list.items.map((item) => item.word) : [mention.name];
        const phrase = toolPhrase(text, start, from, to);
        if (phrase === undefined) return undefined;
        ranges.push(removal(phrase[0], phrase[1], names));
    }
    return ranges;
}

/** Before the tools of a phrase that says with which tools something is done. */
const BY_MEANS_OF = /\s+(?:using|via|through|by\s+(?:calling|using))\s+(?:the\s+)?$/;
/** The same within a parenthesis, where "with" says it too: "(1-2 tool calls with grep/view)". */
const WITH = /\s+with\s+(?:the\s+)?$/;
/** Before the tools of a parenthesis that holds only them: "(not ", "(e.g. ". */
const PARENTHESIS = /\s*\((?:not|e\.g\.,?|i\.e\.,?|such as|like|via|using|with)?\s*$/;

/**
 * The phrase around the tools at `from`..`to` that goes with them, or undefined: a parenthesis
 * of only the tools ("(not grep/glob)"), or "using" / "via" / "by calling" and the tools ("do it
 * yourself using grep/glob/view"), or "with" and the tools at the end of a parenthesis, when at
 * least three words stay before it in its sentence or parenthesis. Elsewhere "with" may be what
 * the sentence is about ("Edits need not be done with apply_patch."): the sentence goes whole.
 */
function toolPhrase(
    text: string,
    sentenceStart: number,
    from: number,
    to: number
): [number, number] | undefined {
    const before = text.slice(Math.max(sentenceStart, from - 40), from);
    const toolWord = /^\s+tools?\b/.exec(text.slice(to, to + 8));
    const end = to + (toolWord?.[0].length ?? 0);
    const inParenthesis = PARENTHESIS.exec(before);
    const close = /^\s*\)/.exec(text.slice(end, end + 4));
    if (inParenthesis !== null && close !== null) {
        return [from - inParenthesis[0].length, end + close[0].length];
    }
    const byMeans = BY_MEANS_OF.exec(before) ?? (close !== null ? WITH.exec(before) : null);
    if (byMeans === null) return undefined;
    const at = from - byMeans[0].length;
    // The words before it, within a bound (a sentence may hold many lists).
    const head = text.slice(Math.max(sentenceStart, at - MAX_PHRASE_AFTER), at);
    const opened = head.lastIndexOf("(");
    const own = opened > head.lastIndexOf(")") ? head.slice(opened + 1) : head;
    return (own.match(/\S+/g) ?? []).length >= 3 ? [at, end] : undefined;
}

/** Applies the ranges (merged where they overlap), then removes XML blocks left empty. */
function apply(text: string, ranges: Range[]): Omit<RewrittenText, "mentions"> {
    ranges.sort((a, b) => a.start - b.start || b.end - a.end);
    const merged: Range[] = [];
    for (const range of ranges) {
        const last = merged.at(-1);
        if (last !== undefined && range.start < last.end) {
            // An overlap: the larger removal takes the other's names.
            if (range.end > last.end) last.capitalize = range.capitalize;
            last.end = Math.max(last.end, range.end);
            range.names.forEach((name) => last.names.add(name));
            if (range.action === "removed") {
                last.action = "removed";
                last.replacement = "";
            }
            continue;
        }
        merged.push(range);
    }
    let out = "";
    let at = 0;
    const edits: PromptEdit[] = [];
    merged.forEach((range, index) => {
        out += text.slice(at, range.start) + range.replacement;
        at = range.end;
        edits.push({
            names: [...range.names],
            action: range.action,
            excerpt: excerptOf(text.slice(range.start, range.end)),
        });
        if (range.capitalize === true && merged[index + 1]?.start !== at) {
            out += text.charAt(at).toUpperCase();
            at++;
        }
    });
    out += text.slice(at);
    return { text: withoutEmptyBlocks(out), edits };
}

function excerptOf(text: string): string {
    const trimmed = text.trim().replace(/\s+/g, " ");
    return trimmed.length <= MAX_EXCERPT ? trimmed : `${trimmed.slice(0, MAX_EXCERPT - 1)}…`;
}

/** Removes a line `<tag>` directly followed (blank lines aside) by its line `</tag>`. */
function withoutEmptyBlocks(text: string): string {
    const lines = text.split("\n");
    const out: string[] = [];
    for (const line of lines) {
        const close = /^<\/([A-Za-z_]+)>$/.exec(line.trim());
        if (close !== null) {
            let open = out.length - 1;
            while (open >= 0 && out[open]!.trim() === "") open--;
            if (open >= 0 && out[open]!.trim() === `<${close[1]}>`) {
                out.length = open;
                continue;
            }
        }
        out.push(line);
    }
    return out.join("\n");
}

/** Where the line at `position` starts (looked for at most {@link MAX_SENTENCE} back). */
function lineStart(text: string, position: number): number {
    const from = Math.max(0, position - MAX_SENTENCE);
    const found = text.slice(from, position).lastIndexOf("\n");
    return found < 0 ? from : from + found + 1;
}

/** The end of the line at `position`, after its line break. */
function lineEndWithBreak(text: string, position: number): number {
    const to = Math.min(text.length, position + MAX_SENTENCE);
    const found = text.slice(position, to).indexOf("\n");
    return found < 0 ? to : position + found + 1;
}

function skipSpaces(text: string, position: number): number {
    let at = position;
    while (at < text.length && (text[at] === " " || text[at] === "\t")) at++;
    return at;
}

function skipSpacesBack(text: string, position: number): number {
    let at = position;
    while (at > 0 && (text[at - 1] === " " || text[at - 1] === "\t")) at--;
    return at;
}

/**
 * The sentence around `position`, within its line: from after the previous ". " (or "!", "?", or
 * a list marker) to after the next one (or the line's end, without its break).
 */
function sentenceAround(text: string, position: number): [number, number] {
    const from = lineStart(text, position);
    const lineEnd = lineEndWithBreak(text, position);
    const to = text[lineEnd - 1] === "\n" ? lineEnd - 1 : lineEnd;
    // A list item's marker belongs to the item, not to its first sentence.
    const marker = /^\s*(?:[*-]|\d+\.)\s+/.exec(text.slice(from, Math.min(to, from + 16)));
    let start = from + (marker?.[0].length ?? 0);
    for (let at = position - 1; at > Math.max(start, position - MAX_SENTENCE); at--) {
        if (isSentenceEnd(text, at)) {
            start = skipSpaces(text, at + 1);
            break;
        }
    }
    let end = to;
    for (let at = position; at < Math.min(to, position + MAX_SENTENCE); at++) {
        if (isSentenceEnd(text, at)) {
            end = at + 1;
            break;
        }
    }
    return [start, end];
}

/** A ".", "!" or "?" followed by a space and a capital letter (or the line's end). */
function isSentenceEnd(text: string, at: number): boolean {
    const char = text[at];
    if (char !== "." && char !== "!" && char !== "?") return false;
    const next = text[at + 1];
    if (next === undefined || next === "\n") return true;
    return next === " " && /[A-Z*`"(]/.test(text[at + 2] ?? "");
}

/**
 * Where the close of the block opened just before `from` is: the matching `</name>`, counting
 * nested `<name>` blocks (runtime 1.0.102's `<skill>` holds `<available_skills>` of `<skill>`
 * entries); -1 when it has none.
 */
function matchingClose(text: string, name: string, from: number): number {
    const open = `<${name}>`;
    const close = `</${name}>`;
    let depth = 1;
    let at = from;
    for (;;) {
        const nextClose = text.indexOf(close, at);
        if (nextClose < 0) return -1;
        const nextOpen = text.indexOf(open, at);
        if (nextOpen >= 0 && nextOpen < nextClose) {
            depth++;
            at = nextOpen + open.length;
            continue;
        }
        depth--;
        if (depth === 0) return nextClose;
        at = nextClose + close.length;
    }
}

/**
 * A sentence that only makes sense after the one before it: it starts with a word that points
 * back, names "these tools", or exempts something from the sentence before ("Formatting
 * commands and bulk-edit tools are exempt."). Labelled on the runtime's text, not a general rule of English.
 */
const REFERS_BACK =
    /^(?:This|That|These|Those|It|They|Such|Otherwise)\b|\bthese tools\b|\bexempt\.$/;

/**
 * The end of the removal of the sentence that ends at `end`: after it, the sentences of its line
 * that refer back to it ({@link REFERS_BACK}).
 */
function referringBack(text: string, end: number): number {
    let at = end;
    for (;;) {
        const next = skipSpaces(text, at);
        if (next >= text.length || text[next] === "\n") return at;
        const [, nextEnd] = sentenceAround(text, next);
        if (nextEnd <= next || !REFERS_BACK.test(text.slice(next, nextEnd).trim())) return at;
        at = nextEnd;
    }
}

/** A clause's opening phrase: "After defining a scope, ", "When a file is large, ". */
const OPENING_PHRASE =
    /^(?:After|Before|When|Whenever|Once|If|Unless|While|Until|For|In|On)\b[^,;]{0,200},\s+/;

/**
 * The edits of a sentence of clauses joined by "; ", each clause judged alone: a clause without
 * a dropped mention stays, one whose dropped mentions are all items of lists that keep another
 * item has its lists written again, and any other goes (with the "; " before it, or, for the
 * sentence's first clause, the one after it, the next clause then starting with a capital).
 * Undefined when the sentence has one clause, or when no clause would stay: the sentence goes.
 *
 * @param text - the section's text
 * @param start - where the sentence starts
 * @param end - where it ends (after its closing punctuation, if any)
 * @param mentions - the dropped mentions in it, in order
 * @param removable - whether a list's item goes
 * @param recognised - every tool name (a kept clause that starts with one keeps its case)
 */
function clauseEdits(
    text: string,
    start: number,
    end: number,
    mentions: readonly ToolMention[],
    removable: Removable,
    recognised: ReadonlySet<string>
): Range[] | undefined {
    const close = /[.!?]/.test(text[end - 1] ?? "") ? end - 1 : end;
    // Each clause: from its first character to its last (the "; " between them belongs to none).
    const clauses: { from: number; to: number; mentions: ToolMention[] }[] = [];
    let from = start;
    for (;;) {
        // Within the sentence only (bounded by MAX_SENTENCE), not on through the whole text.
        const found = text.slice(from, close).indexOf("; ");
        const to = found < 0 ? close : from + found;
        clauses.push({ from, to, mentions: [] });
        if (to === close) break;
        from = to + 2;
    }
    if (clauses.length < 2) return undefined;
    let clause = 0;
    for (const mention of mentions) {
        while (clause + 1 < clauses.length && clauses[clause + 1]!.from <= mention.start) clause++;
        clauses[clause]!.mentions.push(mention);
    }
    const kept = clauses.map((clause) =>
        clause.mentions.length === 0
            ? ("kept" as const)
            : (listsToRewrite(clause.mentions, removable) ?? ("removed" as const))
    );
    const firstKept = kept.findIndex((verdict) => verdict !== "removed");
    if (firstKept < 0) return undefined;
    const ranges: Range[] = [];
    // The first clause's opening phrase, when it names no dropped tool: "After defining a scope, "
    // of "After defining a scope, do not use grep on it; compile the report." stays before the
    // clause that is kept, which depends on it.
    const opening =
        firstKept > 0
            ? OPENING_PHRASE.exec(text.slice(clauses[0]!.from, clauses[0]!.to))?.[0]
            : undefined;
    const keepsOpening =
        opening !== undefined &&
        clauses[0]!.mentions[0]!.start >= clauses[0]!.from + opening.length;
    clauses.forEach((clause, index) => {
        const verdict = kept[index]!;
        if (verdict === "kept") return;
        if (verdict !== "removed") {
            for (const list of verdict) ranges.push(...listRewrite(text, list, removable));
            return;
        }
        const names = clause.mentions.map((mention) => mention.name);
        const from = index === 0 && keepsOpening ? clause.from + opening!.length : clause.from;
        ranges.push(
            index < firstKept
                ? removal(from, clauses[index + 1]!.from, names)
                : removal(clauses[index - 1]!.to, clause.to, names)
        );
    });
    if (firstKept > 0 && !keepsOpening) {
        // The kept clause now starts the sentence: "use `view` ..." becomes "Use `view` ...",
        // unless it starts with a tool's name or with a list the edits write again.
        const at = clauses[firstKept]!.from;
        const word = /^[a-z][a-z_]*/.exec(text.slice(at, at + 40))?.[0];
        const edited = ranges.some((range) => range.start === at);
        if (word !== undefined && !recognised.has(word) && !edited) {
            ranges.find((range) => range.end === at)!.capitalize = true;
        }
    }
    return ranges;
}
