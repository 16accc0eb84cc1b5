import { quoteValue } from "../../shared/formatting.js";
import { readOrRefuse, readSentOption } from "./callerInput.js";
import { readMcpServers } from "./mcpToolNames.js";
import { SessionToolError } from "../api/sessionToolError.js";

/** Options the session step reads and checks itself. */
const READ_BY_THE_SESSION_STEP = new Set([
    "tools",
    "availableTools",
    "excludedTools",
    "customToolSets",
    "systemMessage",
    "mcpServers",
    "model",
    "onToolAnswered",
    "promptAgreement",
    // Read by readAgents (agents.ts).
    "customAgents",
    "defaultAgent",
    "agent",
]);

/**
 * The options of a session config that go to the runtime, each read once, so that what the
 * session step checks is what is sent and nothing the caller passed is read a second time:
 *
 * - `model` must be a string;
 * - `systemMessage` and `mcpServers` become plain copies (see `readSentOption`), which the prompt
 *   check and the MCP check read;
 * - every other option the SDK sends as JSON is rendered once (see {@link readOtherOption}).
 *
 * An option left out stays out. The result holds only the options it replaces; the caller
 * spreads it over its shallow copy of the config.
 *
 * @throws SessionToolError `INVALID_SESSION_OPTION`
 */
export function readSentOptions(given: Readonly<Record<string, unknown>>): Record<string, unknown> {
    const { model } = given;
    if (model !== undefined && typeof model !== "string") {
        throw new SessionToolError(
            "INVALID_SESSION_OPTION",
            `Invalid model ${quoteValue(model)}: pass a model id, e.g. 'claude-sonnet-4.5', ` +
                `or leave it out for the runtime's default.`,
            ["model"]
        );
    }
    const read: Record<string, unknown> = {};
    for (const [option, value] of Object.entries(given)) {
        if (READ_BY_THE_SESSION_STEP.has(option)) continue;
        const copy = readOtherOption(option, value);
        if (copy !== value) read[option] = copy;
    }
    if (given.systemMessage !== undefined) {
        read.systemMessage = readSentOption(
            given.systemMessage,
            "systemMessage",
            "an object such as { mode: 'append', content: '...' }"
        );
    }
    if (given.mcpServers !== undefined) read.mcpServers = readMcpServers(given.mcpServers);
    return read;
}

/**
 * An option the session step does not read itself, which the SDK sends as JSON: rendered once
 * here, so that one it cannot send (a BigInt, a Symbol, a cycle, a throwing getter or `toJSON`)
 * is refused naming it instead of failing the SDK's send after the checks, and one it can is
 * sent as that one rendering rather than read again by the SDK's send. Only plain data is
 * replaced by its rendering: a function, a primitive, and an object that holds a function or an
 * instance of a class (such as `hooks`, or `canvases`, from which the SDK takes what it needs and
 * sends the rest) are passed on as they are.
 *
 * @throws SessionToolError `INVALID_SESSION_OPTION`
 */
function readOtherOption(option: string, value: unknown): unknown {
    if (typeof value === "function") return value;
    const fix = `pass ${option} as the SDK's SessionConfig types it, or leave it out`;
    if (typeof value === "symbol") {
        throw new SessionToolError(
            "INVALID_SESSION_OPTION",
            `Invalid ${option} ${quoteValue(value)}: a symbol cannot be sent as JSON; ${fix}.`,
            [option]
        );
    }
    let plainData = value !== null && typeof value === "object";
    const text = readOrRefuse(
        () =>
            JSON.stringify(value, (_key, inner: unknown) => {
                if (typeof inner === "function") plainData = false;
                else if (inner !== null && typeof inner === "object" && !Array.isArray(inner)) {
                    const prototype: unknown = Object.getPrototypeOf(inner);
                    if (prototype !== Object.prototype && prototype !== null) plainData = false;
                }
                return inner;
            }),
        "INVALID_SESSION_OPTION",
        (reason) =>
            `Invalid ${option} ${quoteValue(value)}: it cannot be sent as JSON (${reason}); ${fix}.`
    );
    if (!plainData || text === undefined) return value;
    // An app passes the same object to many sessions (a provider config, say): when this call's
    // rendering is the one the last copy came from, that copy is sent again, so sessions share
    // it as they would share the app's object, instead of each keeping a copy of its own.
    const earlier = copies.get(value as object);
    if (earlier !== undefined && earlier.text === text) return earlier.copy;
    const copy = JSON.parse(text) as unknown;
    copies.set(value as object, { text, copy });
    return copy;
}

/** By an option object of the app's, its latest rendering and the copy made from it. */
const copies = new WeakMap<object, { readonly text: string; readonly copy: unknown }>();
