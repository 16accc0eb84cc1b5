// A local ESLint plugin with the two boundary rules no stock rule expresses:
// - no-sdk-import-through: a module that must not import the SDK even through the modules it
//   imports (src/patch.ts: the SDK's own client.js imports it while the SDK is still loading, so an
//   SDK import anywhere below it is a load-order cycle). Type-only imports are erased and do not
//   count.
// - no-cycle: no module of src/ reaches itself through its imports, type-only ones included (a
//   circle of types is still two modules that cannot be read one without the other).

import { existsSync, readFileSync } from "node:fs";
import { dirname, relative, resolve } from "node:path";
import ts from "typescript";

const SDK = /^@github\/copilot-sdk(\/|$)/;

/**
 * The value imports of a module (static imports and re-exports that are not type-only, dynamic
 * `import()` and `require()` with a literal specifier).
 *
 * @param {string} file
 * @returns {string[]}
 */
function valueImports(file) {
    return importsOf(file, false);
}

/**
 * The imports of a module; with `types`, type-only imports and re-exports count too.
 *
 * @param {string} file
 * @param {boolean} types
 * @param {string} [text] the module's text, when it is not the file's
 * @returns {string[]}
 */
function importsOf(file, types, text = readFileSync(file, "utf8")) {
    const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest);
    /** @type {string[]} */
    const found = [];
    /** @param {ts.Node} node */
    const visit = (node) => {
        if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
            const clause = node.importClause;
            const typeOnly =
                clause !== undefined &&
                (clause.isTypeOnly ||
                    (clause.name === undefined &&
                        clause.namedBindings !== undefined &&
                        ts.isNamedImports(clause.namedBindings) &&
                        clause.namedBindings.elements.length > 0 &&
                        clause.namedBindings.elements.every((element) => element.isTypeOnly)));
            if (types || !typeOnly) found.push(node.moduleSpecifier.text);
        } else if (
            ts.isExportDeclaration(node) &&
            node.moduleSpecifier !== undefined &&
            ts.isStringLiteral(node.moduleSpecifier)
        ) {
            const typeOnly =
                node.isTypeOnly ||
                (node.exportClause !== undefined &&
                    ts.isNamedExports(node.exportClause) &&
                    node.exportClause.elements.length > 0 &&
                    node.exportClause.elements.every((element) => element.isTypeOnly));
            if (types || !typeOnly) found.push(node.moduleSpecifier.text);
        } else if (
            ts.isCallExpression(node) &&
            (node.expression.kind === ts.SyntaxKind.ImportKeyword ||
                (ts.isIdentifier(node.expression) && node.expression.text === "require")) &&
            node.arguments.length === 1
        ) {
            const [argument] = node.arguments;
            if (argument !== undefined && ts.isStringLiteralLike(argument))
                found.push(argument.text);
        }
        ts.forEachChild(node, visit);
    };
    visit(source);
    return found;
}

/**
 * The source file a relative specifier names (`./x.js` is `./x.ts` in src/).
 *
 * @param {string} from
 * @param {string} specifier
 */
function sourceOf(from, specifier) {
    const target = resolve(dirname(from), specifier);
    for (const candidate of [target.replace(/\.js$/, ".ts"), target, `${target}.ts`]) {
        if (existsSync(candidate)) return candidate;
    }
    return undefined;
}

/**
 * The chain of modules from `entry` to the first value import of the SDK, or undefined.
 *
 * @param {string} entry
 * @returns {string[] | undefined}
 */
function chainToSdk(entry) {
    /** @type {Map<string, string | undefined>} */
    const parent = new Map([[entry, undefined]]);
    const queue = [entry];
    while (queue.length > 0) {
        const file = /** @type {string} */ (queue.shift());
        for (const specifier of valueImports(file)) {
            if (SDK.test(specifier)) {
                /** @type {string[]} */
                const chain = [specifier];
                for (let at = /** @type {string | undefined} */ (file); at; at = parent.get(at)) {
                    chain.unshift(at);
                }
                return chain;
            }
            if (!specifier.startsWith(".")) continue;
            const next = sourceOf(file, specifier);
            if (next === undefined || parent.has(next)) continue;
            parent.set(next, file);
            queue.push(next);
        }
    }
    return undefined;
}

/**
 * A chain of imports from `file` back to `file` (its own text given), or undefined.
 *
 * @param {string} file
 * @param {string} text
 * @returns {string[] | undefined}
 */
function cycleThrough(file, text) {
    /** @type {Map<string, string>} */
    const parent = new Map();
    const first = importsOf(file, true, text)
        .filter((specifier) => specifier.startsWith("."))
        .map((specifier) => sourceOf(file, specifier))
        .filter((next) => next !== undefined);
    /** @type {string[]} */
    const queue = [];
    for (const next of first) {
        if (next === file) return [file, file];
        if (!parent.has(next)) {
            parent.set(next, file);
            queue.push(next);
        }
    }
    while (queue.length > 0) {
        const at = /** @type {string} */ (queue.shift());
        for (const specifier of importsOf(at, true)) {
            if (!specifier.startsWith(".")) continue;
            const next = sourceOf(at, specifier);
            if (next === undefined) continue;
            if (next === file) {
                /** @type {string[]} */
                const chain = [file];
                for (let step = /** @type {string | undefined} */ (at); step && step !== file;) {
                    chain.unshift(step);
                    step = parent.get(step);
                }
                chain.unshift(file);
                return chain;
            }
            if (parent.has(next)) continue;
            parent.set(next, at);
            queue.push(next);
        }
    }
    return undefined;
}

/** @type {import("eslint").ESLint.Plugin} */
export default {
    meta: { name: "boundaries" },
    rules: {
        "no-sdk-import-through": {
            meta: {
                type: "problem",
                docs: {
                    description:
                        "A module that must not import @github/copilot-sdk, directly or through any module it imports (type-only imports aside).",
                },
                schema: [],
            },
            create(context) {
                return {
                    Program(node) {
                        const chain = chainToSdk(context.filename);
                        if (chain === undefined) return;
                        const cwd = context.cwd;
                        context.report({
                            node,
                            message: `This module must not import the SDK, even through other modules (the SDK imports it while loading): ${chain
                                .map((step) => (step.startsWith("/") ? relative(cwd, step) : step))
                                .join(" -> ")}.`,
                        });
                    },
                };
            },
        },
        "no-cycle": {
            meta: {
                type: "problem",
                docs: {
                    description:
                        "No module reaches itself through its relative imports, type-only ones included.",
                },
                schema: [],
            },
            create(context) {
                return {
                    Program(node) {
                        const { text } = /** @type {import("eslint").SourceCode} */ (
                            context.sourceCode
                        );
                        const chain = cycleThrough(context.filename, text);
                        if (chain === undefined) return;
                        const cwd = context.cwd;
                        context.report({
                            node,
                            message: `An import circle: ${chain
                                .map((step) => relative(cwd, step))
                                .join(
                                    " -> "
                                )}. Move what both sides need into a module below them (for a shared type, toolCustomization/api/).`,
                        });
                    },
                };
            },
        },
    },
};
