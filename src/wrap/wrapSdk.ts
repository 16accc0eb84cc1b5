// How the tool customization reaches the SDK: from the outside. The SDK's method bodies stay as
// published. Library form: this package's entry re-exports the SDK with `CopilotClient` replaced
// by the subclass made here (`adoptSdk`). Patch form: the thin patch appends a call to each build
// of the SDK's client.js, which rebinds `CopilotClient` to that subclass
// (`toolCustomizationHook`). Either way, what the installed release can do is read at run time
// (sdk/release.ts), and a release that cannot be served is refused when a client is constructed. Why the client needs a subclass: the fork's client options
// (`builtInToolCollisions`, `onToolWarning`, `strictToolFilters`, `failClosed`) are read in the constructor,
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
import { builtInToolGroups } from "../toolCustomization/catalog/builtInToolGroups.js";
import {
    assertUniqueToolNames,
    validateSessionTools,
} from "../toolCustomization/input/customToolChecks.js";
import { SessionToolError } from "../toolCustomization/api/sessionToolError.js";
import {
    readSessionBody,
    readSessionHead,
    refusedBySdkFirst,
} from "../toolCustomization/input/sessionInput.js";
import { toolSetEntry } from "../toolCustomization/catalog/defaultToolSets.js";
import {
    prepareSession,
    type PreparedSessionTools,
} from "../toolCustomization/construction/pipeline.js";
import {
    createSessionToolState,
    recordedRelease,
    sessionToolStateOf,
    type ClientRelease,
    type SessionToolHost,
} from "../toolCustomization/construction/clientState.js";
import type { ToolSessionConfig } from "../toolCustomization/api/sessionConfig.js";
import { attachSession } from "../toolCustomization/session/install.js";
import { clashOf } from "../toolCustomization/session/toolChange.js";
import {
    addToolSetItem,
    extensionResumeOf,
    setExtensionResume,
    setNoDelayOnConnect,
    forgetSession,
    hasConnection,
    markDisconnected,
    normaliseToolFilters,
    runsShippedRuntime,
    startsItsRuntime,
} from "../sdk/internals.js";
import {
    detectRelease,
    recordDetectedRelease,
    SDK_PACKAGE,
    type SdkRelease,
} from "../sdk/release.js";

/**
 * Set on every class this module wraps (shared across copies and module formats of this
 * package): a class that carries it is never wrapped again.
 */
const WRAPPED = Symbol.for("copilot-sdk-tool-override.wrapped");

/** The SDK's client class, as its `client.js` declares it. */
type ClientClass = new (options?: CopilotClientOptions) => CopilotClient;

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
export function wrapCopilotClient<T extends ClientClass>(Published: T, release?: SdkRelease): T {
    if (isWrapped(Published)) return Published;
    return wrapClient(
        Published,
        release,
        async (client, given, { resumedSessionId, construct, discard }) => {
            // One read of the caller's config, before anything looks at it.
            const head = readSessionHead(given);
            // The SDK's own first check refuses such a config before anything else: it answers.
            if (head.refusedBySdkFirst) return construct(head.config as never);
            const state = sessionToolStateOf(client as CopilotClient & SessionToolHost);
            const validateTools = validatesTools(head.validateTools, state.failClosed);
            refuseMissingCapabilities(validateTools, state.release);
            refuseUnusableSessionId(resumedSessionId ?? head.sessionId);
            // As the SDK's own method does: start only a client that has no connection yet.
            if (!hasConnection(client)) await client.start();
            // The rest of the input, read from the head's copy.
            const input = readSessionBody(head);
            const prepared = await prepareSession(
                client as CopilotClient & SessionToolHost,
                input,
                (read) => normaliseToolFilters(client, read),
                resumedSessionId
            );
            const checked = checkedConstruction(prepared.config, validateTools, construct, discard);
            const session = await checked.catch((error: unknown) => {
                // Another connection holds a name on a resumed session: say which.
                throw clashOf(error, prepared.config.tools ?? []) ?? error;
            });
            await attachSession(session, prepared as PreparedSessionTools<ToolSessionConfig>, {
                client: client as CopilotClient & SessionToolHost,
                onToolAnswered: input.onToolAnswered,
                mcpServers: Object.keys(prepared.source.mcpServers ?? {}),
                agents: {
                    custom: (prepared.source.customAgents ?? []).map((agent) => agent.name),
                    selected: prepared.source.agent,
                },
                resumed: resumedSessionId !== undefined,
            });
            return session;
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
    return wrapClient(Published, undefined, (_client, config, { construct, discard }) =>
        refusedBySdkFirst(config)
            ? construct(config as never)
            : checkedConstruction(
                  config as ToolSessionConfig,
                  (config as ToolSessionConfig).validateTools === true,
                  construct,
                  discard
              )
    );
}

/**
 * Whether the runtime validates this session's tools: the session's `validateTools`, or every
 * session of a `failClosed` client, which refuses a session that turns it off.
 */
function validatesTools(given: boolean | undefined, failClosed: boolean): boolean {
    if (!failClosed) return given === true;
    if (given === false) {
        throw new SessionToolError(
            "INVALID_SESSION_OPTION",
            "Invalid validateTools false on a client with failClosed: true: the preset validates " +
                "every session's custom tools. Leave validateTools out, or use a client without failClosed.",
            ["validateTools"]
        );
    }
    return true;
}

/**
 * Refuses, before anything is sent, what the installed SDK release cannot do: `validateTools`
 * without the runtime request `session.tools.initializeAndValidate`.
 */
function refuseMissingCapabilities(validateTools: boolean, release: ClientRelease): void {
    if (!validateTools || release.capabilities.validateTools) return;
    throw new SessionToolError(
        "UNSUPPORTED_BY_RELEASE",
        `validateTools needs the runtime request 'session.tools.initializeAndValidate', ` +
            `which @github/copilot-sdk ${release.version} does not have: ` +
            `leave validateTools out (a refused tool then fails the first send), or move to an SDK release that has it.`,
        ["session.tools.initializeAndValidate"]
    );
}

/**
 * The longest session id the runtime can take, in UTF-8 bytes: it names a folder of the session's
 * state, and file names are at most 255 bytes (measured on runtime 1.0.85: a longer id is refused
 * with "File name too long"; one of 100 KB is never answered and blocks the client's connection).
 */
export const MAX_SESSION_ID_BYTES = 255;

/** Refuses, before anything is sent, a session id longer than the runtime can take. */
function refuseUnusableSessionId(sessionId: unknown): void {
    if (typeof sessionId !== "string") return;
    const bytes = Buffer.byteLength(sessionId, "utf8");
    if (bytes <= MAX_SESSION_ID_BYTES) return;
    throw new SessionToolError(
        "INVALID_SESSION_OPTION",
        `Invalid session id '${sessionId.slice(0, 40)}...' (${bytes} bytes): ` +
            `the runtime stores a session under its id, which can be at most ${MAX_SESSION_ID_BYTES} bytes. ` +
            `Pass the id createSession gave (session.sessionId), or a shorter one.`,
        ["sessionId"]
    );
}

/** The construction checks around the SDK's own method. */
async function checkedConstruction(
    config: ToolSessionConfig,
    validateTools: boolean,
    construct: Construction["construct"],
    discard: Construction["discard"]
): Promise<CopilotSession> {
    assertUniqueToolNames(config.tools);
    const session = await construct(config as never);
    await validateSessionTools(session, { tools: config.tools, validateTools }, () =>
        discard(session)
    );
    return session;
}

type Wrap = (
    client: CopilotClient,
    config: SessionConfig | ResumeSessionConfig,
    construction: Construction
) => Promise<CopilotSession>;

function wrapClient<T extends ClientClass>(
    Published: T,
    release: SdkRelease | undefined,
    wrap: Wrap
): T {
    const Base = Published as ClientClass;
    class WrappedClient extends Base {
        constructor(options?: CopilotClientOptions) {
            // Fail closed: a release the wrap cannot serve gets no client at all.
            if (release?.unsupported !== undefined) {
                throw new SessionToolError(
                    "UNSUPPORTED_BY_RELEASE",
                    `copilot-sdk-tool-override cannot serve ${SDK_PACKAGE} ${release.version}: ${release.unsupported}. ` +
                        `Install a 1.0 release of ${SDK_PACKAGE} (for example \`npm install ${SDK_PACKAGE}@1.0.14\`), ` +
                        `or use ${SDK_PACKAGE}'s own CopilotClient without this package.`
                );
            }
            super(options);
            giveToolState(this, options, release);
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
    const extensionResume = extensionResumeOf(Base.prototype);
    if (extensionResume !== undefined) {
        setExtensionResume(WrappedClient.prototype, {
            value: function resumeSessionForExtension(
                this: CopilotClient,
                sessionId: string,
                config: ResumeSessionConfig,
                ...rest: unknown[]
            ) {
                return wrap(this, config, {
                    resumedSessionId: sessionId,
                    construct: (sent: ResumeSessionConfig) =>
                        extensionResume.call(
                            this,
                            sessionId,
                            sent,
                            ...rest
                        ) as Promise<CopilotSession>,
                    discard: (session) => releaseRefused(this, session, () => session.disconnect()),
                });
            },
            writable: true,
            configurable: true,
        });
    }
    // Until the SDK sets it itself (upstream series 4), TCP connections get TCP_NODELAY.
    setNoDelayOnConnect(WrappedClient.prototype);
    releases.set(WrappedClient, release);
    // Messages and stack traces keep the SDK's name.
    Object.defineProperty(WrappedClient, "name", { value: Published.name });
    Object.defineProperty(WrappedClient, WRAPPED, { value: true });
    return WrappedClient as unknown as T;
}

/** By wrapped class, the release it was wrapped for (undefined: a test double's class). */
const releases = new WeakMap<object, SdkRelease | undefined>();

/**
 * Gives a client the state its tool setup keeps, with the release its class was wrapped for: what
 * the release can do travels with the client from here on.
 */
function giveToolState(
    client: CopilotClient,
    options: CopilotClientOptions | undefined,
    release: SdkRelease | undefined
): void {
    const own: ClientRelease =
        release === undefined
            ? recordedRelease()
            : { version: release.version, capabilities: release.capabilities };
    (client as SessionToolHost).sessionToolState = createSessionToolState(
        options,
        runsShippedRuntime(client) ? own.capabilities.bundledRuntimeVersion : undefined,
        startsItsRuntime(client),
        own
    );
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

/** Whether `Published` is already a class this package (any copy of it) made. */
export function isWrapped(Published: object): boolean {
    return (Published as { [WRAPPED]?: unknown })[WRAPPED] === true;
}

/** The SDK's public exports the rest of the wrap installs on. */
export interface SdkExports {
    readonly ToolSet: typeof PublishedToolSet;
    readonly BuiltInTools: typeof PublishedBuiltInTools;
}

/**
 * Installs the construction checks' part of the SDK's exports: the `BuiltInTools` groups
 * (`Read`, `Edit`, `Search`, `Execute`, ...). A group of the same name that a release ships is
 * replaced: these groups hold every measured name of their kind, so that excluding one fails
 * closed.
 */
export function installBuiltInToolGroups(sdk: SdkExports): void {
    Object.assign(sdk.BuiltInTools, builtInToolGroups);
}

/**
 * Installs the rest of the tool customization on the SDK's public exports: `ToolSet.addToolSet`
 * and the `BuiltInTools` groups.
 *
 * @param sdk - the SDK's `toolSet` module (or its root module)
 */
export function installToolCustomization(sdk: SdkExports): void {
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

/**
 * The patch form's one call, appended to each build of the SDK's `client.js`: wraps the SDK's
 * `CopilotClient` (once; a class already wrapped is returned as it is) and installs the rest on
 * its `toolSet` module. Not meant to be called by apps.
 *
 * @param Published - the SDK's `CopilotClient`
 * @param toolSet - the SDK's `toolSet` module of the same build
 * @param location - the file URL or path of the calling `client.js`, where the release is read
 * @returns the class `client.js` binds `CopilotClient` to
 */
export function toolCustomizationHook<T extends ClientClass>(
    Published: T,
    toolSet: SdkExports,
    location: string | URL
): T {
    if (isWrapped(Published)) return Published;
    const release = detectRelease(location);
    recordDetectedRelease(release.version, "patch", release.capabilities);
    if (release.unsupported === undefined) installToolCustomization(toolSet);
    return wrapCopilotClient(Published, release);
}

/** What the library form needs of the SDK's root module. */
export interface SdkRoot extends SdkExports {
    readonly CopilotClient: ClientClass;
    readonly TOOL_CUSTOMIZATION_PATCH?: unknown;
}

/**
 * The library form: the SDK's `CopilotClient` wrapped, for this package's entry to export in its
 * place. An SDK that already carries the tool customization (this package's thin patch, or the
 * self-contained patch of 0.3.0 and earlier) is not wrapped again: its own `CopilotClient` is
 * returned, and for a self-contained patch a warning says how to move to one wrap.
 *
 * @param sdk - the SDK's root module
 * @param location - where the SDK's entry is (path or file URL), where the release is read
 */
export function adoptSdk(sdk: SdkRoot, location: string | URL): ClientClass {
    if (isWrapped(sdk.CopilotClient)) return sdk.CopilotClient;
    const release = detectRelease(location);
    if (sdk.TOOL_CUSTOMIZATION_PATCH !== undefined) {
        process.emitWarning(
            `${SDK_PACKAGE} ${release.version} carries the self-contained tool-customization patch of ` +
                `copilot-sdk-tool-override 0.3.0 or earlier, ` +
                `which already wraps its CopilotClient: copilot-sdk-tool-override does not wrap it twice, ` +
                (`but its SessionToolError is not that patch's. ` +
                    `Run \`npx --no copilot-sdk-tool-override upgrade\` to replace the old patch.`),
            { code: "COPILOT_SDK_TOOL_OVERRIDE_OLD_PATCH" }
        );
        return sdk.CopilotClient;
    }
    recordDetectedRelease(release.version, "library", release.capabilities);
    // A release that cannot be served (0.x, 2.x) may lack the exports installed on (0.x has no
    // BuiltInTools): nothing is installed, and its wrapped client refuses at construction.
    if (release.unsupported === undefined) installToolCustomization(sdk);
    return wrapCopilotClient(sdk.CopilotClient, release);
}

/**
 * Runs the SDK's `joinSession` (`run`) so that the client it builds from the SDK's own class
 * runs the tool customization: for the synchronous part of `run`, the SDK class's extension
 * resume is replaced by one that moves the client onto `Wrapped` (and gives it the state the
 * wrapped constructor gives) before the wrapped resume sends anything.
 *
 * @param Wrapped - the library form's `CopilotClient`
 * @param run - calls the SDK's `joinSession`
 * @returns its promise, or undefined when the SDK's `joinSession` did not go through the
 *   extension resume synchronously (nothing wrapped then; the caller refuses)
 */
export function adoptExtensionClient(
    Wrapped: ClientClass,
    run: () => Promise<CopilotSession>
): Promise<CopilotSession> | undefined {
    const Published = Object.getPrototypeOf(Wrapped) as ClientClass;
    const proto = Published.prototype;
    const wrappedResume = extensionResumeOf(Wrapped.prototype);
    if (!isWrapped(Wrapped) || wrappedResume === undefined) return undefined;
    let adopted = false;
    const own = setExtensionResume(proto, {
        value: function adoptedResume(
            this: CopilotClient,
            sessionId: string,
            config: ResumeSessionConfig,
            ...rest: unknown[]
        ) {
            adopted = true;
            Object.setPrototypeOf(this, Wrapped.prototype);
            giveToolState(this, undefined, releases.get(Wrapped));
            return wrappedResume.call(this, sessionId, config, ...rest) as Promise<CopilotSession>;
        },
        writable: true,
        configurable: true,
    });
    let result: Promise<CopilotSession>;
    try {
        result = run();
    } finally {
        setExtensionResume(proto, own);
    }
    if (adopted) return result;
    // The SDK refused before resuming (for example outside an extension process): its own error
    // stands; a session joined some other way is not handed out.
    return result.then(async (session) => {
        await session.disconnect();
        throw new SessionToolError(
            "UNSUPPORTED_BY_RELEASE",
            "joinSession of the installed @github/copilot-sdk joined a session without CopilotClient.resumeSessionForExtension, " +
                "so its client could not run the tool customization; the session was disconnected. " +
                "Use the patch form (`npx --no copilot-sdk-tool-override init`), which wraps the SDK's own class."
        );
    });
}
