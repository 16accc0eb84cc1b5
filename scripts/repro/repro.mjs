// Reproduces one bug report of patches/upstream/issues/ against the real bundled runtime, offline
// (mock model on 127.0.0.1, no account): first with the SDK as published (copilot-sdk-unpatched),
// then, for contrast, with the patched @github/copilot-sdk.
//
//   npm run repro -- --list
//   npm run repro -- <name>
//
// Exit status: 0 when the unpatched SDK shows the reported defect, 1 when it does not (the bug
// no longer reproduces), 2 for a usage error, 3 when the scenario itself could not run.

import { checkArguments } from "../../build/cli/cliArguments.js";
import { startMockChatModel } from "../../build/esm/mockModel/mockChatModel.js";
import { REPRO_CASES } from "./lib/reproCases.mjs";
import { SDKS, withRuntime } from "./lib/reproRig.mjs";

const USAGE = "Usage: npm run repro -- <name>   (npm run repro -- --list shows the names)";
checkArguments(process.argv.slice(2), { usage: USAGE, flags: { list: "switch" }, positionals: 1 });

function list() {
    const width = Math.max(...REPRO_CASES.map((c) => c.name.length));
    for (const c of REPRO_CASES) {
        console.log(`${c.name.padEnd(width)}  ${c.title}`);
        console.log(`${"".padEnd(width)}  patches/upstream/issues/${c.report} (${c.repository})`);
    }
}

/** @param {import("./lib/reproCases.mjs").ReproCase} reproCase */
async function reproduce(reproCase) {
    console.log(`${reproCase.name}: ${reproCase.title}`);
    console.log(
        `report: patches/upstream/issues/${reproCase.report} (for ${reproCase.repository})`
    );
    console.log(`expected: ${reproCase.expected}`);
    const model = await startMockChatModel();
    /** @type {Map<string, import("./lib/reproCases.mjs").ReproOutcome>} */
    const outcomes = new Map();
    try {
        for (const sdk of SDKS) {
            const outcome = await withRuntime(sdk, model, async (rig) => {
                console.log(
                    `\n${sdk.label}: @github/copilot-sdk ${rig.sdkVersion} (runtime ${rig.runtimeVersion}), ${sdk.description}`
                );
                return reproCase.run(rig);
            });
            for (const step of outcome.steps) console.log(`  ${step}`);
            console.log(`  ${sdk.label}: ${outcome.defect ? "DEFECT" : "OK"}: ${outcome.actual}`);
            outcomes.set(sdk.label, outcome);
        }
    } finally {
        await model.close();
    }
    console.log("");
    if (outcomes.get("unpatched")?.defect) {
        const contrast = outcomes.get("patched")?.defect
            ? "the patched SDK shows it too (this project's patch does not fix it)"
            : "the patched SDK does not show it";
        console.log(`verdict: reproduced on the unpatched SDK; ${contrast}`);
        return 0;
    }
    console.log(
        `verdict: NOT reproduced: the unpatched SDK behaves as expected; update the report`
    );
    return 1;
}

const args = process.argv.slice(2);
if (args.length !== 1) {
    console.error(USAGE);
    process.exit(2);
}
if (args[0] === "--list") {
    list();
    process.exit(0);
}
const reproCase = REPRO_CASES.find((c) => c.name === args[0]);
if (reproCase === undefined) {
    console.error(`Unknown reproduction '${args[0]}'. ${USAGE}`);
    process.exit(2);
}
try {
    process.exitCode = await reproduce(reproCase);
} catch (error) {
    console.error(
        `\nrepro ${reproCase.name} could not run: ${error instanceof Error ? error.stack : error}`
    );
    process.exitCode = 3;
}
