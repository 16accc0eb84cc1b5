/**
 * Shared pieces of the end-to-end tests (and the demo): temporary base directories, the mock
 * model as a BYOK provider, runtime clients that stop when the test ends, custom tools that
 * record their calls, and the checks that a test file left no runtime process, connected client,
 * listening port or temporary directory behind.
 *
 * Everything made here is also recorded in this module, so {@link leftovers} can check it after
 * the clean-ups ran; vitest loads a fresh copy of the module per test file.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { OnTestFinishedHandler } from "vitest";
import {
    CopilotClient,
    RuntimeConnection,
    approveAll,
    type SessionToolWarning,
} from "@github/copilot-sdk";
import {
    descriptionOf,
    startMockModel,
    toolNameOf,
    type MockModel,
    type MockModelScript,
    type RecordedTool,
} from "./mockModel.js";
import { retryStartOnTimeout } from "./runtimeStart.js";

/** A client whose start can be retried. */
type StartableClient = Parameters<typeof retryStartOnTimeout>[0];

/** The model that gets `view`/`edit`/`create`/`grep` (Claude family). */
export const CLAUDE_MODEL = "claude-sonnet-4.5";
/** The model that gets `apply_patch`/`rg` (GPT family). */
export const GPT_MODEL = "gpt-4o";

/** Registers a clean-up; clean-ups run in reverse order of registration. */
export type Defer = (cleanup: () => unknown) => void;

/** A stack of clean-ups, for a test's end or a script's `finally`. */
export interface CleanupStack {
    /** Registers a clean-up. */
    readonly defer: Defer;
    /** Runs every registered clean-up, last first, and rethrows the first failure. */
    run(): Promise<void>;
}

/** Creates an empty {@link CleanupStack}. */
export function cleanupStack(): CleanupStack {
    const cleanups: (() => unknown)[] = [];
    return {
        defer: (cleanup) => void cleanups.push(cleanup),
        async run() {
            const errors: unknown[] = [];
            while (cleanups.length > 0) {
                try {
                    await cleanups.pop()!();
                } catch (error) {
                    errors.push(error);
                }
            }
            if (errors.length > 0) throw errors[0];
        },
    };
}

/**
 * The clean-ups of one test: they run, last first, when the test finishes. Takes the test
 * context's `onTestFinished`, which (unlike `afterEach`) belongs to this test alone, so tests can
 * run concurrently.
 *
 * @example
 * ```typescript
 * it("...", async ({ onTestFinished }) => {
 *     const defer = testCleanups(onTestFinished);
 *     const model = await mockModel(defer);
 * });
 * ```
 */
export function testCleanups(onTestFinished: (handler: OnTestFinishedHandler) => void): Defer {
    const { defer, run } = cleanupStack();
    onTestFinished(() => run());
    return defer;
}

const createdDirectories: string[] = [];
const startedModels: MockModel[] = [];
const closedModels = new WeakSet<MockModel>();
const createdClients: RuntimeClient[] = [];

/**
 * Creates a fresh temporary directory to use as a client's `baseDirectory` and registers its
 * removal. Register it before the clients that use it, so they stop before it goes.
 */
export function temporaryBaseDirectory(defer: Defer, prefix = "copilot-e2e-"): string {
    const directory = mkdtempSync(join(tmpdir(), prefix));
    createdDirectories.push(directory);
    defer(() => rmSync(directory, { recursive: true, force: true }));
    return directory;
}

/** Starts a mock model (see {@link startMockModel}) and registers its shutdown. */
export async function mockModel(defer: Defer, script: MockModelScript = {}): Promise<MockModel> {
    const model = await startMockModel(script);
    startedModels.push(model);
    // Closed means its close() resolved (the server stopped listening): a probe of the port
    // could reach another file's mock model, which the system may give the freed port.
    const close = model.close;
    model.close = async () => {
        await close();
        closedModels.add(model);
    };
    defer(() => model.close());
    return model;
}

/** The part of a `CopilotClient`, patched or not, that the harness manages. */
export interface RuntimeClient {
    stop(): Promise<unknown>;
    ping(message?: string): Promise<unknown>;
}

/**
 * Records a client for {@link leftovers} and registers its stop.
 *
 * @param defer - where to register the stop
 * @param client - a patched or unpatched `CopilotClient`
 * @returns the same client
 */
export function stoppedAtEnd<C extends RuntimeClient>(defer: Defer, client: C): C {
    createdClients.push(client);
    if (typeof (client as Partial<StartableClient>).start === "function") {
        // Named by where the test made the client (the first frame outside this module).
        const caller = new Error().stack
            ?.split("\n")
            .find((frame) => /\/test\/(e2e|integration|consumer)\//.test(frame));
        retryStartOnTimeout(client as unknown as StartableClient, caller?.trim() ?? "a client");
    }
    defer(() => client.stop());
    return client;
}

/** The BYOK provider option that points a session at a mock model. */
export function providerFor(model: MockModel): { type: "openai"; baseUrl: string; apiKey: string } {
    // The runtime masks the key wherever it appears in tool output, so make it one that never
    // occurs by chance (a one-letter key would turn every "x" of a tool result into stars).
    return { type: "openai", baseUrl: model.baseUrl, apiKey: "mock-provider-key-8f3a" };
}

/** What every e2e session config starts with: a model id, the mock model, approve all. */
export interface SessionBase {
    model: string;
    provider: ReturnType<typeof providerFor>;
    onPermissionRequest: typeof approveAll;
}

/** One test's world: a fresh base directory, a mock model and a client using both. */
export interface E2eRig<C> {
    readonly baseDirectory: string;
    readonly model: MockModel;
    readonly client: C;
    /** The start of a session config for model id `modelId` on this rig's mock model. */
    base(modelId: string): SessionBase;
}

/**
 * Makes a fresh base directory, a mock model and a client, each cleaned up when the test ends
 * (client first, then model, then directory).
 *
 * @param defer - the test's clean-ups
 * @param makeClient - builds the client (patched or unpatched) on the given base directory
 * @param script - what the mock model answers
 */
export async function e2eRig<C extends RuntimeClient>(
    defer: Defer,
    makeClient: (baseDirectory: string) => C,
    script: MockModelScript = {}
): Promise<E2eRig<C>> {
    const baseDirectory = temporaryBaseDirectory(defer);
    const model = await mockModel(defer, script);
    const client = stoppedAtEnd(defer, makeClient(baseDirectory));
    return {
        baseDirectory,
        model,
        client,
        base: (modelId) => ({
            model: modelId,
            provider: providerFor(model),
            onPermissionRequest: approveAll,
        }),
    };
}

/**
 * The runtime binary named by COPILOT_EXTERNAL_RUNTIME (the native
 * `node_modules/@github/copilot-linux-x64/copilot` of `@github/copilot`, e.g. 1.0.102), when that
 * file exists; undefined otherwise, and the clients run the release's own runtime.
 */
export const EXTERNAL_RUNTIME: string | undefined = (() => {
    const path = process.env.COPILOT_EXTERNAL_RUNTIME;
    return path !== undefined && existsSync(path) ? path : undefined;
})();

/**
 * {@link e2eRig} with this package's client on the runtime under test: the release's own, or
 * {@link EXTERNAL_RUNTIME}'s through `RuntimeConnection.forStdio`.
 *
 * @param onTestFinished - the test context's, for the clean-ups
 * @param script - what the mock model answers
 * @param onToolWarning - the client's `onToolWarning`; by default warnings are dropped
 */
export function runtimeRig(
    onTestFinished: Parameters<typeof testCleanups>[0],
    script: MockModelScript = {},
    onToolWarning: (warning: SessionToolWarning) => unknown = () => {}
): Promise<E2eRig<CopilotClient>> {
    const connection =
        EXTERNAL_RUNTIME === undefined
            ? {}
            : { connection: RuntimeConnection.forStdio({ path: EXTERNAL_RUNTIME }) };
    return e2eRig(
        testCleanups(onTestFinished),
        (baseDirectory) => new CopilotClient({ ...connection, baseDirectory, onToolWarning }),
        script
    );
}

/** A port on 127.0.0.1 that was free a moment ago. */
async function freePort(): Promise<number> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    await new Promise((resolve) => server.close(resolve));
    if (address === null || typeof address === "string") throw new Error("no port");
    return address.port;
}

/**
 * Two clients of this package on one runtime: the rig's client starts it on a TCP port (and is
 * started), `other` connects to it, a second connection to the same sessions. Both are stopped
 * when the test ends.
 *
 * @param defer - the test's clean-ups
 * @param script - what the mock model answers
 */
export async function twoClientRig(
    defer: Defer,
    script: MockModelScript = {}
): Promise<E2eRig<CopilotClient> & { readonly other: CopilotClient }> {
    const port = await freePort();
    const connectionToken = `token-${Math.random().toString(36).slice(2)}`;
    const rig = await e2eRig(
        defer,
        (baseDirectory) =>
            new CopilotClient({
                baseDirectory,
                onToolWarning: () => {},
                connection: RuntimeConnection.forTcp({ port, connectionToken }),
            } as never),
        script
    );
    await rig.client.start();
    const other = stoppedAtEnd(
        defer,
        new CopilotClient({
            onToolWarning: () => {},
            connection: RuntimeConnection.forUri(`127.0.0.1:${port}`, { connectionToken }),
        } as never)
    );
    return { ...rig, other };
}

/** A custom tool that records its calls and answers with a text naming itself. */
export interface RecordingTool {
    readonly name: string;
    readonly description: string;
    readonly parameters: Record<string, unknown>;
    readonly handler: (args: unknown) => Promise<string>;
    /** Arguments of every call, in order. */
    readonly calls: unknown[];
    /** What the handler answers; the test looks for it in the model's next request. */
    readonly result: string;
}

/**
 * Creates a custom tool named `name` whose description and result mark it as the custom one.
 *
 * @param name - the tool name
 * @returns the tool, with its recorded calls
 */
export function recordingTool(name: string): RecordingTool {
    const calls: unknown[] = [];
    const result = `custom ${name} handler ran`;
    return {
        name,
        description: `Custom ${name}: the app's own implementation.`,
        parameters: { type: "object", properties: { path: { type: "string" } } },
        calls,
        result,
        handler: async (args) => {
            calls.push(args);
            return result;
        },
    };
}

/** Whether a tool definition the model received is that of a {@link recordingTool}. */
export function isRecordingTool(tool: RecordedTool): boolean {
    return descriptionOf(tool) === recordingTool(toolNameOf(tool)).description;
}

/** The session ids that have a state directory under `baseDirectory`. */
export function sessionDirectories(baseDirectory: string): string[] {
    const stateDirectory = join(baseDirectory, "session-state");
    return existsSync(stateDirectory) ? readdirSync(stateDirectory).sort() : [];
}

/**
 * The child processes of this process that are still running, one entry each: Node keeps a
 * `ProcessWrap` handle per spawned child until it exits, on every platform. The runtime is the
 * only process the tests spawn.
 */
export function runningChildProcesses(): string[] {
    return process.getActiveResourcesInfo().filter((resource) => resource === "ProcessWrap");
}

/** Resolves true when `client` still answers a ping (it was never stopped). */
function isConnected(client: RuntimeClient): Promise<boolean> {
    return Promise.resolve()
        .then(() => client.ping())
        .then(
            () => true,
            () => false
        );
}

/**
 * What this test file left behind: runtime processes still running, clients made through
 * {@link stoppedAtEnd} that still answer, mock models still accepting connections, temporary
 * directories still present. Runtime processes get up to two seconds to exit after
 * `client.stop()`, which resolves before its process has gone.
 */
export async function leftovers(): Promise<{
    runtimeProcesses: string[];
    connectedClients: number[];
    openModels: string[];
    directories: string[];
}> {
    let processes = runningChildProcesses();
    for (let waited = 0; processes.length > 0 && waited < 2_000; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        processes = runningChildProcesses();
    }
    const connectedClients: number[] = [];
    for (const [index, client] of createdClients.entries()) {
        if (await isConnected(client)) connectedClients.push(index);
    }
    const openModels = startedModels
        .filter((model) => !closedModels.has(model))
        .map((model) => model.baseUrl);
    return {
        runtimeProcesses: processes,
        connectedClients,
        openModels,
        directories: createdDirectories.filter((directory) => existsSync(directory)),
    };
}
