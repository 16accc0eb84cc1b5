import type { Tool } from "@github/copilot-sdk";
import { formatList, quoteValue } from "../toolFilter/formatting.js";
import { describeValue, readList, readOrRefuse } from "./callerInput.js";
import { SessionToolError } from "./sessionToolError.js";
import { jsonSchemaOf } from "../sdkSeam/sdkSeam.js";

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
            `Custom tool '${name}' has handler ${quoteValue(handler)}: pass a function, or leave handler out to answer its calls yourself.`,
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
    for (const field of ["parameters", "metadata"] as const) {
        const value = snapshot[field];
        if (value === undefined || value === null) continue;
        const [copy, isObject] = readOrRefuse(
            () => {
                const copied = jsonCopyOf(field === "parameters" ? jsonSchemaOf(value) : value);
                return [copied, isJsonObject(value, copied)] as const;
            },
            "INVALID_CUSTOM_TOOL",
            (reason) =>
                `Custom tool '${name}' has ${field} that cannot be sent as JSON (${reason}): remove cycles, BigInt values and throwing getters, keep it under ${MAX_SCHEMA_DEPTH} levels and ${MAX_SCHEMA_BYTES / 1024} KiB.`
        );
        if (!isObject) {
            throw invalid(
                `Custom tool '${name}' has ${field} ${describeValue(value)}, which JSON does not carry as an object: pass ${OBJECT_FIELDS[field]}, or leave it out.`,
                [name]
            );
        }
        snapshot[field] = copy;
    }
    return Object.freeze(snapshot) as CustomToolSnapshot;
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
 * Whether a tool's `parameters` or `metadata` is an object of fields as JSON carries it: its copy
 * is a JSON object, and it is no `Map` or `Set` (whose entries JSON drops, leaving `{}`).
 */
function isJsonObject(value: unknown, copied: unknown): boolean {
    return (
        copied !== null &&
        typeof copied === "object" &&
        !Array.isArray(copied) &&
        !(value instanceof Map) &&
        !(value instanceof Set)
    );
}

/** The deepest nesting a tool's `parameters` or `metadata` may have. */
export const MAX_SCHEMA_DEPTH = 64;
/** The largest a tool's `parameters` or `metadata` may be as JSON, in bytes. */
export const MAX_SCHEMA_BYTES = 256 * 1024;

/** A plain JSON copy of `value`, serialised once; refuses what is too deep or too large. */
function jsonCopyOf(value: unknown): unknown {
    const text = JSON.stringify(value);
    if (text === undefined) return undefined;
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
    return JSON.parse(text);
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
