// The state each client keeps for the tool setup, made by the wrapped `CopilotClient`
// constructor: the client options checked once, what the client remembers across its sessions,
// and the SDK release its class was wrapped for (what the release can do travels with the client).

import type { CopilotClientOptions } from "@github/copilot-sdk";
import {
    deliveryOf,
    type CatalogCache,
    type RuntimeToolHost,
} from "../catalog/builtInToolCatalog.js";
import type { BuiltInToolCollisionPolicy, SessionToolClientOptions } from "../api/publicTypes.js";
import { SessionToolError } from "../api/sessionToolError.js";
import type { SessionToolWarning } from "../api/sessionToolWarning.js";
import { quoteValue } from "../../shared/formatting.js";
import { detectedRelease, UNDETECTED, type SdkCapabilities } from "../../sdk/release.js";
import { createPromptRewrites, type PromptRewriter } from "../prompt/promptAgreement.js";
import { DEFAULT_BUILT_IN_TOOL_COLLISIONS } from "./overrides.js";

/** The SDK release a client's class was wrapped for. */
export interface ClientRelease {
    /** Its version (`(unknown)` when it could not be read). */
    readonly version: string;
    /** What it can do. */
    readonly capabilities: SdkCapabilities;
}

/**
 * The release the wrap recorded, or an unknown one that can do nothing optional: for a client
 * whose class was wrapped without a release (a test double).
 */
export function recordedRelease(): ClientRelease {
    const detected = detectedRelease();
    return detected === undefined
        ? { version: "(unknown)", capabilities: UNDETECTED }
        : { version: detected.sdkVersion, capabilities: detected.capabilities };
}

/** Per-client state of the tool setup, made by the `CopilotClient` constructor. */
export interface SessionToolState extends CatalogCache {
    readonly policy: BuiltInToolCollisionPolicy;
    /** Whether filter warnings that name nothing refuse the session (`strictToolFilters`). */
    readonly strictToolFilters: boolean;
    /** Whether every session's custom tools are validated by the runtime (`failClosed`). */
    readonly failClosed: boolean;
    readonly onWarning: (warning: SessionToolWarning) => void;
    /** Names whose automatic override this client has reported already. */
    readonly reportedOverrides: Set<string>;
    /** By session id, the `setTools` calls still running or queued; `resumeSession` waits. */
    readonly updates: Map<string, Promise<unknown>>;
    /**
     * By session id, how often `resumeSession` started for it; a session object whose number is
     * older was replaced and must not send anything.
     */
    readonly resumes: Map<string, number>;
    /** The rewrite of the runtime's sections, remembered across this client's sessions. */
    readonly promptRewrites: PromptRewriter;
    /**
     * The SDK release the client's class was wrapped for: its version and what it can do
     * (`validateTools`, `session.setTools`), for refusals that name it.
     */
    readonly release: ClientRelease;
}

/** The part of `CopilotClient` the tool setup uses. */
export interface SessionToolHost extends RuntimeToolHost {
    sessionToolState?: SessionToolState;
}

const COLLISION_POLICIES: ReadonlySet<unknown> = new Set(["override", "error"]);

/**
 * Checks the client options of the tool setup; the `CopilotClient` constructor calls it, so a
 * bad option fails there.
 *
 * @param options - the client options as passed
 * @param bundledRuntimeVersion - the bundled runtime's version when the client runs it, else
 *   undefined (a `cliUrl` server or a runtime at `cliPath`)
 * @param startsRuntime - whether the client starts its runtime itself (not a server at a URL)
 * @param release - the SDK release the client's class was wrapped for; by default the one the
 *   wrap recorded (a client double made without the wrap's constructor)
 * @returns the state the client keeps
 * @throws SessionToolError `INVALID_CLIENT_OPTION`
 */
export function createSessionToolState(
    options: (CopilotClientOptions & SessionToolClientOptions) | undefined,
    bundledRuntimeVersion: string | undefined,
    startsRuntime = false,
    release: ClientRelease = recordedRelease()
): SessionToolState {
    // Checked at run time too: JavaScript callers may pass anything.
    const { builtInToolCollisions, onToolWarning, strictToolFilters, failClosed } = options ?? {};
    if (builtInToolCollisions !== undefined && !COLLISION_POLICIES.has(builtInToolCollisions)) {
        throw new SessionToolError(
            "INVALID_CLIENT_OPTION",
            `Invalid builtInToolCollisions ${quoteValue(builtInToolCollisions)}: ` +
                `use 'override' (a custom tool replaces the built-in of its name) or 'error' (refuse such sessions).`
        );
    }
    if (onToolWarning !== undefined && typeof onToolWarning !== "function") {
        throw new SessionToolError(
            "INVALID_CLIENT_OPTION",
            `Invalid onToolWarning ${quoteValue(onToolWarning)}: pass a function that receives each warning, ` +
                `or leave it out to log with console.warn.`
        );
    }
    if (strictToolFilters !== undefined && typeof strictToolFilters !== "boolean") {
        throw new SessionToolError(
            "INVALID_CLIENT_OPTION",
            `Invalid strictToolFilters ${quoteValue(strictToolFilters)}: ` +
                `use true (a filter entry or toolset member that names nothing refuses the session) or false (it only warns).`
        );
    }
    if (failClosed !== undefined && typeof failClosed !== "boolean") {
        throw new SessionToolError(
            "INVALID_CLIENT_OPTION",
            `Invalid failClosed ${quoteValue(failClosed)}: use true (the fail-closed preset) ` +
                `or leave it out.`
        );
    }
    if (failClosed === true) refuseFailClosedContradictions(options ?? {}, release);
    return {
        policy:
            failClosed === true
                ? "error"
                : (builtInToolCollisions ?? DEFAULT_BUILT_IN_TOOL_COLLISIONS),
        strictToolFilters: failClosed === true || (strictToolFilters ?? false),
        failClosed: failClosed === true,
        onWarning: onToolWarning ?? ((warning) => console.warn(warning.message)),
        bundledRuntimeVersion,
        runtimeDelivery: deliveryOf(bundledRuntimeVersion),
        asksLocalRuntime: startsRuntime && bundledRuntimeVersion === undefined,
        reportedOverrides: new Set(),
        updates: new Map(),
        resumes: new Map(),
        promptRewrites: createPromptRewrites(),
        release,
    };
}

/** What `failClosed: true` sets, each option with the value it takes. */
const FAIL_CLOSED_SETS: ReadonlyMap<keyof SessionToolClientOptions, unknown> = new Map<
    keyof SessionToolClientOptions,
    unknown
>([
    ["builtInToolCollisions", "error"],
    ["strictToolFilters", true],
]);

/**
 * Refuses a client option that `failClosed: true` would overrule, and the preset on a release
 * that cannot validate tools (it could not keep its promise there).
 */
function refuseFailClosedContradictions(
    options: SessionToolClientOptions,
    release: ClientRelease
): void {
    for (const [option, value] of FAIL_CLOSED_SETS) {
        const given = options[option];
        if (given === undefined || given === value) continue;
        throw new SessionToolError(
            "INVALID_CLIENT_OPTION",
            `Invalid ${option} ${quoteValue(given)} with failClosed: true: the preset sets ` +
                `${option}: ${quoteValue(value)}. Leave ${option} out, or leave failClosed out ` +
                `and set each option yourself.`
        );
    }
    if (release.capabilities.validateTools) return;
    throw new SessionToolError(
        "UNSUPPORTED_BY_RELEASE",
        `failClosed validates every session's tools through the runtime request ` +
            `'session.tools.initializeAndValidate', which @github/copilot-sdk ` +
            `${release.version} does not have: move to an SDK release that has it, or leave ` +
            `failClosed out and set builtInToolCollisions and strictToolFilters yourself.`,
        ["session.tools.initializeAndValidate"]
    );
}

/**
 * The client's tool-setup state; a client whose constructor did not make it (constructed before
 * the patch, or a test double) gets the defaults.
 */
export function sessionToolStateOf(client: SessionToolHost): SessionToolState {
    return (client.sessionToolState ??= createSessionToolState(undefined, undefined));
}
