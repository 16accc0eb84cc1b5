// doctor, library form: the app's files that take a client value from the SDK itself, which runs
// without the tool customization. Read from the source text (the CLI carries no parser): static
// imports and re-exports, `require` and `import()` with destructuring, a property access or a
// binding used with the name. Comments are dropped first; type-only imports do not count.

import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { UNWRAPPED_CLIENT_IMPORTS } from "./eslintConfig.js";

/** One import of an unwrapped client value. */
export interface StrayImport {
    /** the file, relative to the app */
    readonly file: string;
    readonly line: number;
    /** the SDK's module */
    readonly module: string;
    /** the name imported, e.g. `CopilotClient` */
    readonly name: string;
    /** where the wrapped one is */
    readonly instead: string;
}

const SOURCE = /\.(?:[cm]?[jt]s|[jt]sx)$/;
/** Folders that hold other packages, build output of tools or version control, not the app's code. */
const SKIPPED = new Set(["node_modules", ".git", ".pnpm-store", "coverage"]);
/** Files above this size (bundles, generated data) are not read. */
const MAX_BYTES = 1_000_000;
/** At most this many files are read: the doctor stays quick in a large repository. */
const MAX_FILES = 5_000;

function sourceFiles(app: string): string[] {
    const found: string[] = [];
    const walk = (dir: string) => {
        let entries;
        try {
            entries = readdirSync(dir, { withFileTypes: true });
        } catch {
            return;
        }
        for (const entry of entries) {
            if (found.length >= MAX_FILES) return;
            if (entry.isDirectory()) {
                if (!SKIPPED.has(entry.name) && !entry.name.startsWith(".")) {
                    walk(join(dir, entry.name));
                }
            } else if (entry.isFile() && SOURCE.test(entry.name) && !entry.name.endsWith(".d.ts")) {
                found.push(join(dir, entry.name));
            }
        }
    };
    walk(app);
    return found;
}

/** The strings the check reads: the SDK's modules and the names they export. */
const KEPT_STRINGS: ReadonlySet<string> = new Set(
    UNWRAPPED_CLIENT_IMPORTS.flatMap(({ module, names }) => [module, ...names])
);

/**
 * The text with comments blanked, and every string but the modules and names the check reads
 * (blanked to spaces and newlines, so that offsets and lines stay): an import written inside a
 * string or a comment is not one.
 */
function withoutComments(text: string): string {
    return text.replace(
        /("(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|`(?:[^`\\]|\\.)*`)|\/\*[\s\S]*?\*\/|\/\/[^\n]*/g,
        (match, literal: string | undefined) =>
            literal !== undefined && KEPT_STRINGS.has(literal.slice(1, -1))
                ? match
                : literal !== undefined
                  ? `${literal[0]}${literal.slice(1, -1).replace(/[^\n]/g, " ")}${literal[0]}`
                  : match.replace(/[^\n]/g, " ")
    );
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/** The names a `{ a, b as c, type d }` list imports as values, by their imported name. */
function valueNames(list: string): string[] {
    return list
        .split(",")
        .map((entry) => entry.trim())
        .filter((entry) => entry !== "" && !/^type\s/.test(entry))
        .map((entry) => entry.split(/\s+as\s+|\s*:\s*/)[0]!.trim());
}

/**
 * Each import of an unwrapped client value in one file's text.
 *
 * @param text - the file's source
 * @returns the names with their offsets
 */
export function strayImportsIn(
    text: string
): { offset: number; module: string; name: string; instead: string }[] {
    const code = withoutComments(text);
    const found: { offset: number; module: string; name: string; instead: string }[] = [];
    for (const { module, names, instead } of UNWRAPPED_CLIENT_IMPORTS) {
        const from = `\\s*(?:"${escape(module)}"|'${escape(module)}')`;
        const report = (offset: number, imported: readonly string[]) => {
            for (const name of names) {
                if (imported.includes(name)) found.push({ offset, module, name, instead });
            }
        };
        // import X, { A, B as C } from "m";  export { A } from "m";  export * from "m"
        for (const match of code.matchAll(
            new RegExp(
                `\\b(import|export)\\s+(?!type\\b)((?:(?!\\bfrom\\s*["'\`]|\\b(?:import|export)\\b)[^;])*?)\\bfrom${from}`,
                "g"
            )
        )) {
            const clause = match[2]!;
            const braces = /\{([^}]*)\}/.exec(clause);
            if (braces !== null) report(match.index, valueNames(braces[1]!));
            if (match[1] === "export" && /^\*\s*$/.test(clause)) report(match.index, names);
            const namespace = /\*\s+as\s+([A-Za-z_$][\w$]*)/.exec(clause)?.[1];
            if (namespace !== undefined) bindingUses(namespace, match.index);
        }
        // const { A } = require("m") / await import("m");  require("m").A;  const m = require("m")
        const load = `(?:require|(?:await\\s+)?import)\\s*\\(${from}\\s*\\)`;
        for (const match of code.matchAll(
            new RegExp(`(?:const|let|var)\\s*\\{([^}]*)\\}\\s*=\\s*${load}`, "g")
        )) {
            report(match.index, valueNames(match[1]!));
        }
        for (const match of code.matchAll(
            new RegExp(`${load}\\s*\\)?\\s*\\.\\s*([A-Za-z_$][\\w$]*)`, "g")
        )) {
            report(match.index, [match[1]!]);
        }
        for (const match of code.matchAll(
            new RegExp(`(?:const|let|var)\\s+([A-Za-z_$][\\w$]*)\\s*=\\s*${load}`, "g")
        )) {
            bindingUses(match[1]!, match.index);
        }
        // `ns.CopilotClient`, `ns["CopilotClient"]`, `const { CopilotClient } = ns` of a binding
        // that holds the module.
        function bindingUses(binding: string, offset: number) {
            const b = escape(binding);
            for (const name of names) {
                const use = new RegExp(
                    `\\b${b}\\s*(?:\\.\\s*${name}\\b|\\[\\s*(["'])${name}\\1\\s*\\])|\\{[^}]*\\b${name}\\b[^}]*\\}\\s*=\\s*${b}\\b`
                );
                if (use.test(code)) found.push({ offset, module, name, instead });
            }
        }
    }
    return found.sort((a, b) => a.offset - b.offset);
}

/**
 * Every file of the app that takes a client value from the SDK itself (see {@link strayImportsIn}).
 *
 * @param app - the app's folder
 */
export function findStrayImports(app: string): StrayImport[] {
    const strays: StrayImport[] = [];
    for (const file of sourceFiles(app)) {
        if (statSync(file).size > MAX_BYTES) continue;
        const text = readFileSync(file, "utf8");
        if (!text.includes("@github/copilot-sdk")) continue;
        for (const { offset, module, name, instead } of strayImportsIn(text)) {
            const line = text.slice(0, offset).split("\n").length;
            strays.push({ file: relative(app, file), line, module, name, instead });
        }
    }
    return strays;
}
