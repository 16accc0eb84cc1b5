/**
 * The packed package (`npm pack` of this repository) as a user gets it: installed into a fresh npm
 * app and a fresh pnpm app, and its bin run as a user runs it (`npx copilot-sdk-tool-override
 * <command>`, `pnpm exec copilot-sdk-tool-override <command>`). In each app: `doctor` fails with
 * the fix while the SDK is unpatched; `init` wires the patch and installs; a real session (the
 * bundled runtime, a custom `view`, a mock model on 127.0.0.1) shows the custom handler
 * answering; `doctor` passes; and it fails with the fix in a container-like copy without
 * `patches/` and for a Dockerfile that installs before copying `patches/`. `upgrade` moves the
 * npm app to another release; `init` refuses a release without a patch, yarn, another
 * postinstall and an uncommitted package.json. Expected values come from the repository's
 * committed patches, its package.json and docs/patch-form.md, never from the CLI. Needs the npm registry
 * (npm's cache and the project's pnpm store make it fast).
 */
import { execFileSync, spawnSync } from "node:child_process";
import {
    chmodSync,
    copyFileSync,
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
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const PROJECT = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    name: string;
    version: string;
    toolCustomization: { sdkVersions: string[] };
};
const PATCHED_RELEASES = PROJECT.toolCustomization.sdkVersions;
const SDK_VERSION = "1.0.14";
const UPGRADE_TO = "1.0.13";
const BIN = "copilot-sdk-tool-override";
const GUIDE = readFileSync(join(ROOT, "docs", "patch-form.md"), "utf8");
/** The start-up checks, which `init` prints. */
const GUIDE_CHECK = {
    esm: /```javascript\n(\/\/ ESM\n(?:(?!```)[\s\S])*)```/.exec(GUIDE)![1]!.trimEnd(),
    cjs: /```javascript\n(\/\/ CommonJS\n(?:(?!```)[\s\S])*)```/.exec(GUIDE)![1]!.trimEnd(),
};
/** The build hash the repository's committed patches carry (written there by the patch build). */
function committedBuildHash(version: string): string {
    const patch = readFileSync(
        join(ROOT, "patches", `@github+copilot-sdk+${version}.patch`),
        "utf8"
    );
    return /^\+ {4}buildHash: "([0-9a-f]+)",$/m.exec(patch)![1]!;
}

const work = mkdtempSync(join(tmpdir(), "cli-consumer-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let tarball: string;

/** The environment of a user's shell: none of the npm_* settings of the `npm test` running this. */
function userEnv(extraPath?: string): NodeJS.ProcessEnv {
    const env: NodeJS.ProcessEnv = {};
    for (const [key, value] of Object.entries(process.env)) {
        if (!/^npm_/i.test(key) && key !== "CI") env[key] = value;
    }
    if (extraPath !== undefined) env.PATH = `${extraPath}:${env.PATH}`;
    return env;
}

interface Run {
    status: number | null;
    stdout: string;
    stderr: string;
    output: string;
}

function run(command: string, args: string[], cwd: string, env = userEnv()): Run {
    const result = spawnSync(command, args, { cwd, env, encoding: "utf8" });
    if (result.error !== undefined) throw result.error;
    return {
        status: result.status,
        stdout: result.stdout,
        stderr: result.stderr,
        output: result.stdout + result.stderr,
    };
}

function writeJson(path: string, value: unknown): void {
    writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}

/** A script that runs a real session: a custom `view` on the bundled runtime, the mock model. */
function sessionScript(kind: "esm" | "cjs"): string {
    const mock = JSON.stringify(join(ROOT, "scripts", "lib", "mockChatModel.mjs"));
    const imports =
        kind === "esm"
            ? `import "./start.mjs";\nimport { CopilotClient, approveAll, defineTool } from "@github/copilot-sdk";\nconst { startMockChatModel } = await import(${mock});\n`
            : `require("./start.cjs");\nconst { CopilotClient, approveAll, defineTool } = require("@github/copilot-sdk");\n`;
    const body = `
const { mkdtempSync, rmSync } = await import("node:fs");
const { tmpdir } = await import("node:os");
const { join } = await import("node:path");
const model = await startMockChatModel();
const base = mkdtempSync(join(tmpdir(), "cli-consumer-session-"));
const client = new CopilotClient({ baseDirectory: base });
const calls = [];
try {
    const session = await client.createSession({
        model: "claude-sonnet-4.5",
        provider: { type: "openai", baseUrl: model.baseUrl, apiKey: "consumer-key" },
        onPermissionRequest: approveAll,
        tools: [
            defineTool("view", {
                description: "the app's own view",
                parameters: { type: "object", properties: {} },
                skipPermission: true,
                overridesBuiltInTool: true,
                handler: async () => {
                    calls.push("view");
                    return "custom view answered";
                },
            }),
        ],
    });
    model.toolCalls = ["view"];
    await session.sendAndWait({ prompt: "read a file" }, 30000);
    const nameOf = (tool) => tool.function?.name ?? tool.name;
    const views = model.requests[0].tools.filter((tool) => nameOf(tool) === "view");
    const toolMessages = model.requests.flatMap((request) => request.messages).filter((m) => m.role === "tool");
    console.log(JSON.stringify({
        calls,
        viewDescriptions: views.map((tool) => tool.function?.description ?? tool.description),
        toolResults: toolMessages.map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content))),
    }));
} finally {
    await client.stop();
    await model.close();
    rmSync(base, { recursive: true, force: true });
}
`;
    return kind === "esm"
        ? imports + body
        : `${imports}(async () => {\nconst { startMockChatModel } = await import(${mock});\n${body}\n})().catch((error) => { console.error(error); process.exitCode = 1; });\n`;
}

function expectCustomHandlerAnswered(result: Run): void {
    expect(result.status, result.output).toBe(0);
    const seen = JSON.parse(result.stdout.trim().split("\n").at(-1)!) as {
        calls: string[];
        viewDescriptions: string[];
        toolResults: string[];
    };
    expect(seen.calls).toEqual(["view"]);
    expect(seen.viewDescriptions).toEqual(["the app's own view"]);
    expect(seen.toolResults.some((text) => text.includes("custom view answered"))).toBe(true);
}

beforeAll(() => {
    // What `npm pack` does (prepack compiles the CLI), without its prepare step, which would
    // re-apply the patch to this project's node_modules while other test files use it.
    execFileSync(
        process.execPath,
        [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.cli.json"],
        { cwd: ROOT }
    );
    const packDir = join(work, "pack");
    mkdirSync(packDir);
    execFileSync("npm", ["pack", "--ignore-scripts", "--pack-destination", packDir], {
        cwd: ROOT,
        env: { ...process.env, npm_config_loglevel: "error" },
        stdio: "ignore",
    });
    tarball = join(
        packDir,
        readdirSync(packDir).find((file) => file.endsWith(".tgz"))!
    );
}, 120_000);

describe("the packed package", () => {
    it("holds the CLI, every patch, the conformance suite, and nothing of the tests", () => {
        const files = execFileSync("tar", ["tzf", tarball], { encoding: "utf8" })
            .split("\n")
            .filter(Boolean);
        expect(files).toContain("package/build/cli/main.js");
        for (const version of PATCHED_RELEASES) {
            expect(files).toContain(`package/patches/@github+copilot-sdk+${version}.patch`);
            expect(files).toContain(`package/patches/pnpm/@github__copilot-sdk@${version}.patch`);
        }
        expect(files).toContain("package/scripts/measure/conformance.mjs");
        expect(files.filter((file) => /\/(test|src|bench|demo)\//.test(file))).toEqual([]);
        const manifest = JSON.parse(
            execFileSync("tar", ["xzOf", tarball, "package/package.json"], { encoding: "utf8" })
        ) as { bin: Record<string, string>; dependencies: Record<string, string> };
        expect(manifest.bin).toEqual({ [BIN]: "build/cli/main.js" });
        // An app's own SDK is not replaced or duplicated by this package's.
        expect(Object.keys(manifest.dependencies)).toEqual(["patch-package"]);
    });
});

describe("an npm app", () => {
    const app = join(work, "npm-app");
    const npx = (...args: string[]) => run("npx", [BIN, ...args], app);

    it("installs the package, and doctor fails with the fix while the SDK is unpatched", () => {
        mkdirSync(app);
        writeJson(join(app, "package.json"), {
            name: "npm-app",
            private: true,
            type: "module",
            dependencies: { "@github/copilot-sdk": SDK_VERSION },
        });
        const installed = run("npm", ["install", "--no-audit", "--no-fund"], app);
        expect(installed.status, installed.output).toBe(0);
        const added = run("npm", ["install", "--no-audit", "--no-fund", "-D", tarball], app);
        expect(added.status, added.output).toBe(0);

        const doctor = npx("doctor");
        expect(doctor.status, doctor.output).toBe(1);
        expect(doctor.stdout).toContain(`@github/copilot-sdk ${SDK_VERSION} is NOT patched`);
        expect(doctor.stdout).toContain(`Fix: \`npx ${BIN} init\``);
    }, 300_000);

    it("init wires patch-package, installs, verifies the build and prints docs/patch-form.md's start-up check", () => {
        const init = npx("init");
        expect(init.status, init.output).toBe(0);
        expect(init.stdout).toContain(
            `verified: patch ${PROJECT.version} (build ${committedBuildHash(SDK_VERSION)}) for @github/copilot-sdk ${SDK_VERSION}`
        );
        expect(init.stdout).toContain(GUIDE_CHECK.esm);
        const manifest = JSON.parse(readFileSync(join(app, "package.json"), "utf8"));
        expect(manifest.dependencies).toEqual({
            "@github/copilot-sdk": SDK_VERSION,
            "patch-package": "8.0.1",
        });
        expect(manifest.scripts).toEqual({
            postinstall: "patch-package --error-on-fail --error-on-warn",
        });
        expect(readdirSync(join(app, "patches"))).toEqual([
            `@github+copilot-sdk+${SDK_VERSION}.patch`,
        ]);
        expect(
            readFileSync(join(app, "patches", `@github+copilot-sdk+${SDK_VERSION}.patch`))
        ).toEqual(readFileSync(join(ROOT, "patches", `@github+copilot-sdk+${SDK_VERSION}.patch`)));
    }, 300_000);

    it("runs a real session in which the custom view's handler answers", () => {
        writeFileSync(join(app, "start.mjs"), `${GUIDE_CHECK.esm}\n`);
        writeFileSync(join(app, "session.mjs"), sessionScript("esm"));
        expectCustomHandlerAnswered(run(process.execPath, ["session.mjs"], app));
    }, 120_000);

    it("doctor passes, and init run again changes nothing", () => {
        const before = readFileSync(join(app, "package.json"), "utf8");
        const again = npx("init");
        expect(again.status, again.output).toBe(0);
        expect(again.stdout).toContain("package.json: already wired");
        expect(readFileSync(join(app, "package.json"), "utf8")).toBe(before);

        const doctor = npx("doctor");
        expect(doctor.status, doctor.output).toBe(0);
        expect(doctor.stdout).toContain(
            `ok   patched: patch ${PROJECT.version} (build ${committedBuildHash(SDK_VERSION)}) for @github/copilot-sdk ${SDK_VERSION}, runtimes measured:`
        );
    }, 120_000);

    it("doctor fails with the fix for a Dockerfile that installs before copying patches/, and for a .dockerignore that drops it", () => {
        writeFileSync(
            join(app, "Dockerfile"),
            "FROM node:20\nWORKDIR /app\nCOPY package.json package-lock.json ./\nRUN npm ci --omit=dev\nCOPY . .\n"
        );
        let doctor = npx("doctor");
        expect(doctor.status).toBe(1);
        expect(doctor.stdout).toContain(
            "Dockerfile line 4 runs `npm ci` before patches/ is copied into the image"
        );
        expect(doctor.stdout).toContain("Fix: add `COPY patches ./patches` before line 4.");

        writeFileSync(
            join(app, "Dockerfile"),
            "FROM node:20\nWORKDIR /app\nCOPY package.json package-lock.json ./\nCOPY patches ./patches\nRUN npm ci --omit=dev\nCOPY . .\n"
        );
        writeFileSync(join(app, ".dockerignore"), "node_modules\npatches\n");
        doctor = npx("doctor");
        expect(doctor.status).toBe(1);
        expect(doctor.stdout).toContain("ok   Dockerfile copies patches/ before `npm ci` (line 5)");
        expect(doctor.stdout).toContain(
            `.dockerignore excludes patches/@github+copilot-sdk+${SDK_VERSION}.patch (rule 'patches')`
        );

        writeFileSync(join(app, ".dockerignore"), "node_modules\n");
        doctor = npx("doctor");
        expect(doctor.status, doctor.output).toBe(0);
        rmSync(join(app, "Dockerfile"));
        rmSync(join(app, ".dockerignore"));
    }, 120_000);

    it("in a container-like copy without patches/, the install exits 0 unpatched and doctor fails with the fix", () => {
        const copy = join(work, "npm-app-container");
        mkdirSync(copy);
        for (const file of ["package.json", "package-lock.json"]) {
            copyFileSync(join(app, file), join(copy, file));
        }
        // The runtime binary is not needed to check the patch.
        const installed = run(
            "npm",
            ["install", "--no-audit", "--no-fund", "--omit=optional"],
            copy
        );
        expect(installed.status, installed.output).toBe(0);
        expect(installed.output).toContain("No patch files found");

        const doctor = run("npx", [BIN, "doctor"], copy);
        expect(doctor.status, doctor.output).toBe(1);
        expect(doctor.stdout).toContain(`@github/copilot-sdk ${SDK_VERSION} is NOT patched`);
        expect(doctor.stdout).toContain(
            `patches/@github+copilot-sdk+${SDK_VERSION}.patch is missing: the next \`npm install\` here, and every container build, leaves the SDK unpatched`
        );
        expect(doctor.stdout).toContain("copy patches/ into the image before `npm ci`");
    }, 300_000);

    it("upgrade refuses a release without a patch, naming the patched ones", () => {
        const upgrade = npx("upgrade", "1.0.12");
        expect(upgrade.status).toBe(1);
        expect(upgrade.stderr).toContain(
            `has no patch for @github/copilot-sdk 1.0.12. Patched releases: ${PATCHED_RELEASES.join(", ")}.`
        );
    });

    it(`upgrade ${UPGRADE_TO} moves the SDK and swaps the patch in one step`, () => {
        const upgrade = npx("upgrade", UPGRADE_TO);
        expect(upgrade.status, upgrade.output).toBe(0);
        expect(upgrade.stdout).toContain(
            `patches/@github+copilot-sdk+${SDK_VERSION}.patch: removed (another version's patch of the SDK)`
        );
        expect(readdirSync(join(app, "patches"))).toEqual([
            `@github+copilot-sdk+${UPGRADE_TO}.patch`,
        ]);
        expect(
            JSON.parse(readFileSync(join(app, "package.json"), "utf8")).dependencies[
                "@github/copilot-sdk"
            ]
        ).toBe(UPGRADE_TO);
        const doctor = npx("doctor");
        expect(doctor.status, doctor.output).toBe(0);
        expect(doctor.stdout).toContain(`for @github/copilot-sdk ${UPGRADE_TO}`);
    }, 300_000);
});

describe("conformance from the package", () => {
    const cli = () => join(work, "npm-app", "node_modules", BIN, "build", "cli", "main.js");

    it("asks for the runtime to probe", () => {
        const result = run(process.execPath, [cli(), "conformance"], work);
        expect(result.status).toBe(1);
        expect(result.stderr).toContain(
            "conformance needs the runtime to probe: --runtime <copilot CLI>"
        );
    });

    it("runs the shipped suite, which names a runtime path that does not exist", () => {
        const missing = join(work, "no-such-copilot");
        const result = run(process.execPath, [cli(), "conformance", "--runtime", missing], work);
        expect(result.status).not.toBe(0);
        expect(result.stderr).toContain(
            `--runtime '${missing}' does not exist: name a copilot CLI`
        );
    });
});

describe("init refuses what it must not decide alone", () => {
    const cli = () => join(work, "npm-app", "node_modules", BIN, "build", "cli", "main.js");
    const fresh = (name: string, manifest: object): string => {
        const dir = join(work, name);
        mkdirSync(dir);
        writeJson(join(dir, "package.json"), manifest);
        return dir;
    };

    it("refuses yarn, naming what it serves instead", () => {
        const dir = fresh("yarn-app", { dependencies: { "@github/copilot-sdk": SDK_VERSION } });
        writeFileSync(join(dir, "yarn.lock"), "");
        const init = run(process.execPath, [cli(), "init"], dir);
        expect(init.status).toBe(1);
        expect(init.stderr).toContain(
            "This app uses yarn (yarn.lock), which this package does not serve"
        );
        expect(existsSync(join(dir, "patches"))).toBe(false);
    });

    it("refuses a release it has no patch for", () => {
        // 0.3.0 predates the 1.0 releases, which are all served.
        const dir = fresh("old-app", { dependencies: { "@github/copilot-sdk": "0.3.0" } });
        const init = run(process.execPath, [cli(), "init"], dir);
        expect(init.status).toBe(1);
        expect(init.stderr).toContain(
            `has no patch for @github/copilot-sdk 0.3.0. Patched releases: ${PATCHED_RELEASES.join(", ")}.`
        );
    });

    it("refuses to overwrite another postinstall, naming it", () => {
        const manifest = {
            dependencies: { "@github/copilot-sdk": SDK_VERSION },
            scripts: { postinstall: "node build-assets.js" },
        };
        const dir = fresh("postinstall-app", manifest);
        const init = run(process.execPath, [cli(), "init"], dir);
        expect(init.status).toBe(1);
        expect(init.stderr).toContain(
            "package.json has a postinstall of its own, 'node build-assets.js'"
        );
        expect(JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))).toEqual(manifest);
    });

    it("refuses to rewrite a package.json with uncommitted changes", () => {
        const dir = fresh("dirty-app", { dependencies: { "@github/copilot-sdk": SDK_VERSION } });
        const git = (...args: string[]) =>
            execFileSync("git", args, { cwd: dir, stdio: "ignore", env: userEnv() });
        git("init", "-q");
        git("add", "package.json");
        git("-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-qm", "app");
        const edited = { name: "dirty-app", dependencies: { "@github/copilot-sdk": SDK_VERSION } };
        writeJson(join(dir, "package.json"), edited);
        const init = run(process.execPath, [cli(), "init"], dir);
        expect(init.status).toBe(1);
        expect(init.stderr).toContain(
            "package.json has uncommitted changes, and this command would rewrite it"
        );
        expect(JSON.parse(readFileSync(join(dir, "package.json"), "utf8"))).toEqual(edited);
    });
});

describe("a pnpm app", () => {
    const app = join(work, "pnpm-app");
    /** pnpm on PATH, as a user has it: this project's pinned pnpm. */
    const shims = join(work, "bin");
    const env = () => userEnv(shims);
    const pnpm = (...args: string[]) => run("pnpm", args, app, env());

    it("installs the package, and doctor fails with the fix while the SDK is unpatched", () => {
        mkdirSync(shims, { recursive: true });
        const shim = join(shims, "pnpm");
        writeFileSync(
            shim,
            `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, "node_modules", "pnpm", "bin", "pnpm.cjs")}" "$@"\n`
        );
        chmodSync(shim, 0o755);
        mkdirSync(app);
        // The project's pnpm store and metadata cache: a location only, so that installs are fast.
        writeFileSync(
            join(app, ".npmrc"),
            `store-dir=${join(ROOT, ".cache", "pnpm-store")}\ncache-dir=${join(ROOT, ".cache", "pnpm-cache")}\n`
        );
        writeJson(join(app, "package.json"), {
            name: "pnpm-app",
            private: true,
            dependencies: { "@github/copilot-sdk": SDK_VERSION },
        });
        const installed = pnpm("install");
        expect(installed.status, installed.output).toBe(0);
        const added = pnpm("add", "-D", tarball);
        expect(added.status, added.output).toBe(0);

        const doctor = pnpm("exec", BIN, "doctor");
        expect(doctor.status, doctor.output).toBe(1);
        expect(doctor.stdout).toContain("package manager: pnpm (pnpm-lock.yaml)");
        expect(doctor.stdout).toContain(`@github/copilot-sdk ${SDK_VERSION} is NOT patched`);
        expect(doctor.stdout).toContain(`Fix: \`pnpm exec ${BIN} init\``);
    }, 300_000);

    it("init wires patchedDependencies and onlyBuiltDependencies, installs and verifies", () => {
        const init = pnpm("exec", BIN, "init");
        expect(init.status, init.output).toBe(0);
        expect(init.stdout).toContain(
            `verified: patch ${PROJECT.version} (build ${committedBuildHash(SDK_VERSION)}) for @github/copilot-sdk ${SDK_VERSION}`
        );
        expect(init.stdout).toContain(GUIDE_CHECK.cjs);
        const manifest = JSON.parse(readFileSync(join(app, "package.json"), "utf8"));
        expect(manifest.pnpm).toEqual({
            patchedDependencies: {
                [`@github/copilot-sdk@${SDK_VERSION}`]: `patches/@github__copilot-sdk@${SDK_VERSION}.patch`,
            },
            onlyBuiltDependencies: ["koffi"],
        });
        expect(manifest.scripts).toBeUndefined();
        expect(
            readFileSync(join(app, "patches", `@github__copilot-sdk@${SDK_VERSION}.patch`))
        ).toEqual(
            readFileSync(join(ROOT, "patches", "pnpm", `@github__copilot-sdk@${SDK_VERSION}.patch`))
        );
    }, 300_000);

    it("runs a real session in which the custom view's handler answers, and doctor passes", () => {
        writeFileSync(join(app, "start.cjs"), `${GUIDE_CHECK.cjs}\n`);
        writeFileSync(join(app, "session.cjs"), sessionScript("cjs"));
        expectCustomHandlerAnswered(run(process.execPath, ["session.cjs"], app, env()));
        const doctor = pnpm("exec", BIN, "doctor");
        expect(doctor.status, doctor.output).toBe(0);
        expect(doctor.stdout).toContain(
            `ok   pnpm.patchedDependencies: @github/copilot-sdk@${SDK_VERSION} -> patches/@github__copilot-sdk@${SDK_VERSION}.patch`
        );
    }, 120_000);

    it("in a container-like copy without patches/, pnpm install fails and doctor names the missing file", () => {
        const copy = join(work, "pnpm-app-container");
        mkdirSync(copy);
        for (const file of ["package.json", "pnpm-lock.yaml", ".npmrc"]) {
            copyFileSync(join(app, file), join(copy, file));
        }
        const installed = run("pnpm", ["install", "--frozen-lockfile"], copy, env());
        expect(installed.status).not.toBe(0);
        expect(installed.output).toContain(`@github__copilot-sdk@${SDK_VERSION}.patch`);

        // The copy's install failed, so it has no CLI of its own: the app's runs there.
        const cli = join(app, "node_modules", BIN, "build", "cli", "main.js");
        const doctor = run(process.execPath, [cli, "doctor", "--dir", copy], app, env());
        expect(doctor.status).toBe(1);
        expect(doctor.stdout).toContain(`@github/copilot-sdk is not installed in ${copy}`);
        expect(doctor.stdout).toContain(
            `pnpm.patchedDependencies names patches/@github__copilot-sdk@${SDK_VERSION}.patch, which does not exist: \`pnpm install\` fails here and in every container build. Fix: \`pnpm exec ${BIN} init\`, and copy patches/ into the image before \`pnpm install\`.`
        );
    }, 300_000);
});
