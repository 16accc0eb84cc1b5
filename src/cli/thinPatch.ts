// The thin patch: the few lines an app's @github/copilot-sdk needs for the patch form, rendered
// for the installed release from its own files. They only append, on each file's last line (to
// each build's client.js, which rebinds `CopilotClient` to the wrapped class, and to each build's root module and its
// typings, which re-export this package's API); everything else stays in this package, imported
// through its SDK-free subpath `copilot-sdk-tool-override/patch`.

/** The subpath the patch imports (it must never import the SDK: the SDK is loading then). */
export const PATCH_SUBPATH = "copilot-sdk-tool-override/patch";

/** What the patch appends to each file of the SDK, keyed by the path inside the package. */
export const THIN_PATCH_APPENDS: ReadonlyMap<string, readonly string[]> = new Map([
    [
        "dist/client.js",
        [
            `import { toolCustomizationHook } from "${PATCH_SUBPATH}"; ` +
                `import * as toolSetForToolCustomization from "./toolSet.js"; ` +
                `CopilotClient = toolCustomizationHook(CopilotClient, toolSetForToolCustomization, import.meta.url);`,
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

/**
 * The file as the patch leaves it: its last line followed, on the same line, by the appends.
 *
 * @param text - the unpatched file
 * @param lines - what the patch appends to it
 */
export function appendTo(text: string, lines: readonly string[]): string {
    const body = text.endsWith("\n") ? text.slice(0, -1) : text;
    return `${body} ${lines.join(" ")}\n`;
}

/** How far patch-package looks above and below a hunk's line for its text (its fuzzing). */
const FUZZ_LINES = 20;

/**
 * Renders the thin patch for one release in unified-diff form: each file's last line replaced by
 * itself followed by the appends, so that the whole patch is one changed line per file, a few
 * lines to review. A changed line, not an added one: patch-package applies its patches again on
 * every `npm install`, and a file that carries the appends no longer holds the old last line, so
 * it finds the patch applied (an added line after an unchanged one would be added again, and a
 * second import of the same name stops the ES module from loading).
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
                    `@github/copilot-sdk ${version}: ` +
                        `${file} has ${count === 0 ? "no" : count} match of ${String(required)}, ` +
                        `which the thin patch relies on. The release changed there: adapt THIN_PATCH_APPENDS in src/cli/thinPatch.ts.`
                );
            }
        }
        if (lines.some((line) => text.includes(line))) {
            throw new Error(
                `@github/copilot-sdk ${version}: ${file} already holds the thin patch's lines: ` +
                    `render the patch from an unpatched copy of the release.`
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
        if (/\/\/|\/\*/.test(last)) {
            throw new Error(
                `@github/copilot-sdk ${version}: ${file} ends with a comment (${quote(last)}), ` +
                    `which would swallow the appends: adapt renderThinPatch in src/cli/thinPatch.ts.`
            );
        }
        if (fileLines.slice(Math.max(0, count - 1 - FUZZ_LINES), count - 1).includes(last)) {
            throw new Error(
                `@github/copilot-sdk ${version}: ` +
                    `${file}'s last line ${quote(last)} stands again within ${FUZZ_LINES} lines above it, ` +
                    `where patch-package would apply the patch a second time: adapt renderThinPatch in src/cli/thinPatch.ts.`
            );
        }
        out.push(`diff --git a/${prefix}${file} b/${prefix}${file}`);
        out.push(`--- a/${prefix}${file}`, `+++ b/${prefix}${file}`);
        out.push(`@@ -${count},1 +${count},1 @@`, `-${last}`);
        if (!endsWithNewline) out.push("\\ No newline at end of file");
        out.push(`+${last} ${lines.join(" ")}`);
    }
    return `${out.join("\n")}\n`;
}

function quote(line: string): string {
    return JSON.stringify(line.length > 60 ? `${line.slice(0, 57)}...` : line);
}

/** Whether a file of the SDK carries the thin patch's appends (any version of this package). */
export function carriesThinPatch(text: string): boolean {
    return text.includes(`"${PATCH_SUBPATH}"`);
}

/** Whether a file of the SDK carries the self-contained patch of 0.3.0 and earlier. */
export function carriesSelfContainedPatch(text: string): boolean {
    return /wrapForToolCustomization|require\("\.\/(?:sdkSeam|wrap)\/wrapSdk\.js"\)|toolCustomization\.js/.test(
        text
    );
}
