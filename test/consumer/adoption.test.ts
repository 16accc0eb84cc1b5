/**
 * The patch form adopted as a user adopts it, from the PACKED package: `npm pack` of this
 * repository, then in fresh git apps (an npm app; a pnpm app with `hoistPattern: []`) the CLI's
 * `init` as one command in a clean tree. Each app then runs ESM and CommonJS code that imports
 * `SessionToolError` from "@github/copilot-sdk" and passes the start-up check `init` prints, and
 * `doctor` is green (it starts the release's runtime once). An app carrying the self-contained
 * patch of 0.3.0 (the last one this repository committed) is migrated by `upgrade`. And a pnpm
 * app where no pnpm answers is left untouched. Needs the npm registry.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import {
    existsSync,
    mkdirSync,
    mkdtempSync,
    readdirSync,
    readFileSync,
    rmSync,
    writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
    createMessageConnection,
    StreamMessageReader,
    StreamMessageWriter,
} from "vscode-jsonrpc/node.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CJS_START_UP_CHECK, ESM_START_UP_CHECK } from "../../src/cli/startUpCheck.js";
import { startFakeRegistry } from "../support/fakeRegistry.js";
import { createFakeRuntimeResponder, FAKE_LISTED_TOOLS } from "../support/fakeRuntime.js";

const SDK = "1.0.14";
const ROOT = join(import.meta.dirname, "..", "..");
const PNPM = join(ROOT, "node_modules", "pnpm", "bin", "pnpm.cjs");
/** The last commit whose patches/ held the self-contained patches of 0.3.0. */
const LAST_SELF_CONTAINED = "22b6b05";

const work = mkdtempSync(join(tmpdir(), "adoption-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let tarball = "";
let cli = "";

/** The environment without the npm_* of the test run (so the CLI finds the app's own manager). */
function cleanEnv(): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {};
    for (const [key, value] of Object.entries(process.env)) {
        if (!key.startsWith("npm_") && !key.startsWith("COPILOT_SDK_")) env[key] = value;
    }
    return {
        ...env,
        // As a CI job runs it, wherever the test runs: pnpm freezes the lockfile when CI is set.
        CI: "true",
        GIT_AUTHOR_NAME: "t",
        GIT_AUTHOR_EMAIL: "t@t",
        GIT_COMMITTER_NAME: "t",
        GIT_COMMITTER_EMAIL: "t@t",
    };
}

function run(command: string, args: string[], cwd: string, env = cleanEnv()) {
    const result = spawnSync(command, args, { cwd, encoding: "utf8", env, timeout: 240_000 });
    return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

function ok(command: string, args: string[], cwd: string): string {
    const result = run(command, args, cwd);
    if (result.status !== 0) {
        throw new Error(`${command} ${args.join(" ")} failed:\n${result.output}`);
    }
    return result.output;
}

/** A fresh git app with the SDK installed and everything committed. */
function freshApp(
    name: string,
    manager: "npm" | "pnpm",
    extra: Record<string, unknown> = {}
): string {
    const app = join(work, name);
    mkdirSync(app);
    writeFileSync(
        join(app, "package.json"),
        `${JSON.stringify({ name, version: "1.0.0", private: true, ...extra }, null, 2)}\n`
    );
    writeFileSync(join(app, ".gitignore"), "node_modules\n");
    if (manager === "pnpm") writeFileSync(join(app, "pnpm-workspace.yaml"), "hoistPattern: []\n");
    if (manager === "npm") {
        ok(
            "npm",
            ["install", "--save-exact", `@github/copilot-sdk@${SDK}`, "--no-audit", "--no-fund"],
            app
        );
    } else {
        ok(process.execPath, [PNPM, "add", "--save-exact", `@github/copilot-sdk@${SDK}`], app);
    }
    ok("git", ["init", "-q"], app);
    ok("git", ["add", "-A"], app);
    ok("git", ["commit", "-qm", "app"], app);
    return app;
}

/** Runs the app's ESM and CommonJS start-up code: the check init prints, then SessionToolError. */
function startBoth(app: string): void {
    // The fail-closed preset init recommends is read by the patched client: a contradiction of
    // it is refused (the unpatched SDK would ignore both options).
    const use =
        "let code; try { new copilotSdk.CopilotClient({ failClosed: true, strictToolFilters: false }); }" +
        " catch (error) { code = error.code; }" +
        " console.log(typeof copilotSdk.SessionToolError, copilotSdk.TOOL_CUSTOMIZATION_PATCH.form, code);";
    writeFileSync(join(app, "start.mjs"), `${ESM_START_UP_CHECK}\n${use}\n`);
    writeFileSync(join(app, "start.cjs"), `${CJS_START_UP_CHECK}\n${use}\n`);
    for (const file of ["start.mjs", "start.cjs"]) {
        expect(run(process.execPath, [file], app)).toEqual({
            status: 0,
            output: "function patch INVALID_CLIENT_OPTION\n",
        });
    }
}

/**
 * The README's shell block under "Adopting it" whose first line starts with `prefix`, as a user
 * pastes it (comments and line continuations are the shell's business).
 */
function readmeBlock(prefix: string): string {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const adopting = readme.slice(
        readme.indexOf("## Adopting it"),
        readme.indexOf("## Runtime checks")
    );
    const blocks = [...adopting.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1]!);
    const block = blocks.find((text) => text.startsWith(prefix));
    if (block === undefined) throw new Error(`README.md has no sh block starting '${prefix}'`);
    return block;
}

/** Runs README lines in the app with `sh`, as pasted; pnpm is on PATH (this repository's). */
function paste(lines: string, app: string): string {
    const result = run("sh", ["-c", `set -e\n${lines}`], app, {
        ...cleanEnv(),
        PATH: `${pnpmShim}:${process.env.PATH}`,
    });
    if (result.status !== 0) throw new Error(`the README's\n${lines}\nfailed:\n${result.output}`);
    return result.output;
}

/** The packed tarball, copied into the app's folder under its packed name (as the README has it). */
function copyTarball(app: string): string {
    const name = tarball.split("/").at(-1)!;
    writeFileSync(join(app, name), readFileSync(tarball));
    return name;
}

let pnpmShim = "";

/** An extension's script: joins its session with a custom `view` that replaces the built-in. */
const JOIN = `import { defineTool } from "copilot-sdk-tool-override";
import { joinSession } from "copilot-sdk-tool-override/extension";
const view = defineTool("view", {
    description: "the app's own view",
    parameters: { type: "object", properties: {} },
    overridesBuiltInTool: true,
    handler: async () => "the app's view",
});
try {
    const session = await joinSession({ tools: [view] });
    console.error("JOINED", session.sessionId, JSON.stringify(session.toolResolution?.overriddenBuiltInTools));
} catch (error) {
    console.error("REFUSED", error.code, error.message);
}
process.exit(0);
`;

/**
 * Runs {@link JOIN} in the app as the Copilot CLI runs an extension: a child process with
 * SESSION_ID set, speaking JSON-RPC over its stdin and stdout, answered here by the fake runtime's
 * responder. Returns what the extension printed and the `session.resume` requests it sent.
 */
async function joinAsExtension(app: string) {
    writeFileSync(join(app, "join.mjs"), JOIN);
    const child = spawn(process.execPath, ["join.mjs"], {
        cwd: app,
        env: { ...cleanEnv(), SESSION_ID: "extension-session" },
        stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const connection = createMessageConnection(
        new StreamMessageReader(child.stdout),
        new StreamMessageWriter(child.stdin)
    );
    const answer = createFakeRuntimeResponder(
        () => ({ kind: "list", names: FAKE_LISTED_TOOLS }),
        { kind: "version", version: "1.0.85" },
        () => false
    );
    const resumed: Record<string, unknown>[] = [];
    connection.onRequest((method: string, params: unknown) => {
        const recorded = (params ?? {}) as Record<string, unknown>;
        if (method === "session.resume") resumed.push(recorded);
        return answer(method, recorded);
    });
    connection.onNotification(() => {});
    connection.onError(() => {});
    connection.listen();
    const timer = setTimeout(() => child.kill(), 60_000);
    const [code] = (await once(child, "exit")) as [number | null];
    clearTimeout(timer);
    connection.dispose();
    return { code, stderr, resumed };
}

/** joinSession joined with the app's `view` in place of the built-in, and said so. */
async function expectJoined(app: string): Promise<void> {
    const joined = await joinAsExtension(app);
    expect(joined.stderr).toContain('JOINED extension-session ["view"]');
    expect(joined.code).toBe(0);
    expect(joined.resumed).toHaveLength(1);
    const tools = joined.resumed[0]!.tools as { name: string; overridesBuiltInTool?: boolean }[];
    expect(tools.filter((tool) => tool.name === "view")).toEqual([
        expect.objectContaining({ name: "view", overridesBuiltInTool: true }),
    ]);
}

beforeAll(() => {
    pnpmShim = join(work, "pnpm-shim");
    mkdirSync(pnpmShim);
    writeFileSync(
        join(pnpmShim, "pnpm"),
        `#!/bin/sh\nexec "${process.execPath}" "${PNPM}" "$@"\n`,
        {
            mode: 0o755,
        }
    );
    const packed = join(work, "packed");
    mkdirSync(packed);
    const name = execFileSync(
        "npm",
        ["pack", "--ignore-scripts", "--pack-destination", packed, "--silent"],
        { cwd: ROOT, encoding: "utf8", env: cleanEnv() }
    )
        .trim()
        .split("\n")
        .at(-1)!;
    tarball = join(packed, name);
    ok("tar", ["xzf", tarball], packed);
    cli = join(packed, "package", "build", "cli", "main.js");
}, 120_000);

describe("the patch form, adopted from the packed package", () => {
    it("npm: the README's lines, pasted in a clean git app, pin the package in dependencies, apply a patch of at most 30 lines, doctor is green", () => {
        const app = freshApp("npm-app", "npm", { type: "module" });
        const packed = copyTarball(app);
        const init = paste(readmeBlock("npx --yes"), app);
        expect(init).toContain("verified (ESM and CommonJS): copilot-sdk-tool-override");
        expect(init).toContain("The app's SDK runs the tool customization and stays patched");
        expect(init).toContain("`new CopilotClient({ failClosed: true })`");
        // The place init names for the preset is in the installed package.
        const using = readFileSync(
            join(app, "node_modules", "copilot-sdk-tool-override", "docs", "using.md"),
            "utf8"
        );
        expect(init).toContain(
            "node_modules/copilot-sdk-tool-override/docs/using.md, Options, members and exports"
        );
        expect(using).toContain("## Options, members and exports");
        expect(using).toContain("- `failClosed: boolean`");
        const manifest = JSON.parse(readFileSync(join(app, "package.json"), "utf8"));
        expect(manifest.dependencies).toEqual({
            "@github/copilot-sdk": SDK,
            "copilot-sdk-tool-override": `./${packed}`,
            "patch-package": "8.0.1",
        });
        const patch = readFileSync(
            join(app, "patches", `@github+copilot-sdk+${SDK}.patch`),
            "utf8"
        );
        expect(patch.split("\n").length - 1).toBeLessThanOrEqual(30);
        startBoth(app);
        // Every later install runs patch-package again: it finds the patch applied.
        ok("npm", ["install", "--no-audit", "--no-fund"], app);
        const client = readFileSync(
            join(app, "node_modules", "@github", "copilot-sdk", "dist", "client.js"),
            "utf8"
        );
        expect(client.split("toolCustomizationHook(").length - 1).toBe(1);
        startBoth(app);
        // The library form in the same app wraps nothing twice.
        writeFileSync(
            join(app, "library.mjs"),
            'import * as sdk from "@github/copilot-sdk";\nimport { CopilotClient } from "copilot-sdk-tool-override";\nconsole.log(CopilotClient === sdk.CopilotClient);\n'
        );
        expect(run(process.execPath, ["library.mjs"], app)).toEqual({
            status: 0,
            output: "true\n",
        });
        const doctor = run(process.execPath, [cli, "doctor"], app);
        expect(doctor.status, doctor.output).toBe(0);
        expect(doctor.output).not.toContain("FAIL");
        expect(doctor.output).toContain(`form: patch (patches/@github+copilot-sdk+${SDK}.patch)`);
        expect(doctor.output).toContain("the release's runtime starts under Node");
        expect(doctor.output).toContain(
            `ok   dependencies: copilot-sdk-tool-override './${packed}' can be installed`
        );

        // upgrade and a second init keep the tarball spec as the app has it: package.json
        // stays as committed (the bare version would be a registry name nobody here owns).
        ok("git", ["add", "-A"], app);
        ok("git", ["commit", "-qm", "adopted"], app);
        const pinned = readFileSync(join(app, "package.json"), "utf8");
        for (const again of [["upgrade"], ["init"], ["upgrade", SDK]]) {
            const output = ok("npx", ["copilot-sdk-tool-override", ...again], app);
            expect(output, again.join(" ")).toContain("package.json: already wired");
            expect(readFileSync(join(app, "package.json"), "utf8"), again.join(" ")).toBe(pinned);
        }
    }, 600_000);

    it("npm: joinSession from copilot-sdk-tool-override/extension joins with the app's tools in the patch form", async () => {
        await expectJoined(join(work, "npm-app"));
    }, 120_000);

    it("npm: doctor fails, with the fix, for a spec of the package the next clean install cannot fetch", async () => {
        const app = join(work, "npm-app");
        const manifestPath = join(app, "package.json");
        const pinned = readFileSync(manifestPath, "utf8");
        // A registry that has never heard of the package, as the public one had not.
        const registry = await startFakeRegistry();
        try {
            writeFileSync(
                manifestPath,
                pinned.replace(/"\.\/copilot-sdk-tool-override-[^"]+"/, '"0.4.0"')
            );
            const registryDoctor = run(process.execPath, [cli, "doctor", "--no-start"], app, {
                ...cleanEnv(),
                npm_config_registry: registry.url,
            });
            expect(registryDoctor.status, registryDoctor.output).toBe(1);
            expect(registryDoctor.output).toContain(
                "FAIL dependencies: copilot-sdk-tool-override '0.4.0' cannot be installed: the registry answers 404 Not Found for copilot-sdk-tool-override@0.4.0. The next clean install (and every container build) fails, or installs whatever another publisher registers under that name. Fix: `npx --no copilot-sdk-tool-override init --package <spec>`"
            );
            expect(registryDoctor.output).not.toContain("stays patched");
        } finally {
            writeFileSync(manifestPath, pinned);
            await registry.close();
        }
        const packed = tarball.split("/").at(-1)!;
        rmSync(join(app, packed));
        const missing = run(process.execPath, [cli, "doctor", "--no-start"], app);
        expect(missing.status, missing.output).toBe(1);
        expect(missing.output).toContain(
            `FAIL dependencies: copilot-sdk-tool-override './${packed}' cannot be installed: ${join(app, packed)} does not exist.`
        );
        expect(missing.output).not.toContain("stays patched");
    }, 120_000);

    it("pnpm with hoistPattern []: the README's lines write the versioned patchedDependencies key and packageExtensions, doctor is green, joinSession joins", async () => {
        const app = freshApp("pnpm-app", "pnpm", { pnpm: { onlyBuiltDependencies: ["koffi"] } });
        // A bare key left by hand: init replaces it (beside the versioned key pnpm would stop
        // with ERR_PNPM_UNUSED_PATCH).
        const manifestPath = join(app, "package.json");
        const handMade = JSON.parse(readFileSync(manifestPath, "utf8"));
        handMade.pnpm.patchedDependencies = {
            "@github/copilot-sdk": `patches/@github__copilot-sdk@${SDK}.patch`,
        };
        writeFileSync(manifestPath, `${JSON.stringify(handMade, null, 2)}\n`);
        ok("git", ["commit", "-qam", "a bare patchedDependencies key"], app);
        const packed = copyTarball(app);
        // pnpm dlx runs the CLI with no pnpm of its own: the CLI finds the pnpm that started it.
        const init = paste(readmeBlock("pnpm dlx"), app);
        expect(init).toContain("run as the pnpm that started this command");
        const { pnpm, dependencies } = JSON.parse(readFileSync(join(app, "package.json"), "utf8"));
        expect(dependencies["copilot-sdk-tool-override"]).toBe(`./${packed}`);
        expect(pnpm.patchedDependencies).toEqual({
            [`@github/copilot-sdk@${SDK}`]: `patches/@github__copilot-sdk@${SDK}.patch`,
        });
        expect(pnpm.packageExtensions).toEqual({
            "@github/copilot-sdk": {
                dependencies: { "copilot-sdk-tool-override": `./${packed}` },
            },
        });
        expect(init).not.toContain("FAIL");
        startBoth(app);
        await expectJoined(app);
    }, 400_000);

    it("pnpm with no pnpm to run: init refuses and changes nothing", () => {
        const app = join(work, "no-pnpm");
        mkdirSync(app);
        writeFileSync(join(app, "package.json"), '{ "name": "no-pnpm", "private": true }\n');
        writeFileSync(join(app, "pnpm-lock.yaml"), "lockfileVersion: '9.0'\n");
        ok("git", ["init", "-q"], app);
        ok("git", ["add", "-A"], app);
        ok("git", ["commit", "-qm", "app"], app);
        // PATH with node alone: no pnpm, no corepack.
        const nodeOnly = join(work, "node-only");
        mkdirSync(nodeOnly, { recursive: true });
        execFileSync("ln", ["-sf", process.execPath, join(nodeOnly, "node")]);
        const result = run(process.execPath, [cli, "init"], app, {
            ...cleanEnv(),
            PATH: nodeOnly,
        });
        expect(result.status).toBe(1);
        expect(result.output).toContain(
            "This app uses pnpm (pnpm-lock.yaml), but no pnpm answers here"
        );
        expect(result.output).toContain("Nothing was changed.");
        expect(run("git", ["status", "--porcelain"], app).output).toBe("");
        expect(existsSync(join(app, "patches"))).toBe(false);
    });

    it("upgrade migrates an npm app from the self-contained patch of 0.3.0", () => {
        const old = run(
            "git",
            ["show", `${LAST_SELF_CONTAINED}:patches/@github+copilot-sdk+${SDK}.patch`],
            ROOT
        );
        expect(
            old.status,
            `git show needs this repository's history: ${old.output.slice(0, 200)}`
        ).toBe(0);
        const app = join(work, "old-app");
        mkdirSync(join(app, "patches"), { recursive: true });
        writeFileSync(join(app, "patches", `@github+copilot-sdk+${SDK}.patch`), old.output);
        writeFileSync(
            join(app, "package.json"),
            `${JSON.stringify(
                {
                    name: "old-app",
                    private: true,
                    scripts: { postinstall: "patch-package --error-on-fail --error-on-warn" },
                    dependencies: { "@github/copilot-sdk": SDK, "patch-package": "8.0.1" },
                },
                null,
                2
            )}\n`
        );
        writeFileSync(join(app, ".gitignore"), "node_modules\n");
        ok("npm", ["install", "--no-audit", "--no-fund"], app);
        ok("git", ["init", "-q"], app);
        ok("git", ["add", "-A"], app);
        ok("git", ["commit", "-qm", "app on 0.3.0"], app);
        const before = run(process.execPath, [cli, "doctor", "--no-start"], app);
        expect(before.status).toBe(1);
        expect(before.output).toContain(
            "the old self-contained patch. Fix: `npx --no copilot-sdk-tool-override upgrade`"
        );

        // The library entry over 0.3.0's patch: one wrap (the SDK's), and a warning saying how to move.
        ok("npm", ["install", "--no-save", "--no-audit", "--no-fund", tarball], app);
        writeFileSync(
            join(app, "library.mjs"),
            'import * as sdk from "@github/copilot-sdk";\nimport { CopilotClient } from "copilot-sdk-tool-override";\nconsole.log(CopilotClient === sdk.CopilotClient);\n'
        );
        const library = run(process.execPath, ["library.mjs"], app);
        expect(library.status).toBe(0);
        expect(library.output).toContain("true\n");
        expect(library.output).toContain(
            "carries the self-contained tool-customization patch of copilot-sdk-tool-override 0.3.0 or earlier"
        );
        rmSync(join(app, "library.mjs"));

        ok(process.execPath, [cli, "upgrade", "--package", `file:${tarball}`], app);
        const patch = readFileSync(
            join(app, "patches", `@github+copilot-sdk+${SDK}.patch`),
            "utf8"
        );
        expect(patch.split("\n").length - 1).toBeLessThanOrEqual(30);
        expect(readdirSync(join(app, "patches"))).toEqual([`@github+copilot-sdk+${SDK}.patch`]);
        startBoth(app);
        const doctor = run(process.execPath, [cli, "doctor", "--no-start"], app);
        expect(doctor.status, doctor.output).toBe(0);
    }, 400_000);
});

describe("the command line", () => {
    it("answers --help for every command with the usage, and does nothing else", () => {
        const empty = join(work, "no-app");
        mkdirSync(empty, { recursive: true });
        for (const command of ["init", "upgrade", "doctor", "conformance"]) {
            for (const flag of ["--help", "-h"]) {
                const result = run(process.execPath, [cli, command, flag], empty);
                expect(result.status, `${command} ${flag}: ${result.output}`).toBe(0);
                expect(result.output).toMatch(/^Usage: copilot-sdk-tool-override <command>/);
            }
        }
        const compare = run(process.execPath, [cli, "conformance", "--compare", "--help"], empty);
        expect(compare.status, compare.output).toBe(0);
        expect(readdirSync(empty)).toEqual([]);
    });
});

describe("the library form, adopted from the packed package", () => {
    it("npm: an app that installs the package and imports it gets a green doctor and a working joinSession; the package only in devDependencies fails doctor", async () => {
        const app = freshApp("library-app", "npm", { type: "module" });
        const packed = copyTarball(app);
        // The README's npm line, as pasted.
        paste(readmeBlock("npm install --save-exact").split("\n")[0]!, app);
        expect(JSON.parse(readFileSync(join(app, "package.json"), "utf8")).dependencies).toEqual({
            "@github/copilot-sdk": SDK,
            "copilot-sdk-tool-override": `file:${packed}`,
        });
        writeFileSync(
            join(app, "start.mjs"),
            'import { CopilotClient, TOOL_CUSTOMIZATION_PATCH } from "copilot-sdk-tool-override";\nconsole.log(typeof CopilotClient, TOOL_CUSTOMIZATION_PATCH.form);\n'
        );
        expect(run(process.execPath, ["start.mjs"], app)).toEqual({
            status: 0,
            output: "function library\n",
        });
        // The mock model is an export of its own, for ESM and CommonJS apps alike.
        writeFileSync(
            join(app, "mock.cjs"),
            'const { startMockModel } = require("copilot-sdk-tool-override/mock-model");\nconsole.log(typeof startMockModel);\n'
        );
        writeFileSync(
            join(app, "mock.mjs"),
            'import { startMockModel } from "copilot-sdk-tool-override/mock-model";\nconsole.log(typeof startMockModel);\n'
        );
        for (const file of ["mock.cjs", "mock.mjs"]) {
            expect(run(process.execPath, [file], app)).toEqual({
                status: 0,
                output: "function\n",
            });
        }

        const doctor = run(process.execPath, [cli, "doctor"], app);
        expect(doctor.status, doctor.output).toBe(0);
        expect(doctor.output).not.toContain("FAIL");
        expect(doctor.output).toContain(
            "form: library (package.json lists copilot-sdk-tool-override in dependencies"
        );
        expect(doctor.output).toContain(
            `ok   ESM and CommonJS: copilot-sdk-tool-override 0.4.0 (library form) on @github/copilot-sdk ${SDK}`
        );
        expect(doctor.output).toContain("the release's runtime starts under Node");

        // joinSession works in the library form as in the patch form.
        await expectJoined(app);

        // A production install (--omit=dev) would leave the app's import failing.
        const manifestPath = join(app, "package.json");
        const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
        manifest.devDependencies = {
            "copilot-sdk-tool-override": manifest.dependencies["copilot-sdk-tool-override"],
        };
        delete manifest.dependencies["copilot-sdk-tool-override"];
        writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
        const dev = run(process.execPath, [cli, "doctor", "--no-start"], app);
        expect(dev.status, dev.output).toBe(1);
        expect(dev.output).toContain(
            "FAIL copilot-sdk-tool-override is not in dependencies (only in devDependencies)"
        );
        // The fix installs what the app already depends on, never the bare registry name; run as
        // printed, it moves the entry and the doctor is green again.
        const fix = /Fix: `(npm install --save-prod [^`]+)`/.exec(dev.output)?.[1];
        expect(fix).toBe(
            `npm install --save-prod ${manifest.devDependencies["copilot-sdk-tool-override"]}`
        );
        const install = run("sh", ["-c", `${fix} --no-audit --no-fund`], app);
        expect(install.status, install.output).toBe(0);
        const fixed = run(process.execPath, [cli, "doctor", "--no-start"], app);
        expect(fixed.status, fixed.output).toBe(0);
        expect(fixed.output).toContain("ok   copilot-sdk-tool-override is in dependencies");
    }, 400_000);

    it("pnpm: the README's pnpm line, as pasted, installs the package beside the SDK", () => {
        const app = join(work, "library-pnpm");
        mkdirSync(app);
        writeFileSync(
            join(app, "package.json"),
            '{ "name": "library-pnpm", "private": true, "type": "module", "pnpm": { "onlyBuiltDependencies": ["koffi"] } }\n'
        );
        copyTarball(app);
        paste(readmeBlock("npm install --save-exact").split("\n")[1]!, app);
        writeFileSync(
            join(app, "start.mjs"),
            'import { CopilotClient, TOOL_CUSTOMIZATION_PATCH } from "copilot-sdk-tool-override";\nconsole.log(typeof CopilotClient, TOOL_CUSTOMIZATION_PATCH.form, TOOL_CUSTOMIZATION_PATCH.sdkVersion);\n'
        );
        expect(run(process.execPath, ["start.mjs"], app)).toEqual({
            status: 0,
            output: `function library ${SDK}\n`,
        });
    }, 400_000);

    it("npm: beside an SDK it cannot serve (0.3.0, a 2.x), new CopilotClient() throws SessionToolError UNSUPPORTED_BY_RELEASE naming the release and the fix, in ESM and CommonJS; doctor says the same", () => {
        const app = join(work, "library-0x");
        mkdirSync(app);
        writeFileSync(join(app, "package.json"), '{ "name": "library-0x", "private": true }\n');
        // The peer range `*` lets npm install the package beside 0.3.0. Its runtime is not
        // started here, so its platform packages (optional) are left out.
        ok(
            "npm",
            [
                "install",
                "--save-exact",
                "--omit=optional",
                "--no-audit",
                "--no-fund",
                "@github/copilot-sdk@0.3.0",
                tarball,
            ],
            app
        );
        const construct =
            'try { new CopilotClient(); console.log("constructed"); } catch (error) { console.log(error.name, error.code, error.message); }\n';
        writeFileSync(
            join(app, "start.mjs"),
            `import { CopilotClient } from "copilot-sdk-tool-override";\n${construct}`
        );
        writeFileSync(
            join(app, "start.cjs"),
            `const { CopilotClient } = require("copilot-sdk-tool-override");\n${construct}`
        );
        const refusal = (version: string) =>
            `SessionToolError UNSUPPORTED_BY_RELEASE copilot-sdk-tool-override cannot serve @github/copilot-sdk ${version}: this package serves @github/copilot-sdk 1.x only; ${version} is another major release, whose tool handling it has not been built against. Install a 1.0 release of @github/copilot-sdk (for example \`npm install @github/copilot-sdk@1.0.14\`), or use @github/copilot-sdk's own CopilotClient without this package.\n`;
        for (const file of ["start.mjs", "start.cjs"]) {
            expect(run(process.execPath, [file], app), file).toEqual({
                status: 0,
                output: refusal("0.3.0"),
            });
        }
        const doctor = run(process.execPath, [cli, "doctor", "--no-start"], app);
        expect(doctor.status, doctor.output).toBe(1);
        expect(doctor.output).toContain(
            `FAIL the app's ESM code gets a CopilotClient that refuses: ${refusal("0.3.0").split("UNSUPPORTED_BY_RELEASE ")[1]!.trim()}`
        );
        expect(doctor.output).not.toContain("Fix: `npm install`.");

        // A 2.x: the installed SDK's manifest says 2.0.0 (no 2.x is published yet).
        const sdkManifest = join(app, "node_modules", "@github", "copilot-sdk", "package.json");
        writeFileSync(
            sdkManifest,
            readFileSync(sdkManifest, "utf8").replace('"version": "0.3.0"', '"version": "2.0.0"')
        );
        for (const file of ["start.mjs", "start.cjs"]) {
            expect(run(process.execPath, [file], app), file).toEqual({
                status: 0,
                output: refusal("2.0.0"),
            });
        }
    }, 400_000);
});
