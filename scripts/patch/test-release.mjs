#!/usr/bin/env node
// npm run test:release -- <version>: the end-to-end override and filter tests
// (test/e2e/builtInOverride.test.ts, test/e2e/toolFiltering.test.ts) against another served SDK
// release and its own runtime: the release is installed with its runtime into .cache/sdk/<version>
// (a dependency runtime pinned as scripts/data/sdk-releases.json records), a patched copy is laid
// out in .cache/release-tests/<version>, and vitest runs with "@github/copilot-sdk" pointed at it,
// under the Node the release needs (22 for dependency runtimes, installed from the npm registry).

import { spawnSync } from "node:child_process";
import { join } from "node:path";
import { checkArguments } from "../lib/cliArguments.mjs";
import { patchedCopy } from "./lib/patchedInstall.mjs";
import { ROOT, supportedVersions } from "./lib/sdkPatch.mjs";
import { installSdkVersion, nodeFor } from "../measure/lib/sdkVersions.mjs";

/** The tests that pin what the patch does with overrides and filters on a real runtime. */
export const RELEASE_TESTS = [
    "test/e2e/builtInOverride.test.ts",
    "test/e2e/toolFiltering.test.ts",
    "test/e2e/releaseCapabilities.test.ts",
];

const args = process.argv.slice(2);
checkArguments(args, {
    usage: "Usage: npm run test:release -- <version>   (a release of package.json toolCustomization.sdkVersions)",
    flags: {},
    positionals: 1,
});
const [version] = args;
if (version === undefined) {
    console.error(
        "Usage: npm run test:release -- <version>   (a release of package.json toolCustomization.sdkVersions)"
    );
    process.exit(2);
}
if (!supportedVersions().includes(version)) {
    console.error(
        `'${version}' is not a served release (package.json toolCustomization.sdkVersions: ${supportedVersions().join(", ")}).`
    );
    process.exit(2);
}
const started = performance.now();
const sdkDir = patchedCopy(version, await installSdkVersion(version), "release-tests");
const node = await nodeFor(version);
console.error(`${version}: running ${RELEASE_TESTS.join(", ")} with ${node}`);
const run = spawnSync(
    node,
    [join(ROOT, "node_modules", "vitest", "vitest.mjs"), "run", ...RELEASE_TESTS],
    {
        cwd: ROOT,
        stdio: "inherit",
        env: { ...process.env, COPILOT_SDK_UNDER_TEST: sdkDir, COPILOT_SDK_RELEASE: version },
    }
);
console.error(
    `${version}: ${run.status === 0 ? "passed" : "FAILED"} in ${((performance.now() - started) / 1000).toFixed(0)} s`
);
process.exit(run.status ?? 1);
