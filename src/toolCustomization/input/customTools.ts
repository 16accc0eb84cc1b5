import type { Tool } from "@github/copilot-sdk";
import { formatList, quoteValue } from "../../shared/formatting.js";
import { describeValue, readList, readOrRefuse } from "./callerInput.js";
import { SessionToolError } from "../api/sessionToolError.js";
import { jsonSchemaOf } from "../../sdk/internals.js";

/**
 * A custom tool as read once at the start of session construction: what is checked is what is
 * sent and registered, even if the caller's object would answer differently on a later read.
 */
export type CustomToolSnapshot = Readonly<Tool>;

/** Names models accept for a function tool. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** Fields the SDK reads from a tool; read once each, even where they are getters. */
const TOOL_FIELDS = [
    "name",
    "description",
    "parameters",
    "handler",
    "overridesBuiltInTool",
    "skipPermission",
    "defer",
    "metadata",
    "isTerminal",
] as const;

/**
 * Reads the session's `tools` into frozen snapshots and checks them: each entry an object with
 * a valid name, a function (or no) handler and a boolean (or no) `overridesBuiltInTool`, and no
 * two names equal when case is ignored. A tool without a handler is a declaration whose calls
 * the app answers itself, as the SDK documents.
 *
 * @param tools - the `tools` option as given (not modified)
 * @returns the snapshots, or undefined when `tools` was not given
 * @throws SessionToolError `INVALID_CUSTOM_TOOL` or `DUPLICATE_TOOL_NAME`
 */
export function snapshotCustomTools(tools: unknown): readonly CustomToolSnapshot[] | undefined {
    if (tools === undefined || tools === null) return undefined;
    const snapshots = readList(
        tools,
        "tools",
        "INVALID_CUSTOM_TOOL",
        'an array of tools, e.g. [defineTool("lint", { ... })]',
        (tool, position, present) => {
            if (!present) {
                throw invalid(
                    `tools[${position}] is an empty slot of a sparse array: pass a tool at every position.`
                );
            }
            return snapshotOf(tool, position);
        }
    );
    rejectDuplicates(snapshots);
    return snapshots;
}

function snapshotOf(tool: unknown, position: number): CustomToolSnapshot {
    if (tool === null || typeof tool !== "object") {
        throw invalid(
            `tools[${position}] is ${quoteValue(tool)}, not a tool: pass an object with a name (see defineTool).`
        );
    }
    const snapshot = readOrRefuse(
        () => {
            const read: Record<string, unknown> = { ...tool };
            for (const field of TOOL_FIELDS) {
                if (!Object.prototype.hasOwnProperty.call(read, field) && field in tool) {
                    read[field] = (tool as Record<string, unknown>)[field];
                }
            }
            return read;
        },
        "INVALID_CUSTOM_TOOL",
        (reason) =>
            `tools[${position}] cannot be read (${reason}): pass a plain object with a name (see defineTool).`
    );
    const { name, handler } = snapshot;
    if (typeof name !== "string" || !TOOL_NAME_PATTERN.test(name)) {
        throw invalid(
            `Invalid tool name ${quoteValue(name)} at tools[${position}]: use 1 to 64 letters, digits, '_' or '-', as models require.`,
            typeof name === "string" ? [name] : []
        );
    }
    if (handler !== undefined && typeof handler !== "function") {
        throw invalid(
            `Custom tool '${name}' has handler ${quoteValue(handler)}: pass a function, ` +
                `or leave handler out to answer its calls yourself.`,
            [name]
        );
    }
    // The flag and the fields that go to the runtime as they are: each of the type the SDK gives it.
    for (const [field, types, instead] of TYPED_FIELDS) {
        const value = snapshot[field];
        if (value === undefined || types.includes(typeof value)) continue;
        throw invalid(
            `Custom tool '${name}' has ${field} ${quoteValue(value)}: ${instead}, or leave it out.`,
            [name]
        );
    }
    // The runtime receives the definition as JSON: read it once, here, and send that copy (a
    // `toJSON` / `toJSONSchema` is not called again); a cycle, a BigInt, a throwing getter, or a
    // schema too deep or too large is refused naming the tool.
    const earlier = earlierSnapshots.get(tool);
    const texts: Partial<Record<JsonField, string>> = {};
    for (const field of JSON_FIELDS) {
        const value = snapshot[field];
        if (value === undefined || value === null) continue;
        const [text, isObject] = readOrRefuse(
            () => {
                const rendered = jsonTextOf(
                    field === "parameters" ? jsonSchemaOf(value) : value,
                    earlier?.texts[field]
                );
                return [rendered, isJsonObject(value, rendered)] as const;
            },
            "INVALID_CUSTOM_TOOL",
            (reason) =>
                `Custom tool '${name}' has ${field} that cannot be sent as JSON (${reason}): remove cycles, ` +
                `BigInt values and throwing getters, keep it under ${MAX_SCHEMA_DEPTH} levels and ${MAX_SCHEMA_BYTES / 1024} KiB.`
        );
        if (!isObject || text === undefined) {
            throw invalid(
                `Custom tool '${name}' has ${field} ${describeValue(value)}, ` +
                    `which JSON does not carry as an object: pass ${OBJECT_FIELDS[field]}, or leave it out.`,
                [name]
            );
        }
        texts[field] = text;
    }
    // A tool object the app passes to many sessions that reads as it did last time gives the
    // snapshot made then (frozen, equal field by field): sessions share it as they share the
    // app's object, and what is derived from a snapshot is derived once.
    if (earlier !== undefined && readsAsBefore(snapshot, texts, earlier)) return earlier.snapshot;
    for (const field of JSON_FIELDS) {
        const text = texts[field];
        if (text !== undefined) snapshot[field] = deepFrozen(JSON.parse(text));
    }
    const frozen = Object.freeze(snapshot) as CustomToolSnapshot;
    earlierSnapshots.set(tool, { snapshot: frozen, texts });
    return frozen;
}

type JsonField = "parameters" | "metadata";
const JSON_FIELDS: readonly JsonField[] = ["parameters", "metadata"];

/** A parsed JSON value, frozen through: sessions may share it, so nothing may write to it. */
function deepFrozen(value: unknown): unknown {
    if (value !== null && typeof value === "object") {
        for (const member of Object.values(value)) deepFrozen(member);
        Object.freeze(value);
    }
    return value;
}

/** By a tool object of the app's, its latest snapshot and the JSON its fields were read as. */
const earlierSnapshots = new WeakMap<
    object,
    { readonly snapshot: CustomToolSnapshot; readonly texts: Partial<Record<JsonField, string>> }
>();

/**
 * Whether a fresh read of a tool equals its earlier snapshot: the same fields, each the same
 * value, `parameters` and `metadata` the same JSON.
 */
function readsAsBefore(
    read: Record<string, unknown>,
    texts: Partial<Record<JsonField, string>>,
    earlier: {
        readonly snapshot: CustomToolSnapshot;
        readonly texts: Partial<Record<JsonField, string>>;
    }
): boolean {
    const before = earlier.snapshot as Record<string, unknown>;
    const keys = Object.keys(read);
    if (keys.length !== Object.keys(before).length) return false;
    for (const key of keys) {
        if (!Object.prototype.hasOwnProperty.call(before, key)) return false;
        const text = key === "parameters" || key === "metadata" ? texts[key] : undefined;
        if (text !== undefined) {
            if (text !== earlier.texts[key as JsonField]) return false;
        } else if (!Object.is(read[key], before[key])) return false;
    }
    return true;
}

/**
 * Fields of a tool with the types each may have: `overridesBuiltInTool`, and those sent to the
 * runtime as read (`defer` also as a boolean, which the SDK sends as it is).
 */
const TYPED_FIELDS: readonly (readonly [string, readonly string[], string])[] = [
    ["overridesBuiltInTool", ["boolean"], "use true or false"],
    ["description", ["string"], "pass a string that tells the model what the tool does"],
    ["skipPermission", ["boolean"], "use true or false"],
    ["defer", ["string", "boolean"], "use 'auto' or 'never'"],
    ["isTerminal", ["boolean"], "use true or false"],
];

/** What a tool's `parameters` and `metadata` must be, for messages. */
const OBJECT_FIELDS = {
    parameters:
        'a JSON Schema object, e.g. { type: "object", properties: { path: { type: "string" } } }, or a zod schema',
    metadata: 'an object of JSON values, e.g. { owner: "qa" }',
} as const;

/**
 * Whether a tool's `parameters` or `metadata` is an object of fields as JSON carries it: its JSON
 * text is an object, and it is no `Map` or `Set` (whose entries JSON drops, leaving `{}`).
 */
function isJsonObject(value: unknown, text: string | undefined): boolean {
    return (
        text !== undefined &&
        text.startsWith("{") &&
        !(value instanceof Map) &&
        !(value instanceof Set)
    );
}

/** The deepest nesting a tool's `parameters` or `metadata` may have. */
export const MAX_SCHEMA_DEPTH = 64;
/** The largest a tool's `parameters` or `metadata` may be as JSON, in bytes. */
export const MAX_SCHEMA_BYTES = 256 * 1024;

/**
 * `value` as JSON, serialised once; refuses what is too deep or too large. The same text as
 * `checked`, a rendering that passed before, is not scanned again.
 */
function jsonTextOf(value: unknown, checked: string | undefined): string | undefined {
    const text = JSON.stringify(value) as string | undefined;
    if (text === undefined || text === checked) return text;
    if (text.length > MAX_SCHEMA_BYTES) {
        throw new Error(`it is ${text.length.toLocaleString("en-US")} bytes as JSON`);
    }
    let depth = 0;
    let deepest = 0;
    let inString = false;
    for (let index = 0; index < text.length; index++) {
        const char = text[index];
        if (inString) {
            if (char === "\\") index++;
            else if (char === '"') inString = false;
        } else if (char === '"') inString = true;
        else if (char === "{" || char === "[") deepest = Math.max(deepest, ++depth);
        else if (char === "}" || char === "]") depth--;
    }
    if (deepest > MAX_SCHEMA_DEPTH) throw new Error(`it nests ${deepest} levels deep`);
    return text;
}

function rejectDuplicates(snapshots: readonly CustomToolSnapshot[]): void {
    const byFoldedName = new Map<string, string[]>();
    for (const { name } of snapshots) {
        const folded = name.toLowerCase();
        const same = byFoldedName.get(folded);
        if (same === undefined) byFoldedName.set(folded, [name]);
        else same.push(name);
    }
    const duplicated = [...byFoldedName.values()].filter((names) => names.length > 1);
    if (duplicated.length === 0) return;
    const names = duplicated.flat();
    throw new SessionToolError(
        "DUPLICATE_TOOL_NAME",
        `Custom tool names must be unique, also when case is ignored; these repeat: ${duplicated
            .map((group) => formatList(group))
            .join("; ")}. Rename or remove all but one of each.`,
        names
    );
}

function invalid(message: string, names: readonly string[] = []): SessionToolError {
    return new SessionToolError("INVALID_CUSTOM_TOOL", message, names);
}
