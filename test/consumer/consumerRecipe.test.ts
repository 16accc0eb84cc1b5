/**
 * The npm recipe, followed as an app would: a fresh app pins
 * @github/copilot-sdk 1.0.15-preview.4, copies that version's patch, installs for production
 * (`--omit=dev`) and runs docs/patch-form.md's start-up check, in its ESM and its CommonJS form. Then the
 * SDK is reinstalled without the app's postinstall, as npm does when another package is installed
 * after the SDK folder went away, and both checks must refuse to start, naming the installed
 * version. The commands and the checks are read from docs/patch-form.md, so docs/patch-form.md cannot drift from
 * what works. Needs the npm registry.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const VERSION = "1.0.15-preview.4";
const ROOT = join(import.meta.dirname, "..", "..");
const GUIDE = readFileSync(join(ROOT, "docs", "patch-form.md"), "utf8");

function fromReadme(pattern: RegExp, what: string): string {
    const match = pattern.exec(GUIDE);
    if (match?.[1] === undefined) throw new Error(`docs/patch-form.md no longer shows ${what}`);
    return match[1];
}

const postinstall = fromReadme(/npm pkg set scripts\.postinstall="([^"]+)"/, "the postinstall");
const patchPackage = fromReadme(/npm install --save-exact (patch-package@[\d.]+)/, "patch-package");
/** The start-up checks: the code blocks that start with "// ESM" and "// CommonJS". */
const startUpCheck = {
    "start.mjs": fromReadme(/```javascript\n(\/\/ ESM\n(?:(?!```)[\s\S])*)```/, "the ESM check"),
    "start.cjs": fromReadme(
        /```javascript\n(\/\/ CommonJS\n(?:(?!```)[\s\S])*)```/,
        "the CJS check"
    ),
};

const app = mkdtempSync(join(tmpdir(), "consumer-app-"));
afterAll(() => rmSync(app, { recursive: true, force: true }));

function npm(args: string[]): string {
    return execFileSync("npm", [...args, "--no-audit", "--no-fund"], {
        cwd: app,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
    });
}

function startApp(file: string): { status: number | null; stdout: string; stderr: string } {
    const run = spawnSync(process.execPath, [file], { cwd: app, encoding: "utf8" });
    return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe(`an app that follows docs/patch-form.md with @github/copilot-sdk ${VERSION}`, () => {
    it("gets its patch applied by a production install and passes the start-up check", () => {
        writeFileSync(
            join(app, "package.json"),
            JSON.stringify({
                name: "consumer-app",
                private: true,
                type: "module",
                scripts: { postinstall },
                dependencies: {
                    "@github/copilot-sdk": VERSION,
                    "patch-package": patchPackage.split("@")[1],
                },
            })
        );
        mkdirSync(join(app, "patches"));
        const patch = `@github+copilot-sdk+${VERSION}.patch`;
        copyFileSync(join(ROOT, "patches", patch), join(app, "patches", patch));
        for (const [file, check] of Object.entries(startUpCheck)) {
            writeFileSync(join(app, file), `${check}\nconsole.log("started");\n`);
        }

        const output = npm(["install", "--omit=dev"]);
        expect(output).toContain(`@github/copilot-sdk@${VERSION} ✔`);
        for (const file of Object.keys(startUpCheck)) {
            expect(startApp(file)).toEqual({ status: 0, stdout: "started\n", stderr: "" });
        }
    }, 180_000);

    it("refuses to start once the SDK was reinstalled without the postinstall", () => {
        rmSync(join(app, "node_modules", "@github", "copilot-sdk"), { recursive: true });
        npm(["install", "--omit=dev", "--ignore-scripts"]);

        for (const file of Object.keys(startUpCheck)) {
            const started = startApp(file);
            expect(started.status).not.toBe(0);
            expect(started.stdout).toBe("");
            expect(started.stderr).toContain(
                `@github/copilot-sdk ${VERSION} runs without its tool-customization patch`
            );
            expect(started.stderr).toContain(`patches/@github+copilot-sdk+${VERSION}.patch`);
        }
    }, 180_000);
});
