// node scripts/repro/measure-validate-tools.mjs: for every built-in name measured on SDK 1.0.14, a custom
// tool of that name (no flag) on Claude: does createSession refuse it, does the runtime's
// session.tools.initializeAndValidate refuse it on Claude, and after setModel to GPT? Unpatched and
// patched. Offline (mock model on 127.0.0.1); about a minute. docs/measurements.md quotes its numbers.
import { checkArguments } from "../../build/cli/cliArguments.js";
import { readFileSync } from "node:fs";
import { withRuntime, SDKS, taggedTool, CLAUDE, GPT } from "./lib/reproRig.mjs";
import { startMockChatModel } from "../../build/esm/mockModel/mockChatModel.js";
checkArguments(process.argv.slice(2), {
    usage: "Usage: node scripts/repro/measure-validate-tools.mjs",
    flags: {},
    positionals: 0,
});
const names = JSON.parse(
    readFileSync(new URL("../../data/measured-built-in-tools/1.0.14.json", import.meta.url), "utf8")
).builtIns;
const model = await startMockChatModel();
/** @type {Record<string, object>} */
const result = {};
try {
    for (const sdk of SDKS) {
        result[sdk.label] = await withRuntime(sdk, model, async (rig) => {
            const counts = {
                names: names.length,
                createRefused: 0,
                validateRefusedClaude: 0,
                validateRefusedGpt: 0,
                passClaudeFailGpt: /** @type {string[]} */ ([]),
            };
            for (const name of names) {
                const tool = taggedTool(name, name);
                const { session, error } = await rig.createSession(CLAUDE, { tools: [tool] });
                if (error) {
                    counts.createRefused++;
                    continue;
                }
                let claudeOk = true;
                try {
                    await session.rpc.tools.initializeAndValidate();
                } catch {
                    counts.validateRefusedClaude++;
                    claudeOk = false;
                }
                try {
                    await session.setModel(GPT);
                    await session.rpc.tools.initializeAndValidate();
                } catch {
                    counts.validateRefusedGpt++;
                    if (claudeOk) counts.passClaudeFailGpt.push(name);
                }
                await session.disconnect().catch(() => {});
            }
            return counts;
        });
    }
} finally {
    await model.close();
}
console.log(JSON.stringify(result, null, 1));
