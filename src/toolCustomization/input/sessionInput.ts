// The one reader of a session's input: what `createSession` and `resumeSession` were given, read
// once into one frozen value before any step decides anything. Every option the tool
// customization looks at is read here (the custom tools as snapshots, the filter lists, the agents and the
// options the SDK sends as copies, `promptAgreement`, `onToolAnswered`, `validateTools`, the
// session id); the construction and the wrap take this value, never the caller's object.

import { quoteValue } from "../../shared/formatting.js";
import type { CallAttributionConfig, PromptAgreementMode } from "../api/publicTypes.js";
import type { ToolSessionConfig } from "../api/sessionConfig.js";
import { SessionToolError } from "../api/sessionToolError.js";
import { readSessionConfig } from "./callerInput.js";
import { snapshotCustomTools } from "./customTools.js";
import { readFilterOptions } from "./filterOptions.js";
import { readSentOptions } from "./sentOptions.js";
import { readAgents } from "./agents.js";

/** A session's input, read once (frozen; its `config` is a new object, the caller's untouched). */
export interface SessionInput<C> {
    /**
     * The session config as read: the caller's own enumerable options, read once; the custom tools
     * as snapshots, the filter lists and `customToolSets` as frozen copies, the options the SDK
     * sends as plain copies. What the steps check and what the SDK sends.
     */
    readonly config: C;
    /**
     * Whether the SDK's own method refuses the config before it does anything (both
     * `gitHubToken` and `gitHubTokenProvider`): then nothing else is read, and the wrap hands the
     * copy on so that the SDK's error comes first, as without the package.
     */
    readonly refusedBySdkFirst: boolean;
    /**
     * `promptAgreement`; undefined when the app set none: the default is decided per runtime, from
     * the evidence (`defaultPromptAgreement`).
     */
    readonly promptAgreement: PromptAgreementMode | undefined;
    /** `onToolAnswered`, or undefined. */
    readonly onToolAnswered: CallAttributionConfig["onToolAnswered"];
    /** `validateTools` as given (`true`, `false`), or undefined when left out. */
    readonly validateTools: boolean | undefined;
    /** The session id the config names (`sessionId`), as given. */
    readonly sessionId: unknown;
}

/** The first part of a session's input: what the wrap checks before it starts the client. */
export type SessionHead<C> = Omit<SessionInput<C>, "promptAgreement">;

/**
 * Reads what `createSession` or `resumeSession` was given, once.
 *
 * @param given - the session config as the caller passed it (not modified)
 * @returns the input, frozen
 * @throws SessionToolError for a value that cannot be read or is malformed, naming it
 */
export function readSessionInput<C>(given: C): SessionInput<C & ToolSessionConfig> {
    return readSessionBody(readSessionHead(given));
}

/**
 * The first part of {@link readSessionInput}: the config copied once, and the options the wrap
 * checks before it starts the client as the SDK's own method does (the SDK's first refusal,
 * `onToolAnswered`, `validateTools`, the session id). The rest is read from this copy by
 * {@link readSessionBody}, never from the caller's object.
 *
 * @throws SessionToolError when the config cannot be read or `onToolAnswered` is not a function
 */
export function readSessionHead<C>(given: C): SessionHead<C & ToolSessionConfig> {
    const config = readSessionConfig(given) as C & ToolSessionConfig;
    const options = config as Readonly<Record<string, unknown>>;
    const sdkFirst = refusedBySdkFirst(options);
    return Object.freeze({
        config,
        refusedBySdkFirst: sdkFirst,
        onToolAnswered: sdkFirst ? undefined : readToolAnsweredOption(options.onToolAnswered),
        validateTools: sdkFirst ? undefined : readValidateToolsOption(options.validateTools),
        sessionId: options.sessionId,
    });
}

/**
 * The rest of {@link readSessionInput}, read from the head's copy: the custom tools as
 * snapshots, the filter lists and the options the SDK sends as copies, `promptAgreement`.
 *
 * @throws SessionToolError for a malformed value, naming it
 */
export function readSessionBody<C extends ToolSessionConfig>(
    head: SessionHead<C>
): SessionInput<C> {
    const copy = head.config;
    const options = copy as Readonly<Record<string, unknown>>;
    const config = {
        ...copy,
        tools: snapshotCustomTools(copy.tools),
        ...readFilterOptions(copy),
        ...(readSentOptions(options) as Partial<ToolSessionConfig>),
        ...(readAgents(copy) as Partial<ToolSessionConfig>),
    } as C;
    return Object.freeze({
        ...head,
        config,
        promptAgreement: readPromptAgreement(options.promptAgreement),
    });
}

/**
 * Whether the SDK's own method refuses `config` before it does anything (both `gitHubToken` and
 * `gitHubTokenProvider`): the wrap then hands it on untouched, so that the SDK's error comes
 * first, as without the package.
 */
export function refusedBySdkFirst(config: unknown): boolean {
    if (config === null || typeof config !== "object") return false;
    const { gitHubToken, gitHubTokenProvider } = config as Readonly<Record<string, unknown>>;
    return gitHubToken !== undefined && gitHubTokenProvider !== undefined;
}

const AGREEMENT_MODES: ReadonlySet<unknown> = new Set(["rewrite", "warn", "off"]);

/**
 * Reads the `promptAgreement` option.
 *
 * @throws SessionToolError `INVALID_SESSION_OPTION`
 */
export function readPromptAgreement(value: unknown): PromptAgreementMode | undefined {
    if (value === undefined) return undefined;
    if (AGREEMENT_MODES.has(value)) return value as PromptAgreementMode;
    throw new SessionToolError(
        "INVALID_SESSION_OPTION",
        `Invalid promptAgreement ${quoteValue(value)}: ` +
            "use 'rewrite' (the runtime's instructions lose what names tools the session lacks), " +
            "'warn' (keep them, warn) or 'off'; unset, the runtime's evidence decides (docs/runtime-checks.md).",
        ["promptAgreement"]
    );
}

/**
 * Reads the session option `onToolAnswered`.
 *
 * @returns the callback, or undefined
 * @throws SessionToolError `INVALID_SESSION_OPTION` for anything but a function or undefined
 */
function readValidateToolsOption(value: unknown): boolean | undefined {
    if (value === undefined || typeof value === "boolean") return value;
    throw new SessionToolError(
        "INVALID_SESSION_OPTION",
        `Invalid validateTools ${quoteValue(value)}: use true (the runtime checks the custom ` +
            "tools before the session is returned) or false, or leave it out.",
        ["validateTools"]
    );
}

export function readToolAnsweredOption(value: unknown): CallAttributionConfig["onToolAnswered"] {
    if (value === undefined || typeof value === "function") {
        return value as CallAttributionConfig["onToolAnswered"];
    }
    throw new SessionToolError(
        "INVALID_SESSION_OPTION",
        `Invalid onToolAnswered ${quoteValue(value)}: ` +
            "pass a function that receives each tool call's answer " +
            "({ toolName, toolCallId, answeredBy, expected, ... }), or leave it out.",
        ["onToolAnswered"]
    );
}
