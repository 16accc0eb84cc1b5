/**
 * The start-up check an app of the patch form pastes into the module it loads first: it throws,
 * with the fix, when the SDK runs without the thin patch (or with the old self-contained one).
 */

/** For an ES module app (`"type": "module"`). */
export const ESM_START_UP_CHECK: string = [
    "// ESM",
    'import * as copilotSdk from "@github/copilot-sdk";',
    "",
    'if (typeof copilotSdk.assertToolCustomizationPatch !== "function") {',
    "    throw new Error(",
    '        "@github/copilot-sdk runs without its tool-customization patch: ' +
        'run `npx --no copilot-sdk-tool-override init` (pnpm: `pnpm exec copilot-sdk-tool-override init`)."',
    "    );",
    "}",
    "copilotSdk.assertToolCustomizationPatch(); // throws, with the fix, if the patch cannot serve the installed release",
].join("\n");

/** For a CommonJS app. */
export const CJS_START_UP_CHECK: string = [
    "// CommonJS",
    'const copilotSdk = require("@github/copilot-sdk");',
    "",
    'if (typeof copilotSdk.assertToolCustomizationPatch !== "function") {',
    "    throw new Error(",
    '        "@github/copilot-sdk runs without its tool-customization patch: ' +
        'run `npx --no copilot-sdk-tool-override init` (pnpm: `pnpm exec copilot-sdk-tool-override init`)."',
    "    );",
    "}",
    "copilotSdk.assertToolCustomizationPatch(); // throws, with the fix, if the patch cannot serve the installed release",
].join("\n");
