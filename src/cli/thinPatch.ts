// The thin patch: the few lines an app's @github/copilot-sdk needs for the patch form, rendered
// for the installed release from its own files. They only append (to each build's client.js,
// which rebinds `CopilotClient` to the wrapped class, and to each build's root module and its
// typings, which re-export this package's API); everything else stays in this package, imported
// through its SDK-free subpath `copilot-sdk-tool-override/patch`.

/** The subpath the patch imports (it must never import the SDK: the SDK is loading then). */
export const PATCH_SUBPATH = "copilot-sdk-tool-override/patch";

/** What the patch appends to each file of the SDK, keyed by the path inside the package. */
export const THIN_PATCH_APPENDS: ReadonlyMap<string, readonly string[]> = new Map([
    [
        "dist/client.js",
        [
            `import { toolCustomizationHook } from "${PATCH_SUBPATH}"; import * as toolSetForToolCustomization from "./toolSet.js"; CopilotClient = toolCustomizationHook(CopilotClient, toolSetForToolCustomization, import.meta.url);`,
        ],
    ],
    [
        "dist/cjs/client.js",
        [
            `CopilotClient = require("${PATCH_SUBPATH}").toolCustomizationHook(CopilotClient, require("./toolSet.js"), __filename);`,
        ],
    ],
    ["dist/index.js", [`export * from "${PATCH_SUBPATH}";`]],
    ["dist/cjs/index.js", [`Object.assign(module.exports, require("${PATCH_SUBPATH}"));`]],
    ["dist/index.d.ts", [`export * from "${PATCH_SUBPATH}";`]],
]);

/** What each appended file must declare for the append to mean what it says. */
const REQUIRES: ReadonlyMap<string, readonly RegExp[]> = new Map([
    [
        "dist/client.js",
        [/^class CopilotClient \{$/m, /^import \{ ToolSet \} from "\.\/toolSet\.js";$/m],
    ],
    ["dist/cjs/client.js", [/^class CopilotClient \{$/m, /require\("\.\/toolSet\.js"\)/]],
    ["dist/cjs/index.js", [/^module\.exports = __toCommonJS\(/m]],
]);

/** The layouts: patch-package's paths start at the app, pnpm's at the package. */
export type PatchLayout = "patch-package" | "pnpm";

/** The text appended to one file, as the patched file ends. */
export function appendTo(text: string, lines: readonly string[]): string {
    return (
        (text === "" || text.endsWith("\n") ? text : `${text}\n`) +
        lines.map((line) => `${line}\n`).join("")
    );
}

/**
 * Renders the thin patch for one release in unified-diff form with one line of context (the
 * file's last line, which patch-package and pnpm check before they append), so that the whole
 * patch is one added line per file, a few lines to review.
 *
 * @param read - the release's pristine file at a path inside the package
 * @param version - the release, for messages
 * @param layout - `patch-package` (paths under `node_modules/@github/copilot-sdk/`) or `pnpm`
 * @throws Error naming the file and the declaration when the release differs where the patch
 *   relies on it
 */
export function renderThinPatch(
    read: (path: string) => string,
    version: string,
    layout: PatchLayout
): string {
    const prefix = layout === "pnpm" ? "" : "node_modules/@github/copilot-sdk/";
    const out: string[] = [];
    for (const [file, lines] of THIN_PATCH_APPENDS) {
        const text = read(file);
        for (const required of REQUIRES.get(file) ?? []) {
            const count = [...text.matchAll(new RegExp(required.source, `${required.flags}g`))]
                .length;
            if (count !== 1) {
                throw new Error(
                    `@github/copilot-sdk ${version}: ${file} has ${count === 0 ? "no" : count} match of ${String(required)}, which the thin patch relies on. The release changed there: adapt THIN_PATCH_APPENDS in src/cli/thinPatch.ts.`
                );
            }
        }
        if (lines.some((line) => text.includes(line))) {
            throw new Error(
                `@github/copilot-sdk ${version}: ${file} already holds the thin patch's lines: render the patch from an unpatched copy of the release.`
            );
        }
        const fileLines = text.split("\n");
        const endsWithNewline = text.endsWith("\n");
        if (endsWithNewline) fileLines.pop();
        const count = fileLines.length;
        const last = fileLines[count - 1];
        if (last === undefined) {
            throw new Error(
                `@github/copilot-sdk ${version}: ${file} is empty: the thin patch cannot append to it.`
            );
        }
        out.push(`diff --git a/${prefix}${file} b/${prefix}${file}`);
        out.push(`--- a/${prefix}${file}`, `+++ b/${prefix}${file}`);
        if (endsWithNewline) {
            out.push(`@@ -${count},1 +${count},${lines.length + 1} @@`, ` ${last}`);
        } else {
            // The last line has no newline: it is replaced by itself with one.
            out.push(`@@ -${count},1 +${count},${lines.length + 1} @@`);
            out.push(`-${last}`, "\\ No newline at end of file", `+${last}`);
        }
        for (const line of lines) out.push(`+${line}`);
    }
    return `${out.join("\n")}\n`;
}

/** Whether a file of the SDK carries the thin patch's appends (any version of this package). */
export function carriesThinPatch(text: string): boolean {
    return text.includes(`"${PATCH_SUBPATH}"`);
}

/** Whether a file of the SDK carries the self-contained patch of 0.3.0 and earlier. */
export function carriesSelfContainedPatch(text: string): boolean {
    return /wrapForToolCustomization|require\("\.\/sdkSeam\/wrapSdk\.js"\)|toolCustomization\.js/.test(
        text
    );
}
