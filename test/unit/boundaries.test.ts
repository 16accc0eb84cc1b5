/**
 * The layers of src/ as ESLint checks them (eslint.config.mjs): each folder's rule reports an
 * import planted into a module of that folder, and the circle rule a planted circle. A rule that
 * stopped matching would let the layers drift silently; these fail then.
 */
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const eslint = new ESLint({ cwd: process.cwd() });

/** The messages ESLint gives `text` as if it were the module at `filePath`. */
async function findings(filePath: string, text: string): Promise<string[]> {
    const [result] = await eslint.lintText(text, { filePath });
    return (result?.messages ?? []).map((message) => `${message.ruleId}: ${message.message}`);
}

/** For each folder, a module in it and an import that runs back up (or out of its lane). */
const PLANTED: readonly (readonly [folder: string, file: string, specifier: string])[] = [
    ["shared", "formatting.ts", "../toolFilter/toolFilter.js"],
    ["toolFilter", "toolFilter.ts", "../sdk/release.js"],
    ["sdk", "release.ts", "../toolCustomization/api/publicTypes.js"],
    ["toolCustomization/api", "publicTypes.ts", "../catalog/defaultToolSets.js"],
    ["toolCustomization/api", "publicTypes.ts", "../../wrap/patchMarker.js"],
    ["toolCustomization/catalog", "defaultToolSets.ts", "../input/callerInput.js"],
    ["toolCustomization/input", "callerInput.ts", "../prompt/toolMentions.js"],
    ["toolCustomization/prompt", "toolMentions.ts", "../construction/pipeline.js"],
    ["toolCustomization/construction", "pipeline.ts", "../session/record.js"],
    ["toolCustomization/session", "record.ts", "../../wrap/wrapSdk.js"],
    ["wrap", "wrapSdk.ts", "../publicApi.js"],
    ["chatOpen", "chatOpenOptions.ts", "../toolCustomization/api/publicTypes.js"],
    ["mockModel", "mockChatModel.ts", "../shared/formatting.js"],
    ["cli", "doctor.ts", "../publicApi.js"],
    ["cli", "conformance/conformance.ts", "../../shared/formatting.js"],
];

describe("the layers of src/", () => {
    it.each(PLANTED)(
        "src/%s/ refuses an import of %s's from above its layer (%s)",
        async (folder, file, specifier) => {
            const planted = await findings(
                `src/${folder}/${file}`,
                `import { x } from "${specifier}";\nexport const y = x;\n`
            );
            expect(planted.join("\n")).toMatch(
                /^@typescript-eslint\/no-restricted-imports: '.*' import is restricted/m
            );
        }
    );

    it("lets a module import its own folder and the layers below it", async () => {
        const allowed = await findings(
            "src/toolCustomization/construction/pipeline.ts",
            [
                'import { a } from "./filter.js";',
                'import { b } from "../prompt/toolMentions.js";',
                'import { c } from "../api/publicTypes.js";',
                'import { d } from "../../sdk/internals.js";',
                'import { e } from "../../shared/formatting.js";',
                "export const f = [a, b, c, d, e];",
                "",
            ].join("\n")
        );
        expect(allowed.filter((line) => line.includes("no-restricted-imports"))).toEqual([]);
    });

    it("refuses a value import of the SDK in toolCustomization/ and allows a type import", async () => {
        const value = await findings(
            "src/toolCustomization/session/record.ts",
            'import { CopilotClient } from "@github/copilot-sdk";\nexport const c = CopilotClient;\n'
        );
        expect(value.join("\n")).toContain("imports the SDK as types only");
        const typeOnly = await findings(
            "src/toolCustomization/session/record.ts",
            'import type { CopilotClient } from "@github/copilot-sdk";\nexport type C = CopilotClient;\n'
        );
        expect(typeOnly.join("\n")).not.toContain("imports the SDK as types only");
    });

    it("refuses an SDK internal outside src/sdk/", async () => {
        const planted = await findings(
            "src/wrap/wrapSdk.ts",
            "export const f = (client: { isExternalServer?: boolean }) => client.isExternalServer;\n"
        );
        expect(planted.join("\n")).toContain("no-restricted-syntax: An SDK internal");
    });

    it("refuses an import circle, type-only imports included", async () => {
        // pipeline.ts imports clientState.ts: clientState.ts importing it back closes a circle.
        const planted = await findings(
            "src/toolCustomization/construction/clientState.ts",
            'import type { PreparedSessionTools } from "./pipeline.js";\nexport type P = PreparedSessionTools<object>;\n'
        );
        expect(planted.join("\n")).toMatch(
            /boundaries\/no-cycle: An import circle: src\/toolCustomization\/construction\/clientState\.ts -> src\/toolCustomization\/construction\/pipeline\.ts -> src\/toolCustomization\/construction\/clientState\.ts/
        );
    });

    it("finds no circle and no layer broken in src/ as it is", async () => {
        const results = await eslint.lintFiles(["src/**/*.ts"]);
        const broken = results.flatMap((result) =>
            result.messages
                .filter((message) =>
                    ["boundaries/no-cycle", "@typescript-eslint/no-restricted-imports"].includes(
                        message.ruleId ?? ""
                    )
                )
                .map((message) => `${result.filePath}: ${message.message}`)
        );
        expect(broken).toEqual([]);
    });
});
