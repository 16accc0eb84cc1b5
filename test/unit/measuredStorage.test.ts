/**
 * The discovery's data files store the tool sets offered per model compactly (issue 20): each
 * distinct list once, as a family named after the first model id (sorted) that gets it, with a
 * model-to-family map; the generated module keeps the shape src/ reads (`offeredByModel`) and
 * declares each repeated list once (CONTRIBUTING.md, "The runtime's built-in tools").
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import ts from "typescript";
import { describe, expect, it } from "vitest";

interface Measured {
    sdkVersion: string;
    runtimeVersion: string;
    offeredByModel?: Record<string, string[]>;
    offeredByFamily?: Record<string, string[]>;
    familyOfModel?: Record<string, string>;
    [key: string]: unknown;
}
interface MeasuredCatalog {
    MEASURED_DATA: string;
    compactMeasurement(measured: Measured): Measured;
    expandMeasurement(stored: Measured): Measured;
    renderMeasuredModule(entries: Measured[]): string;
}

const ROOT = join(import.meta.dirname, "..", "..");
const lib = {
    ...(await import("../../src/cli/conformance/measuredCatalog.js")),
    ...(await import(
        pathToFileURL(join(ROOT, "scripts", "measure", "lib", "measuredModule.mjs")).href
    )),
} as unknown as MeasuredCatalog;

const GPT = ["apply_patch", "bash", "view"];
const OTHERS = ["bash", "edit", "view"];
const MEASURED: Measured = {
    runtimeVersion: "1.0.85",
    sdkVersion: "1.0.14",
    builtIns: ["apply_patch", "bash", "edit", "view"],
    offeredByModel: {
        "*": OTHERS,
        "claude-sonnet-4.5": OTHERS,
        "gpt-4o": GPT,
        "gpt-5-codex": GPT,
        o3: OTHERS,
    },
    offeredByCondition: { planMode: ["exit_plan_mode"] },
};

describe("compact storage of a measurement", () => {
    it("stores each distinct per-model list once, with a model-to-family map", () => {
        const stored = lib.compactMeasurement(MEASURED);
        expect(stored.offeredByModel).toBeUndefined();
        expect(stored.offeredByFamily).toEqual({ "*": OTHERS, "gpt-4o": GPT });
        expect(stored.familyOfModel).toEqual({
            "*": "*",
            "claude-sonnet-4.5": "*",
            "gpt-4o": "gpt-4o",
            "gpt-5-codex": "gpt-4o",
            o3: "*",
        });
    });

    it("keeps the other fields, in their order", () => {
        expect(Object.keys(lib.compactMeasurement(MEASURED))).toEqual([
            "runtimeVersion",
            "sdkVersion",
            "builtIns",
            "offeredByFamily",
            "familyOfModel",
            "offeredByCondition",
        ]);
    });

    it("reads back to the measurement it stores", () => {
        const back = lib.expandMeasurement(lib.compactMeasurement(MEASURED));
        expect(back).toEqual(MEASURED);
        expect(Object.keys(back)).toEqual(Object.keys(MEASURED));
    });

    it("reads a file in the earlier form, with offeredByModel, as it is", () => {
        expect(lib.expandMeasurement(MEASURED)).toBe(MEASURED);
    });

    it("refuses a model whose family is not stored", () => {
        const stored = { ...lib.compactMeasurement(MEASURED), familyOfModel: { o3: "missing" } };
        expect(() => lib.expandMeasurement(stored)).toThrow("'missing'");
    });

    it("is the form of every committed data file", () => {
        for (const name of readdirSync(lib.MEASURED_DATA).filter((n) => n.endsWith(".json"))) {
            const text = readFileSync(join(lib.MEASURED_DATA, name), "utf8");
            const stored = JSON.parse(text) as Measured;
            expect(stored.offeredByModel, name).toBeUndefined();
            const families = Object.values(stored.offeredByFamily!).map((l) => JSON.stringify(l));
            expect(new Set(families).size, name).toBe(families.length);
            expect(
                `${JSON.stringify(lib.compactMeasurement(lib.expandMeasurement(stored)), null, 4)}\n`
            ).toBe(text);
        }
    });
});

describe("the generated module", () => {
    /** The value the module exports, through the TypeScript compiler. */
    async function exported(source: string): Promise<unknown> {
        const js = ts.transpileModule(source, {
            compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
        }).outputText;
        const module = (await import(`data:text/javascript,${encodeURIComponent(js)}`)) as {
            MEASURED_BUILT_IN_TOOLS: unknown;
        };
        return module.MEASURED_BUILT_IN_TOOLS;
    }

    it("exports every measurement with offeredByModel, oldest SDK version first", async () => {
        const newer = { ...MEASURED, sdkVersion: "1.0.15-preview.4", runtimeVersion: "1.0.89-7" };
        const older = { ...MEASURED, sdkVersion: "1.0.13", runtimeVersion: "1.0.83" };
        const source = lib.renderMeasuredModule([newer, older]);
        expect(await exported(source)).toEqual([older, newer]);
    });

    it("declares a list that occurs more than once once, and the entries refer to it", () => {
        const source = lib.renderMeasuredModule([MEASURED]);
        const others = JSON.stringify(OTHERS);
        expect(source.split(others).length - 1).toBe(1);
        expect(source.split(JSON.stringify(GPT)).length - 1).toBe(1);
        // a list that occurs once stays in place
        expect(source).not.toContain(`= ${JSON.stringify(["exit_plan_mode"])}`);
        expect(source).toMatch(/"planMode": \[\s*"exit_plan_mode"\s*\]/);
    });
});
