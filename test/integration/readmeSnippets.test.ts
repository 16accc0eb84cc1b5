/**
 * The README and docs/ as a reader uses them. Every TypeScript and JavaScript snippet compiles as
 * pasted: each is written to a file of its own (a module, as in an app) next to this project's
 * node_modules, whose SDK carries the patch, and type-checked by tsc with strict settings
 * (JavaScript with checkJs). A snippet that uses a name it does not define, or an option the SDK
 * with this project does not have, fails here. The README's first program (the snippet that
 * starts with "// first.mjs") also runs: it must exit by itself, offline, against the mock model,
 * and print what its comments say it prints.
 */
import { execFileSync, spawnSync } from "node:child_process";
import {
    existsSync,
    mkdirSync,
    mkdtempSync,
    readdirSync,
    readFileSync,
    rmSync,
    writeFileSync,
} from "node:fs";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const PACKAGE = "copilot-sdk-tool-override";
/** The documents whose snippets are checked: the README and every file of docs/. */
const DOCUMENTS = [
    "README.md",
    ...readdirSync(join(ROOT, "docs"))
        .filter((file) => file.endsWith(".md"))
        .map((file) => `docs/${file}`),
];

interface Snippet {
    readonly document: string;
    readonly file: string;
    readonly line: number;
    readonly code: string;
}

function snippets(): Snippet[] {
    const found: Snippet[] = [];
    for (const document of DOCUMENTS) {
        const text = readFileSync(join(ROOT, document), "utf8");
        const stem = document.replace(/\.md$/, "").replace(/[^A-Za-z0-9]+/g, "-");
        const fence = /^```(typescript|ts|javascript|js)\n([\s\S]*?)^```$/gm;
        for (let match = fence.exec(text); match !== null; match = fence.exec(text)) {
            const code = match[2]!;
            const line = text.slice(0, match.index).split("\n").length;
            const javascript = match[1] === "javascript" || match[1] === "js";
            const extension = !javascript ? "ts" : code.startsWith("// CommonJS") ? "cjs" : "mjs";
            found.push({ document, file: `${stem}-line-${line}.${extension}`, line, code });
        }
    }
    return found;
}

mkdirSync(join(ROOT, ".cache"), { recursive: true });
const dir = mkdtempSync(join(ROOT, ".cache", "readme-snippets-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The snippets import this package by name. Once package.json has an `exports` map, the snippet
 * folder (inside this package) resolves the name to the package itself. Until then a stand-in
 * package in the folder's node_modules gives the same names: the patched SDK's exports (the
 * SDK's own plus this project's, as the library entry has them) and the shipped mock model.
 */
function provideThePackage(): Record<string, unknown> {
    const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
        exports?: unknown;
    };
    if (manifest.exports !== undefined) return {};
    const standIn = join(dir, "node_modules", PACKAGE);
    mkdirSync(standIn, { recursive: true });
    const mockModel = relative(
        standIn,
        join(ROOT, "build", "esm", "mockModel", "mockChatModel.js")
    );
    const files: Record<string, string> = {
        "package.json": JSON.stringify({
            name: PACKAGE,
            type: "module",
            exports: {
                ".": { types: "./index.d.ts", default: "./index.js" },
                "./mock-model": "./mock-model.js",
            },
        }),
        "index.js": 'export * from "@github/copilot-sdk";\n',
        "index.d.ts": 'export * from "@github/copilot-sdk";\n',
        "mock-model.js": `export * from ${JSON.stringify(mockModel.split("\\").join("/"))};\n`,
    };
    for (const [file, text] of Object.entries(files)) writeFileSync(join(standIn, file), text);
    const source = relative(dir, join(ROOT, "src", "mockModel", "mockChatModel.ts"));
    return { paths: { [`${PACKAGE}/mock-model`]: [source.split("\\").join("/")] } };
}
/** Compiler options the stand-in needs (none once the package resolves to itself). */
const standInOptions = provideThePackage();

describe("the README's and docs/' snippets", () => {
    it("has TypeScript and JavaScript snippets to check, and the README a first program", () => {
        const all = snippets();
        const kinds = new Set(all.map((snippet) => snippet.file.split(".").pop()));
        expect([...kinds].sort()).toEqual(["cjs", "mjs", "ts"]);
        expect(
            all.filter((s) => s.document === "README.md" && s.code.startsWith("// first.mjs"))
        ).toHaveLength(1);
    });

    it("compile as pasted, each on its own, against the SDK with this project", () => {
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
                    ...standInOptions,
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
        // Each error names the document and the line its snippet starts at.
        expect(output).toBe("");
    }, 120_000);

    it("the README's first program runs offline, prints what it says and exits", () => {
        const first = snippets().find(
            (s) => s.document === "README.md" && s.code.startsWith("// first.mjs")
        )!;
        // What the program says it prints: the comments after its console.log calls.
        const promised = [...first.code.matchAll(/^\s*console\.log\(.*\); \/\/ (.*)$/gm)].map(
            (match) => match[1]!
        );
        expect(promised.length).toBeGreaterThan(0);
        const home = mkdtempSync(join(dir, "copilot-home-"));
        writeFileSync(join(dir, "first.mjs"), first.code);
        const run = spawnSync(process.execPath, ["first.mjs"], {
            cwd: dir,
            encoding: "utf8",
            // The runtime's data goes to a folder of this test, not the user's ~/.copilot.
            env: { ...process.env, COPILOT_HOME: home },
            // Bounded: a program that never stops its client never exits.
            timeout: 90_000,
        });
        expect({ status: run.status, signal: run.signal, stderr: run.stderr }).toEqual({
            status: 0,
            signal: null,
            stderr: "",
        });
        expect(run.stdout.trimEnd().split("\n")).toEqual(promised);
        expect(existsSync(home)).toBe(true);
    }, 120_000);
});
