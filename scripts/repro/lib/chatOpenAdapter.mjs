// This project's chat-open adapter (src/chatOpen/chatOpenOptions.ts and the modules it imports),
// transpiled on the fly into .cache/chat-open-adapter/ so plain Node scripts can call it (Node 20
// cannot run .ts). No type-checking here: `npm test` type-checks src/.

import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const ENTRY = "src/chatOpen/chatOpenOptions.ts";

/** @returns the adapter module (`resolveChatOpenToolEnablement`, ...) as src/ has it now. */
export async function loadChatOpenAdapter() {
    /** @type {Map<string, string>} */
    const sources = new Map();
    const pending = [ENTRY];
    for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
        if (sources.has(file)) continue;
        const text = readFileSync(join(ROOT, file), "utf8");
        sources.set(file, text);
        for (const [, specifier] of text.matchAll(/from\s+"(\.[^"]+)\.js"/g)) {
            pending.push(relative(ROOT, resolve(dirname(join(ROOT, file)), `${specifier}.ts`)));
        }
    }
    const hash = createHash("sha256");
    for (const [file, text] of [...sources].sort()) hash.update(`${file}\0${text}\0`);
    const out = join(ROOT, ".cache", "chat-open-adapter", hash.digest("hex").slice(0, 16));
    for (const [file, text] of sources) {
        const target = join(out, file.replace(/\.ts$/, ".js"));
        if (existsSync(target)) continue;
        const { outputText } = ts.transpileModule(text, {
            fileName: file,
            compilerOptions: { module: ts.ModuleKind.ES2022, target: ts.ScriptTarget.ES2022 },
        });
        mkdirSync(dirname(target), { recursive: true });
        writeFileSync(target, outputText);
    }
    return import(pathToFileURL(join(out, ENTRY.replace(/\.ts$/, ".js"))).href);
}
