/**
 * `npm run demo`: one custom tool named like a built-in (`view`), run against the real runtime
 * twice, through the unpatched SDK and through the patched one, with a mock model on 127.0.0.1
 * that calls `view`. Prints what happened side by side. Offline, no account, about a second.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { CopilotClient, approveAll } from "@github/copilot-sdk";
import { CopilotClient as UnpatchedClient } from "copilot-sdk-unpatched";
import {
    CLAUDE_MODEL,
    cleanupStack,
    leftovers,
    mockModel,
    providerFor,
    recordingTool,
    temporaryBaseDirectory,
    type Defer,
} from "../test/support/e2eHarness.js";
import { descriptionOf } from "../test/support/mockModel.js";

const TOOL = "view";
const LABEL_WIDTH = 16;
const COLUMN_WIDTH = 36;

/** What one run did, as lines per row of the table. */
interface Outcome {
    createSession: string;
    warnings: string;
    send: string;
    modelRequests: string;
    toolsSeen: string[];
    viewDefinition: string;
    handlerRan: string;
    toolResult: string;
    finalReply: string;
}

type AnyClient = CopilotClient | UnpatchedClient;

/** Runs the scenario with a client made by `makeClient`, cleaning up through `defer`. */
async function runScenario(
    defer: Defer,
    makeClient: (baseDirectory: string, warnings: string[]) => AnyClient
): Promise<Outcome> {
    const baseDirectory = temporaryBaseDirectory(defer, "copilot-demo-");
    const file = join(baseDirectory, "notes.txt");
    writeFileSync(file, "These are the notes on disk, read by the built-in view.\n");
    const model = await mockModel(defer, { toolCall: { name: TOOL, arguments: { path: file } } });
    const warnings: string[] = [];
    const client = makeClient(baseDirectory, warnings);
    defer(() => client.stop());
    const tool = recordingTool(TOOL);

    const outcome: Outcome = {
        createSession: "",
        warnings: "",
        send: "—",
        modelRequests: "",
        toolsSeen: [],
        viewDefinition: "—",
        handlerRan: "",
        toolResult: "—",
        finalReply: "—",
    };
    try {
        const session = await client.createSession({
            model: CLAUDE_MODEL,
            provider: providerFor(model),
            onPermissionRequest: approveAll,
            tools: [tool],
        });
        outcome.createSession = "ok";
        try {
            const reply = await session.sendAndWait({ prompt: "Show me notes.txt." });
            outcome.send = "ok";
            outcome.finalReply = JSON.stringify(reply?.data.content ?? "");
        } catch (error) {
            outcome.send = `FAILED: ${messageOf(error)}`;
        }
    } catch (error) {
        outcome.createSession = `FAILED: ${messageOf(error)}`;
    }
    outcome.warnings = warnings.length === 0 ? "none" : warnings.join("; ");
    outcome.modelRequests = String(model.requests.length);

    const first = model.requests[0];
    if (first === undefined) {
        outcome.toolsSeen = ["(no request reached the model)"];
    } else {
        const counts = new Map<string, number>();
        for (const name of model.toolNamesOf(0)) counts.set(name, (counts.get(name) ?? 0) + 1);
        outcome.toolsSeen = [...counts].map(([name, count]) => `${name} ×${count}`);
        const definitions = model.toolDefinitionsOf(0, TOOL).map(descriptionOf);
        outcome.viewDefinition = definitions
            .map((description) =>
                description === tool.description ? "custom" : `built-in ("${description}")`
            )
            .join(" + ");
    }
    const result = model.toolResultsOf(1)[0]?.text;
    if (result !== undefined) outcome.toolResult = JSON.stringify(result);
    outcome.handlerRan =
        tool.calls.length > 0
            ? `custom handler (${tool.calls.length} call)`
            : result !== undefined
              ? `built-in ${TOOL} (custom handler not called)`
              : model.requests.length === 0
                ? "none: the model was never asked"
                : `none: the model did not call ${TOOL}`;
    return outcome;
}

function messageOf(error: unknown): string {
    return error instanceof Error ? error.message : String(error);
}

/** Word-wraps `text` to `width` columns, breaking long words. */
function wrap(text: string, width: number): string[] {
    const lines: string[] = [];
    let line = "";
    for (let word of text.split(/\s+/).filter((w) => w !== "")) {
        while (word.length > width) {
            if (line !== "") lines.push(line);
            lines.push(word.slice(0, width));
            word = word.slice(width);
            line = "";
        }
        if (line === "") line = word;
        else if (line.length + 1 + word.length <= width) line += ` ${word}`;
        else {
            lines.push(line);
            line = word;
        }
    }
    if (line !== "" || lines.length === 0) lines.push(line);
    return lines;
}

/** Lays out one table row: a label and the two columns, each wrapped. */
function row(label: string, left: string | string[], right: string | string[]): string[] {
    const cell = (value: string | string[]): string[] =>
        (Array.isArray(value) ? value : [value]).flatMap((text) =>
            text.length <= COLUMN_WIDTH ? [text] : wrap(text, COLUMN_WIDTH)
        );
    const labelLines = label === "" ? [] : wrap(label, LABEL_WIDTH);
    const leftLines = cell(left);
    const rightLines = cell(right);
    const height = Math.max(labelLines.length, leftLines.length, rightLines.length);
    const lines: string[] = [];
    for (let i = 0; i < height; i++) {
        lines.push(
            [
                (labelLines[i] ?? "").padEnd(LABEL_WIDTH),
                (leftLines[i] ?? "").padEnd(COLUMN_WIDTH),
                rightLines[i] ?? "",
            ]
                .join(" │ ")
                .trimEnd()
        );
    }
    return lines;
}

/** Puts the tool list into two sub-columns, so fifteen tools take eight lines. */
function twoUp(items: string[]): string[] {
    if (items.length < 4) return items;
    const half = Math.ceil(items.length / 2);
    const width = Math.floor(COLUMN_WIDTH / 2);
    return items
        .slice(0, half)
        .map((item, i) => `${item.padEnd(width)}${items[half + i] ?? ""}`.trimEnd());
}

async function main(): Promise<number> {
    const started = Date.now();
    const { defer, run } = cleanupStack();
    let before: Outcome;
    let after: Outcome;
    try {
        before = await runScenario(
            defer,
            (baseDirectory) => new UnpatchedClient({ baseDirectory })
        );
        after = await runScenario(
            defer,
            (baseDirectory, warnings) =>
                new CopilotClient({
                    baseDirectory,
                    onToolWarning: (warning) => warnings.push(warning.code),
                })
        );
    } finally {
        await run();
    }

    const rule = "─".repeat(LABEL_WIDTH + 2 * COLUMN_WIDTH + 6);
    const lines = [
        `A custom tool named "${TOOL}" (a built-in name); the model calls "${TOOL}".`,
        `@github/copilot-sdk 1.0.14, its real runtime, model ${CLAUDE_MODEL} mocked on 127.0.0.1.`,
        "",
        ...row("", "UNPATCHED SDK", "PATCHED SDK"),
        rule,
        ...row("createSession", before.createSession, after.createSession),
        ...row("warnings", before.warnings, after.warnings),
        ...row("send", before.send, after.send),
        ...row("model requests", before.modelRequests, after.modelRequests),
        ...row("tools the model received", twoUp(before.toolsSeen), twoUp(after.toolsSeen)),
        ...row(`definition of ${TOOL}`, before.viewDefinition, after.viewDefinition),
        ...row("handler that ran", before.handlerRan, after.handlerRan),
        ...row("tool result", before.toolResult, after.toolResult),
        ...row("final reply", before.finalReply, after.finalReply),
        rule,
    ];
    console.log(lines.join("\n"));

    const left = await leftovers();
    const clean =
        left.runtimeProcesses.length === 0 &&
        left.openModels.length === 0 &&
        left.directories.length === 0;
    console.log(
        clean
            ? `Done in ${((Date.now() - started) / 1000).toFixed(1)} s; runtimes stopped, mock model closed, temp dirs removed.`
            : `Left behind: ${JSON.stringify(left)}`
    );
    return clean ? 0 : 1;
}

main().then(
    (code) => process.exit(code),
    (error: unknown) => {
        console.error(error);
        process.exit(1);
    }
);
