/**
 * Checks of a session's custom tools that `createSession` and `resumeSession` run, so that a tool
 * the runtime cannot serve fails there, with a message that names it, instead of at every `send`.
 */

/** The part of a custom tool these checks read. */
interface NamedTool {
    readonly name: string;
}

/** The part of a session these checks use. */
interface ToolValidatingSession {
    readonly rpc: {
        readonly tools: {
            initializeAndValidate(): Promise<unknown>;
        };
    };
}

/**
 * Refuses custom tools that share a name, before anything is sent. The runtime would keep one
 * definition and the session's handler registry another, so the model could read one tool's
 * description while a different tool's handler answers its calls.
 *
 * @param tools - the session's `tools` option
 * @throws Error naming every repeated name
 */
export function assertUniqueToolNames(tools: readonly NamedTool[] | undefined): void {
    if (!tools) {
        return;
    }
    const seen = new Set<string>();
    const repeated = new Set<string>();
    for (const { name } of tools) {
        if (seen.has(name)) {
            repeated.add(name);
        }
        seen.add(name);
    }
    if (repeated.size > 0) {
        const names = [...repeated].map((name) => `'${name}'`).join(", ");
        throw new Error(
            `Custom tool names must be unique: ${names} ${repeated.size === 1 ? "is" : "are"} ` +
                `defined more than once in tools. Rename or remove the extra definitions.`
        );
    }
}

/** The session options {@link validateSessionTools} reads. */
interface ToolValidationConfig {
    readonly tools?: readonly NamedTool[];
    readonly validateTools?: boolean;
}

/**
 * With `validateTools: true`, has the runtime build the session's tool list now, which it would
 * otherwise do at the first `send`, so that a custom tool it refuses (for example one with a
 * built-in tool's name and no `overridesBuiltInTool: true`) fails session construction. Sessions
 * without the option, or without custom tools, send nothing. When the runtime refuses,
 * `discard` removes the session first, so that nothing is left behind.
 *
 * @param session - the session just created or resumed
 * @param config - the session's options
 * @param discard - removes the session (deletes a new one; releases a resumed one)
 * @throws Error with the runtime's reason
 */
export async function validateSessionTools(
    session: ToolValidatingSession,
    config: ToolValidationConfig,
    discard: () => Promise<unknown>
): Promise<void> {
    if (config.validateTools !== true || !config.tools || config.tools.length === 0) {
        return;
    }
    try {
        await session.rpc.tools.initializeAndValidate();
    } catch (error) {
        await discard().catch(() => {});
        const reason = error instanceof Error ? error.message : String(error);
        throw new Error(`The runtime refused the session's custom tools: ${reason}`, {
            cause: error,
        });
    }
}
