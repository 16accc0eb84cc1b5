/**
 * The pure decisions behind the runtime proof: the warnings for a system message that names a
 * removed or replaced tool (`PROMPT_NAMES_REMOVED_TOOL`; the naming rule is tested in
 * toolMentions.test.ts), and which differences between two probed runtimes fail
 * `conformance --compare`, with its command line.
 */
import { describe, expect, it } from "vitest";
import { promptToolWarnings } from "../../src/toolCustomization/prompt/appPromptCheck.js";
import {
    acceptDifferences,
    compareRuntimes,
    formatComparison,
    readAcceptedDifferences,
    type Difference,
} from "../../src/cli/conformance/runtimeComparison.js";
import type { CompareProbeResult } from "../../src/cli/conformance/compareProbe.js";
import { readCompareArguments } from "../../src/cli/conformance/conformanceCompare.js";

describe("promptToolWarnings", () => {
    const enablement = new Map([
        ["view", false],
        ["bash", true],
        ["apply_patch", true],
    ]);
    const names = new Set(enablement.keys());

    it("names a tool the filter removed", () => {
        const warnings = promptToolWarnings(
            { content: "Read with `view`." },
            enablement,
            [],
            names
        );
        expect(warnings.map((w) => [w.code, w.option, w.identifiers])).toEqual([
            ["PROMPT_NAMES_REMOVED_TOOL", "systemMessage", ["view"]],
        ]);
        expect(warnings[0]?.message).toContain("'view'");
    });

    it("names a built-in a custom tool replaced, from a customize section too", () => {
        const warnings = promptToolWarnings(
            {
                mode: "customize",
                sections: {
                    tool_instructions: { action: "append", content: "Prefer apply_patch." },
                },
            },
            enablement,
            ["apply_patch"],
            names
        );
        expect(warnings.map((w) => w.identifiers)).toEqual([["apply_patch"]]);
        expect(warnings[0]?.message).toContain("replaces");
    });

    it("says nothing for tools that are on, or without a systemMessage", () => {
        expect(promptToolWarnings({ content: "Run `bash`." }, enablement, [], names)).toEqual([]);
        expect(promptToolWarnings(undefined, enablement, ["view"], names)).toEqual([]);
    });
});

/** A probe result for one model, with what a test sets. */
function probed(
    parts: Partial<Omit<CompareProbeResult, "offered">> & { offered: string[] }
): CompareProbeResult {
    const model = "claude-sonnet-4.5";
    return {
        runtimeVersion: "x",
        listed: parts.listed ?? [],
        listedByModel: parts.listedByModel ?? { [model]: [] },
        offered: { [model]: parts.offered },
        names: parts.names ?? { [model]: {} },
        app: parts.app,
    };
}

describe("compareRuntimes: what fails an upgrade", () => {
    const model = "claude-sonnet-4.5";
    const runs = { noFlag: "custom-runs", flag: "custom-runs" };

    it("finds nothing when the runtimes agree", () => {
        const same = probed({ offered: ["bash", "view"], names: { [model]: { lint: runs } } });
        expect(compareRuntimes(same, same, ["lint"]).differences).toEqual([]);
    });

    it("names a new built-in of an app tool's name, an override no longer honoured and a dropped built-in", () => {
        const a = probed({
            offered: ["bash", "view"],
            names: {
                [model]: { lint: runs, view: { noFlag: "fails-at-send", flag: "custom-runs" } },
            },
        });
        const b = probed({
            offered: ["bash", "lint"],
            names: {
                [model]: {
                    lint: { noFlag: "fails-at-send", flag: "custom-runs" },
                    view: { noFlag: "fails-at-send", flag: "built-in-answers" },
                },
            },
        });
        expect(compareRuntimes(a, b, ["lint", "view"]).differences).toEqual([
            { kind: "NEW_BUILT_IN", tool: "lint", model, a: "no built-in", b: "offered built-in" },
            {
                kind: "OVERRIDE_NOT_HONOURED",
                tool: "view",
                model,
                a: "override honoured (custom handler runs)",
                b: "built-in-answers",
            },
            { kind: "TOOL_DROPPED", tool: "view", model, a: "offered", b: "not offered" },
        ]);
    });

    it("counts a hidden built-in (a custom tool without the flag answered by it) as a built-in", () => {
        const a = probed({ offered: [], names: { [model]: { lint: runs } } });
        const b = probed({
            offered: [],
            names: { [model]: { lint: { noFlag: "built-in-answers", flag: "custom-runs" } } },
        });
        expect(compareRuntimes(a, b, ["lint"]).differences.map((d) => d.kind)).toEqual([
            "NEW_BUILT_IN",
        ]);
    });

    it("names what the app's filter resolves to differently, and reports new built-ins for information only", () => {
        const a = probed({ offered: ["bash"], app: { [model]: { seen: ["bash", "lint"] } } });
        const b = probed({
            offered: ["bash", "sql"],
            app: { [model]: { seen: ["bash", "lint", "sql"] } },
        });
        const { differences, added } = compareRuntimes(a, b, ["lint"]);
        expect(differences).toEqual([
            { kind: "FILTER_CHANGED", tool: "sql", model, a: "not offered", b: "offered" },
        ]);
        expect(added).toEqual({ [model]: ["sql"] });
        const table = formatComparison({
            a: { spec: "A", version: "1" },
            b: { spec: "B", version: "2" },
            tools: ["lint"],
            differences,
            added,
        });
        expect(table).toContain("FILTER_CHANGED  sql");
        expect(table).toContain("1 difference the app relies on: exit 1.");
    });
});

describe("conformance --compare: usage errors name the bad value", () => {
    const refused = (args: string[]) => {
        try {
            readCompareArguments(args);
        } catch (error) {
            return (error as Error).message;
        }
        return undefined;
    };

    it.for([
        [
            ["--compare", "@github/copilot@1.0.83"],
            "--compare needs two runtimes, found '@github/copilot@1.0.83'.",
        ],
        [["--compare", "a@1", "b@2", "--tools", "view,,bash"], "Invalid --tools entry ''"],
        [
            ["--compare", "a@1", "b@2", "--tools", "view", "--app", "x.mjs"],
            "Give --tools or --app, not both",
        ],
        [
            ["--compare", "a@1", "b@2", "--app", "no-such-app.mjs"],
            "--app 'no-such-app.mjs' does not exist",
        ],
        [
            ["--compare", "not a spec", "b@2"],
            "Runtime 'not a spec' is neither an existing path nor an npm spec",
        ],
        [["--compare", "a@1", "b@2", "--jsn"], "Unknown option '--jsn'."],
        [["--compare", "a@1", "b@2", "c@3"], "Unexpected argument 'c@3'."],
        [
            ["--compare", "a@1", "b@2", "--sdk-a", "latest"],
            "Invalid --sdk-a 'latest': give the @github/copilot-sdk version",
        ],
        [["--compare", "a@1", "b@2", "--sdk-b"], "--sdk-b needs a value."],
    ] as const)("%j", ([args, message]) => {
        expect(refused([...args])).toContain(message);
    });

    it("reads a valid command line", () => {
        expect(
            readCompareArguments([
                "--compare",
                "@github/copilot@1.0.83",
                "@github/copilot@1.0.102",
                "--tools",
                "view,bash,apply_patch",
                "--json",
                "--sdk-a",
                "1.0.14",
                "--sdk-b",
                "1.0.15-preview.4",
            ])
        ).toStrictEqual({
            a: "@github/copilot@1.0.83",
            b: "@github/copilot@1.0.102",
            tools: ["view", "bash", "apply_patch"],
            app: undefined,
            json: true,
            accept: undefined,
            sdkA: "1.0.14",
            sdkB: "1.0.15-preview.4",
        });
    });
});

describe("conformance --compare --accept: reviewed differences", () => {
    const newBuiltIn: Difference = {
        kind: "NEW_BUILT_IN",
        tool: "apply_patch",
        model: "gpt-4o",
        a: "answered",
        b: "conflict",
    };
    const dropped: Difference = {
        kind: "TOOL_DROPPED",
        tool: "semantic_code_search",
        model: "claude-sonnet-4.5",
        a: "offered",
        b: "absent",
    };

    it("accepts a difference whose code and tool an entry names, on any model unless the entry names one", () => {
        const entries = readAcceptedDifferences(
            JSON.stringify({
                accepted: [{ code: "NEW_BUILT_IN", tool: "apply_patch", reason: "reviewed" }],
            }),
            "reviewed.json"
        );
        expect(acceptDifferences([newBuiltIn, dropped], entries)).toEqual({
            accepted: [newBuiltIn],
            unaccepted: [dropped],
        });
        const otherModel = readAcceptedDifferences(
            JSON.stringify({
                accepted: [{ code: "NEW_BUILT_IN", tool: "apply_patch", model: "gpt-5" }],
            }),
            "reviewed.json"
        );
        expect(acceptDifferences([newBuiltIn], otherModel).unaccepted).toEqual([newBuiltIn]);
        // Another code for the same tool is not accepted.
        const otherCode = readAcceptedDifferences(
            JSON.stringify({ accepted: [{ code: "TOOL_DROPPED", tool: "apply_patch" }] }),
            "reviewed.json"
        );
        expect(acceptDifferences([newBuiltIn], otherCode).unaccepted).toEqual([newBuiltIn]);
    });

    it("refuses a file that is not JSON, has no list, or an entry without a known code or a tool, naming it", () => {
        expect(() => readAcceptedDifferences("{", "r.json")).toThrow(
            /--accept 'r.json' is not JSON/
        );
        expect(() => readAcceptedDifferences("{}", "r.json")).toThrow(/has no "accepted" list/);
        expect(() =>
            readAcceptedDifferences(
                JSON.stringify({ accepted: [{ code: "NEW_TOOL", tool: "x" }] }),
                "r.json"
            )
        ).toThrow(/entry 0: code "NEW_TOOL" is not a difference's code; use one of NEW_BUILT_IN/);
        expect(() =>
            readAcceptedDifferences(
                JSON.stringify({ accepted: [{ code: "NEW_BUILT_IN" }] }),
                "r.json"
            )
        ).toThrow(/entry 0: "tool" must name the tool/);
    });

    it("prints accepted differences apart from the ones that fail", () => {
        const text = formatComparison({
            a: { spec: "A", version: "1" },
            b: { spec: "B", version: "2" },
            tools: ["apply_patch"],
            differences: [],
            accepted: [newBuiltIn],
            added: {},
        });
        expect(text).toContain("Accepted (--accept): NEW_BUILT_IN apply_patch on gpt-4o");
        expect(text).toContain("Nothing else the app relies on changed.");
    });
});
