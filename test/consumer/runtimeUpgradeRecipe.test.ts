/**
 * The CI recipe docs/examples/runtime-upgrade.yml runs as documented: an npm app and a pnpm app
 * made from the PACKED package move from @github/copilot-sdk 1.0.14 to 1.0.15-preview.4 on a
 * branch, and the recipe's own `run:` blocks, taken from the YAML and run as GitHub runs them
 * (`bash --noprofile --norc -eo pipefail`), install the app, find the runtime each side's lockfile
 * gives it (the runtime the SDK release bundles, never a registry stand-in) and compare the two
 * for the app's tools. A broken script, or a script that prints nothing, fails the step. Needs
 * the npm registry; runtime installs go to the cache COPILOT_SDK_TOOL_OVERRIDE_CACHE names
 * (kept), else to a temporary folder.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const RECIPE = join(ROOT, "docs", "examples", "runtime-upgrade.yml");
const PNPM = join(ROOT, "node_modules", "pnpm", "bin", "pnpm.cjs");
const BASE_SDK = "1.0.14";
const HEAD_SDK = "1.0.15-preview.4";
const releases = (
    JSON.parse(readFileSync(join(ROOT, "data", "sdk-releases.json"), "utf8")) as {
        releases: { sdkVersion: string; runtimeVersion?: string }[];
    }
).releases;
const runtimeOf = (sdk: string) => releases.find((r) => r.sdkVersion === sdk)?.runtimeVersion;

const work = mkdtempSync(join(tmpdir(), "runtime-upgrade-"));
const ownCache = process.env.COPILOT_SDK_TOOL_OVERRIDE_CACHE === undefined;
const cache = process.env.COPILOT_SDK_TOOL_OVERRIDE_CACHE ?? join(work, "cache");
afterAll(() => rmSync(work, { recursive: true, force: true }));
let tarball = "";

/** A step of the workflow that runs a shell script. */
interface RunStep {
    name: string;
    id?: string;
    env: Record<string, string>;
    run: string;
}

/**
 * The `run:` steps of the recipe, with their `env:`, read from the YAML as it is written (block
 * scalars `run: |` under `steps:`); the workflow-level `env:` too. A layout this reader does not
 * know fails the test rather than skipping a step.
 */
function recipeSteps(): { env: Record<string, string>; steps: RunStep[] } {
    const lines = readFileSync(RECIPE, "utf8").split("\n");
    const env: Record<string, string> = {};
    const steps: RunStep[] = [];
    let step: (Partial<RunStep> & { env: Record<string, string> }) | undefined;
    let block: "env" | "run" | "top-env" | undefined;
    let runIndent = 0;
    const finish = () => {
        if (step?.run !== undefined) steps.push(step as RunStep);
    };
    for (const line of lines) {
        if (block === "run") {
            if (line.trim() === "" || line.length - line.trimStart().length >= runIndent) {
                step!.run = `${step!.run ?? ""}${line.slice(runIndent)}\n`;
                continue;
            }
            block = undefined;
        }
        if (/^env:\s*$/.test(line)) {
            block = "top-env";
            continue;
        }
        if (block === "top-env") {
            const match = /^ {4}([A-Z_]+):\s*(.*)$/.exec(line);
            if (match !== null) {
                env[match[1]!] = match[2]!;
                continue;
            }
            block = undefined;
        }
        if (/^ {12}- /.test(line)) {
            finish();
            step = { env: {} };
            block = undefined;
        }
        if (step === undefined) continue;
        const key = /^ {12}[- ] (name|id|run|env):\s*(.*)$/.exec(line);
        if (key !== null) {
            const [, name, value] = key as unknown as [string, string, string];
            if (name === "run") {
                if (value !== "|") throw new Error(`run: must be a block scalar ('|'): ${line}`);
                block = "run";
                runIndent = 18;
                step.run = "";
            } else if (name === "env") {
                block = "env";
            } else {
                step[name as "name" | "id"] = value;
            }
            continue;
        }
        if (block === "env") {
            const match = /^ {18}([A-Z_]+):\s*(.*)$/.exec(line);
            if (match !== null) step.env[match[1]!] = match[2]!;
            else block = undefined;
        }
    }
    finish();
    return { env, steps };
}

/** Runs the recipe's steps in the app's folder, as a pull request against `main` would. */
function runRecipe(app: string, upTo: string) {
    const { env, steps } = recipeSteps();
    const outputs = new Map<string, Map<string, string>>();
    const bin = join(work, "bin");
    const expression = (text: string) =>
        text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, name: string) => {
            if (name === "github.base_ref") return "main";
            const output = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(name);
            if (output !== null) return outputs.get(output[1]!)?.get(output[2]!) ?? "";
            throw new Error(`The test does not know the expression '${name}'.`);
        });
    const results: { name: string; status: number | null; output: string }[] = [];
    for (const step of steps) {
        const outputFile = join(work, `output-${Math.random().toString(36).slice(2)}`);
        writeFileSync(outputFile, "");
        const stepEnv: NodeJS.ProcessEnv = {};
        for (const [key, value] of Object.entries(process.env)) {
            if (!key.startsWith("npm_")) stepEnv[key] = value;
        }
        Object.assign(stepEnv, {
            ...env,
            ...Object.fromEntries(Object.entries(step.env).map(([k, v]) => [k, expression(v)])),
            PATH: `${bin}:${process.env.PATH ?? ""}`,
            CI: "true",
            GITHUB_OUTPUT: outputFile,
            COPILOT_SDK_TOOL_OVERRIDE_CACHE: cache,
        });
        const result = spawnSync(
            "bash",
            ["--noprofile", "--norc", "-eo", "pipefail", "-c", expression(step.run)],
            { cwd: app, encoding: "utf8", env: stepEnv, timeout: 600_000 }
        );
        const values = new Map<string, string>();
        for (const line of readFileSync(outputFile, "utf8").split("\n")) {
            const at = line.indexOf("=");
            if (at > 0) values.set(line.slice(0, at), line.slice(at + 1));
        }
        if (step.id !== undefined) outputs.set(step.id, values);
        results.push({
            name: step.name,
            status: result.status,
            output: `${result.stdout}${result.stderr}`,
        });
        if (result.status !== 0 || step.name === upTo) break;
    }
    return { results, outputs };
}

function ok(command: string, args: string[], cwd: string): string {
    const result = spawnSync(command, args, {
        cwd,
        encoding: "utf8",
        timeout: 300_000,
        env: Object.fromEntries(
            Object.entries(process.env).filter(([key]) => !key.startsWith("npm_"))
        ),
    });
    if (result.status !== 0) {
        throw new Error(`${command} ${args.join(" ")} failed:\n${result.stdout}${result.stderr}`);
    }
    return result.stdout;
}

/**
 * An app on `main` with SDK 1.0.14 and this package (library form), its session config and an
 * empty reviewed-differences file; then a working tree that moves the SDK to 1.0.15-preview.4.
 */
function upgradingApp(name: string, manager: "npm" | "pnpm"): string {
    const app = join(work, name);
    mkdirSync(join(app, ".github"), { recursive: true });
    const deps = {
        "@github/copilot-sdk": BASE_SDK,
        "copilot-sdk-tool-override": `file:${tarball}`,
    };
    writeFileSync(
        join(app, "package.json"),
        `${JSON.stringify({ name, private: true, type: "module", dependencies: deps }, null, 2)}\n`
    );
    writeFileSync(join(app, ".gitignore"), "node_modules\nruntime-compare.json\n");
    writeFileSync(
        join(app, "tools.config.mjs"),
        [
            "export const sessionConfig = {",
            "    tools: [",
            "        {",
            '            name: "view",',
            '            description: "Shows a file of the app\'s store",',
            '            parameters: { type: "object", properties: { path: { type: "string" } } },',
            "            overridesBuiltInTool: true,",
            '            handler: async () => "from the app",',
            "        },",
            "    ],",
            "};",
            "",
        ].join("\n")
    );
    writeFileSync(
        join(app, ".github", "reviewed-runtime-differences.json"),
        '{ "accepted": [] }\n'
    );
    const add = (version: string) =>
        manager === "npm"
            ? ok(
                  "npm",
                  [
                      "install",
                      "--save-exact",
                      `@github/copilot-sdk@${version}`,
                      "--no-audit",
                      "--no-fund",
                  ],
                  app
              )
            : ok(
                  process.execPath,
                  [PNPM, "add", "--save-exact", `@github/copilot-sdk@${version}`],
                  app
              );
    if (manager === "pnpm") {
        writeFileSync(join(app, "pnpm-workspace.yaml"), "onlyBuiltDependencies:\n  - koffi\n");
    }
    add(BASE_SDK);
    for (const args of [
        ["init", "-q", "-b", "main"],
        ["add", "-A"],
        ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "app"],
        ["update-ref", "refs/remotes/origin/main", "HEAD"],
        ["checkout", "-qb", "upgrade"],
    ]) {
        ok("git", args, app);
    }
    add(HEAD_SDK);
    return app;
}

beforeAll(() => {
    // `npm pack` as a user makes the tarball (prepack builds and strips the manifest).
    const [pack] = JSON.parse(
        execFileSync("npm", ["pack", "--json", "--pack-destination", work], {
            cwd: ROOT,
            encoding: "utf8",
            env: { ...process.env, npm_config_loglevel: "error" },
        })
    ) as [{ filename: string }];
    tarball = join(work, pack.filename);
    // The recipe's `pnpm` (pnpm/action-setup in CI): the pnpm this repository pins.
    mkdirSync(join(work, "bin"));
    writeFileSync(
        join(work, "bin", "pnpm"),
        `#!/bin/sh\nexec "${process.execPath}" "${PNPM}" "$@"\n`
    );
    chmodSync(join(work, "bin", "pnpm"), 0o755);
}, 300_000);

interface Report {
    a: { version: string; sdk: string };
    b: { version: string; sdk: string };
    differences: unknown[];
    exitCode: number;
}

describe("the runtime-upgrade recipe on an SDK upgrade", () => {
    const expected = { base: runtimeOf(BASE_SDK), head: runtimeOf(HEAD_SDK) };
    const paths = new Map<string, { base: string; head: string }>();

    for (const manager of ["npm", "pnpm"] as const) {
        it(`${manager}: finds the runtime each release bundles and compares them for the app's tools`, () => {
            expect(expected.base).toBeDefined();
            expect(expected.head).toBeDefined();
            const app = upgradingApp(`${manager}-app`, manager);
            const { results, outputs } = runRecipe(app, "");
            const failed = results.find((result) => result.status !== 0);
            const report = JSON.parse(
                readFileSync(join(app, "runtime-compare.json"), "utf8")
            ) as Report;
            // The bundled runtimes of the two releases, from the cache, never a stand-in.
            const runtimes = outputs.get("runtimes")!;
            expect(runtimes.get("base")).toBe(
                join(
                    cache,
                    "runtimes",
                    `@github+copilot-sdk@${BASE_SDK}`,
                    "node_modules/@github/copilot-sdk-linux-x64/prebuilds/linux-x64/copilot-runtime"
                )
            );
            expect(runtimes.get("head")).toContain(`@github+copilot-sdk@${HEAD_SDK}/`);
            paths.set(manager, { base: runtimes.get("base")!, head: runtimes.get("head")! });
            console.log(
                `${manager}: runtime ${report.a.version} -> ${report.b.version}: ${report.differences.length} unreviewed differences, exit ${report.exitCode}`
            );
            expect([report.a.version, report.b.version]).toEqual([expected.base, expected.head]);
            // Each side driven by the SDK release its lockfile locks, not the package's pin.
            expect([runtimes.get("base_sdk"), runtimes.get("head_sdk")]).toEqual([
                BASE_SDK,
                HEAD_SDK,
            ]);
            expect([report.a.sdk, report.b.sdk]).toEqual([BASE_SDK, HEAD_SDK]);
            // The job fails exactly when the comparison found an unreviewed difference.
            expect(report.exitCode).toBe(report.differences.length > 0 ? 1 : 0);
            expect(failed?.name).toBe(
                report.exitCode === 0 ? undefined : "Compare the two runtimes for the app's tools"
            );
            expect(results.map((result) => result.name)).toEqual([
                "Install the app",
                "The runtimes of the base and the head lockfile",
                "Compare the two runtimes for the app's tools",
            ]);
        }, 900_000);
    }

    it("npm and pnpm lockfiles give the same runtimes", () => {
        expect(paths.get("pnpm")).toEqual(paths.get("npm"));
    });

    it("a script that breaks fails the step, naming the error, and sets no runtime", () => {
        const app = join(work, "npm-app");
        const script = join(
            app,
            "node_modules/copilot-sdk-tool-override/docs/examples/runtime-upgrade/lockfile-runtime.mjs"
        );
        const original = readFileSync(script, "utf8");
        try {
            // The bug of the first recipe: a top-level return in the Node script.
            writeFileSync(script, `${original}\nreturn;\n`);
            const { results, outputs } = runRecipe(
                app,
                "The runtimes of the base and the head lockfile"
            );
            expect(results.at(-1)!.name).toBe("The runtimes of the base and the head lockfile");
            expect(results.at(-1)!.status).not.toBe(0);
            expect(results.at(-1)!.output).toContain("SyntaxError");
            expect(outputs.get("runtimes")).toEqual(new Map());
        } finally {
            writeFileSync(script, original);
        }
    }, 300_000);

    it("a runtime path that comes out empty fails the step", () => {
        const app = join(work, "npm-app");
        const script = join(
            app,
            "node_modules/copilot-sdk-tool-override/docs/examples/runtime-upgrade/runtime-path.sh"
        );
        const original = readFileSync(script, "utf8");
        try {
            writeFileSync(script, original.replace(/^echo "\$runtime"$/m, "true"));
            const { results, outputs } = runRecipe(
                app,
                "The runtimes of the base and the head lockfile"
            );
            expect(results.at(-1)!.status).not.toBe(0);
            expect(results.at(-1)!.output).toContain("runtimes: an empty value (base '', head ''");
            expect(outputs.get("runtimes")).toEqual(new Map());
        } finally {
            writeFileSync(script, original);
        }
    }, 300_000);

    it("a lockfile without the SDK fails loudly: the runtime cannot be told", () => {
        const lock = join(work, "package-lock.json");
        writeFileSync(lock, JSON.stringify({ lockfileVersion: 3, packages: { "": {} } }));
        const result = spawnSync(
            "bash",
            [
                "--noprofile",
                "--norc",
                "-eo",
                "pipefail",
                "-c",
                `spec=$(node "${join(ROOT, "docs/examples/runtime-upgrade/lockfile-runtime.mjs")}" "${lock}"); echo "spec=$spec"`,
            ],
            { encoding: "utf8" }
        );
        expect(result.status).toBe(2);
        expect(result.stdout).toBe("");
        expect(result.stderr).toContain("locks no @github/copilot-sdk");
    });
});

if (ownCache) afterAll(() => rmSync(cache, { recursive: true, force: true }));
