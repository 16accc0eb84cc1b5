// npm run patch:build [-- <version>] [--pnpm] [--out <file>]: renders the thin patch of an
// @github/copilot-sdk release (default: the release this repository pins) from the release's own
// files, as `init` and `upgrade` render it in an app. With a version it prints the patch (or
// writes it to --out); with no version it writes the pinned release's patch-package patch to
// patches/, which this repository's own install applies (scripts/patch/apply-sdk-patch.mjs),
// runs every release of the compatibility table in both forms and writes the README's table
// from those runs. Run `npm run build` first: the patch is rendered by the compiled CLI code.

import { writeFileSync } from "node:fs";
import { relative, resolve } from "node:path";
import { checkArguments } from "../../build/cli/cliArguments.js";
import { pinnedVersion, ROOT } from "../../build/cli/conformance/servedReleases.js";
import { patchFilePath } from "./lib/pristineSdk.mjs";
import { renderThinPatchFor } from "./lib/thinPatch.mjs";
import { runReleaseMatrix } from "./lib/releaseMatrix.mjs";
import { updateReadmeTable } from "./lib/compatibilityTable.mjs";

const args = checkArguments(process.argv.slice(2), {
    usage: "Usage: npm run patch:build [-- <version>] [--pnpm] [--out <file>]",
    flags: { pnpm: "switch", out: "value" },
    positionals: 1,
});
const outAt = args.indexOf("--out");
const out = outAt === -1 ? undefined : args[outAt + 1];
const version = args.find(
    (arg, at) =>
        (!arg.startsWith("--") && at !== outAt + 1) || (outAt === -1 && !arg.startsWith("--"))
);
const layout = args.includes("--pnpm") ? "pnpm" : "patch-package";
const text = renderThinPatchFor(version ?? pinnedVersion(), layout);
const target =
    out !== undefined
        ? resolve(out)
        : version === undefined && layout === "patch-package"
          ? patchFilePath()
          : undefined;
if (target === undefined) {
    process.stdout.write(text);
} else {
    writeFileSync(target, text);
    console.error(
        `wrote ${relative(ROOT, target) || target} (${text.split("\n").length - 1} lines)`
    );
}
if (version === undefined && out === undefined && layout === "patch-package") {
    const runs = await runReleaseMatrix();
    await updateReadmeTable(ROOT, runs);
    console.error(`README.md: compatibility table of ${runs.map((run) => run.version).join(", ")}`);
}
