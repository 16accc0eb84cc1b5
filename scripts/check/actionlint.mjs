// npm test's check of .github/workflows/ and of the workflow the docs give apps
// (docs/examples/) with actionlint, a Go module: installed once into .cache/bin from the Go
// module proxy (pinned), then run in the repository root.

import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { checkArguments } from "../../build/cli/cliArguments.js";

checkArguments(process.argv.slice(2), { usage: "Usage: npm run check:actionlint" });

const ACTIONLINT = "github.com/rhysd/actionlint/cmd/actionlint@v1.7.12";
const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const bin = join(root, ".cache", "bin");
const actionlint = join(bin, "actionlint");

if (!existsSync(actionlint)) {
    mkdirSync(bin, { recursive: true });
    try {
        execFileSync("go", ["install", ACTIONLINT], {
            cwd: root,
            env: { ...process.env, GOBIN: bin },
            stdio: "inherit",
        });
    } catch (error) {
        console.error(
            `actionlint: could not install ${ACTIONLINT} with Go (${error instanceof Error ? error.message : String(error)}). Install Go (https://go.dev/dl/) or put actionlint at ${actionlint}.`
        );
        process.exit(1);
    }
}
try {
    const workflows = [".github/workflows", "docs/examples"].flatMap((folder) =>
        readdirSync(join(root, folder))
            .filter((name) => name.endsWith(".yml"))
            .map((name) => join(folder, name))
    );
    execFileSync(actionlint, ["-no-color", ...workflows], { cwd: root, stdio: "inherit" });
} catch {
    // actionlint printed each problem.
    process.exit(1);
}
console.log("actionlint: .github/workflows/ and docs/examples/ ok");
