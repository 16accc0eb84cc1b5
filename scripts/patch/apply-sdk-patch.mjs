// prepare (npm install of this repository): wires this repository's own @github/copilot-sdk for
// the patch form, as `init` wires an app: node_modules/copilot-sdk-tool-override links to this
// repository (so that the SDK's `import "copilot-sdk-tool-override/patch"` finds build/), and
// patch-package applies patches/, the thin patch of the pinned release (`npm run patch:build`
// renders it), with --error-on-fail --error-on-warn.

import { execFileSync } from "node:child_process";
import {
    cpSync,
    existsSync,
    lstatSync,
    mkdirSync,
    readFileSync,
    readdirSync,
    rmSync,
    symlinkSync,
} from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { checkArguments } from "../../build/cli/cliArguments.js";

checkArguments(process.argv.slice(2), {
    usage: "Usage: node scripts/patch/apply-sdk-patch.mjs (npm runs it as prepare, after a bare npm install)",
});
const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
// Installed as a dependency of an app (npm may run `prepare` for tarball and git dependencies),
// there is nothing of this project's to patch: apps adopt the patch with the package's CLI.
if (root.split(/[\\/]/).includes("node_modules")) process.exit(0);
const sdk = join(root, "node_modules", "@github", "copilot-sdk");
const pristine = join(root, "node_modules", "copilot-sdk-unpatched");
const { version } = JSON.parse(readFileSync(join(sdk, "package.json"), "utf8"));
const patchName = `@github+copilot-sdk+${version}.patch`;
const patchPath = join(root, "patches", patchName);
if (!existsSync(patchPath)) {
    console.error(
        `No thin patch for @github/copilot-sdk@${version} in patches/: run \`npm run build && npm run patch:build\`.`
    );
    process.exit(1);
}

// An SDK that an earlier install patched (the thin patch, or an older self-contained one) is
// put back as published first, from the untouched copy of the same release.
const differs = (/** @type {string} */ dir) =>
    readdirSync(join(sdk, dir)).some((file) => {
        const pristineFile = join(pristine, dir, file);
        if (!existsSync(pristineFile)) return true;
        if (lstatSync(pristineFile).isDirectory()) return false;
        return readFileSync(pristineFile, "utf8") !== readFileSync(join(sdk, dir, file), "utf8");
    });
if (JSON.parse(readFileSync(join(pristine, "package.json"), "utf8")).version === version) {
    if (differs("dist") || differs("dist/cjs")) {
        rmSync(join(sdk, "dist"), { recursive: true, force: true });
        cpSync(join(pristine, "dist"), join(sdk, "dist"), { recursive: true });
    }
}

const link = join(root, "node_modules", "copilot-sdk-tool-override");
rmSync(link, { recursive: true, force: true });
symlinkSync("..", link);

const scratch = join(root, "node_modules", ".tool-customization-patch");
rmSync(scratch, { recursive: true, force: true });
mkdirSync(scratch, { recursive: true });
cpSync(patchPath, join(scratch, patchName));
const bin = createRequire(import.meta.url).resolve("patch-package/index.js");
execFileSync(
    process.execPath,
    [bin, "--patch-dir", relative(root, scratch), "--error-on-fail", "--error-on-warn"],
    { cwd: root, stdio: "inherit" }
);
