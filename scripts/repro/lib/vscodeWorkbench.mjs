// VS Code's workbench code as published on the npm registry in @codingame/monaco-vscode-api
// (compiled JS of microsoft/vscode's src/vs, one package version per VS Code release), installed on
// demand into .cache/vscode-workbench/<package version>/ and loaded in Node: the chat tool model
// (ToolSet, ToolDataSource), the picker state (ChatSelectedTools) and computeToolEnablementMap, the
// function behind workbench.action.chat.open's toolsInclude / toolsExclude.
//
// Only the files those need are kept (about 150 files, 1 MB, of the package's 69 MB). Nothing of
// VS Code's code is copied into this repository: it is read from the published package each run.

import { execFileSync } from "node:child_process";
import {
    cpSync,
    existsSync,
    mkdirSync,
    mkdtempSync,
    readdirSync,
    readFileSync,
    renameSync,
    rmSync,
    writeFileSync,
} from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";

export const WORKBENCH_PACKAGE = "@codingame/monaco-vscode-api";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
const CACHE = join(ROOT, ".cache", "vscode-workbench");

const CHAT = "vscode/src/vs/workbench/contrib/chat";
const PATHS = {
    product: "vscode/src/vs/platform/product/common/product.js",
    toolsService: `${CHAT}/common/tools/languageModelToolsService.js`,
    chatActions: `${CHAT}/browser/actions/chatActions.js`,
    chatActionsTypes: `${CHAT}/browser/actions/chatActions.d.ts`,
    observableValue: "vscode/src/vs/base/common/observableInternal/observables/observableValue.js",
    storage: "vscode/src/vs/platform/storage/common/storage.js",
};
// Where ChatSelectedTools lives: it moved between releases.
const SELECTED_TOOLS_CANDIDATES = [
    `${CHAT}/browser/widget/input/chatSelectedTools.js`,
    `${CHAT}/browser/chatSelectedTools.js`,
];

/**
 * What {@link makeToolSet} builds a ToolSet from: VS Code's own tool and toolset objects.
 *
 * @typedef {{ id: string, referenceName: string, source?: unknown, tools?: unknown[], toolSets?: unknown[] }} ToolSetOptions
 */

/** The package cannot be fetched from the registry (offline, unknown version). */
export class WorkbenchUnavailableError extends Error {
    /** @param {string} message */
    constructor(message) {
        super(message);
        this.name = "WorkbenchUnavailableError";
    }
}

/**
 * The cached copy of one package version, installed first when absent.
 *
 * @param {string} version - a version of @codingame/monaco-vscode-api, e.g. "37.6.1"
 * @param {{ log?: (line: string) => void }} [options] - where progress lines go
 * @returns {string} the folder holding the package's files (`package.json`, `vscode/src/...`)
 */
export function installWorkbench(version, { log = () => {} } = {}) {
    const target = join(CACHE, version);
    if (existsSync(join(target, ".complete"))) return target;
    mkdirSync(CACHE, { recursive: true });
    const scratch = mkdtempSync(join(CACHE, `.install-${version}-`));
    try {
        log(`installing ${WORKBENCH_PACKAGE}@${version} into ${relative(ROOT, target)}`);
        let tarball;
        try {
            const out = execFileSync(
                "npm",
                [
                    "pack",
                    `${WORKBENCH_PACKAGE}@${version}`,
                    "--ignore-scripts",
                    "--json",
                    "--pack-destination",
                    scratch,
                ],
                {
                    encoding: "utf8",
                    stdio: ["ignore", "pipe", "pipe"],
                    // npm run -s exports a silent loglevel that would hide the error below.
                    env: { ...process.env, npm_config_loglevel: "error" },
                }
            );
            tarball = join(
                scratch,
                JSON.parse(out)[0].filename.replace(/^@/, "").replace("/", "-")
            );
        } catch (caught) {
            const error = /** @type {Error & { stderr?: string }} */ (caught);
            const detail = String(error.stderr ?? error.message)
                .split("\n")
                .map((line) => line.replace(/^npm (error|ERR!) ?/, "").trim())
                .filter((line) => line !== "" && !/complete log|npm help|proxy/.test(line))
                .slice(0, 2)
                .join("; ");
            throw new WorkbenchUnavailableError(
                `npm pack ${WORKBENCH_PACKAGE}@${version} failed: ${detail}`
            );
        }
        if (!existsSync(tarball)) {
            const packed = readdirSync(scratch).find((name) => name.endsWith(".tgz"));
            if (packed === undefined) {
                throw new WorkbenchUnavailableError(
                    `npm pack ${WORKBENCH_PACKAGE}@${version} wrote no .tgz file`
                );
            }
            tarball = join(scratch, packed);
        }
        const unpacked = join(scratch, "unpacked");
        mkdirSync(unpacked);
        execFileSync("tar", ["xzf", tarball, "-C", unpacked]);
        const from = join(unpacked, "package");
        const kept = join(scratch, "kept");
        const entries = [PATHS.product, PATHS.toolsService, PATHS.observableValue, PATHS.storage];
        const selectedTools = SELECTED_TOOLS_CANDIDATES.find((path) =>
            existsSync(join(from, path))
        );
        if (selectedTools !== undefined) entries.push(selectedTools);
        const files = new Set(["package.json", PATHS.chatActions, PATHS.chatActionsTypes]);
        for (const entry of entries) importClosure(from, entry, files);
        for (const file of files) {
            if (!existsSync(join(from, file))) continue;
            mkdirSync(dirname(join(kept, file)), { recursive: true });
            cpSync(join(from, file), join(kept, file));
        }
        writeFileSync(
            join(kept, ".complete"),
            JSON.stringify({ package: WORKBENCH_PACKAGE, version, files: files.size }) + "\n"
        );
        // Another process (the two test files run in parallel) may have finished first: keep its
        // copy, which may be in use, and drop ours.
        try {
            renameSync(kept, target);
        } catch (error) {
            if (existsSync(join(target, ".complete"))) return target;
            // A leftover of an interrupted install (renames are atomic, so never a live copy).
            rmSync(target, { recursive: true, force: true });
            renameSync(kept, target);
        }
        return target;
    } finally {
        rmSync(scratch, { recursive: true, force: true });
    }
}

/**
 * Adds `entry` and every module it imports statically (relative specifiers) to `files`.
 *
 * @param {string} root
 * @param {string} entry
 * @param {Set<string>} files
 */
function importClosure(root, entry, files) {
    const pending = [entry];
    const specifiers = /(?:^|[\s;})])(?:import|export)\s*(?:[^'";]*?\sfrom\s*)?['"](\.[^'"]+)['"]/g;
    for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
        if (files.has(file) && file !== entry) continue;
        files.add(file);
        const path = join(root, file);
        if (!existsSync(path) || !file.endsWith(".js")) continue;
        for (const [, specifier] of readFileSync(path, "utf8").matchAll(specifiers)) {
            const target = relative(
                root,
                resolve(dirname(path), /** @type {string} */ (specifier))
            );
            if (!files.has(target)) pending.push(target);
        }
    }
}

/**
 * Loads what the conformance run and the reproductions use from one installed package version.
 *
 * @param {string} dir - a folder from {@link installWorkbench}
 */
export async function loadWorkbench(dir) {
    const load = (/** @type {string} */ path) => import(pathToFileURL(join(dir, path)).href);
    const product = (await load(PATHS.product)).default;
    const toolsService = await load(PATHS.toolsService);
    const packageJson = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
    const chatActions = readFileSync(join(dir, PATHS.chatActions), "utf8");
    const chatActionsTypes = readFileSync(join(dir, PATHS.chatActionsTypes), "utf8");
    const openOptions =
        /interface IChatViewOpenOptions \{([\s\S]*?)\n\}/.exec(chatActionsTypes)?.[1] ?? "";
    const computeToolEnablementMap = extractFunction(
        chatActions,
        "computeToolEnablementMap",
        toolsService,
        PATHS.toolsService
    );
    return {
        packageVersion: packageJson.version,
        vscodeVersion: product.version,
        commit: product.commit,
        /** Whether IChatViewOpenOptions declares toolsInclude / toolsExclude. */
        openOptions: {
            toolsInclude: /\btoolsInclude\?:/.test(openOptions),
            toolsExclude: /\btoolsExclude\?:/.test(openOptions),
            includeTools: /\bincludeTools\?:/.test(openOptions),
            excludeTools: /\bexcludeTools\?:/.test(openOptions),
        },
        /** How the command handler decides to filter: the condition it tests, as published. */
        filterCondition: /if \((opts\?\.toolsInclude \|\| opts\?\.toolsExclude)\)/.exec(
            chatActions
        )?.[1],
        /** How the handler applies the map: the call, as published. */
        applyCall: /chatWidget\.input\.selectedToolsModel\.set\([^)]*\)/.exec(chatActions)?.[0],
        computeToolEnablementMap,
        ToolSet: toolsService.ToolSet,
        ToolDataSource: toolsService.ToolDataSource,
        isToolSet: toolsService.isToolSet,
        makeToolSet: (/** @type {ToolSetOptions} */ options) => makeToolSet(toolsService, options),
        loadChatSelectedTools: async ({ proposedFix = false } = {}) => {
            let path = SELECTED_TOOLS_CANDIDATES.find((candidate) =>
                existsSync(join(dir, candidate))
            );
            if (path === undefined) throw new Error(`ChatSelectedTools is not in ${dir}`);
            if (proposedFix) path = withProposedFix(dir, path);
            const observable = await load(PATHS.observableValue);
            const storage = await load(PATHS.storage);
            return {
                ChatSelectedTools: (await load(path)).ChatSelectedTools,
                observableValue: observable.observableValue,
                InMemoryStorageService: storage.InMemoryStorageService,
                path,
            };
        },
    };
}

/**
 * The fix proposed in patches/vscode/issues/01-toolsinclude-whitelist-later-tools.md, applied to
 * the published ChatSelectedTools as a sibling file in the cache: `set(map, sessionOnly,
 * unlistedEnabled = true)` keeps `unlistedEnabled` in the session state, and `entriesMap` reads an
 * id without an entry as that value instead of as enabled. Each edit must match, else this throws.
 *
 * @param {string} dir
 * @param {string} path
 * @returns the patched module's path, relative to `dir`
 */
function withProposedFix(dir, path) {
    /** @type {[string, string][]} */
    const edits = [
        [
            "set(enablementMap, sessionOnly) {",
            "set(enablementMap, sessionOnly, unlistedEnabled = true) {",
        ],
        [
            "this._sessionStates.set(mode.id, ToolEnablementStates.fromMap(enablementMap));",
            "this._sessionStates.set(mode.id, { ...ToolEnablementStates.fromMap(enablementMap), unlistedEnabled });",
        ],
        [
            "currentMap.tools.get(tool.id) !== false",
            "(currentMap.tools.get(tool.id) ?? currentMap.unlistedEnabled) !== false",
        ],
        [
            "currentMap.toolSets.get(toolSet.id) !== false",
            "(currentMap.toolSets.get(toolSet.id) ?? currentMap.unlistedEnabled) !== false",
        ],
    ];
    let source = readFileSync(join(dir, path), "utf8");
    for (const [from, to] of edits) {
        if (!source.includes(from)) {
            throw new Error(
                `The proposed fix no longer applies to ${path}: '${from}' is not there`
            );
        }
        source = source.replaceAll(from, to);
    }
    const patched = path.replace(/\.js$/, ".proposed-fix.js");
    writeFileSync(join(dir, patched), source);
    return patched;
}

/**
 * A real VS Code ToolSet. Its constructor's parameters changed between releases, so they are
 * passed by name, read from the published constructor.
 *
 * @param {any} toolsService the published languageModelToolsService module (not typed here)
 * @param {ToolSetOptions} options
 */
function makeToolSet(toolsService, { id, referenceName, source, tools = [], toolSets = [] }) {
    const { ToolSet, ToolDataSource } = toolsService;
    const constructor = /constructor\s*\(([^)]*)\)/.exec(ToolSet.toString());
    if (constructor === null) throw new Error("ToolSet has no constructor to read");
    const parameters = /** @type {string} */ (constructor[1])
        .split(",")
        .map((name) =>
            name
                .replace(/\/\*.*?\*\//g, "")
                .trim()
                .replace(/=.*$/, "")
                .trim()
        )
        .filter(Boolean);
    /** @type {Record<string, unknown>} */
    const byName = {
        id,
        referenceName,
        source: source ?? ToolDataSource.Internal,
        // Every `when` clause holds: the tools here are the ones the context allows.
        _contextKeyService: { contextMatchesRules: () => true },
        contextKeyService: { contextMatchesRules: () => true },
    };
    const unknown = parameters.filter(
        (name) =>
            !(name in byName) &&
            ![
                "icon",
                "description",
                "detail",
                "legacyFullNames",
                "deprecated",
                "hiddenInToolsPicker",
                "options",
            ].includes(name)
    );
    if (unknown.length > 0) {
        throw new Error(
            `ToolSet's constructor takes parameters this loader does not know: ${unknown.join(", ")}`
        );
    }
    const toolSet = new ToolSet(...parameters.map((name) => byName[name]));
    for (const tool of tools) toolSet.addTool(tool);
    for (const nested of toolSets) toolSet.addToolSet(nested);
    return toolSet;
}

/**
 * A top-level function of a published module, evaluated on its own with the few bindings it uses
 * (the module itself imports CSS and browser code, so it cannot be imported in Node). Every
 * identifier the function uses that the module imports or declares must come from `provider`,
 * else this throws, naming it.
 *
 * @param {string} source the module's text
 * @param {string} name the function's name
 * @param {Record<string, unknown>} provider the module that gives the function's bindings
 * @param {string} providerPath where `provider` was loaded from, for messages
 * @returns {Function | undefined} the function, or undefined when the module has none of that name
 */
export function extractFunction(source, name, provider, providerPath) {
    const file = ts.createSourceFile(
        "module.js",
        source,
        ts.ScriptTarget.Latest,
        true,
        ts.ScriptKind.JS
    );
    const declaration = file.statements.find(
        (statement) => ts.isFunctionDeclaration(statement) && statement.name?.text === name
    );
    if (declaration === undefined) return undefined;

    // Module-level bindings: imports (local name -> [module, imported name]) and declarations.
    const imported = new Map();
    const declared = new Set();
    for (const statement of file.statements) {
        if (ts.isImportDeclaration(statement)) {
            const from = /** @type {import("typescript").StringLiteral} */ (
                statement.moduleSpecifier
            ).text;
            const bindings = statement.importClause?.namedBindings;
            if (statement.importClause?.name)
                imported.set(statement.importClause.name.text, [from, "default"]);
            if (bindings && ts.isNamedImports(bindings)) {
                for (const element of bindings.elements) {
                    imported.set(element.name.text, [
                        from,
                        (element.propertyName ?? element.name).text,
                    ]);
                }
            }
        } else if (ts.isFunctionDeclaration(statement) || ts.isClassDeclaration(statement)) {
            if (statement.name && statement.name.text !== name) declared.add(statement.name.text);
        } else if (ts.isVariableStatement(statement)) {
            for (const variable of statement.declarationList.declarations) {
                if (ts.isIdentifier(variable.name)) declared.add(variable.name.text);
            }
        }
    }
    /** @type {Set<string>} */
    const used = new Set();
    /** @param {import("typescript").Node} node */
    const visit = (node) => {
        if (ts.isIdentifier(node)) used.add(node.text);
        ts.forEachChild(node, visit);
    };
    visit(
        /** @type {import("typescript").FunctionDeclaration} */ (declaration).body ?? declaration
    );
    const names = [];
    const values = [];
    for (const identifier of used) {
        if (declared.has(identifier)) {
            throw new Error(
                `${name} uses ${identifier}, which its module declares: extend the loader`
            );
        }
        const binding = imported.get(identifier);
        if (binding === undefined) continue;
        const [from, importedName] = binding;
        if (!providerPath.endsWith(from.replace(/^(\.\.\/)+/, "")) || !(importedName in provider)) {
            throw new Error(`${name} uses ${identifier} from '${from}': extend the loader`);
        }
        names.push(identifier);
        values.push(provider[importedName]);
    }
    const text = source.slice(declaration.getStart(file), declaration.end);
    return new Function(...names, `"use strict";\n${text}\nreturn ${name};`)(...values);
}
