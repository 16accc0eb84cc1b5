// ESLint (flat config): typescript-eslint's recommended rules for src/, and the layers the docs
// state, as import rules (CONTRIBUTING.md, "Layout"):
// - src/toolFilter/ imports nothing else: no other src module, no SDK, no package;
// - src/safetyNet/ imports the SDK as types only;
// - src/sdkSeam/ is the one place that touches SDK internals (the members sdkSeam.ts lists);
// - src/patch.ts, what the thin patch imports, never imports the SDK, even through other modules;
// - src/ never imports scripts/, upstream/ or test/;
// - scripts/upstream/ and scripts/repro/ are areas of their own: src/ and the other scripts never
//   import them.

import js from "@eslint/js";
import tseslint from "typescript-eslint";
import boundaries from "./eslint/boundaries.mjs";

const SDK = ["@github/copilot-sdk", "@github/copilot-sdk/*"];

/** What no module of src/ imports: the repository's tooling, the upstream series, the tests. */
const OUTSIDE_SRC = {
    group: ["**/scripts/**", "**/upstream/**", "**/test/**", "**/bench/**", "**/demo/**"],
    message:
        "src/ is the product: it never imports the repository's scripts, the upstream series or the tests.",
};

/** The areas of their own that no script outside them imports. */
const OWN_AREAS = {
    group: ["**/upstream/**", "**/repro/**"],
    message:
        "scripts/upstream and scripts/repro are areas of their own: other scripts do not import them (import the product from build/).",
};

/** SDK members that are not its public contract (src/sdkSeam/sdkSeam.ts, INTERNAL_MEMBERS). */
const SDK_INTERNALS =
    "resolveToolFilterOptions|resumeSessionForExtension|isExternalServer|resolvedCliPath|registerTools|_markDisconnected";

export default tseslint.config(
    {
        ignores: [
            "build/**",
            "node_modules/**",
            ".cache/**",
            "patches/**",
            "upstream/**",
            "src/safetyNet/measuredBuiltInTools.generated.ts",
        ],
    },
    {
        files: ["src/**/*.ts"],
        extends: [js.configs.recommended, ...tseslint.configs.recommended],
        plugins: { boundaries },
        rules: {
            // `// @ts-ignore: <why>` where no `@ts-expect-error` can do (moduleLocation.ts: the
            // line is an error in the CommonJS compile only).
            "@typescript-eslint/ban-ts-comment": [
                "error",
                { "ts-ignore": "allow-with-description" },
            ],
            // Declaration merging into the SDK's interfaces (sdkSeam/sdkTypes.ts) adds members
            // through `extends`, with an empty body.
            "@typescript-eslint/no-empty-object-type": [
                "error",
                { allowInterfaces: "with-single-extends" },
            ],
            // Destructuring to leave fields out (`{ dropped: _dropped, ...rest }`).
            "@typescript-eslint/no-unused-vars": ["error", { ignoreRestSiblings: true }],
            "@typescript-eslint/no-restricted-imports": ["error", { patterns: [OUTSIDE_SRC] }],
            "no-restricted-syntax": [
                "error",
                {
                    selector: `MemberExpression[property.name=/^(${SDK_INTERNALS})$/]`,
                    message:
                        "An SDK internal: only src/sdkSeam/ touches them (list it in sdkSeam.ts's INTERNAL_MEMBERS with why).",
                },
            ],
        },
    },
    {
        files: ["src/toolFilter/**/*.ts"],
        rules: {
            "@typescript-eslint/no-restricted-imports": [
                "error",
                {
                    patterns: [
                        {
                            regex: "^(?!\\./)",
                            message:
                                "src/toolFilter/ depends on nothing: it imports only its own modules (./).",
                        },
                    ],
                },
            ],
        },
    },
    {
        files: ["src/safetyNet/**/*.ts"],
        rules: {
            "@typescript-eslint/no-restricted-imports": [
                "error",
                {
                    patterns: [
                        OUTSIDE_SRC,
                        {
                            group: SDK,
                            allowTypeImports: true,
                            message:
                                "src/safetyNet/ imports the SDK as types only (`import type`): values reach it from src/sdkSeam/.",
                        },
                    ],
                },
            ],
        },
    },
    {
        files: ["src/sdkSeam/**/*.ts"],
        rules: { "no-restricted-syntax": "off" },
    },
    {
        files: ["src/patch.ts"],
        rules: { "boundaries/no-sdk-import-through": "error" },
    },
    {
        files: ["scripts/**/*.mjs"],
        ignores: ["scripts/upstream/**", "scripts/repro/**"],
        extends: [js.configs.recommended],
    },
    {
        files: ["scripts/**/*.mjs"],
        languageOptions: {
            sourceType: "module",
            globals: {
                console: "readonly",
                process: "readonly",
                performance: "readonly",
                setTimeout: "readonly",
                clearTimeout: "readonly",
                URL: "readonly",
                Buffer: "readonly",
            },
        },
        rules: {
            "no-restricted-imports": ["error", { patterns: [OWN_AREAS] }],
        },
    },
    {
        // The upstream contribution's tooling and the VS Code reproductions: their own modules,
        // and the product's build, but not each other.
        files: ["scripts/upstream/**/*.mjs"],
        rules: {
            "no-restricted-imports": [
                "error",
                {
                    patterns: [
                        { ...OWN_AREAS, group: ["**/repro/**", "../measure/**", "../patch/**"] },
                    ],
                },
            ],
        },
    },
    {
        files: ["scripts/repro/**/*.mjs"],
        rules: {
            "no-restricted-imports": [
                "error",
                {
                    patterns: [
                        { ...OWN_AREAS, group: ["**/upstream/**", "../measure/**", "../patch/**"] },
                    ],
                },
            ],
        },
    }
);
