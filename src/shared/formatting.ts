/**
 * Quotes a caller-supplied value for a message: strings in single quotes (unprintable characters
 * escaped, long ones shortened), anything else as short JSON-like text, so a message always shows
 * the offending value.
 *
 * @param value - any value a caller passed
 * @returns a short printable rendering
 */
export function quoteValue(value: unknown): string {
    if (typeof value === "string") {
        return `'${shorten(JSON.stringify(value).slice(1, -1).replace(/'/g, "\\'"))}'`;
    }
    if (typeof value === "function") return "a function";
    if (value === undefined) return "undefined";
    if (typeof value === "bigint") return `${value}n`;
    try {
        const text = JSON.stringify(value);
        if (text !== undefined) return shorten(text);
    } catch {
        // Cyclic or otherwise unprintable: fall back to the type below.
    }
    return `a value of type ${typeof value}`;
}

/**
 * Renders a list of names for a message, quoted and comma-separated, cut off once the text
 * passes `maxLength` characters with a count of what was left out.
 *
 * @param names - the names to list
 * @param maxLength - how long the listed part may grow before the rest is counted instead
 * @param render - how each name is shown (quoted by default)
 * @returns for example `'a', 'b' and 3 more`
 */
export function formatList(
    names: readonly string[],
    maxLength = 240,
    render: (name: string) => string = quoteValue
): string {
    let text = "";
    let shown = 0;
    for (const name of names) {
        const item = render(name);
        if (shown > 0 && text.length + item.length > maxLength) break;
        text += shown === 0 ? item : `, ${item}`;
        shown++;
    }
    const rest = names.length - shown;
    return rest === 0 ? text : `${text} and ${rest.toLocaleString("en-US")} more`;
}

/**
 * The "Did you mean" part of a warning about unknown names: the suggestion alone when one name
 * was unknown, each suggestion with the name it replaces when several were.
 *
 * @param entries - the unknown names, each with its closest known name when there is one
 * @returns for example ` Did you mean 'view'?`, or "" when nothing comes close
 */
export function suggestionSentence(
    entries: readonly { identifier: string; suggestion?: string | undefined }[]
): string {
    const close = entries.filter((entry) => entry.suggestion !== undefined);
    if (close.length === 0) return "";
    const items =
        entries.length === 1
            ? [quoteValue(close[0]!.suggestion)]
            : close.map(
                  (entry) => `${quoteValue(entry.suggestion)} for ${quoteValue(entry.identifier)}`
              );
    return ` Did you mean ${formatList(items, 160, (text) => text)}?`;
}

function shorten(text: string): string {
    return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

/**
 * The message of a thrown value, for a message that says why something failed.
 *
 * @param error - anything a `throw` threw
 * @returns its `message` when it is an `Error`, else its text
 */
export function messageOf(error: unknown): string {
    try {
        return error instanceof Error ? error.message : String(error);
    } catch {
        return "unknown error";
    }
}

/**
 * Picks the wording for one name or for several, so that a message about one tool does not
 * speak of "tools".
 *
 * @param count - how many names the message is about
 * @param one - the wording for exactly one
 * @param many - the wording for any other count
 * @returns `one` or `many`
 */
export function byCount(count: number, one: string, many: string): string {
    return count === 1 ? one : many;
}
