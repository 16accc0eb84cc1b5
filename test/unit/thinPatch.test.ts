/**
 * The thin patch as init renders it, on stand-in SDK files: one appended line per file, one line
 * of context (the last), at most 30 lines in all, the no-newline case, and a refusal naming the
 * file when the release lacks what the append relies on.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderThinPatch, THIN_PATCH_APPENDS } from "../../src/cli/thinPatch.js";

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
    it("appends one line per file after one line of context, at most 30 lines in all", () => {
        const withNewlines = { ...FILES, "dist/index.d.ts": `${FILES["dist/index.d.ts"]}\n` };
        const lines = renderThinPatch(read(withNewlines), "1.0.99", "patch-package")
            .trimEnd()
            .split("\n");
        expect(lines).toHaveLength(30);
        expect(lines.filter((line) => line.startsWith("+") && !line.startsWith("+++"))).toEqual(
            [...THIN_PATCH_APPENDS.values()].flat().map((line) => `+${line}`)
        );
    });

    it("writes a last line without a newline again, with one", () => {
        const patch = renderThinPatch(read(FILES), "1.0.99", "patch-package");
        const lines = patch.trimEnd().split("\n");
        expect(
            lines.filter((line) => line.startsWith("+") && !line.startsWith("+++"))
        ).toHaveLength(
            THIN_PATCH_APPENDS.size + 1 // the no-newline file's last line, written again
        );
        expect(patch).toContain(
            [
                "diff --git a/node_modules/@github/copilot-sdk/dist/index.js b/node_modules/@github/copilot-sdk/dist/index.js",
                "--- a/node_modules/@github/copilot-sdk/dist/index.js",
                "+++ b/node_modules/@github/copilot-sdk/dist/index.js",
                "@@ -1,1 +1,2 @@",
                ' export { CopilotClient } from "./client.js";',
                '+export * from "copilot-sdk-tool-override/patch";',
            ].join("\n")
        );
        expect(patch).toContain(
            [
                "@@ -1,1 +1,2 @@",
                '-export { CopilotClient } from "./client.js";',
                "\\ No newline at end of file",
                '+export { CopilotClient } from "./client.js";',
                '+export * from "copilot-sdk-tool-override/patch";',
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
                expect(text.endsWith(`\n${lines.join("\n")}\n`)).toBe(true);
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
