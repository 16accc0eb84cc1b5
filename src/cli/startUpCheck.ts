/**
 * The start-up check an app pastes into the module it loads first (the README shows the same
 * code; a test keeps the two equal): it throws, naming the installed version and the fix, when
 * the SDK runs without its patch or with the patch of another version.
 */

/** For an ES module app (`"type": "module"`). */
export const ESM_START_UP_CHECK: string = [
    "// ESM",
    'import { createRequire } from "node:module";',
    'import { dirname, join } from "node:path";',
    'import * as copilotSdk from "@github/copilot-sdk";',
    "",
    'if (typeof copilotSdk.assertToolCustomizationPatch === "function") {',
    "    copilotSdk.assertToolCustomizationPatch(); // throws if the patch was built for another version",
    "} else {",
    "    const require = createRequire(import.meta.url);",
    '    const sdkDir = join(dirname(require.resolve("@github/copilot-sdk")), "..", "..");',
    '    const { version } = require(join(sdkDir, "package.json"));',
    "    throw new Error(",
    "        `@github/copilot-sdk ${version} runs without its tool-customization patch. ` +",
    "            `npm: put patches/@github+copilot-sdk+${version}.patch in the app's patches/ folder (also in a container image) and run a bare \\`npm install\\`; ` +",
    "            `pnpm: name patches/@github__copilot-sdk@${version}.patch in pnpm.patchedDependencies and run \\`pnpm install\\`.`",
    "    );",
    "}",
].join("\n");

/** For a CommonJS app. */
export const CJS_START_UP_CHECK: string = [
    "// CommonJS",
    'const { dirname, join } = require("node:path");',
    'const copilotSdk = require("@github/copilot-sdk");',
    "",
    'if (typeof copilotSdk.assertToolCustomizationPatch === "function") {',
    "    copilotSdk.assertToolCustomizationPatch(); // throws if the patch was built for another version",
    "} else {",
    '    const sdkDir = join(dirname(require.resolve("@github/copilot-sdk")), "..", "..");',
    '    const { version } = require(join(sdkDir, "package.json"));',
    "    throw new Error(",
    "        `@github/copilot-sdk ${version} runs without its tool-customization patch. ` +",
    "            `npm: put patches/@github+copilot-sdk+${version}.patch in the app's patches/ folder (also in a container image) and run a bare \\`npm install\\`; ` +",
    "            `pnpm: name patches/@github__copilot-sdk@${version}.patch in pnpm.patchedDependencies and run \\`pnpm install\\`.`",
    "    );",
    "}",
].join("\n");
