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
 * Usage: npm run build && node scripts/measure/measure-prompt-sections.mjs [--sdk <version>]
 *   [--runtime <copilot CLI>] [--texts <folder>]
 *
 * With --sdk, that release of the SDK (installed into .cache/sdk/<version> as the conformance
 * suite installs it) drives its own runtime: the way to a runtime that ships only inside its SDK
 * release (1.0.89-7 of 1.0.15-preview.4 is a prebuild the SDK loads, not a CLI). With --runtime,
 * the SDK drives that CLI (`RuntimeConnection.forStdio({ path })`) instead of its bundled
 * runtime; the runtime needs a built-in catalog of its own first
 * (`npm run discover:tool-names -- --runtime <copilot CLI>`). With --texts, each model's section
 * texts are also written to <folder>/<model>/<section>.txt, to read the corpus's units in their
 * context when labelling them (the runtime's words: keep them out of the repository).
 *
 * It also scores the labelled corpus (src/cli/conformance/promptCorpus.ts) on the sections of
 * its model ids and records the figures as the file's `corpus`: the default `promptAgreement` is
 * `"rewrite"` only on a runtime whose corpus shows no false removal and no unlabelled unit
 * (test/unit/promptCorpus.test.ts fails when the recorded figures are not those it measures).
 *
 * It drives the UNPATCHED SDK ("copilot-sdk-unpatched", or --sdk's release) and its runtime offline,
 * against the package's mock model on 127.0.0.1: one session per model id, each section
 * customized with a transform that records the runtime's text and returns it unchanged.
 * test/unit/promptSectionNames.test.ts fails when the installed runtime's text no longer gives
 * the names recorded for its version.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { checkArguments } from "../../build/cli/cliArguments.js";
import { installSdkVersion, nodeFor } from "../../build/cli/conformance/sdkVersions.js";
import { startMockModel } from "../../build/esm/mockModel/mockChatModel.js";
import { toolMentions } from "../../build/esm/toolCustomization/prompt/toolMentions.js";
import {
    droppedMentions,
    rewriteWithoutTools,
} from "../../build/esm/toolCustomization/prompt/promptRewrite.js";
import {
    CORPUS_CONFIGS,
    CORPUS_MODELS,
    scoreCorpus,
    corpusLine,
} from "../../build/cli/conformance/promptCorpus.js";
import { MEASURED_BUILT_IN_TOOLS } from "../../build/esm/toolCustomization/catalog/generated/measuredBuiltInTools.generated.js";

const DATA = new URL("../../data/prompt-section-names/", import.meta.url);
const args = checkArguments(process.argv.slice(2), {
    usage:
        "Usage: node scripts/measure/measure-prompt-sections.mjs [--sdk <version>] " +
        "[--runtime <copilot CLI>] [--texts <folder>]",
    flags: { sdk: "value", runtime: "value", texts: "value" },
    positionals: 0,
});
/** @param {string} flag */
const valueOf = (flag) => {
    const at = args.indexOf(flag);
    return at < 0 ? undefined : args[at + 1];
};
const externalRuntime = valueOf("--runtime");
const requestedSdk = valueOf("--sdk");
const textsFolder = valueOf("--texts");

// A release's runtime may need another Node (those before 1.0.13 need 22): run under it.
if (requestedSdk !== undefined && externalRuntime === undefined) {
    const node = await nodeFor(requestedSdk);
    if (node !== process.execPath) {
        const child = spawnSync(node, [fileURLToPath(import.meta.url), ...args], {
            stdio: "inherit",
        });
        process.exit(child.status ?? 1);
    }
}
/**
 * The SDK that drives the runtime: the release asked for, from its own install, or the pinned
 * version's unpatched copy. Loaded at run time, typed `any` on purpose.
 * @type {any}
 */
const sdk =
    requestedSdk === undefined
        ? await import("copilot-sdk-unpatched")
        : await import(
              pathToFileURL(join(await installSdkVersion(requestedSdk), "dist", "index.js")).href
          );
const { CopilotClient, RuntimeConnection, SYSTEM_MESSAGE_SECTIONS, approveAll } = sdk;

const OUT = new URL(
    "../../src/toolCustomization/catalog/generated/promptSectionNames.generated.ts",
    import.meta.url
);

/** Every built-in name any measured runtime has. */
const NAMES = new Set(MEASURED_BUILT_IN_TOOLS.flatMap((measured) => measured.builtIns));

/**
 * The names each section of a session's prompt names, by section id.
 *
 * @param {any} client - a CopilotClient of the SDK that drives the runtime
 * @param {string} baseUrl - the mock model's
 * @param {string} model - the model id
 * @param {Map<string, string>} [texts] - filled with the section texts, by id
 * @returns {Promise<Record<string, string[]>>}
 */
async function sectionNames(client, baseUrl, model, texts = new Map()) {
    /** @type {Record<string, string[]>} */
    const byId = {};
    const sections = Object.fromEntries(
        Object.keys(SYSTEM_MESSAGE_SECTIONS).map((id) => [
            id,
            {
                action: (/** @type {string} */ text) => {
                    texts.set(id, text);
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

/**
 * The labelled corpus's figures on the runtime's sections (as promptCorpus.test.ts scores them),
 * or undefined when the catalog lacks a corpus model id.
 *
 * @param {(typeof MEASURED_BUILT_IN_TOOLS)[number]} measured - the runtime's catalog entry
 * @param {Map<string, Map<string, string>>} textsByModel - section texts by model id and section
 */
function corpusFigures(measured, textsByModel) {
    /** @type {import("../../build/cli/conformance/promptCorpus.js").CorpusEdit[]} */
    const edits = [];
    let mentions = 0;
    let left = 0;
    for (const model of CORPUS_MODELS) {
        const texts = textsByModel.get(model);
        const offered = measured.offeredByModel[model];
        if (texts === undefined || offered === undefined) return undefined;
        for (const [config, lacks, replaces] of CORPUS_CONFIGS) {
            const replaced = new Set(replaces);
            const dropped = new Set(
                [...NAMES].filter(
                    (name) => !offered.includes(name) || lacks.includes(name) || replaced.has(name)
                )
            );
            for (const [section, text] of texts) {
                const rewritten = rewriteWithoutTools(text, NAMES, dropped, replaced);
                mentions += rewritten.mentions.length;
                left += droppedMentions(rewritten.text, NAMES, dropped, replaced).length;
                for (const edit of rewritten.edits) edits.push({ config, section, ...edit });
            }
        }
    }
    const figures = scoreCorpus(edits, mentions, left);
    console.log(`corpus: ${corpusLine(figures)}`);
    for (const unit of [...figures.falseRemovals, ...figures.unlabelled]) console.log(`  ${unit}`);
    return {
        edits: figures.edits,
        correct: figures.correct,
        falseRemovals: figures.falseRemovals.length,
        unlabelled: figures.unlabelled.length,
        mentions: figures.mentions,
        handled: figures.handled,
    };
}

const baseDirectory = mkdtempSync(join(tmpdir(), "prompt-sections-"));
const mock = await startMockModel();
const client = new CopilotClient({
    baseDirectory,
    ...(externalRuntime === undefined
        ? {}
        : { connection: RuntimeConnection.forStdio({ path: externalRuntime }) }),
});
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
    /** @type {Map<string, Map<string, string>>} */
    const textsByModel = new Map();
    for (const model of models) {
        /** @type {Map<string, string>} */
        const texts = new Map();
        byModel[model] = await sectionNames(client, mock.baseUrl, model, texts);
        textsByModel.set(model, texts);
        if (textsFolder !== undefined) {
            mkdirSync(join(textsFolder, model), { recursive: true });
            for (const [id, text] of texts)
                writeFileSync(join(textsFolder, model, `${id}.txt`), text);
        }
    }
    const corpus = corpusFigures(measured, textsByModel);
    mkdirSync(DATA, { recursive: true });
    writeFileSync(
        new URL(`runtime-${runtimeVersion}.json`, DATA),
        `${JSON.stringify({ runtimeVersion, byModel, ...(corpus === undefined ? {} : { corpus }) }, null, 4)}\n`
    );
    const entries = readdirSync(DATA)
        .filter((file) => file.endsWith(".json"))
        .map((file) => JSON.parse(readFileSync(new URL(file, DATA), "utf8")))
        .sort((a, b) => a.runtimeVersion.localeCompare(b.runtimeVersion, "en", { numeric: true }));
    // Formatted as committed (prettier, the repository's options).
    const prettier = await import("prettier");
    const options = (await prettier.resolveConfig(OUT)) ?? {};
    const moduleText = `// GENERATED FILE - do not edit by hand.
// Made by: node scripts/measure/measure-prompt-sections.mjs (after npm run build), from
// data/prompt-section-names/: by runtime version and model id, the tool names each section of the
// runtime's system prompt names (the package's naming rule, outside conditions on a tool's
// availability). Names only, never the runtime's words.

import type { MeasuredPromptSections } from "../measuredPromptSections.js";

export const MEASURED_PROMPT_SECTIONS: readonly MeasuredPromptSections[] = ${JSON.stringify(entries, null, 4)};
`;
    writeFileSync(OUT, await prettier.format(moduleText, { ...options, filepath: OUT.pathname }));
    console.log(`runtime ${runtimeVersion}: ${models.length} model ids measured`);
} finally {
    await client.stop();
    await mock.close();
    rmSync(baseDirectory, { recursive: true, force: true });
}
