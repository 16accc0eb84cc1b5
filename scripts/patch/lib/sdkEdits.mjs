// What the patch changes in files that @github/copilot-sdk already ships: one table.
//
// The patch reaches the SDK from the outside (src/wrap/wrapSdk.ts): it adds the compiled src/
// modules beside the SDK's, and only appends to the SDK's own files, except for one type
// declaration. Each append states what it relies on (`requires`: a declaration of the file,
// never prose, a bundler-generated name or data), checked on every release it is built for; a
// release that differs gets its own text through `byRelease`. The ESM and CJS builds of a file
// are written side by side, from the same names.

/** Compiled form of src/publicApi.ts inside the SDK's dist folder (re-exported from the root). */
export const EXPORTS_MODULE = "toolCustomization";

/** The compiled module that wraps the SDK (src/wrap/wrapSdk.ts), relative to dist/. */
const WRAP_MODULE = "./wrap/wrapSdk.js";

/**
 * @typedef {object} SdkEdit
 * @property {string} name what the edit does, for messages
 * @property {string} file the path inside the package
 * @property {"append" | "replace"} kind `append` adds `text` at the end of the file; `replace`
 *   swaps `anchor` (which must occur exactly once) for `text`
 * @property {string} text the text to add
 * @property {string} [anchor] for `replace`: the declaration replaced
 * @property {RegExp[]} [requires] what the text relies on in the file, each of which must occur
 *   exactly once: a declaration, or the one route a request takes
 * @property {Record<string, Partial<SdkEdit>>} [byRelease] per-release alternatives
 */

/**
 * What the client appends rely on: the class binding they rebind (the SDK's public class name, in
 * both builds), and that `session.create` and `session.resume` are each sent from one place, so
 * that the wrapped `createSession` / `resumeSession` / `resumeSessionForExtension` are the only
 * ways to them. A release with another route fails the build instead of letting custom tools
 * past the session step.
 */
const CLIENT_REQUIRES = [
    /^class CopilotClient \{$/m,
    /sendRequest\("session\.create"/,
    /sendRequest\("session\.resume"/,
];

/**
 * The edits of a patch.
 *
 * @param {string[]} runtimeExportNames names exported at run time by the exports module (the CJS
 *   root lists them one by one, so that Node's ESM importers of the CJS build see them)
 * @param {"full" | "checks"} [variant] `full`: the whole patch; `checks`: the construction checks
 *   alone (duplicate names, `validateTools`, the `BuiltInTools` groups), for the benchmark
 * @returns {SdkEdit[]}
 */
export function sdkEdits(runtimeExportNames, variant = "full") {
    const wrap = variant === "full" ? "wrapCopilotClient" : "wrapCopilotClientWithChecks";
    const install = variant === "full" ? "installToolCustomization" : "installBuiltInToolGroups";
    const installArguments = (/** @type {string} */ toolSet, /** @type {string} */ manifest) =>
        variant === "full" ? `${toolSet}, ${manifest}` : toolSet;
    // client.js is what every entry point (the root, `./extension`) loads: the rebinding and the
    // install on the toolSet module's exports happen there.
    /** @type {SdkEdit[]} */
    const edits = [
        {
            name: "client.js rebinds CopilotClient to the wrapped class and installs the patch",
            file: "dist/client.js",
            kind: "append",
            requires: CLIENT_REQUIRES,
            text:
                `import { ${wrap} as wrapForToolCustomization, ${install} as installForToolCustomization } from "${WRAP_MODULE}";\n` +
                `import * as toolSetForToolCustomization from "./toolSet.js";\n` +
                "CopilotClient = wrapForToolCustomization(CopilotClient);\n" +
                `installForToolCustomization(${installArguments("toolSetForToolCustomization", 'new URL("../package.json", import.meta.url)')});\n`,
        },
        {
            name: "cjs client.js rebinds CopilotClient to the wrapped class and installs the patch",
            file: "dist/cjs/client.js",
            kind: "append",
            requires: CLIENT_REQUIRES,
            text:
                `CopilotClient = require("${WRAP_MODULE}").${wrap}(CopilotClient);\n` +
                `require("${WRAP_MODULE}").${install}(${installArguments('require("./toolSet.js")', 'require("node:path").join(__dirname, "..", "..", "package.json")')});\n`,
        },
        {
            name: "toolSet.d.ts types the built-in tool groups",
            file: "dist/toolSet.d.ts",
            kind: "replace",
            anchor: "export declare const BuiltInTools: {\n",
            text: 'export declare const BuiltInTools: typeof import("./toolCustomization/catalog/builtInToolGroups.js").builtInToolGroups & {\n',
        },
    ];
    if (variant === "checks") return edits;
    const cjsExports = runtimeExportNames
        .map((name) => `module.exports.${name} = import_${EXPORTS_MODULE}.${name};\n`)
        .join("");
    edits.push(
        {
            name: "index.js re-exports the tool customization API",
            file: "dist/index.js",
            kind: "append",
            text: `export * from "./${EXPORTS_MODULE}.js";\n`,
        },
        {
            name: "cjs index.js re-exports the tool customization API",
            file: "dist/cjs/index.js",
            kind: "append",
            text:
                `var import_${EXPORTS_MODULE} = require("./${EXPORTS_MODULE}.js");\n` + cjsExports,
        },
        {
            name: "index.d.ts re-exports the tool customization API",
            file: "dist/index.d.ts",
            kind: "append",
            text: `export * from "./${EXPORTS_MODULE}.js";\n`,
        },
        {
            // types.d.ts is what every entry point's typings load (the root and `./extension`).
            name: "types.d.ts loads the fork's members of the SDK's types",
            file: "dist/types.d.ts",
            kind: "append",
            text: 'import "./wrap/sdkTypes.js";\n',
        }
    );
    return edits;
}

/**
 * The edits of one release: each entry with its `byRelease` alternative, if any.
 *
 * @param {SdkEdit[]} edits
 * @param {string} version
 * @returns {SdkEdit[]}
 */
export function editsFor(edits, version) {
    return edits.map(({ byRelease, ...edit }) => ({ ...edit, ...(byRelease?.[version] ?? {}) }));
}

/**
 * Applies a file's edits; every anchor and every `requires` must match exactly once.
 *
 * @param {string} text the upstream file text
 * @param {SdkEdit[]} edits the file's edits
 * @param {string} [version] the SDK version being patched, for messages
 * @returns {string} the edited text
 */
export function applyEdits(text, edits, version = "this version") {
    let result = text;
    for (const edit of edits) {
        /**
         * @param {string} what
         * @param {number | string} count
         */
        const fail = (what, count) => {
            throw new Error(
                `Patch edit '${edit.name}' expects ${what} exactly once in ${edit.file} of @github/copilot-sdk ${version}, but found ${count}. ` +
                    "The SDK changed here: give the edit an alternative for this release (byRelease) in scripts/patch/lib/sdkEdits.mjs (see CONTRIBUTING.md)."
            );
        };
        for (const required of edit.requires ?? []) {
            const global = new RegExp(required.source, `${required.flags}g`);
            const count = [...result.matchAll(global)].length;
            if (count !== 1) fail(`${required}`, count === 0 ? "none" : count);
        }
        if (edit.kind === "append") {
            result += (result.endsWith("\n") ? "" : "\n") + edit.text;
            continue;
        }
        const anchor = edit.anchor ?? "";
        const first = result.indexOf(anchor);
        if (first === -1 || result.indexOf(anchor, first + 1) !== -1) {
            fail(
                `its anchor ${JSON.stringify(edit.anchor)}`,
                first === -1 ? "no match" : "more than one"
            );
        }
        result = result.slice(0, first) + edit.text + result.slice(first + anchor.length);
    }
    return result;
}

/**
 * Groups edits by file.
 *
 * @param {SdkEdit[]} edits
 * @returns {Map<string, SdkEdit[]>}
 */
export function editsByFile(edits) {
    const byFile = new Map();
    for (const edit of edits) byFile.set(edit.file, [...(byFile.get(edit.file) ?? []), edit]);
    return byFile;
}
