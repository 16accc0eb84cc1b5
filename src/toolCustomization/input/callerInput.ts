import { messageOf, quoteValue } from "../../shared/formatting.js";
import { readListByIndex } from "../../shared/listReader.js";
import { SessionToolError, type SessionToolErrorCode } from "../api/sessionToolError.js";

/**
 * The longest list the tool options accept: `tools`, `availableTools`, `excludedTools` and each
 * `customToolSets` member list. A model takes at most 128 tools per request, so a longer list is
 * a mistake; the bound keeps a lying `length` (up to 2^32 - 1) from making a read loop for minutes.
 */
export const MAX_LIST_LENGTH = 4096;

/**
 * Reads a caller's list of a tool option once, by index, into a frozen copy
 * ({@link readListByIndex}): what is checked is what is sent. A value that cannot be read (a
 * revoked `Proxy`, a getter that throws) is refused like a malformed one, never a `TypeError`;
 * a list longer than {@link MAX_LIST_LENGTH} is refused.
 *
 * @param value - the list as the caller passed it (not modified)
 * @param what - the option's name for messages, e.g. `availableTools` or `customToolSets.q`
 * @param code - the error code for this option
 * @param expected - what to pass instead, for the message, e.g. "an array of tool names"
 * @param readItem - checks one entry (`present` is false for an empty slot) and returns it
 * @param notAList - the refusal of a value that is no array, when the option has its own words
 * @returns the entries, frozen
 * @throws SessionToolError with `code`
 */
export function readList<T>(
    value: unknown,
    what: string,
    code: SessionToolErrorCode,
    expected: string,
    readItem: (item: unknown, position: number, present: boolean) => T,
    notAList?: (value: unknown) => SessionToolError
): readonly T[] {
    const fail = (message: string, cause?: unknown) =>
        new SessionToolError(code, message, [], cause === undefined ? undefined : { cause });
    return readListByIndex(value, {
        what,
        expected,
        fail,
        notAList: (list) =>
            notAList?.(list) ?? fail(`Invalid ${what} ${describeValue(list)}: pass ${expected}.`),
        readItem,
        maxLength: MAX_LIST_LENGTH,
    });
}

/**
 * Reads a caller's plain object of named entries (such as `customToolSets`) once: its own
 * enumerable string keys and their values. A `Map`, an array or a value that cannot be read is
 * refused.
 *
 * @param value - the object as passed (not modified)
 * @param what - the option's name for messages
 * @param code - the error code for this option
 * @param expected - what to pass instead, for the message
 * @returns the entries, in the object's own order
 * @throws SessionToolError with `code`
 */
export function readRecord(
    value: unknown,
    what: string,
    code: SessionToolErrorCode,
    expected: string
): [string, unknown][] {
    try {
        if (
            value === null ||
            typeof value !== "object" ||
            Array.isArray(value) ||
            value instanceof Map ||
            value instanceof Set
        ) {
            throw new SessionToolError(
                code,
                `Invalid ${what} ${describeValue(value)}: pass ${expected}.`
            );
        }
        const keys = Object.keys(value);
        if (keys.length > MAX_LIST_LENGTH) {
            throw new SessionToolError(
                code,
                `Invalid ${what}: it has ${keys.length.toLocaleString("en-US")} entries, ` +
                    `more than the ${MAX_LIST_LENGTH.toLocaleString("en-US")} accepted.`
            );
        }
        return keys.map((key) => [key, (value as Record<string, unknown>)[key]]);
    } catch (error) {
        if (error instanceof SessionToolError) throw error;
        throw new SessionToolError(
            code,
            `Invalid ${what}: it cannot be read (${messageOf(error)}); pass ${expected}.`,
            [],
            { cause: error }
        );
    }
}

/**
 * Reads a session config once, as a shallow copy of its own enumerable options: everything the
 * wrap and the session step look at afterwards is this copy, so a getter is read once and a
 * getter or a `Proxy` that throws is refused here, never a `TypeError` later.
 *
 * @param config - the config as the caller passed it (not modified)
 * @returns the copy
 * @throws SessionToolError `INVALID_TOOL_FILTER` when the config cannot be read
 */
export function readSessionConfig<C>(config: C): C {
    return readOrRefuse(
        () => ({ ...config }),
        "INVALID_TOOL_FILTER",
        (reason) =>
            `The session config cannot be read (${reason}): pass a plain object whose options are values, not throwing getters.`
    );
}

/** The deepest nesting a session option the SDK sends as it is may have. */
export const MAX_OPTION_DEPTH = 64;

/**
 * Reads a session option that the SDK sends to the runtime as it is (`systemMessage`,
 * `mcpServers`) once, into a plain copy that the session step checks and the SDK sends: what is
 * checked is what is sent. Plain objects and arrays are copied (arrays by index, as
 * {@link readList} reads them), strings, numbers, booleans, `null` and functions (such as a
 * section's transform callback, which the SDK keeps on the client) are kept; anything JSON cannot
 * carry as it is (a BigInt, a Symbol, a `Date`, a `Map`, a class instance, a `toJSON` method, a
 * cycle, more than {@link MAX_OPTION_DEPTH} levels) is refused naming where it is, and so is a
 * value that cannot be read.
 *
 * @param value - the option as the caller passed it (not modified)
 * @param what - the option's name for messages, e.g. `systemMessage`
 * @param expected - what to pass instead, for the message
 * @returns the copy
 * @throws SessionToolError `INVALID_SESSION_OPTION`
 */
export function readSentOption(value: unknown, what: string, expected: string): unknown {
    const code = "INVALID_SESSION_OPTION";
    const inside = new Set<object>();
    const copy = (item: unknown, path: string, depth: number): unknown => {
        if (item === null || item === undefined || typeof item === "function") return item;
        if (["string", "number", "boolean"].includes(typeof item)) return item;
        const refuse = (reason: string) =>
            new SessionToolError(
                code,
                `Invalid ${path} ${describeValue(item)}: ${reason}; pass ${expected}.`,
                [what]
            );
        if (typeof item !== "object") throw refuse(`a ${typeof item} cannot be sent as JSON`);
        if (inside.has(item)) throw refuse("it contains itself");
        if (depth >= MAX_OPTION_DEPTH) {
            throw refuse(`it nests more than ${MAX_OPTION_DEPTH} levels deep`);
        }
        inside.add(item);
        let copied: unknown;
        if (Array.isArray(item)) {
            copied = [
                ...readList(item, path, code, expected, (entry, position) =>
                    copy(entry, `${path}[${position}]`, depth + 1)
                ),
            ];
        } else {
            const prototype: unknown = Object.getPrototypeOf(item);
            if (prototype !== Object.prototype && prototype !== null) {
                throw refuse("it is not a plain object, which is what JSON carries");
            }
            const entries = readRecord(item, path, code, expected).map(([key, entry]) => {
                if (key === "toJSON" && typeof entry === "function") {
                    throw refuse("it has a toJSON method, which the send would call again");
                }
                return [key, copy(entry, `${path}${keyPath(key)}`, depth + 1)] as const;
            });
            copied = Object.fromEntries(entries);
        }
        inside.delete(item);
        return copied;
    };
    return readOrRefuse(
        () => copy(value, what, 0),
        code,
        (reason) => `Invalid ${what}: it cannot be read (${reason}); pass ${expected}.`
    );
}

/** A key as it follows its object's path in a message: `.name`, or `['odd key']` quoted. */
function keyPath(key: string): string {
    return /^[A-Za-z_$][\w$]{0,63}$/.test(key) ? `.${key}` : `[${quoteValue(key)}]`;
}

/**
 * Runs a read of caller data and turns anything it throws, other than a `SessionToolError`, into
 * one with `code` and `message` (the original as its cause).
 */
export function readOrRefuse<T>(
    read: () => T,
    code: SessionToolErrorCode,
    message: (reason: string) => string
): T {
    try {
        return read();
    } catch (error) {
        if (error instanceof SessionToolError) throw error;
        throw new SessionToolError(code, message(messageOf(error)), [], { cause: error });
    }
}

/** A caller's value for a message; a `Map` or `Set` is named, since JSON shows them as `{}`. */
export function describeValue(value: unknown): string {
    try {
        if (value instanceof Map) return "(a Map)";
        if (value instanceof Set) return "(a Set)";
        return quoteValue(value);
    } catch {
        return "(a value that cannot be read)";
    }
}
