#!/usr/bin/env node
// npm run test:release -- <version> [--all]: the end-to-end tests against an SDK release in the
// library form: the release is installed with its runtime into .cache/sdk/<version> (a dependency
// runtime pinned as data/sdk-releases.json records; the pinned release is this
// repository's untouched copy, node_modules/copilot-sdk-unpatched), a scratch app in
// .cache/library-tests/<version> holds this package's build/ beside it, and vitest runs with
// "@github/copilot-sdk" pointed at the library entry there, under the Node the release needs (22
// for dependency runtimes, installed from the npm registry). The override, filter and capability
// tests by default; with --all, every end-to-end test (test/e2e/). The scratch app is removed
// afterwards; the release installs stay, shared by the next runs. Run `npm run build` first.

import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { checkArguments } from "../../build/cli/cliArguments.js";
import { libraryApp } from "./lib/libraryApp.mjs";
import {
    pinnedVersion,
    ROOT,
    supportedVersions,
} from "../../build/cli/conformance/servedReleases.js";
import { pristineDir } from "./lib/pristineSdk.mjs";
import { installSdkVersion, nodeFor } from "../../build/cli/conformance/sdkVersions.js";

/** The tests that pin what the wrap does with overrides and filters on a real runtime. */
export const RELEASE_TESTS = [
    "test/e2e/builtInOverride.test.ts",
    "test/e2e/toolFiltering.test.ts",
    "test/e2e/releaseCapabilities.test.ts",
    "test/e2e/callAttributionCases.test.ts",
    "test/e2e/unmeasuredModel.test.ts",
    "test/e2e/promptAgreement.test.ts",
    "test/e2e/customAgents.test.ts",
    "test/e2e/taskPromptNote.test.ts",
    "test/e2e/subAgentChanges.test.ts",
];

const usage =
    "Usage: npm run test:release -- <version> [--all]   (a release of package.json toolCustomization.sdkVersions)";
const args = checkArguments(process.argv.slice(2), {
    usage,
    flags: { all: "switch" },
    positionals: 1,
});
const version = args.find((arg) => !arg.startsWith("--"));
if (version === undefined) {
    console.error(usage);
    process.exit(2);
}
if (!supportedVersions().includes(version)) {
    console.error(
        `'${version}' is not in the compatibility table (package.json toolCustomization.sdkVersions: ${supportedVersions().join(", ")}).`
    );
    process.exit(2);
}
if (!existsSync(join(ROOT, "build", "esm", "library.js"))) {
    console.error("build/esm/library.js is missing: run `npm run build` first.");
    process.exit(2);
}
const started = performance.now();
const sdkDir =
    version === pinnedVersion() ? pristineDir(version) : await installSdkVersion(version);
const { entry, remove } = libraryApp(sdkDir, "library-tests", version);
const only = process.env.RELEASE_TESTS_ONLY;
const tests = args.includes("--all")
    ? ["test/e2e/"]
    : only !== undefined
      ? RELEASE_TESTS.filter((test) => test.includes(only))
      : RELEASE_TESTS;
let status;
try {
    const node = await nodeFor(version);
    console.error(`${version}, library form: running ${tests.join(", ")} with ${node}`);
    const run = spawnSync(
        node,
        [join(ROOT, "node_modules", "vitest", "vitest.mjs"), "run", ...tests],
        {
            cwd: ROOT,
            stdio: "inherit",
            env: { ...process.env, COPILOT_SDK_UNDER_TEST: entry, COPILOT_SDK_RELEASE: version },
        }
    );
    status = run.status ?? 1;
} finally {
    remove();
}
console.error(
    `${version}, library form: ${status === 0 ? "passed" : "FAILED"} in ${((performance.now() - started) / 1000).toFixed(0)} s`
);
process.exit(status);
