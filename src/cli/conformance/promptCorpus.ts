// The labelled corpus of the prompt rewrite (issue 42, item 5): for a few session
// configurations, every unit of a runtime's sections the rewrite removes or edits, labelled by
// hand by a stable key (configuration, section, action, the first 10 hex digits of the SHA-256 of
// the unit's excerpt) with a short excerpt of the unit; never the runtime's text itself, which is
// captured when the corpus runs (test/unit/promptCorpus.test.ts on the installed runtime,
// scripts/measure/measure-prompt-sections.mjs into the measured data, `conformance` per runtime).
// A unit without a label is a difference of its own: the labels do not cover what the runtime now
// writes, so nothing says the edit is right.

import { createHash } from "node:crypto";

/** A configuration: its label, the built-ins the session lacks, those a custom tool replaces. */
export type CorpusConfig = readonly [
    label: string,
    lacks: readonly string[],
    replaces: readonly string[],
];

/** The configurations the labels are for. */
export const CORPUS_CONFIGS: readonly CorpusConfig[] = [
    ["default", [], []],
    ["no view/grep/glob", ["view", "grep", "glob"], []],
    ["no view", ["view"], []],
    ["replaced view", [], ["view"]],
    ["no bash", ["bash"], []],
    ["no apply_patch", ["apply_patch"], []],
];

/** The model ids whose sections the corpus is labelled on (one of each tool family). */
export const CORPUS_MODELS: readonly string[] = ["claude-sonnet-4.5", "gpt-4o"];

/** What went was false for the session: the edit is correct. */
export const FALSE_TEXT = "false";
/** What went said something true for the session: a false removal. */
export const TRUE_TEXT = "true";

/** Hand labels by key: [key, label, the start of the unit's text]. */
export const CORPUS_LABELS: readonly (readonly [string, string, string])[] = [
    [
        "no view/grep/glob|tool_efficiency|rewritten|10c87d8d93",
        FALSE_TEXT,
        "grep, glob, view, edit",
    ],
    [
        "no view/grep/glob|tool_efficiency|removed|b3b8d56aa1",
        FALSE_TEXT,
        "For example, if you need to read 3 files, make 3",
    ],
    ["no view/grep/glob|guidelines|rewritten|d01abd945c", FALSE_TEXT, "view/edit"],
    [
        "no view/grep/glob|runtime_instructions|removed|7e7ef27c0f",
        FALSE_TEXT,
        "Put all independent view calls in one response—w",
    ],
    [
        "no view/grep/glob|last_instructions|rewritten|66d898eb00",
        FALSE_TEXT,
        "example, search, view, edit, and shell",
    ],
    [
        "no view/grep/glob|identity|rewritten|b5c89efb8d",
        FALSE_TEXT,
        "available code intelligence > available LSP > gl",
    ],
    ["no view/grep/glob|identity|rewritten|10c87d8d93", FALSE_TEXT, "grep, glob, view, edit"],
    [
        "no view/grep/glob|identity|removed|b3b8d56aa1",
        FALSE_TEXT,
        "For example, if you need to read 3 files, make 3",
    ],
    [
        "no view/grep/glob|tool_instructions|removed|532028f48d",
        FALSE_TEXT,
        "<view> Put independent file or range reads in mu",
    ],
    [
        "no view/grep/glob|tool_instructions|removed|305a865d0e",
        FALSE_TEXT,
        "<grep> Ripgrep notes: * Escape literal braces: i",
    ],
    [
        "no view/grep/glob|tool_instructions|removed|12ed76ada7",
        FALSE_TEXT,
        "; follow it directly with grep/view",
    ],
    [
        "no view/grep/glob|tool_instructions|removed|74cd1eb5e5",
        FALSE_TEXT,
        "do not use parent grep/glob/view on it before or",
    ],
    [
        "no view/grep/glob|tool_instructions|removed|62f9ed1e36",
        FALSE_TEXT,
        "Important: Whenever possible, use built-in tools",
    ],
    [
        "no view/grep/glob|tool_instructions|rewritten|cedfbdeecd",
        FALSE_TEXT,
        "code intelligence > LSP > glob > grep with a fil",
    ],
    ["no view|tool_efficiency|rewritten|10c87d8d93", FALSE_TEXT, "grep, glob, view, edit"],
    [
        "no view|tool_efficiency|removed|b3b8d56aa1",
        FALSE_TEXT,
        "For example, if you need to read 3 files, make 3",
    ],
    ["no view|guidelines|rewritten|d01abd945c", FALSE_TEXT, "view/edit"],
    [
        "no view|runtime_instructions|removed|7e7ef27c0f",
        FALSE_TEXT,
        "Put all independent view calls in one response—w",
    ],
    [
        "no view|last_instructions|rewritten|66d898eb00",
        FALSE_TEXT,
        "example, search, view, edit, and shell",
    ],
    ["no view|identity|rewritten|10c87d8d93", FALSE_TEXT, "grep, glob, view, edit"],
    [
        "no view|identity|removed|b3b8d56aa1",
        FALSE_TEXT,
        "For example, if you need to read 3 files, make 3",
    ],
    [
        "no view|tool_instructions|removed|532028f48d",
        FALSE_TEXT,
        "<view> Put independent file or range reads in mu",
    ],
    ["no view|tool_instructions|rewritten|60b1aa5b0e", FALSE_TEXT, "grep/view"],
    ["no view|tool_instructions|rewritten|307f754bfc", FALSE_TEXT, "grep/glob/view"],
    [
        "no view|tool_instructions|rewritten|f13ae2196f",
        FALSE_TEXT,
        "**grep** instead of commands such as `grep`/`rg`",
    ],
    [
        "replaced view|tool_instructions|removed|532028f48d",
        FALSE_TEXT,
        "<view> Put independent file or range reads in mu",
    ],
    [
        "no bash|identity|rewritten|b5c89efb8d",
        FALSE_TEXT,
        "available code intelligence > available LSP > gl",
    ],
    [
        "no bash|tool_instructions|removed|c4f893573d",
        FALSE_TEXT,
        "<bash> Pay attention to the following when using",
    ],
    [
        "default|last_instructions|rewritten|66d898eb00",
        FALSE_TEXT,
        "example, search, view, edit, and shell",
    ],
    [
        "no view/grep/glob|tool_efficiency|rewritten|69f129dd9c",
        FALSE_TEXT,
        "rg, glob, view, apply_patch",
    ],
    [
        "no view/grep/glob|runtime_instructions|rewritten|ea5f06121b",
        FALSE_TEXT,
        "`rg`, `glob`, `view`, and `apply_patch`",
    ],
    [
        "no view/grep/glob|runtime_instructions|rewritten|a6f6fc8e9f",
        FALSE_TEXT,
        "`view`/`apply_patch`",
    ],
    [
        "no view/grep/glob|identity|rewritten|0a93f0d549",
        FALSE_TEXT,
        "available code intelligence > available LSP > gl",
    ],
    ["no view/grep/glob|identity|rewritten|69f129dd9c", FALSE_TEXT, "rg, glob, view, apply_patch"],
    ["no view/grep/glob|tool_instructions|rewritten|090a4f05ca", FALSE_TEXT, "rg/view"],
    ["no view/grep/glob|tool_instructions|rewritten|1486a7dcf6", FALSE_TEXT, "rg/glob/view"],
    [
        "no view/grep/glob|tool_instructions|rewritten|50ee03560e",
        FALSE_TEXT,
        "code intelligence > LSP > glob > rg with a file ",
    ],
    ["no view|tool_efficiency|rewritten|69f129dd9c", FALSE_TEXT, "rg, glob, view, apply_patch"],
    [
        "no view|runtime_instructions|rewritten|ea5f06121b",
        FALSE_TEXT,
        "`rg`, `glob`, `view`, and `apply_patch`",
    ],
    ["no view|runtime_instructions|rewritten|a6f6fc8e9f", FALSE_TEXT, "`view`/`apply_patch`"],
    ["no view|identity|rewritten|69f129dd9c", FALSE_TEXT, "rg, glob, view, apply_patch"],
    ["no view|tool_instructions|rewritten|090a4f05ca", FALSE_TEXT, "rg/view"],
    ["no view|tool_instructions|rewritten|1486a7dcf6", FALSE_TEXT, "rg/glob/view"],
    [
        "replaced view|last_instructions|rewritten|66d898eb00",
        FALSE_TEXT,
        "example, search, view, edit, and shell",
    ],
    [
        "no bash|last_instructions|rewritten|66d898eb00",
        FALSE_TEXT,
        "example, search, view, edit, and shell",
    ],
    [
        "no bash|identity|rewritten|0a93f0d549",
        FALSE_TEXT,
        "available code intelligence > available LSP > gl",
    ],
    [
        "no apply_patch|tool_efficiency|rewritten|69f129dd9c",
        FALSE_TEXT,
        "rg, glob, view, apply_patch",
    ],
    [
        "no apply_patch|runtime_instructions|rewritten|ea5f06121b",
        FALSE_TEXT,
        "`rg`, `glob`, `view`, and `apply_patch`",
    ],
    [
        "no apply_patch|runtime_instructions|removed|c385bcd600",
        FALSE_TEXT,
        "Use `apply_patch` for manual file creation/edits",
    ],
    [
        "no apply_patch|runtime_instructions|rewritten|a6f6fc8e9f",
        FALSE_TEXT,
        "`view`/`apply_patch`",
    ],
    [
        "no apply_patch|last_instructions|rewritten|66d898eb00",
        FALSE_TEXT,
        "example, search, view, edit, and shell",
    ],
    ["no apply_patch|identity|rewritten|69f129dd9c", FALSE_TEXT, "rg, glob, view, apply_patch"],
    // Seen only through a real session (conformance): excluding grep also removes rg on GPT (the
    // runtime's filter alias), and without apply_patch the runtime writes "view/edit" for GPT,
    // which is offered neither edit nor apply_patch then (measured on 1.0.85 and 1.0.102).
    [
        "no view/grep/glob|tool_instructions|removed|b32ca3c24f",
        FALSE_TEXT,
        "; follow it directly with rg/view",
    ],
    [
        "no view/grep/glob|tool_instructions|removed|08aa355060",
        FALSE_TEXT,
        "do not use parent rg/glob/view on it before or af",
    ],
    ["no apply_patch|guidelines|rewritten|d01abd945c", FALSE_TEXT, "view/edit"], // A list left with one item makes the "they" after it singular (1.0.85, 1.0.89-7, 1.0.102).
    ["no view/grep/glob|runtime_instructions|rewritten|188e604411", FALSE_TEXT, "they suffice"],
    ["no view|runtime_instructions|rewritten|188e604411", FALSE_TEXT, "they suffice"],
    ["no apply_patch|runtime_instructions|rewritten|188e604411", FALSE_TEXT, "they suffice"],
    [
        "no view/grep/glob|tool_instructions|removed|507f54f0a8",
        FALSE_TEXT,
        "<rg> Ripgrep notes: * Escape literal braces: inter",
    ],
    // Runtime 1.0.83 (SDK 1.0.13), labelled by reading each unit in its section; the GPT units
    // naming rg are those of a real session, where excluding grep also removes rg.
    [
        "no view/grep/glob|identity|rewritten|42773677c4",
        FALSE_TEXT,
        "code intelligence tools (if available) > LSP-based",
    ],
    [
        "no bash|identity|rewritten|42773677c4",
        FALSE_TEXT,
        "code intelligence tools (if available) > LSP-based",
    ],
    [
        "no view/grep/glob|identity|rewritten|d1fe75b029",
        FALSE_TEXT,
        "code intelligence tools (if available) > LSP-based",
    ],
    [
        "no bash|identity|rewritten|d1fe75b029",
        FALSE_TEXT,
        "code intelligence tools (if available) > LSP-based",
    ],
    [
        "no view/grep/glob|runtime_instructions|removed|c9f5668482",
        FALSE_TEXT,
        "- **Do all view calls in the same response.** Issu",
    ],
    [
        "no view|runtime_instructions|removed|c9f5668482",
        FALSE_TEXT,
        "- **Do all view calls in the same response.** Issu",
    ],
    [
        "no view/grep/glob|tool_instructions|removed|02828ab94d",
        FALSE_TEXT,
        "<view> When reading multiple files or multiple sec",
    ],
    [
        "no view|tool_instructions|removed|02828ab94d",
        FALSE_TEXT,
        "<view> When reading multiple files or multiple sec",
    ],
    [
        "replaced view|tool_instructions|removed|02828ab94d",
        FALSE_TEXT,
        "<view> When reading multiple files or multiple sec",
    ],
    [
        "no view/grep/glob|tool_instructions|removed|0791238947",
        FALSE_TEXT,
        "<grep> Built on ripgrep, not standard grep. Key no",
    ],
    [
        "no view/grep/glob|tool_instructions|removed|2a4787216d",
        FALSE_TEXT,
        "<rg> Built on ripgrep, not standard grep. Key note",
    ],
    ["no view/grep/glob|tool_instructions|removed|8cb2846028", FALSE_TEXT, "(not grep/glob)"],
    ["no view/grep/glob|tool_instructions|removed|9a27ecf34a", FALSE_TEXT, "(not rg/glob)"],
    ["no view/grep/glob|tool_instructions|removed|8bc917c0df", FALSE_TEXT, "using grep/glob/view"],
    ["no view/grep/glob|tool_instructions|removed|43d8309d69", FALSE_TEXT, "using rg/glob/view"],
    ["no view/grep/glob|tool_instructions|removed|7771396bcf", FALSE_TEXT, "by calling grep/view"],
    ["no view/grep/glob|tool_instructions|removed|7777c9b833", FALSE_TEXT, "by calling rg/view"],
    ["no view/grep/glob|tool_instructions|removed|5d342b85d9", FALSE_TEXT, "with grep/glob/view"],
    ["no view/grep/glob|tool_instructions|removed|76efeeb542", FALSE_TEXT, "with rg/glob/view"],
    [
        "no view/grep/glob|tool_instructions|removed|56fbe6709e",
        FALSE_TEXT,
        "* Use the **grep** tool instead of commands like `",
    ],
    [
        "no view/grep/glob|tool_instructions|removed|34a02c845b",
        FALSE_TEXT,
        "* Use the **glob** tool instead of commands like `",
    ],
    [
        "no view/grep/glob|tool_instructions|removed|8c4ec0b29c",
        FALSE_TEXT,
        "* Use the **view** tool instead of commands like `",
    ],
    [
        "no view|tool_instructions|removed|8c4ec0b29c",
        FALSE_TEXT,
        "* Use the **view** tool instead of commands like `",
    ],
    [
        "no view/grep/glob|tool_instructions|removed|175552ee0f",
        FALSE_TEXT,
        "If code intelligence tools are available (semantic",
    ],
    [
        "no view/grep/glob|tool_instructions|removed|dbe9a82921",
        FALSE_TEXT,
        "If code intelligence tools are available (semantic",
    ],
    [
        "no view/grep/glob|tool_instructions|rewritten|56c5347dd8",
        FALSE_TEXT,
        "Code Intelligence Tools (if available) > lsp (if a",
    ],
    [
        "no view/grep/glob|tool_instructions|rewritten|6b1f605eaf",
        FALSE_TEXT,
        "Code Intelligence Tools (if available) > lsp (if a",
    ],
    ["no view/grep/glob|tool_instructions|rewritten|bcb30c7544", FALSE_TEXT, "rg/glob"],
    [
        "no view/grep/glob|runtime_instructions|rewritten|a241be2564",
        FALSE_TEXT,
        "the view tool or apply_patch",
    ],
    [
        "no view|runtime_instructions|rewritten|a241be2564",
        FALSE_TEXT,
        "the view tool or apply_patch",
    ],
    [
        "no apply_patch|runtime_instructions|rewritten|a241be2564",
        FALSE_TEXT,
        "the view tool or apply_patch",
    ],
    ["no view/grep/glob|runtime_instructions|rewritten|4f616d6e36", FALSE_TEXT, "they are"],
    [
        "no apply_patch|runtime_instructions|removed|022df086ef",
        FALSE_TEXT,
        "Always use apply_patch for manual code edits.",
    ],
    [
        "no apply_patch|runtime_instructions|removed|c84d99176e",
        FALSE_TEXT,
        "Formatting commands or bulk edits don't need to be",
    ],
];

const LABEL_OF: ReadonlyMap<string, string> = new Map(
    CORPUS_LABELS.map(([key, label]) => [key, label])
);

/** One unit the rewrite removed or edited, as its report gives it. */
export interface CorpusEdit {
    readonly config: string;
    readonly section: string;
    readonly action: string;
    readonly excerpt: string;
}

/**
 * The key a unit is labelled by.
 *
 * @param edit - the unit
 */
export function corpusKey(edit: CorpusEdit): string {
    const hash = createHash("sha256").update(edit.excerpt).digest("hex").slice(0, 10);
    return `${edit.config}|${edit.section}|${edit.action}|${hash}`;
}

/** The corpus's figures on one runtime. */
export interface CorpusFigures {
    /** Units removed or edited. */
    readonly edits: number;
    /** Of those, labelled false for the session (correct edits). */
    readonly correct: number;
    /** The keys of units labelled true for the session (false removals), distinct, sorted. */
    readonly falseRemovals: readonly string[];
    /** The keys of units no label covers, with their excerpts, distinct, sorted. */
    readonly unlabelled: readonly string[];
    /** Mentions of a dropped tool in the sections, outside conditions on availability. */
    readonly mentions: number;
    /** Of those, the ones the rewrite handled (none left after it). */
    readonly handled: number;
}

/**
 * Scores the edits against the labels.
 *
 * @param edits - every unit removed or edited, over the configurations and sections
 * @param mentions - the mentions of dropped tools before the rewrite
 * @param left - those left after it
 */
export function scoreCorpus(
    edits: readonly CorpusEdit[],
    mentions: number,
    left: number
): CorpusFigures {
    let correct = 0;
    const falseRemovals = new Set<string>();
    const unlabelled = new Set<string>();
    for (const edit of edits) {
        const key = corpusKey(edit);
        const label = LABEL_OF.get(key);
        if (label === undefined) unlabelled.add(`${key}: ${edit.excerpt}`);
        else if (label === FALSE_TEXT) correct++;
        else falseRemovals.add(key);
    }
    return {
        edits: edits.length,
        correct,
        falseRemovals: [...falseRemovals].sort(),
        unlabelled: [...unlabelled].sort(),
        mentions,
        handled: mentions - left,
    };
}

/** Correct edits over edits (1 when there are none). */
export function corpusPrecision(figures: CorpusFigures): number {
    return figures.edits === 0 ? 1 : figures.correct / figures.edits;
}

/** Handled mentions over mentions (1 when there are none). */
export function corpusRecall(figures: CorpusFigures): number {
    return figures.mentions === 0 ? 1 : figures.handled / figures.mentions;
}

/**
 * One line of figures: "62 edits, 62 correct, 0 false removals, 0 unlabelled; precision 1.000,
 * recall 1.000 (94 of 94 mentions handled)".
 *
 * @param figures - the corpus's figures on one runtime
 */
export function corpusLine(figures: CorpusFigures): string {
    return (
        `${figures.edits} edits, ${figures.correct} correct, ` +
        `${figures.falseRemovals.length} false removals, ${figures.unlabelled.length} unlabelled; ` +
        `precision ${corpusPrecision(figures).toFixed(3)}, recall ${corpusRecall(figures).toFixed(3)} ` +
        `(${figures.handled} of ${figures.mentions} mentions handled)`
    );
}
