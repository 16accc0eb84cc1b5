// A local ESLint plugin with the one boundary rule no stock rule expresses: a module that must not
// import the SDK even through the modules it imports (src/patch.ts: the SDK's own client.js imports
// it while the SDK is still loading, so an SDK import anywhere below it is a load-order cycle).
// Type-only imports are erased and do not count.

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
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest);
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
            if (!typeOnly) found.push(node.moduleSpecifier.text);
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
            if (!typeOnly) found.push(node.moduleSpecifier.text);
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
    },
};
