import { messageOf } from "./formatting.js";

/**
 * How {@link readListByIndex} checks one list and words its refusals.
 */
export interface ListReading<T> {
    /** The list's name in messages, e.g. `availableTools` or `customToolSets.q`. */
    readonly what: string;
    /** What to pass instead, for messages, e.g. "an array of tool names". */
    readonly expected: string;
    /** Makes the error for a refusal, with the value thrown while reading as its cause. */
    readonly fail: (message: string, cause?: unknown) => Error;
    /** The refusal of a value that is no array. */
    readonly notAList: (value: unknown) => Error;
    /** Checks one entry (`present` is false for an empty slot) and returns it, or throws. */
    readonly readItem: (item: unknown, position: number, present: boolean) => T;
    /** The longest list accepted; no limit when omitted. */
    readonly maxLength?: number;
}

/**
 * Reads a caller's list once, by index, into a frozen copy, with the array prototype's own
 * checks: what is checked is what is used, whatever the list's own iterator, `length` getter or
 * species say. A value that cannot be read (a revoked `Proxy`, a getter that throws) is refused
 * like a malformed one, never a `TypeError`. The one reader of caller lists, for the filter
 * helper's options and the safety net's tool options alike.
 *
 * @param value - the list as the caller passed it (not modified)
 * @param reading - the list's name, its checks and how refusals are made
 * @returns the entries, frozen
 * @throws what `reading.fail`, `reading.notAList` or `reading.readItem` make
 */
export function readListByIndex<T>(value: unknown, reading: ListReading<T>): readonly T[] {
    const { what, expected, fail } = reading;
    let isList: boolean;
    let length = 0;
    try {
        isList = Array.isArray(value);
        if (isList) length = (value as unknown[]).length;
    } catch (error) {
        throw fail(
            `Invalid ${what}: it cannot be read (${messageOf(error)}); pass ${expected}.`,
            error
        );
    }
    if (!isList) throw reading.notAList(value);
    const list = value as unknown[];
    const maxLength = reading.maxLength ?? Number.POSITIVE_INFINITY;
    if (length > maxLength) {
        throw fail(
            `Invalid ${what}: it has ${length.toLocaleString("en-US")} entries, ` +
                `more than the ${maxLength.toLocaleString("en-US")} accepted; pass ${expected}.`
        );
    }
    const items: T[] = [];
    for (let position = 0; position < length; position++) {
        let present: boolean;
        let item: unknown;
        try {
            present = position in list;
            item = present ? list[position] : undefined;
        } catch (error) {
            throw fail(
                `Invalid ${what}[${position}]: it cannot be read (${messageOf(error)}); pass ${expected}.`,
                error
            );
        }
        items.push(reading.readItem(item, position, present));
    }
    return Object.freeze(items);
}
