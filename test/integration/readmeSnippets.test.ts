/**
 * Every TypeScript and JavaScript snippet of the README compiles as pasted: each is written to a
 * file of its own (a module, as in an app) next to this project's node_modules, whose SDK carries
 * the patch, and type-checked by tsc with strict settings (JavaScript with checkJs). A snippet
 * that uses a name it does not define, or an option the patched SDK does not have, fails here.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const README = readFileSync(join(ROOT, "README.md"), "utf8");

interface Snippet {
    readonly file: string;
    readonly line: number;
    readonly code: string;
}

function snippets(): Snippet[] {
    const found: Snippet[] = [];
    const fence = /^```(typescript|ts|javascript|js)\n([\s\S]*?)^```$/gm;
    for (let match = fence.exec(README); match !== null; match = fence.exec(README)) {
        const code = match[2]!;
        const line = README.slice(0, match.index).split("\n").length;
        const javascript = match[1] === "javascript" || match[1] === "js";
        const extension = !javascript ? "ts" : code.startsWith("// CommonJS") ? "cjs" : "mjs";
        found.push({ file: `readme-line-${line}.${extension}`, line, code });
    }
    return found;
}

mkdirSync(join(ROOT, ".cache"), { recursive: true });
const dir = mkdtempSync(join(ROOT, ".cache", "readme-snippets-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the README's snippets", () => {
    it("has TypeScript and JavaScript snippets to check", () => {
        const kinds = new Set(snippets().map((snippet) => snippet.file.split(".").pop()));
        expect([...kinds].sort()).toEqual(["cjs", "mjs", "ts"]);
    });

    it("compile as pasted, each on its own, against the patched SDK", () => {
        const all = snippets();
        for (const snippet of all) {
            // A snippet without imports is still a module of its own, as a file of an app is.
            const module = snippet.file.endsWith(".cjs") ? "" : "\nexport {};\n";
            writeFileSync(join(dir, snippet.file), snippet.code + module);
        }
        writeFileSync(
            join(dir, "tsconfig.json"),
            JSON.stringify({
                compilerOptions: {
                    target: "ES2022",
                    module: "NodeNext",
                    moduleResolution: "NodeNext",
                    lib: ["ES2022"],
                    types: ["node"],
                    strict: true,
                    allowJs: true,
                    checkJs: true,
                    noEmit: true,
                    skipLibCheck: true,
                },
                files: all.map((snippet) => snippet.file),
            })
        );
        let output = "";
        try {
            execFileSync(
                process.execPath,
                [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", "tsconfig.json"],
                { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }
            );
        } catch (error) {
            output = (error as { stdout?: string }).stdout ?? String(error);
        }
        // Each error names the README line its snippet starts at.
        expect(output).toBe("");
    }, 120_000);
});
