/**
 * The README's consumer recipe, followed as an app would: a fresh app pins
 * @github/copilot-sdk 1.0.15-preview.4, copies that version's patch, installs for production
 * (`--omit=dev`) and runs the README's start-up check. Then the SDK is reinstalled without the
 * app's postinstall, as npm does when another package is installed after the SDK folder went
 * away, and the same check must refuse to start. The commands and the check line are read from
 * the README, so the README cannot drift from what works. (The platform runtime is left out with
 * `--omit=optional`: the check needs only the SDK's JavaScript.)
 */
import { execFileSync, spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const VERSION = "1.0.15-preview.4";
const ROOT = join(import.meta.dirname, "..", "..");
const README = readFileSync(join(ROOT, "README.md"), "utf8");

function fromReadme(pattern: RegExp, what: string): string {
    const match = pattern.exec(README);
    if (match?.[1] === undefined) throw new Error(`README.md no longer shows ${what}`);
    return match[1];
}

const postinstall = fromReadme(/npm pkg set scripts\.postinstall="([^"]+)"/, "the postinstall");
const patchPackage = fromReadme(/npm install --save-exact (patch-package@[\d.]+)/, "patch-package");
/** The README's start-up check: the whole code block that reads TOOL_CUSTOMIZATION_PATCH. */
const startUpCheck = fromReadme(
    /```typescript\n((?:(?!```)[\s\S])*TOOL_CUSTOMIZATION_PATCH(?:(?!```)[\s\S])*)```/,
    "the start-up check"
).replaceAll("1.0.14", VERSION);

const app = mkdtempSync(join(tmpdir(), "consumer-app-"));
afterAll(() => rmSync(app, { recursive: true, force: true }));

function npm(args: string[]): string {
    return execFileSync("npm", [...args, "--no-audit", "--no-fund", "--omit=optional"], {
        cwd: app,
        encoding: "utf8",
        stdio: ["ignore", "pipe", "pipe"],
    });
}

function startApp(): { status: number | null; stdout: string; stderr: string } {
    const run = spawnSync(process.execPath, ["start.mjs"], { cwd: app, encoding: "utf8" });
    return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe(`an app that follows the README with @github/copilot-sdk ${VERSION}`, () => {
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
        writeFileSync(join(app, "start.mjs"), `${startUpCheck}\nconsole.log("started");\n`);

        const output = npm(["install", "--omit=dev"]);
        expect(output).toContain(`@github/copilot-sdk@${VERSION} ✔`);
        const started = startApp();
        expect(started).toEqual({ status: 0, stdout: "started\n", stderr: "" });
    }, 180_000);

    it("refuses to start once the SDK was reinstalled without the postinstall", () => {
        rmSync(join(app, "node_modules", "@github", "copilot-sdk"), { recursive: true });
        npm(["install", "--omit=dev", "--ignore-scripts"]);

        const started = startApp();
        expect(started.status).not.toBe(0);
        expect(started.stdout).toBe("");
        expect(started.stderr).toContain(
            `@github/copilot-sdk ${VERSION} runs without its tool-customization patch`
        );
    }, 180_000);
});
