// `promptAgreement`: the runtime's own instructions agree with the session's tools, through the
// SDK's customize-mode section transforms. Built on the session record: the transforms are made
// before the session exists (createSession sends them), hold a `PromptAgreement`, and read the
// tools in force from it when the runtime calls them; attachSession points it at the record, so
// from then on every call reads `record.current` as setTools and setModel leave it.
//
// Composition with the app's `systemMessage`:
// - none, or append mode: customize mode with the package's transforms, the app's `content`
//   kept as it is (customize mode appends it after the sections, as append mode does);
// - customize mode: per section, the package's rewrite runs first on the runtime's text, then
//   the app's override on the result: a transform gets the agreed text, `append` / `prepend`
//   content is joined with a line break; a section the app replaces, removes or preserves is the
//   app's, left alone;
// - replace mode: the app owns the whole prompt; nothing is added (the PROMPT_NAMES_REMOVED_TOOL
//   check of its content applies).
//
// Outcomes: each call rewrites the text it is given for the tools in force at that moment (a
// call again gives the same text for the same tools); if the rewrite throws, the section is
// left as given and PROMPT_REWRITE_FAILED is warned once; if the app's own transform throws (or
// its promise rejects), the section goes as the rewrite left it and PROMPT_TRANSFORM_FAILED is
// warned once per section (the SDK alone would send the runtime's text, mentions and all).

import { isPromiseLike } from "../../shared/promiseLike.js";
import type { SessionToolWarning } from "../api/sessionToolWarning.js";
import type {
    PromptAgreementMode,
    PromptAgreementReport,
    PromptSectionEdit,
    PromptToolMention,
} from "../api/publicTypes.js";
import { formatList } from "../../shared/formatting.js";
import {
    droppedMentions,
    mentionExcerpt,
    rewriteWithoutTools,
    type RewrittenText,
} from "./promptRewrite.js";
import { toolMentions, type ToolMention } from "./toolMentions.js";

/** The section ids of the SDK's `SYSTEM_MESSAGE_SECTIONS` (1.0.x), in the runtime's order. */
export const PROMPT_SECTIONS: readonly string[] = Object.freeze([
    "preamble",
    "identity",
    "tone",
    "tool_efficiency",
    "environment_context",
    "code_change_rules",
    "guidelines",
    "safety",
    "tool_instructions",
    "custom_instructions",
    "runtime_instructions",
    "last_instructions",
]);

/** Where the note goes: the first of these sections the package transforms. */
const NOTE_SECTIONS = ["last_instructions", "tool_instructions", "runtime_instructions"];

/** The session's tools as the rewrite needs them. */
export interface PromptTools {
    /** Every name the naming rule looks for: the runtime's built-ins and the custom tools. */
    readonly names: ReadonlySet<string>;
    /** The names the text must not recommend or describe: not offered, or replaced. */
    readonly dropped: ReadonlySet<string>;
    /** The built-ins this model is normally offered that the session does not offer. */
    readonly missing: readonly string[];
    /** The built-ins a custom tool replaces. */
    readonly replaced: readonly string[];
    /**
     * The built-ins among `dropped` (the custom tools' names aside), whether the model is
     * normally offered them or not.
     */
    readonly droppedBuiltIns: readonly string[];
    /**
     * Built-ins the session may lack but the package cannot confirm absent (a runtime or a model
     * it has no measurements of): kept in the text, named in the note.
     */
    readonly unconfirmed: readonly string[];
}

/**
 * The names sections without a transform name that the session lacks or replaces, after a change
 * (`namesOutsideAgreement`), and whether measured texts name them.
 */
export interface NamesOutside {
    readonly names: readonly string[];
    /**
     * True where the runtime's measured section texts name them; false where nothing was
     * measured, and the names are the built-ins the session lacks or replaces, which its
     * instructions may name.
     */
    readonly certain: boolean;
}

/** No name outside the agreement. */
export const NOTHING_OUTSIDE: NamesOutside = Object.freeze({
    names: Object.freeze([]),
    certain: true,
});

/** One session's agreement: what its transforms read and write. */
export interface PromptAgreement {
    readonly mode: Exclude<PromptAgreementMode, "off">;
    /**
     * The app set no `promptAgreement`: the mode is the runtime's default. A defaulted `"warn"`
     * (the rewrite is not proven on this runtime) adds the note too.
     */
    readonly defaulted: boolean;
    /** The tools in force: the prepared ones until the session has its record. */
    tools: () => PromptTools;
    /** The latest build's report (`toolResolution.prompt`). */
    report: PromptAgreementReport | undefined;
    /**
     * Told after each `setTools` / `setModel` with the session's model: warns once per set of
     * names when the runtime's instructions now name, in sections without a transform, tools
     * the session lacks (a session that had nothing to agree on at its creation).
     */
    readonly changed: (model: unknown) => void;
}

/**
 * A section's text after the rewrite, what changed, and the mentions of dropped names left in
 * the rewritten text (what the report's `mentions.after` starts from).
 */
export interface AgreedText extends RewrittenText {
    readonly left: readonly ToolMention[];
}

/**
 * The rewrite of one section's text for the session's tools: {@link rewriteWithoutTools}, or the
 * same answer remembered from an earlier build (see {@link createPromptRewrites}).
 */
export type PromptRewriter = (text: string, tools: PromptTools) => AgreedText;

/** At most this many rewrites are remembered per client (about 12 per set of tools in force). */
const MAX_REMEMBERED_REWRITES = 96;

/** The rewrite of `text`, and the mentions left in its result, frozen. */
function agreedText(text: string, tools: PromptTools): AgreedText {
    const replaced = replacedOf(tools);
    const rewritten = rewriteWithoutTools(text, tools.names, tools.dropped, replaced);
    return Object.freeze({
        text: rewritten.text,
        edits: Object.freeze(
            rewritten.edits.map((edit) =>
                Object.freeze({ ...edit, names: Object.freeze([...edit.names]) })
            )
        ),
        mentions: Object.freeze(rewritten.mentions.map((mention) => Object.freeze(mention))),
        left: Object.freeze(
            (rewritten.edits.length === 0
                ? rewritten.mentions
                : droppedMentions(rewritten.text, tools.names, tools.dropped, replaced)
            ).map((mention) => Object.freeze(mention))
        ),
    });
}

/**
 * A client's rewriter, which remembers its answers. The rewrite is a pure function of the
 * section's text and the names it recognises and drops, and the runtime sends a client's sessions
 * mostly the same texts: a build whose section text and tools match an earlier build's (compared
 * in full, not by a digest) gets the earlier answer without scanning the text again. The one
 * part of a text that differs in every session, its id (the session folder's path in
 * `runtime_instructions` ends with it), is compared as a placeholder where the rewrite cannot
 * depend on it ({@link sessionIdsMasked}), and put back in the answer. Anything else (another
 * text, other tools) is rewritten as it comes; nothing is skipped on a guess. Bounded: the oldest
 * answers are forgotten first.
 *
 * @returns the rewriter, kept in the client's session-tool state
 */
export function createPromptRewrites(): PromptRewriter {
    const keys = new WeakMap<PromptTools, string>();
    const remembered = new Map<string, Map<string, AgreedText>>();
    let size = 0;
    const rememberedAnswer = (text: string, tools: PromptTools): AgreedText => {
        let key = keys.get(tools);
        if (key === undefined) {
            key = JSON.stringify([[...tools.names], [...tools.dropped], tools.replaced]);
            keys.set(tools, key);
        }
        let byText = remembered.get(key);
        const known = byText?.get(text);
        if (known !== undefined) return known;
        const frozen = agreedText(text, tools);
        if (size >= MAX_REMEMBERED_REWRITES) {
            // Forget the oldest set of tools' answers.
            const [oldest, answers] = remembered.entries().next().value!;
            remembered.delete(oldest);
            size -= answers.size;
        }
        if (byText === undefined || !remembered.has(key)) {
            byText = new Map();
            remembered.set(key, byText);
        }
        byText.set(text, frozen);
        size++;
        return frozen;
    };
    return (text, tools) => {
        const masked = sessionIdsMasked(text, tools);
        if (masked === undefined) return rememberedAnswer(text, tools);
        return (
            unmasked(rememberedAnswer(masked.text, tools), masked.ids) ?? agreedText(text, tools)
        );
    };
}

/** A session id as the runtime writes it (a UUID), not inside a longer word. */
const SESSION_ID =
    /(?<![A-Za-z0-9_-])[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}(?![A-Za-z0-9_-])/gi;

/** What an id is compared as: of its length, and no word (a word starts with a letter). */
const ID_MASK = "00000000-0000-0000-0000-000000000000";

/**
 * The text with each session id replaced by {@link ID_MASK}, so that texts that differ only in
 * the id are one text to the rewriter; offsets are unchanged (same length). An id is masked only
 * where the rewrite cannot depend on it: its line names no tool, with the id or with the mask
 * (toolMentions' rule; a mention's context, lists included, is read within a line, and the
 * sentences and blocks the rewrite removes are bounded by what it names). Undefined when nothing
 * is masked.
 */
function sessionIdsMasked(
    text: string,
    tools: PromptTools
): { text: string; ids: string[] } | undefined {
    if (!text.includes("-") || text.includes(ID_MASK)) return undefined;
    const ids: string[] = [];
    let safe = true;
    const masked = text.replace(SESSION_ID, (id: string, at: number) => {
        const from = text.lastIndexOf("\n", at) + 1;
        const lineEnd = text.indexOf("\n", at);
        const line = text.slice(from, lineEnd < 0 ? text.length : lineEnd);
        const maskedLine = line.slice(0, at - from) + ID_MASK + line.slice(at - from + id.length);
        if (toolMentions(line, tools.names).length > 0) safe = false;
        if (toolMentions(maskedLine, tools.names).length > 0) safe = false;
        ids.push(id);
        return ID_MASK;
    });
    return safe && ids.length > 0 ? { text: masked, ids } : undefined;
}

/**
 * The answer for the masked text with the ids put back, in order (the rewrite removes and
 * rewrites spans, it never moves them); undefined when an id went with removed text (a block
 * whose other lines name a tool), as then which one is not known: the caller rewrites the text
 * itself. (An edit's excerpt cannot show the mask otherwise: the rest of what the rewrite
 * removes or rewrites is on lines that name a tool, where nothing is masked.)
 */
function unmasked(answer: AgreedText, ids: readonly string[]): AgreedText | undefined {
    const parts = answer.text.split(ID_MASK);
    if (parts.length - 1 !== ids.length) return undefined;
    // Offsets hold: an id and the mask have the same length.
    return Object.freeze({
        ...answer,
        text: parts.reduce((text, part, i) => `${text}${ids[i - 1]!}${part}`),
    });
}

/** The replaced built-ins as a set, made once per `PromptTools`. */
function replacedOf(tools: PromptTools): ReadonlySet<string> {
    let replaced = replacedSets.get(tools);
    if (replaced === undefined) {
        replaced = new Set(tools.replaced);
        replacedSets.set(tools, replaced);
    }
    return replaced;
}

const replacedSets = new WeakMap<PromptTools, ReadonlySet<string>>();

type SectionOverride = { action: unknown; content?: unknown };
type SystemMessage = { mode?: unknown; content?: unknown; sections?: unknown };

/**
 * The `systemMessage` to send for a session, and its agreement; the app's own when the
 * agreement is off or the app replaces the whole prompt.
 *
 * @param given - the app's `systemMessage`, as read (a plain copy; never modified)
 * @param mode - the session's `promptAgreement`
 * @param tools - the session's tools as prepared (read when the runtime asks for its sections)
 * @param onWarning - the client's warning callback
 * @param rewrite - the client's rewriter ({@link createPromptRewrites})
 * @param agreed - the sections to transform (`sectionsToAgree`): undefined for all; none for
 *   nothing to agree, where the app's `systemMessage` goes as given and the report says so
 * @param outside - the names sections without a transform name that the session lacks, for its
 *   model and tools, and whether measured texts name them (`namesOutsideAgreement`)
 * @param defaulted - the app set no `promptAgreement`; `mode` is the runtime's default
 */
export function agreeingSystemMessage(
    given: unknown,
    mode: PromptAgreementMode,
    tools: () => PromptTools,
    onWarning: (warning: SessionToolWarning) => void,
    rewrite: PromptRewriter = agreedText,
    agreed?: readonly string[],
    outside: (tools: PromptTools, model: unknown) => NamesOutside = () => NOTHING_OUTSIDE,
    defaulted = false
): { systemMessage: unknown; agreement: PromptAgreement | undefined } {
    const app = (given ?? {}) as SystemMessage;
    if (mode === "off" || app.mode === "replace") {
        return { systemMessage: given, agreement: undefined };
    }
    const warnedOutside = new Set<string>();
    const agreement: PromptAgreement = {
        mode,
        defaulted,
        tools,
        report: undefined,
        changed: (model) => {
            const { names, certain } = outside(agreement.tools(), model);
            warnNamesOnce(
                onWarning,
                warnedOutside,
                names,
                () =>
                    `The runtime's instructions ${certain ? "name" : UNMEASURED_NAMING} ` +
                    `${formatList(names)}, which this session ` +
                    "no longer offers (or now replaces) after setTools or setModel: " +
                    "the session had nothing to agree on when it was created, " +
                    "so it got the SDK's own prompt and no transforms, and the runtime takes none later. " +
                    "Create (or resume) the session with the tools it will lack to have the instructions agree."
            );
        },
    };
    // Nothing to agree on: the SDK's own prompt, and no report (no build goes through the
    // package), as with promptAgreement 'off'.
    if (agreed !== undefined && agreed.length === 0) return { systemMessage: given, agreement };
    const appSections =
        app.mode === "customize" && app.sections !== null && typeof app.sections === "object"
            ? new Map(Object.entries(app.sections as Record<string, SectionOverride>))
            : new Map<string, SectionOverride>();
    const owned = (id: string) => {
        const action = appSections.get(id)?.action;
        return action === "replace" || action === "remove" || action === "preserve";
    };
    const noteSection = NOTE_SECTIONS.find((id) => !owned(id));
    const transformed = agreed === undefined ? undefined : new Set([...agreed, noteSection]);
    const round = newRound(agreement, onWarning, rewrite);
    const sections: Record<string, SectionOverride> = {};
    for (const [id, override] of appSections) sections[id] = override;
    const appFailed = appFailure(onWarning);
    for (const id of PROMPT_SECTIONS) {
        if (owned(id) || (transformed !== undefined && !transformed.has(id))) continue;
        const ours = (text: string) => round.transform(id, text, id === noteSection);
        sections[id] = {
            action: composed(
                ours,
                appSections.get(id),
                (error) => appFailed(id, error),
                (sent) => round.sent(id, sent)
            ),
        };
    }
    const systemMessage: Record<string, unknown> = { mode: "customize", sections };
    if (app.content !== undefined) systemMessage.content = app.content;
    return { systemMessage, agreement };
}

/**
 * The package's rewrite, then the app's override of the section; `onSent` gets the text the
 * section goes with (what the report's `mentions.after` is computed on). An app transform that
 * throws (or whose promise rejects) gives the agreed text: the SDK, on a transform that throws,
 * would send the runtime's text as written, with the mentions the rewrite removed.
 */
function composed(
    ours: (text: string) => string,
    app: SectionOverride | undefined,
    onAppError: (error: unknown) => void,
    onSent: (text: string) => void
): (text: string) => string | Promise<string> {
    const sent = (text: string) => {
        onSent(text);
        return text;
    };
    if (app === undefined) return (text) => sent(ours(text));
    const { action, content } = app;
    if (typeof action === "function") {
        return (text) => {
            const agreed = ours(text);
            const fallBack = (error: unknown) => {
                onAppError(error);
                return agreed;
            };
            try {
                const out = (action as (text: string) => string | Promise<string>)(agreed);
                return isPromiseLike(out)
                    ? Promise.resolve(out).then(undefined, fallBack).then(sentText)
                    : sentText(out);
            } catch (error) {
                return sent(fallBack(error));
            }
        };
    }
    // What the app's transform returns goes as it is; a string is what the report can read.
    function sentText(out: unknown): string {
        onSent(typeof out === "string" ? out : "");
        return out as string;
    }
    const added = typeof content === "string" ? content : "";
    if (action === "append") return (text) => sent(`${ours(text)}\n${added}`);
    if (action === "prepend") return (text) => sent(`${added}\n${ours(text)}`);
    return (text) => sent(ours(text));
}

/** `PROMPT_TRANSFORM_FAILED`, once per session and section. */
function appFailure(
    onWarning: (warning: SessionToolWarning) => void
): (section: string, error: unknown) => void {
    const warned = new Set<string>();
    return (section, error) => {
        if (warned.has(section)) return;
        warned.add(section);
        onWarning(
            Object.freeze({
                code: "PROMPT_TRANSFORM_FAILED",
                option: "systemMessage",
                identifiers: Object.freeze([section]),
                message:
                    `The app's systemMessage transform of section '${section}' threw (${errorText(error)}); ` +
                    `the section was sent as the package's rewrite left it, without the app's change. Fix the transform; ` +
                    `set promptAgreement: 'off' for the SDK's own behaviour (the runtime's text as written).`,
            } satisfies SessionToolWarning)
        );
    };
}

/** An error's message for a warning (never throws: a hostile error object gives its type). */
function errorText(error: unknown): string {
    try {
        return error instanceof Error ? error.message : String(error);
    } catch {
        return typeof error;
    }
}

/** What each section's transform calls: the rewrite, then the report on the text sent. */
interface Round {
    /** Rewrites (or, in warn mode, looks at) the section's text for the tools in force now. */
    transform(section: string, text: string, withNote: boolean): string;
    /** The section's text as it goes to the runtime, after the app's own override. */
    sent(section: string, text: string): void;
}

/**
 * The functions each section's transform calls: the rewrite of the text for the tools in force
 * now, and the build's report, whose `mentions.after` is computed on the text the section goes
 * with (after the app's transform; the note aside). A mention there that the rewrite did not
 * leave (the app's transform wrote it) warns `PROMPT_NAMES_REMOVED_TOOL` once per name. A call
 * for a section seen before in this build starts a new one. Request boundaries are not build
 * boundaries: runtime 1.0.85 hands over one build's sections in more than one request
 * (measured: the first turn's build arrives in two turns of the event loop), so a section asked
 * for again is the one sign of a new build.
 */
function newRound(
    agreement: PromptAgreement,
    onWarning: (warning: SessionToolWarning) => void,
    rewrite: PromptRewriter
): Round {
    let seen = new Set<string>();
    let edits: PromptSectionEdit[] = [];
    let before: PromptToolMention[] = [];
    /** By section, the mentions in the text returned, then in the text sent. */
    let after = new Map<string, PromptToolMention[]>();
    /** By section, the text the rewrite returned (with the note) in this build. */
    let returned = new Map<string, string>();
    let builds = 0;
    let buildNote: string | undefined;
    let failed = false;
    const warned = new Set<string>();
    const reintroduced = new Set<string>();
    const publish = () => {
        agreement.report = Object.freeze({
            mode: agreement.mode,
            builds,
            edits: Object.freeze([...edits]),
            note: buildNote,
            unconfirmed: agreementUnconfirmed(agreement),
            mentions: Object.freeze({
                before: Object.freeze([...before]),
                after: Object.freeze([...after.values()].flat()),
            }),
        });
    };
    const mentionsIn = (section: string, text: string, tools: PromptTools) =>
        droppedMentions(text, tools.names, tools.dropped, replacedOf(tools)).map((m) =>
            reported(section, text, m, tools)
        );
    return {
        transform(section, text, withNote) {
            if (builds === 0 || seen.has(section)) {
                builds++;
                seen = new Set();
                edits = [];
                before = [];
                after = new Map();
                returned = new Map();
                buildNote = undefined;
            }
            seen.add(section);
            let out = text;
            try {
                const tools = agreement.tools();
                const rewritten = rewrite(text, tools);
                const sectionEdits = rewritten.edits.map((edit) =>
                    Object.freeze({ section, ...edit, names: Object.freeze([...edit.names]) })
                );
                edits.push(...sectionEdits);
                const found = rewritten.mentions.map((m) => reported(section, text, m, tools));
                before.push(...found);
                if (agreement.mode === "rewrite") {
                    out = rewritten.text;
                    after.set(
                        section,
                        rewritten.left.map((m) => reported(section, out, m, tools))
                    );
                } else {
                    after.set(section, found);
                    warnOnce(onWarning, warned, sectionEdits, agreement.defaulted);
                }
                // A defaulted "warn" keeps the text and says what the session lacks in the note.
                const noted = agreement.mode === "rewrite" || agreement.defaulted;
                const note = withNote && noted ? noteFor(tools) : undefined;
                if (note !== undefined) {
                    out = `${out}\n\n${note}`;
                    buildNote = note;
                }
            } catch (error) {
                out = text;
                if (!failed) {
                    failed = true;
                    onWarning(
                        Object.freeze({
                            code: "PROMPT_REWRITE_FAILED",
                            option: "promptAgreement",
                            message: `The rewrite of the runtime's instructions (section '${section}') failed (${errorText(error)}); the section was left as the runtime wrote it. Report this, or set promptAgreement: 'off'.`,
                        } satisfies SessionToolWarning)
                    );
                }
            }
            publish();
            returned.set(section, out);
            return out;
        },
        sent(section, text) {
            const ours = after.get(section);
            // The text as the rewrite returned it: its mentions are known, none was added.
            if (ours === undefined || returned.get(section) === text) return;
            try {
                const tools = agreement.tools();
                // The note names what the session lacks on purpose.
                const sent = mentionsIn(section, withoutNote(text), tools);
                const count = (found: readonly PromptToolMention[], name: string) =>
                    found.filter((m) => m.name === name).length;
                const added = [...new Set(sent.map((m) => m.name))].filter(
                    (name) => count(sent, name) > count(ours, name)
                );
                after.set(section, sent);
                publish();
                const fresh = added.filter((name) => !reintroduced.has(name));
                if (fresh.length === 0) return;
                fresh.forEach((name) => reintroduced.add(name));
                onWarning(
                    Object.freeze({
                        code: "PROMPT_NAMES_REMOVED_TOOL",
                        option: "systemMessage",
                        identifiers: Object.freeze(fresh),
                        message: `The app's systemMessage override of section '${section}' names ${formatList(fresh)}, which this session does not offer or replaces with the app's tool: the model is told about ${fresh.length === 1 ? "it" : "them"} after the package's rewrite. Remove the mention from the override, or keep the tool.`,
                    } satisfies SessionToolWarning)
                );
            } catch {
                // The report stays as the rewrite left it.
            }
        },
    };
}

/** The text without the package's note (which names the tools the session lacks on purpose). */
function withoutNote(text: string): string {
    const start = text.indexOf("<tool_availability>");
    if (start < 0) return text;
    const end = text.indexOf("</tool_availability>", start);
    return end < 0 ? text.slice(0, start) : text.slice(0, start) + text.slice(end + 20);
}

/** The tools in force's unconfirmed built-ins, or none when they cannot be read. */
function agreementUnconfirmed(agreement: PromptAgreement): readonly string[] {
    try {
        return agreement.tools().unconfirmed;
    } catch {
        return Object.freeze([]);
    }
}

/** A mention as `toolResolution.prompt.mentions` reports it. */
function reported(
    section: string,
    text: string,
    mention: ToolMention,
    tools: PromptTools
): PromptToolMention {
    return Object.freeze({
        section,
        name: mention.name,
        reason: tools.replaced.includes(mention.name) ? "replaced" : "not-offered",
        excerpt: mentionExcerpt(text, mention),
    });
}

/** The note appended to the runtime's instructions, or undefined when nothing is missing. */
export function noteFor(tools: PromptTools): string | undefined {
    const parts: string[] = [];
    if (tools.missing.length > 0) {
        const many = tools.missing.length > 1;
        parts.push(
            `This session does not offer the ${many ? "tools" : "tool"} ${englishList(tools.missing)}: ` +
                `where any instruction names ${many ? "them" : "it"}, use the tools you are given instead.`
        );
    }
    if (tools.replaced.length > 0) {
        const many = tools.replaced.length > 1;
        parts.push(
            many
                ? `The tools ${englishList(tools.replaced)} are this application's own: ` +
                      "follow their descriptions, not what any instruction says about a built-in tool of the same name."
                : `The tool ${tools.replaced[0]!} is this application's own: ` +
                      "follow its description, not what any instruction says about a built-in tool of the same name."
        );
    }
    if (tools.unconfirmed.length > 0) {
        const many = tools.unconfirmed.length > 1;
        parts.push(
            `This session may not offer the ${many ? "tools" : "tool"} ${englishList(tools.unconfirmed)}: where an instruction names ${many ? "one" : "it"} and you are not given ${many ? "it" : "that tool"}, use the tools you are given instead.`
        );
    }
    return parts.length === 0
        ? undefined
        : `<tool_availability>\n${parts.join("\n")}\n</tool_availability>`;
}

/** Names joined as English writes a list: "a", "a and b", "a, b and c". */
function englishList(names: readonly string[]): string {
    return names.length <= 1
        ? (names[0] ?? "")
        : `${names.slice(0, -1).join(", ")} and ${names.at(-1)!}`;
}

/** In warn mode: one warning per set of names, per session. */
function warnOnce(
    onWarning: (warning: SessionToolWarning) => void,
    warned: Set<string>,
    edits: readonly PromptSectionEdit[],
    defaulted: boolean
): void {
    if (edits.length === 0) return;
    const names = [...new Set(edits.flatMap((edit) => edit.names))];
    warnNamesOnce(
        onWarning,
        warned,
        names,
        () =>
            `The runtime's instructions (section '${edits[0]!.section}': "${edits[0]!.excerpt}") ` +
            `recommend or describe ${formatList(names)}, ` +
            `which this session does not offer or replaces with the app's tool. ` +
            (defaulted
                ? "The text stays and the note names the tools: 'warn' is the default on this runtime, " +
                  "whose labelled corpus does not show the rewrite removes only false text " +
                  "(docs/runtime-checks.md). Set promptAgreement: 'rewrite' to remove it."
                : "promptAgreement: 'warn' keeps the text; 'rewrite' removes it.")
    );
}

/** How the warning after a change says what unmeasured instructions name. */
const UNMEASURED_NAMING = "may name (this runtime's texts were not measured)";

/** `RUNTIME_PROMPT_NAMES_MISSING_TOOL` for `names`, unless `warned` (one set's scope) has them. */
function warnNamesOnce(
    onWarning: (warning: SessionToolWarning) => void,
    warned: Set<string>,
    names: readonly string[],
    message: () => string
): void {
    const key = names.join("\u0000");
    if (names.length === 0 || warned.has(key)) return;
    warned.add(key);
    onWarning(
        Object.freeze({
            code: "RUNTIME_PROMPT_NAMES_MISSING_TOOL",
            option: "promptAgreement",
            identifiers: Object.freeze([...names]),
            message: message(),
        } satisfies SessionToolWarning)
    );
}
