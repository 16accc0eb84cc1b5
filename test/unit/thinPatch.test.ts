/**
 * The thin patch as init renders it, on stand-in SDK files: each file's last line changed to itself
 * followed by the appends, 30 lines in all, found applied by patch-package on the next install, the no-newline case, and a refusal naming the
 * file when the release lacks what the append relies on.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderThinPatch, THIN_PATCH_APPENDS } from "../../src/cli/thinPatch.js";

const ROOT = join(import.meta.dirname, "..", "..");

const FILES: Record<string, string> = {
    "dist/client.js":
        'import { ToolSet } from "./toolSet.js";\nclass CopilotClient {\n}\nexport {\n  CopilotClient\n};\n',
    "dist/cjs/client.js":
        'var import_toolSet = require("./toolSet.js");\nclass CopilotClient {\n}\n0 && (module.exports = {\n  CopilotClient\n});\n',
    "dist/index.js": 'export { CopilotClient } from "./client.js";\n',
    "dist/cjs/index.js": "var index_exports = {};\nmodule.exports = __toCommonJS(index_exports);\n",
    "dist/index.d.ts": 'export { CopilotClient } from "./client.js";',
};

const read = (files: Record<string, string>) => (path: string) => {
    const text = files[path];
    if (text === undefined) throw new Error(`no ${path}`);
    return text;
};

describe("the thin patch", () => {
    it("changes one line per file, the last, to itself followed by the appends: 30 lines in all", () => {
        const withNewlines = { ...FILES, "dist/index.d.ts": `${FILES["dist/index.d.ts"]}\n` };
        const lines = renderThinPatch(read(withNewlines), "1.0.99", "patch-package")
            .trimEnd()
            .split("\n");
        expect(lines).toHaveLength(30);
        expect(lines.filter((line) => line.startsWith("-") && !line.startsWith("---"))).toEqual([
            "-};",
            "-});",
            '-export { CopilotClient } from "./client.js";',
            "-module.exports = __toCommonJS(index_exports);",
            '-export { CopilotClient } from "./client.js";',
        ]);
        expect(lines).toContain(
            '+}); CopilotClient = require("copilot-sdk-tool-override/patch").toolCustomizationHook(CopilotClient, require("./toolSet.js"), __filename);'
        );
    });

    it("is found applied by patch-package on the next install, not applied twice", () => {
        const work = mkdtempSync(join(tmpdir(), "thin-patch-twice-"));
        try {
            const sdk = join(work, "node_modules", "@github", "copilot-sdk");
            for (const [path, text] of Object.entries(FILES)) {
                mkdirSync(dirname(join(sdk, path)), { recursive: true });
                writeFileSync(join(sdk, path), text);
            }
            writeFileSync(
                join(sdk, "package.json"),
                '{ "name": "@github/copilot-sdk", "version": "1.0.99" }\n'
            );
            writeFileSync(join(work, "package.json"), '{ "name": "app", "version": "1.0.0" }\n');
            mkdirSync(join(work, "patches"));
            writeFileSync(
                join(work, "patches", "@github+copilot-sdk+1.0.99.patch"),
                renderThinPatch(read(FILES), "1.0.99", "patch-package")
            );
            const patchPackage = join(ROOT, "node_modules", "patch-package", "index.js");
            for (let install = 0; install < 3; install++) {
                execFileSync(
                    process.execPath,
                    [patchPackage, "--error-on-fail", "--error-on-warn"],
                    { cwd: work, stdio: "pipe" }
                );
            }
            const client = readFileSync(join(sdk, "dist/client.js"), "utf8");
            expect(client.split("toolCustomizationHook(").length - 1).toBe(1);
            expect(client.endsWith(`\n}; ${THIN_PATCH_APPENDS.get("dist/client.js")![0]}\n`)).toBe(
                true
            );
        } finally {
            rmSync(work, { recursive: true, force: true });
        }
    });

    it("refuses a release whose last line stands again just above it, where patch-package could apply it twice", () => {
        const repeated = { ...FILES, "dist/client.js": `${FILES["dist/client.js"]}};\n` };
        expect(() => renderThinPatch(read(repeated), "1.0.99", "patch-package")).toThrow(
            `@github/copilot-sdk 1.0.99: dist/client.js's last line "};" stands again within 20 lines above it`
        );
    });

    it("writes a last line without a newline again, with one", () => {
        const patch = renderThinPatch(read(FILES), "1.0.99", "patch-package");
        const lines = patch.trimEnd().split("\n");
        expect(
            lines.filter((line) => line.startsWith("+") && !line.startsWith("+++"))
        ).toHaveLength(THIN_PATCH_APPENDS.size);
        expect(patch).toContain(
            [
                "diff --git a/node_modules/@github/copilot-sdk/dist/index.js b/node_modules/@github/copilot-sdk/dist/index.js",
                "--- a/node_modules/@github/copilot-sdk/dist/index.js",
                "+++ b/node_modules/@github/copilot-sdk/dist/index.js",
                "@@ -1,1 +1,1 @@",
                '-export { CopilotClient } from "./client.js";',
                '+export { CopilotClient } from "./client.js"; export * from "copilot-sdk-tool-override/patch";',
            ].join("\n")
        );
        expect(patch).toContain(
            [
                "@@ -1,1 +1,1 @@",
                '-export { CopilotClient } from "./client.js";',
                "\\ No newline at end of file",
                '+export { CopilotClient } from "./client.js"; export * from "copilot-sdk-tool-override/patch";',
            ].join("\n")
        );
    });

    it("gives pnpm paths relative to the package", () => {
        const patch = renderThinPatch(read(FILES), "1.0.99", "pnpm");
        expect(patch).toContain("diff --git a/dist/client.js b/dist/client.js\n");
        expect(patch).not.toContain("node_modules");
    });

    it("applies with git apply, which checks hunks strictly, to what the CLI's appends give", () => {
        const work = mkdtempSync(join(tmpdir(), "thin-patch-"));
        try {
            for (const [path, text] of Object.entries(FILES)) {
                mkdirSync(dirname(join(work, path)), { recursive: true });
                writeFileSync(join(work, path), text);
            }
            const patch = join(work, "thin.patch");
            writeFileSync(patch, renderThinPatch(read(FILES), "1.0.99", "pnpm"));
            execFileSync("git", ["apply", "--unsafe-paths", patch], { cwd: work });
            for (const [path, lines] of THIN_PATCH_APPENDS) {
                const text = readFileSync(join(work, path), "utf8");
                expect(text.endsWith(` ${lines.join(" ")}\n`)).toBe(true);
            }
        } finally {
            rmSync(work, { recursive: true, force: true });
        }
    });

    it("refuses a release whose client.js does not declare the class it rebinds, naming the file", () => {
        const changed = {
            ...FILES,
            "dist/client.js": FILES["dist/client.js"]!.replace(
                "class CopilotClient {",
                "const CopilotClient = class {"
            ),
        };
        expect(() => renderThinPatch(read(changed), "1.0.99", "patch-package")).toThrow(
            "@github/copilot-sdk 1.0.99: dist/client.js has no match of /^class CopilotClient \\{$/m, which the thin patch relies on."
        );
    });

    it("refuses to render from a release that already carries it", () => {
        const patched = {
            ...FILES,
            "dist/index.js": `${FILES["dist/index.js"]}export * from "copilot-sdk-tool-override/patch";\n`,
        };
        expect(() => renderThinPatch(read(patched), "1.0.99", "patch-package")).toThrow(
            /dist\/index\.js already holds the thin patch's lines/
        );
    });
});
