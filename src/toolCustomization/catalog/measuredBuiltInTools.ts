/**
 * What `npm run discover:tool-names` measured about one runtime version's built-in tools. The
 * data lives in `measuredBuiltInTools.generated.ts`, one entry per runtime version; nothing in
 * it is written by hand.
 */
export interface MeasuredBuiltInTools {
    /** The runtime version (`status.get`'s `version`, e.g. `"1.0.85"`), the lookup key. */
    readonly runtimeVersion: string;
    /** The `@github/copilot-sdk` version that drove the runtime while it was measured. */
    readonly sdkVersion: string;
    /**
     * Which delivery of the runtime was measured, part of the lookup key: one version comes as
     * the runtime an SDK release bundles (`"bundled"`, `@github/copilot-sdk-<platform>`) and as
     * the `@github/copilot` CLI (`"cli"`: a release's `@github/copilot` dependency, or a CLI the
     * client starts at `cliPath` or reaches through a connection), and the two may offer
     * different built-ins (the CLI 1.0.85 offers `skill`, SDK 1.0.14's bundled 1.0.85 does not).
     */
    readonly delivery: RuntimeDelivery;
    /**
     * Every name the runtime has a built-in implementation for, as far as measured: the names a
     * custom tool without the override flag conflicts with, shadows, or may not use at all.
     */
    readonly builtIns: readonly string[];
    /**
     * Names whose override the runtime does not honour: with `overridesBuiltInTool: true` the
     * built-in still answers, the tool is dropped or refused, or the probe was inconclusive.
     */
    readonly unsupportedOverrides: readonly string[];
    /**
     * Names the runtime keeps as a custom tool only while tool search is active
     * (`toolSearch.enabled` and more tools than its deferral threshold); elsewhere it drops them.
     */
    readonly keptOnlyWithToolSearch: readonly string[];
    /**
     * The built-ins the model is offered in a default session, by model id; `"*"` is the
     * runtime's set for a model id it does not know.
     */
    readonly offeredByModel: Readonly<Record<string, readonly string[]>>;
    /**
     * Built-ins a session option or mode adds to the default set, keyed by
     * {@link BuiltInToolCondition}.
     */
    readonly offeredByCondition: Readonly<Partial<Record<BuiltInToolCondition, readonly string[]>>>;
    /**
     * Names the runtime's filter treats as one tool, by offered built-in: `excludedWith[b]` are
     * the names whose exclusion also removes `b` (GPT's `apply_patch` goes with `edit` or
     * `create`), `includedWith[b]` those whose presence in `availableTools` also allows `b`.
     */
    readonly filterAliases?: {
        readonly excludedWith: Readonly<Record<string, readonly string[]>>;
        readonly includedWith: Readonly<Record<string, readonly string[]>>;
    };
}

/** Which delivery of a runtime version a measurement was taken on, or a client talks to. */
export type RuntimeDelivery = "bundled" | "cli";

/** The session options and modes that switch on extra built-ins. */
export type BuiltInToolCondition =
    | "onUserInputRequest"
    | "planMode"
    | "autopilotMode"
    | "manageScheduleEnabled"
    | "enableSessionStore"
    | "skillDirectories"
    | "toolSearch";
