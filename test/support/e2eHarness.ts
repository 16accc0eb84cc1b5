/**
 * Shared pieces of the end-to-end tests (and the demo): temporary base directories, the mock
 * model as a BYOK provider, custom tools that record their calls, and the checks that a test
 * file left no runtime process, listening port or temporary directory behind.
 *
 * Everything made here is also recorded in this module, so {@link leftovers} can
 * check it after the clean-ups ran; vitest loads a fresh copy of the module per test file.
 */
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startMockModel, type MockModel, type MockModelScript } from "./mockModel.js";

/** The model that gets `view`/`edit`/`create`/`grep` (Claude family). */
export const CLAUDE_MODEL = "claude-sonnet-4.5";
/** The model that gets `apply_patch`/`rg` (GPT family). */
export const GPT_MODEL = "gpt-4o";

/** Registers a clean-up; clean-ups run in reverse order of registration. */
export type Defer = (cleanup: () => unknown) => void;

/** A stack of clean-ups, for `afterAll`/`afterEach` or a script's `finally`. */
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

const createdDirectories: string[] = [];
const startedModels: MockModel[] = [];

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
    defer(() => model.close());
    return model;
}

/** The BYOK provider option that points a session at a mock model. */
export function providerFor(model: MockModel): { type: "openai"; baseUrl: string; apiKey: string } {
    // The runtime masks the key wherever it appears in tool output, so make it one that never
    // occurs by chance (a one-letter key would turn every "x" of a tool result into stars).
    return { type: "openai", baseUrl: model.baseUrl, apiKey: "mock-provider-key-8f3a" };
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

/** The session ids that have a state directory under `baseDirectory`. */
export function sessionDirectories(baseDirectory: string): string[] {
    const stateDirectory = join(baseDirectory, "session-state");
    return existsSync(stateDirectory) ? readdirSync(stateDirectory).sort() : [];
}

/** Pids of the live runtime processes that this process started (Linux: read from /proc). */
export function runtimeProcesses(): number[] {
    const pids: number[] = [];
    if (!existsSync("/proc")) return pids;
    for (const entry of readdirSync("/proc")) {
        if (!/^\d+$/.test(entry)) continue;
        let stat: string;
        try {
            stat = readFileSync(`/proc/${entry}/stat`, "utf8");
        } catch {
            continue; // exited while we looked
        }
        // "<pid> (<comm>) <state> <ppid> ...": comm may hold spaces, so split after its ")".
        const close = stat.lastIndexOf(")");
        const comm = stat.slice(stat.indexOf("(") + 1, close);
        const [state, ppid] = stat.slice(close + 2).split(" ");
        if (Number(ppid) === process.pid && comm.startsWith("copilot") && state !== "Z") {
            pids.push(Number(entry));
        }
    }
    return pids;
}

/** Resolves true when nothing accepts connections at `baseUrl` any more. */
function isClosed(baseUrl: string): Promise<boolean> {
    const { hostname, port } = new URL(baseUrl);
    return new Promise((resolve) => {
        const socket = connect({ host: hostname, port: Number(port) });
        socket.once("connect", () => {
            socket.destroy();
            resolve(false);
        });
        socket.once("error", () => resolve(true));
    });
}

/**
 * What this test file left behind: runtime processes still alive, mock models still accepting
 * connections, temporary directories still present. Runtime processes get up to two seconds to
 * exit after `client.stop()`.
 */
export async function leftovers(): Promise<{
    runtimeProcesses: number[];
    openModels: string[];
    directories: string[];
}> {
    let processes = runtimeProcesses();
    for (let waited = 0; processes.length > 0 && waited < 2_000; waited += 100) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        processes = runtimeProcesses();
    }
    const openModels: string[] = [];
    for (const model of startedModels) {
        if (!(await isClosed(model.baseUrl))) openModels.push(model.baseUrl);
    }
    return {
        runtimeProcesses: processes,
        openModels,
        directories: createdDirectories.filter((directory) => existsSync(directory)),
    };
}
