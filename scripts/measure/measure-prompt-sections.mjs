#!/usr/bin/env node
/**
 * Measures which tool names each section of the bundled runtime's system prompt names (by the
 * package's naming rule, `toolMentions`, outside conditions on a tool's availability), for each
 * model id the built-in catalog measured on that runtime, writes
 * data/prompt-section-names/runtime-<version>.json and regenerates
 * src/toolCustomization/catalog/generated/promptSectionNames.generated.ts from every such file. The prompt agreement
 * reads it to register transforms only for the sections that can name a tool a session lacks,
 * and none where nothing disagrees. Only the names are kept, never the runtime's words.
 *
 * Usage: npm run build && node scripts/measure/measure-prompt-sections.mjs
 *
 * It drives the UNPATCHED SDK ("copilot-sdk-unpatched") and its bundled runtime offline,
 * against the package's mock model on 127.0.0.1: one session per model id, each section
 * customized with a transform that records the runtime's text and returns it unchanged.
 * test/unit/promptSectionNames.test.ts fails when the installed runtime's text no longer gives
 * the names recorded for its version.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CopilotClient, SYSTEM_MESSAGE_SECTIONS, approveAll } from "copilot-sdk-unpatched";
import { checkArguments } from "../../build/cli/cliArguments.js";
import { startMockModel } from "../../build/esm/mockModel/mockChatModel.js";
import { toolMentions } from "../../build/esm/toolCustomization/prompt/toolMentions.js";
import { MEASURED_BUILT_IN_TOOLS } from "../../build/esm/toolCustomization/catalog/generated/measuredBuiltInTools.generated.js";

const DATA = new URL("../../data/prompt-section-names/", import.meta.url);
checkArguments(process.argv.slice(2), {
    usage: "Usage: node scripts/measure/measure-prompt-sections.mjs",
    flags: {},
    positionals: 0,
});

const OUT = new URL(
    "../../src/toolCustomization/catalog/generated/promptSectionNames.generated.ts",
    import.meta.url
);

/** Every built-in name any measured runtime has. */
const NAMES = new Set(MEASURED_BUILT_IN_TOOLS.flatMap((measured) => measured.builtIns));

/**
 * The names each section of a session's prompt names, by section id.
 *
 * @param {CopilotClient} client
 * @param {string} baseUrl - the mock model's
 * @param {string} model - the model id
 * @returns {Promise<Record<string, string[]>>}
 */
async function sectionNames(client, baseUrl, model) {
    /** @type {Record<string, string[]>} */
    const byId = {};
    const sections = Object.fromEntries(
        Object.keys(SYSTEM_MESSAGE_SECTIONS).map((id) => [
            id,
            {
                action: (/** @type {string} */ text) => {
                    byId[id] = [
                        ...new Set(
                            toolMentions(text, NAMES)
                                .filter((mention) => mention.conditional !== true)
                                .map((mention) => mention.name)
                        ),
                    ].sort();
                    return text;
                },
            },
        ])
    );
    const session = await client.createSession({
        model,
        provider: { type: "openai", baseUrl, apiKey: "mock" },
        onPermissionRequest: approveAll,
        systemMessage: { mode: "customize", sections },
    });
    try {
        await session.sendAndWait({ prompt: "hello" });
    } finally {
        await session.disconnect();
    }
    return Object.fromEntries(Object.entries(byId).sort(([a], [b]) => a.localeCompare(b)));
}

const baseDirectory = mkdtempSync(join(tmpdir(), "prompt-sections-"));
const mock = await startMockModel();
const client = new CopilotClient({ baseDirectory });
try {
    await client.start();
    const status = /** @type {{ version?: string }} */ (await client.getStatus());
    const runtimeVersion = String(status.version);
    const measured = MEASURED_BUILT_IN_TOOLS.find(
        (entry) => entry.runtimeVersion === runtimeVersion
    );
    if (measured === undefined) {
        throw new Error(
            `Runtime ${runtimeVersion} has no built-in catalog: run npm run discover:tool-names first.`
        );
    }
    const models = Object.keys(measured.offeredByModel).filter((model) => model !== "*");
    /** @type {Record<string, Record<string, string[]>>} */
    const byModel = {};
    for (const model of models) byModel[model] = await sectionNames(client, mock.baseUrl, model);
    mkdirSync(DATA, { recursive: true });
    writeFileSync(
        new URL(`runtime-${runtimeVersion}.json`, DATA),
        `${JSON.stringify({ runtimeVersion, byModel }, null, 4)}\n`
    );
    const entries = readdirSync(DATA)
        .filter((file) => file.endsWith(".json"))
        .map((file) => JSON.parse(readFileSync(new URL(file, DATA), "utf8")))
        .sort((a, b) => a.runtimeVersion.localeCompare(b.runtimeVersion, "en", { numeric: true }));
    writeFileSync(
        OUT,
        `// GENERATED FILE - do not edit by hand.
// Made by: node scripts/measure/measure-prompt-sections.mjs (after npm run build), from
// data/prompt-section-names/: by runtime version and model id, the tool names each section of the
// runtime's system prompt names (the package's naming rule, outside conditions on a tool's
// availability). Names only, never the runtime's words.

import type { MeasuredPromptSections } from "../measuredPromptSections.js";

export const MEASURED_PROMPT_SECTIONS: readonly MeasuredPromptSections[] = ${JSON.stringify(entries, null, 4)};
`
    );
    console.log(`runtime ${runtimeVersion}: ${models.length} model ids measured`);
} finally {
    await client.stop();
    await mock.close();
    rmSync(baseDirectory, { recursive: true, force: true });
}
