import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { CliError } from "./app.js";
import { OWN_PACKAGE, SDK_PACKAGE } from "./patchFiles.js";

/** What `TOOL_CUSTOMIZATION_PATCH` of the app's SDK holds (0.4: `form`; 0.3: `buildHash`). */
export interface PatchMarker {
    readonly sdkVersion: string;
    readonly patchVersion?: string;
    readonly form?: "library" | "patch" | "none" | "self-contained";
    readonly buildHash?: string;
    readonly measuredRuntimes?: readonly string[];
}

/** The SDK as one module format of the app loads it. */
export interface LoadedView {
    /** Loading failed: the error's message. */
    readonly error?: string;
    readonly marker?: PatchMarker;
    /** What `assertToolCustomizationPatch()` threw. */
    readonly refusal?: string;
    /** Whether `SessionToolError` is exported from `@github/copilot-sdk`. */
    readonly sessionToolError?: boolean;
    /**
     * The `SessionToolError` (`UNSUPPORTED_BY_RELEASE`) that `new CopilotClient()` throws for a
     * release the wrap cannot serve (0.x, 2.x): its message names the release and the fix.
     */
    readonly unsupported?: string;
}

/** What the probe saw, in both module formats, and whether the runtime started. */
export interface Probe {
    readonly esm: LoadedView;
    readonly cjs: LoadedView;
    readonly start?: { readonly started: boolean; readonly detail: string };
}

const PROBE = `
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
const [cjsEntry, esmEntry, start] = process.argv.slice(2);
const view = (sdk) => {
    const m = sdk.TOOL_CUSTOMIZATION_PATCH;
    let refusal;
    if (typeof sdk.assertToolCustomizationPatch === "function") {
        try { sdk.assertToolCustomizationPatch(); } catch (error) { refusal = String(error.message); }
    }
    let unsupported;
    if (m !== undefined && typeof sdk.CopilotClient === "function") {
        try { new sdk.CopilotClient(); } catch (error) { if (error?.code === "UNSUPPORTED_BY_RELEASE") unsupported = String(error.message); }
    }
    return {
        unsupported,
        marker: m ? { sdkVersion: m.sdkVersion, patchVersion: m.patchVersion, form: m.form ?? "self-contained", buildHash: m.buildHash, measuredRuntimes: m.measuredRuntimes } : undefined,
        refusal,
        sessionToolError: typeof sdk.SessionToolError === "function",
    };
};
const result = {};
let esm;
try { result.cjs = view(createRequire(cjsEntry)(cjsEntry)); } catch (error) { result.cjs = { error: String(error.message).split("\\n")[0] }; }
try { esm = await import(pathToFileURL(esmEntry).href); result.esm = view(esm); } catch (error) { result.esm = { error: String(error.message).split("\\n")[0] }; }
if (start === "start" && esm !== undefined) {
    const baseDirectory = mkdtempSync(join(tmpdir(), "tool-override-doctor-"));
    const client = new esm.CopilotClient({ baseDirectory });
    try {
        await client.start();
        result.start = { started: true, detail: "runtime " + (await client.getStatus()).version };
    } catch (error) {
        result.start = { started: false, detail: String(error?.message ?? error) };
    } finally {
        await client.stop().catch(() => {});
        rmSync(baseDirectory, { recursive: true, force: true });
    }
}
console.log("TOOL-OVERRIDE-PROBE " + JSON.stringify(result));
process.exit(0);
`;

/**
 * Loads the app's `@github/copilot-sdk` in a child process, as the app's own ESM and CommonJS
 * code would, and reports the tool customization each sees; with `start`, also starts the
 * release's runtime once (what the app needs to run at all) and stops it.
 *
 * @param app - the app's folder
 * @param start - whether to start the runtime
 * @throws CliError when the SDK cannot be resolved from the app
 */
export function probeApp(app: string, start: boolean): Probe {
    const entry = resolveFromApp(app, SDK_PACKAGE);
    return probeEntries(app, SDK_PACKAGE, entry, join(dirname(dirname(entry)), "index.js"), start);
}

/**
 * The library form's probe: loads `copilot-sdk-tool-override` from the app, as the app's ESM and
 * CommonJS code import it, and reports what each sees, as {@link probeApp} does for the SDK.
 *
 * @param app - the app's folder
 * @param start - whether to start the runtime through the library's `CopilotClient`
 * @throws CliError when the package cannot be resolved from the app
 */
export function probeLibrary(app: string, start: boolean): Probe {
    const cjs = resolveFromApp(app, OWN_PACKAGE);
    const manifest = resolveFromApp(app, `${OWN_PACKAGE}/package.json`);
    const { exports } = JSON.parse(readFileSync(manifest, "utf8")) as {
        exports?: { ".": { import: { default: string } } };
    };
    const esm = exports?.["."]?.import?.default;
    if (typeof esm !== "string") {
        throw new CliError(
            `${manifest} has no ESM entry in its exports map: reinstall ${OWN_PACKAGE}.`
        );
    }
    return probeEntries(app, OWN_PACKAGE, cjs, join(dirname(manifest), esm), start);
}

function resolveFromApp(app: string, specifier: string): string {
    try {
        return createRequire(join(app, "package.json")).resolve(specifier);
    } catch (error) {
        throw new CliError(
            `${specifier} cannot be loaded from ${app} (${(error as Error).message.split("\n")[0]}): ` +
                `install the app's dependencies first.`
        );
    }
}

function probeEntries(
    app: string,
    name: string,
    cjsEntry: string,
    esmEntry: string,
    start: boolean
): Probe {
    const dir = mkdtempSync(join(tmpdir(), "tool-override-probe-"));
    try {
        const script = join(dir, "probe.mjs");
        writeFileSync(script, PROBE);
        let output: string;
        try {
            output = execFileSync(
                process.execPath,
                [script, cjsEntry, esmEntry, start ? "start" : ""],
                {
                    cwd: app,
                    encoding: "utf8",
                    stdio: ["ignore", "pipe", "pipe"],
                    timeout: 120_000,
                }
            );
        } catch (error) {
            const stderr = (error as { stderr?: string }).stderr ?? (error as Error).message;
            throw new CliError(
                `Loading ${name} from ${cjsEntry} failed, so whether it carries the tool customization cannot be told:\n${stderr.trim()}`
            );
        }
        const line = output.split("\n").find((text) => text.startsWith("TOOL-OVERRIDE-PROBE "));
        if (line === undefined) {
            throw new CliError(`Loading ${name} from ${cjsEntry} gave no answer:\n${output}`);
        }
        return JSON.parse(line.slice("TOOL-OVERRIDE-PROBE ".length)) as Probe;
    } finally {
        rmSync(dir, { recursive: true, force: true });
    }
}

/** One line describing a marker: this package's version, the form, the SDK version. */
export function describeMarker(marker: PatchMarker): string {
    if (marker.form === "self-contained" || marker.form === undefined) {
        return (
            `the self-contained patch ${marker.patchVersion ?? "(from before 0.3.0)"}${marker.buildHash === undefined ? "" : ` (build ${marker.buildHash})`} ` +
            `for ${SDK_PACKAGE} ${marker.sdkVersion}`
        );
    }
    return (
        `copilot-sdk-tool-override ${marker.patchVersion ?? "(unknown)"} (${marker.form} form) ` +
        `on ${SDK_PACKAGE} ${marker.sdkVersion}`
    );
}
