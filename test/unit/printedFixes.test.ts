/**
 * Every printed fix is safe: no text the CLI can print (doctor, init, upgrade, conformance, the
 * start-up check), and no command in the docs that ship, fetches this package by its bare
 * registry name, which installs whatever another publisher registers under it. Each string and
 * template in src/cli is rendered with every branch of its conditionals (and the constants and
 * local consts it names filled in), so every code path's text is checked, not only those a
 * scenario reaches.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { notInDependencies } from "../../src/cli/doctor.js";
import { ownInstallArgument } from "../../src/cli/ownSpec.js";
import { bareNameFetches } from "../support/fetchCommands.js";

const ROOT = join(import.meta.dirname, "..", "..");
const NAME = "copilot-sdk-tool-override";
/** A rendering of one expression: each text it can take, capped so a file stays quick. */
const MAX_ALTERNATIVES = 512;

function filesUnder(dir: string, suffix: string): string[] {
    return readdirSync(dir, { withFileTypes: true, recursive: true })
        .filter((entry) => entry.isFile() && entry.name.endsWith(suffix))
        .map((entry) => join(entry.parentPath, entry.name));
}

/** Each text an expression can evaluate to; a part that cannot be known stays `<its source>`. */
function renderer(source: ts.SourceFile) {
    // Local consts by name (every declaration of a name: any of them may be the one in scope).
    const consts = new Map<string, ts.Expression[]>();
    const visit = (node: ts.Node) => {
        if (
            ts.isVariableDeclaration(node) &&
            ts.isIdentifier(node.name) &&
            node.initializer !== undefined &&
            ts.isVariableDeclarationList(node.parent) &&
            (node.parent.flags & ts.NodeFlags.Const) !== 0
        ) {
            consts.set(node.name.text, [...(consts.get(node.name.text) ?? []), node.initializer]);
        }
        ts.forEachChild(node, visit);
    };
    visit(source);
    const known = new Map<string, string[]>([
        ["OWN_PACKAGE", [NAME]],
        ["SDK_PACKAGE", ["@github/copilot-sdk"]],
        ["PATCH_SUBPATH", [`${NAME}/patch`]],
        ["cli", ["npx --no copilot-sdk-tool-override", "pnpm exec copilot-sdk-tool-override"]],
    ]);
    const product = (parts: string[][]): string[] => {
        let texts = [""];
        for (const part of parts) {
            texts = texts.flatMap((text) => part.map((piece) => text + piece));
            if (texts.length > MAX_ALTERNATIVES) texts = texts.slice(0, MAX_ALTERNATIVES);
        }
        return texts;
    };
    const render = (node: ts.Expression, depth = 0): string[] => {
        if (depth > 8) return [`<${node.getText(source)}>`];
        if (ts.isStringLiteralLike(node)) return [node.text];
        if (ts.isTemplateExpression(node)) {
            return product([
                [node.head.text],
                ...node.templateSpans.flatMap((span) => [
                    render(span.expression, depth + 1),
                    [span.literal.text],
                ]),
            ]);
        }
        if (ts.isParenthesizedExpression(node)) return render(node.expression, depth + 1);
        if (ts.isConditionalExpression(node)) {
            return [...render(node.whenTrue, depth + 1), ...render(node.whenFalse, depth + 1)];
        }
        if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
            return product([render(node.left, depth + 1), render(node.right, depth + 1)]);
        }
        if (
            ts.isBinaryExpression(node) &&
            (node.operatorToken.kind === ts.SyntaxKind.QuestionQuestionToken ||
                node.operatorToken.kind === ts.SyntaxKind.BarBarToken)
        ) {
            return [...render(node.left, depth + 1), ...render(node.right, depth + 1)];
        }
        if (ts.isCallExpression(node)) {
            const callee = node.expression.getText(source);
            if (callee === "cliCommand") return known.get("cli")!;
            // The app's own spec, rendered for an install command: safe by construction
            // (tested below).
            if (callee === "ownInstallArgument") return ["<the app's own spec>"];
        }
        if (ts.isIdentifier(node) || ts.isPropertyAccessExpression(node)) {
            const text = node.getText(source);
            if (text === "identity.name") return [NAME];
            const value = known.get(text);
            if (value !== undefined) return value;
            const local = ts.isIdentifier(node) ? consts.get(text) : undefined;
            if (local !== undefined) return local.flatMap((init) => render(init, depth + 1));
        }
        return [`<${node.getText(source)}>`];
    };
    return render;
}

/** Every text each string or template of a file can print, with its line. */
function printableTexts(file: string): { line: number; text: string }[] {
    const source = ts.createSourceFile(
        file,
        readFileSync(file, "utf8"),
        ts.ScriptTarget.Latest,
        true
    );
    const render = renderer(source);
    const texts: { line: number; text: string }[] = [];
    const visit = (node: ts.Node) => {
        if (ts.isTemplateExpression(node) || ts.isStringLiteralLike(node)) {
            const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
            for (const text of render(node)) texts.push({ line, text });
            // Template parts were rendered with their template.
            if (ts.isTemplateExpression(node)) return;
        }
        if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
            const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
            for (const text of render(node)) texts.push({ line, text });
        }
        ts.forEachChild(node, visit);
    };
    visit(source);
    return texts;
}

describe("the check for commands that fetch this package by its bare name", () => {
    it("finds installs, npx and dlx runs of the bare name or a registry version", () => {
        for (const command of [
            "npm install --save-prod copilot-sdk-tool-override",
            "Fix: `pnpm add --save-prod copilot-sdk-tool-override` (it moves the entry)",
            "npm i copilot-sdk-tool-override@0.4.0",
            "npx copilot-sdk-tool-override upgrade",
            "pnpm dlx copilot-sdk-tool-override@<version> init",
            "npx --yes --package copilot-sdk-tool-override@0.4.0 copilot-sdk-tool-override init",
            "npm exec copilot-sdk-tool-override -- init",
            "yarn add copilot-sdk-tool-override",
        ]) {
            expect(bareNameFetches(command, NAME), command).toHaveLength(1);
        }
    });

    it("passes runs of the installed copy and installs from a path, git or URL", () => {
        for (const command of [
            "npx --no copilot-sdk-tool-override init",
            "pnpm exec copilot-sdk-tool-override doctor",
            "npm install --save-prod ./copilot-sdk-tool-override-0.4.0.tgz",
            "npx --yes --package ./copilot-sdk-tool-override-0.4.0.tgz copilot-sdk-tool-override init",
            'pnpm dlx --package "$PWD/copilot-sdk-tool-override-0.4.0.tgz" copilot-sdk-tool-override init',
            "npm install --save-exact @github/copilot-sdk@1.0.14 patch-package@8.0.1",
            "imports copilot-sdk-tool-override/patch",
        ]) {
            expect(bareNameFetches(command, NAME), command).toEqual([]);
        }
    });
});

describe("every printed fix is safe", () => {
    it("no text of any code path in src/cli fetches this package by its bare name", () => {
        const offending: string[] = [];
        let rendered = 0;
        for (const file of filesUnder(join(ROOT, "src", "cli"), ".ts")) {
            for (const { line, text } of printableTexts(file)) {
                rendered++;
                for (const command of bareNameFetches(text, NAME)) {
                    offending.push(`${relative(ROOT, file)}:${line}: ${command}`);
                }
            }
        }
        expect(offending).toEqual([]);
        // The rendering reached the CLI's messages (thousands of texts), not an empty list.
        expect(rendered).toBeGreaterThan(1000);
    });

    it("no shipped Markdown file, nor the README, tells the reader to fetch it by its bare name", () => {
        const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
            files: string[];
        };
        const markdown = [
            join(ROOT, "README.md"),
            ...manifest.files.flatMap((entry) =>
                entry.endsWith("/")
                    ? filesUnder(join(ROOT, entry), ".md")
                    : entry.endsWith(".md")
                      ? [join(ROOT, entry)]
                      : []
            ),
        ];
        const offending = markdown.flatMap((file) =>
            readFileSync(file, "utf8")
                .split("\n")
                .flatMap((text, index) =>
                    bareNameFetches(text, NAME).map(
                        (command) => `${relative(ROOT, file)}:${index + 1}: ${command}`
                    )
                )
        );
        expect(offending).toEqual([]);
    });

    it("doctor's fix for a package only in devDependencies installs the app's own spec", () => {
        for (const [spec, argument] of [
            ["./copilot-sdk-tool-override-0.4.0.tgz", "./copilot-sdk-tool-override-0.4.0.tgz"],
            ["file:../vendor/x.tgz", "file:../vendor/x.tgz"],
            [
                "github:example/copilot-sdk-tool-override",
                "github:example/copilot-sdk-tool-override",
            ],
            ["0.4.0", "copilot-sdk-tool-override@0.4.0"],
            ["npm:@example/fork@1.2.3", "copilot-sdk-tool-override@npm:@example/fork@1.2.3"],
            ["workspace:*", "copilot-sdk-tool-override@workspace:*"],
        ] as const) {
            expect(ownInstallArgument(spec)).toBe(argument);
            const json = { devDependencies: { [NAME]: spec } };
            expect(notInDependencies(json, "npm")).toContain(
                `Fix: \`npm install --save-prod ${argument}\``
            );
            expect(notInDependencies(json, "pnpm")).toContain(
                `Fix: \`pnpm add --save-prod ${argument}\``
            );
        }
        expect(notInDependencies({ optionalDependencies: { [NAME]: "./x.tgz" } }, "npm")).toContain(
            "(only in optionalDependencies)"
        );
    });
});
