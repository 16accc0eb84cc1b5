// How the patch reaches the SDK: from the outside. The SDK's method bodies stay as published;
// the patch appends one line to each build of client.js, which rebinds `CopilotClient` to the
// subclass made here, and one call to each build's root module, which installs the rest on the
// SDK's public exports. Why the client needs a subclass: the fork's client options
// (`builtInToolCollisions`, `onToolWarning`, `strictToolFilters`) are read in the constructor,
// which keeps only the options it knows; everything else is a method the subclass wraps.

import type {
    BuiltInTools as PublishedBuiltInTools,
    CopilotClient,
    CopilotClientOptions,
    CopilotSession,
    ResumeSessionConfig,
    SessionConfig,
    ToolSet as PublishedToolSet,
} from "@github/copilot-sdk";
import { TOOL_CUSTOMIZATION_PATCH } from "../patchMarker.js";
import { useSdkManifest } from "../patchCheck.js";
import { builtInToolGroups } from "../safetyNet/builtInToolGroups.js";
import { assertUniqueToolNames, validateSessionTools } from "../safetyNet/customToolChecks.js";
import { SessionToolError } from "../safetyNet/sessionToolError.js";
import { toolSetEntry } from "../safetyNet/defaultToolSets.js";
import {
    createSessionToolState,
    prepareSessionConfig,
    type PreparedSessionTools,
    type SessionToolHost,
    type ToolSessionConfig,
} from "../safetyNet/sessionToolSetup.js";
import { attachSessionTools, clashOf } from "../safetyNet/sessionToolUpdate.js";
import {
    addToolSetItem,
    forgetSession,
    hasConnection,
    markDisconnected,
    normaliseToolFilters,
    runsShippedRuntime,
    startsItsRuntime,
} from "./sdkSeam.js";

/** The SDK's client class, as its `client.js` declares it. */
type ClientClass = new (options?: CopilotClientOptions) => CopilotClient;

/** `resumeSessionForExtension`, where a release has it (behind `joinSession`). */
type ExtensionResume = (
    this: CopilotClient,
    sessionId: string,
    config: ResumeSessionConfig,
    ...rest: unknown[]
) => Promise<CopilotSession>;

/** How a wrapper runs one construction, around the SDK's own method. */
interface Construction {
    /** The session id `resumeSession` resumes; undefined for `createSession`. */
    readonly resumedSessionId?: string;
    /** The SDK's own method, given the config to send. */
    readonly construct: (config: never) => Promise<CopilotSession>;
    /** Removes the session when the runtime refuses its tools (`validateTools`). */
    readonly discard: (session: CopilotSession) => Promise<unknown>;
}

/**
 * The client with the whole patch: the safety net's session step before the SDK's own method
 * (so that nothing reaches the runtime unless the step accepts it), the construction checks, and
 * the session's `toolResolution` and `setTools` after it.
 *
 * @param Published - the SDK's `CopilotClient`
 * @returns a subclass with the published class's name, statics and behaviour otherwise
 */
export function wrapCopilotClient<T extends ClientClass>(Published: T): T {
    return wrapClient(
        Published,
        async (client, config, { resumedSessionId, construct, discard }) => {
            // The SDK's own first check refuses such a config before anything else: it answers.
            if (refusedBySdkFirst(config)) return construct(config as never);
            refuseMissingCapabilities(config);
            // As the SDK's own method does: start only a client that has no connection yet.
            if (!hasConnection(client)) await client.start();
            const prepared = await prepareSessionConfig(
                client as CopilotClient & SessionToolHost,
                config as ToolSessionConfig,
                (read) => normaliseToolFilters(client, read),
                resumedSessionId
            );
            const session = await checkedConstruction(prepared.config, construct, discard).catch(
                (error: unknown) => {
                    // Another connection holds a name on a resumed session: say which.
                    throw clashOf(error, prepared.config.tools ?? []) ?? error;
                }
            );
            return attachSessionTools(
                session,
                prepared as PreparedSessionTools<ToolSessionConfig>,
                client as CopilotClient & SessionToolHost
            );
        }
    );
}

/**
 * The client with the construction checks alone (duplicate names, the opt-in `validateTools`),
 * without the safety net: what an SDK with only upstream's side of the change does, for the
 * benchmark and the tests of those checks.
 *
 * @param Published - the SDK's `CopilotClient`
 */
export function wrapCopilotClientWithChecks<T extends ClientClass>(Published: T): T {
    return wrapClient(Published, (_client, config, { construct, discard }) =>
        refusedBySdkFirst(config)
            ? construct(config as never)
            : checkedConstruction(config as ToolSessionConfig, construct, discard)
    );
}

/**
 * Whether the SDK's own method refuses `config` before it does anything (both `gitHubToken` and
 * `gitHubTokenProvider`): the wrapper then hands it on untouched, so that the SDK's error comes
 * first, as without the patch.
 */
function refusedBySdkFirst(config: SessionConfig | ResumeSessionConfig): boolean {
    if (config === null || typeof config !== "object") return false;
    const { gitHubToken, gitHubTokenProvider } = config as {
        gitHubToken?: unknown;
        gitHubTokenProvider?: unknown;
    };
    return gitHubToken !== undefined && gitHubTokenProvider !== undefined;
}

/**
 * Refuses, before anything is sent, what the installed SDK release cannot do: `validateTools`
 * without the runtime request `session.tools.initializeAndValidate`.
 */
function refuseMissingCapabilities(config: SessionConfig | ResumeSessionConfig): void {
    const { validateTools } = config as { validateTools?: unknown };
    if (validateTools !== true || TOOL_CUSTOMIZATION_PATCH.capabilities.validateTools) return;
    throw new SessionToolError(
        "UNSUPPORTED_BY_RELEASE",
        `validateTools needs the runtime request 'session.tools.initializeAndValidate', which @github/copilot-sdk ${TOOL_CUSTOMIZATION_PATCH.sdkVersion} does not have: leave validateTools out (a refused tool then fails the first send), or move to an SDK release that has it.`,
        ["session.tools.initializeAndValidate"]
    );
}

/** The construction checks around the SDK's own method. */
async function checkedConstruction(
    config: ToolSessionConfig,
    construct: Construction["construct"],
    discard: Construction["discard"]
): Promise<CopilotSession> {
    assertUniqueToolNames(config.tools);
    const session = await construct(config as never);
    await validateSessionTools(session, config, () => discard(session));
    return session;
}

type Wrap = (
    client: CopilotClient,
    config: SessionConfig | ResumeSessionConfig,
    construction: Construction
) => Promise<CopilotSession>;

function wrapClient<T extends ClientClass>(Published: T, wrap: Wrap): T {
    const Base = Published as ClientClass;
    class WrappedClient extends Base {
        constructor(options?: CopilotClientOptions) {
            super(options);
            (this as SessionToolHost).sessionToolState = createSessionToolState(
                options,
                runsShippedRuntime(this)
                    ? TOOL_CUSTOMIZATION_PATCH.capabilities.bundledRuntimeVersion
                    : undefined,
                startsItsRuntime(this)
            );
        }

        override createSession(config: SessionConfig): Promise<CopilotSession> {
            return wrap(this, config, {
                construct: (sent: SessionConfig) => super.createSession(sent),
                discard: (session) =>
                    releaseRefused(this, session, () => this.deleteSession(session.sessionId)),
            });
        }

        override resumeSession(
            sessionId: string,
            config: ResumeSessionConfig
        ): Promise<CopilotSession> {
            return wrap(this, config, {
                resumedSessionId: sessionId,
                construct: (sent: ResumeSessionConfig) => super.resumeSession(sessionId, sent),
                discard: (session) => releaseRefused(this, session, () => session.disconnect()),
            });
        }
    }
    const extensionResume = (Base.prototype as { resumeSessionForExtension?: ExtensionResume })
        .resumeSessionForExtension;
    if (typeof extensionResume === "function") {
        Object.defineProperty(WrappedClient.prototype, "resumeSessionForExtension", {
            value: function resumeSessionForExtension(
                this: CopilotClient,
                sessionId: string,
                config: ResumeSessionConfig,
                ...rest: unknown[]
            ) {
                return wrap(this, config, {
                    resumedSessionId: sessionId,
                    construct: (sent: ResumeSessionConfig) =>
                        extensionResume.call(this, sessionId, sent, ...rest),
                    discard: (session) => releaseRefused(this, session, () => session.disconnect()),
                });
            },
            writable: true,
            configurable: true,
        });
    }
    // Messages and stack traces keep the SDK's name.
    Object.defineProperty(WrappedClient, "name", { value: Published.name });
    return WrappedClient as unknown as T;
}

/**
 * Removes a session whose tools the runtime refused (`validateTools`) with `remove`: a created one
 * is deleted, a resumed one released (never deleted). The SDK returned it committed; whatever
 * `remove` does, what the SDK's own failure path releases is released here too: the session is
 * marked disconnected (which drops its handlers and its GitHub token provider registration) and
 * no longer routed. (A resume had already taken the id's GitHub token provider registration
 * over; the objects that held the id before were retired when the resume began.)
 */
async function releaseRefused(
    client: CopilotClient,
    session: CopilotSession,
    remove: () => Promise<unknown>
): Promise<void> {
    try {
        await remove();
    } finally {
        markDisconnected(session);
        forgetSession(client, session.sessionId, session);
    }
}

/** The SDK's public exports the rest of the patch installs on. */
export interface SdkExports {
    readonly ToolSet: typeof PublishedToolSet;
    readonly BuiltInTools: typeof PublishedBuiltInTools;
}

/**
 * Installs the construction checks' part of the SDK's exports: the `BuiltInTools` groups
 * (`Read`, `Edit`, `Search`, `Execute`, ...). A group of the same name that a release ships is
 * replaced: the patch's groups hold every measured name of their kind, so that excluding one
 * fails closed, and the patch's typings describe them.
 */
export function installBuiltInToolGroups(sdk: SdkExports): void {
    Object.assign(sdk.BuiltInTools, builtInToolGroups);
}

/**
 * Installs the patch on the SDK's public exports: `ToolSet.addToolSet`, the `BuiltInTools`
 * groups, and where the start-up check finds the SDK's `package.json`. The root module of each
 * build calls it once.
 *
 * @param sdk - the SDK's root module exports
 * @param manifest - path or file URL of the SDK's `package.json`
 */
export function installToolCustomization(sdk: SdkExports, manifest: string | URL): void {
    useSdkManifest(manifest);
    installBuiltInToolGroups(sdk);
    Object.defineProperty(sdk.ToolSet.prototype, "addToolSet", {
        value: function addToolSet(this: PublishedToolSet, name: string) {
            addToolSetItem(this, toolSetEntry(name));
            return this;
        },
        writable: true,
        configurable: true,
    });
}
