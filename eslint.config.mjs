// ESLint (flat config): typescript-eslint's recommended rules for src/, test/, bench/ and demo/,
// and the layers of src/ (CONTRIBUTING.md, "Layout") as import rules, one per folder. From the
// bottom up, each folder imports only those below it:
//   shared/ -> toolFilter/ -> sdk/ -> toolCustomization/{api -> catalog -> input -> prompt ->
//   construction -> session} -> wrap/ -> the entries (library.ts, patch.ts, extension.ts,
//   publicApi.ts);
// chatOpen/ stands on shared/ and toolFilter/ alone, mockModel/ on nothing, and cli/ reaches the
// product only by its package name. Besides:
// - toolCustomization/ imports the SDK as types only; sdk/ is the one place that touches SDK
//   internals (the members sdk/internals.ts lists);
// - no module of src/ reaches itself through its imports (boundaries/no-cycle);
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

/** SDK members that are not its public contract (src/sdk/internals.ts, INTERNAL_MEMBERS). */
const SDK_INTERNALS =
    "resolveToolFilterOptions|resumeSessionForExtension|isExternalServer|resolvedCliPath|registerTools|_markDisconnected";

/** Touching an SDK internal outside src/sdk/. */
const SDK_INTERNAL_ACCESS = {
    selector: `MemberExpression[property.name=/^(${SDK_INTERNALS})$/]`,
    message:
        "An SDK internal: only src/sdk/ touches them (list it in internals.ts's INTERNAL_MEMBERS with why).",
};

/**
 * Messages are built from short parts: a string, or a template's literal part, of more than 120
 * characters on one line cannot be read beside the code (multi-line texts, such as a command's
 * usage, are not counted).
 */
const SHORT_PARTS = [
    {
        selector: "Literal[value=/^[^\\n]{121,}$/]",
        message:
            "Build a long message from short parts (`...` + `...`), each at most 120 characters.",
    },
    {
        selector: "TemplateElement[value.raw=/^[^\\n]{121,}$/]",
        message:
            "Build a long message from short parts (`...` + `...`), each at most 120 characters.",
    },
];

/** The SDK as types only: values reach the domain through src/sdk/. */
const SDK_TYPES_ONLY = {
    group: SDK,
    allowTypeImports: true,
    message:
        "src/toolCustomization/ imports the SDK as types only (`import type`): values reach it from src/sdk/.",
};

/** The folders of src/ from the bottom up; each imports only the folders before it. */
const LAYERS = [
    "shared",
    "toolFilter",
    "sdk",
    "toolCustomization/api",
    "toolCustomization/catalog",
    "toolCustomization/input",
    "toolCustomization/prompt",
    "toolCustomization/construction",
    "toolCustomization/session",
    "wrap",
];

/** The folders beside the layers, and what each may import of src/. */
const SIDE_FOLDERS = {
    chatOpen: ["shared", "toolFilter"],
    mockModel: [],
};

/**
 * A regular expression that matches a relative import from `from` (a folder of src/) into any
 * folder of src/ that is not `allowed` (nor `from` itself), or into an entry module of src/.
 *
 * @param {string} from
 * @param {readonly string[]} allowed
 */
function outsideOf(from, allowed) {
    const depth = from.split("/").length;
    const escape = (/** @type {string} */ folder) => folder.replaceAll("/", "\\/");
    const folders = [from, ...allowed].map(escape).join("|");
    // From src/<from>/x.ts, `depth` times `../` reaches src/: what follows must be an allowed
    // folder. Inside toolCustomization/, a sibling is reached by a single `../`.
    let pattern = `^(?:\\.\\./){${depth}}(?!(?:${folders})\\/)`;
    if (depth === 2) {
        const [parent, own] = from.split("/");
        const siblings = allowed
            .filter((folder) => folder.startsWith(`${parent}/`))
            .map((folder) => folder.split("/")[1]);
        pattern += `|^\\.\\./(?!(?:${[own, ...siblings].join("|")})\\/)[^.]`;
    }
    return pattern;
}

/**
 * The import rule of one folder of src/: it imports only `allowed` folders of src/ (with the
 * reason), never the outside of src/, and the SDK as types only where `typesOnly`.
 *
 * @param {string} folder
 * @param {readonly string[]} allowed
 * @param {string} why
 * @param {boolean} [typesOnly]
 * @returns {import("eslint").Linter.Config}
 */
function layer(folder, allowed, why, typesOnly = false) {
    return {
        files: [`src/${folder}/**/*.ts`],
        rules: {
            "@typescript-eslint/no-restricted-imports": [
                "error",
                {
                    patterns: [
                        OUTSIDE_SRC,
                        ...(typesOnly ? [SDK_TYPES_ONLY] : []),
                        {
                            regex: outsideOf(folder, allowed),
                            message: `src/${folder}/ imports only ${allowed.length === 0 ? "its own modules" : `its own modules and src/${allowed.join(", src/")}`}: ${why}`,
                        },
                    ],
                },
            ],
        },
    };
}

/** Why each layer stands where it does. */
const WHY = {
    shared: "formatting and list reading for every layer, so it imports nothing of the product.",
    toolFilter: "the generic filter helper, usable without the SDK or the session.",
    sdk: "the SDK accessor, below the domain: it knows the SDK's files and internals, not the tool customization.",
    "toolCustomization/api":
        "the public vocabulary (types, errors, warnings, shared config types) every step speaks.",
    "toolCustomization/catalog": "the built-in tools as measured: data, read by the steps above.",
    "toolCustomization/input": "the readers of what the caller passes, before any step decides.",
    "toolCustomization/prompt": "the agreement of the runtime's instructions, given the tools.",
    "toolCustomization/construction":
        "the construction pipeline, below the running session that rebuilds with it.",
    "toolCustomization/session": "the running session, below the client adapter that attaches it.",
    wrap: "the client adapter, above the domain and below the package's entries.",
};

export default tseslint.config(
    {
        ignores: [
            "build/**",
            "node_modules/**",
            ".cache/**",
            "patches/**",
            "upstream/**",
            "src/toolCustomization/catalog/generated/**",
        ],
    },
    {
        files: ["src/**/*.ts", "test/**/*.ts", "bench/**/*.ts", "demo/**/*.ts", "*.ts"],
        extends: [js.configs.recommended, ...tseslint.configs.recommended],
        rules: {
            // `// @ts-ignore: <why>` where no `@ts-expect-error` can do (moduleLocation.ts: the
            // line is an error in the CommonJS compile only).
            "@typescript-eslint/ban-ts-comment": [
                "error",
                { "ts-ignore": "allow-with-description" },
            ],
            // Declaration merging into the SDK's interfaces (wrap/sdkTypes.ts) adds members
            // through `extends`, with an empty body.
            "@typescript-eslint/no-empty-object-type": [
                "error",
                { allowInterfaces: "with-single-extends" },
            ],
            // Destructuring to leave fields out (`{ dropped: _dropped, ...rest }`).
            "@typescript-eslint/no-unused-vars": ["error", { ignoreRestSiblings: true }],
        },
    },
    {
        files: ["src/**/*.ts"],
        plugins: { boundaries },
        rules: {
            "@typescript-eslint/no-restricted-imports": ["error", { patterns: [OUTSIDE_SRC] }],
            "boundaries/no-cycle": "error",
            "no-restricted-syntax": ["error", SDK_INTERNAL_ACCESS, ...SHORT_PARTS],
        },
    },
    ...LAYERS.map((folder, index) =>
        layer(
            folder,
            LAYERS.slice(0, index),
            WHY[/** @type {keyof typeof WHY} */ (folder)],
            folder.startsWith("toolCustomization/")
        )
    ),
    layer(
        "chatOpen",
        SIDE_FOLDERS.chatOpen,
        "VS Code's chat.open adapter stands on the generic filter alone."
    ),
    layer("mockModel", SIDE_FOLDERS.mockModel, "the mock model is a product of its own."),
    {
        // The command reaches the product only by its package name, as an app does.
        files: ["src/cli/*.ts"],
        rules: {
            "@typescript-eslint/no-restricted-imports": [
                "error",
                {
                    patterns: [
                        OUTSIDE_SRC,
                        {
                            regex: "^\\.\\./",
                            message:
                                "src/cli/ reaches the product only by its package name (copilot-sdk-tool-override/...), as an app does.",
                        },
                    ],
                },
            ],
        },
    },
    {
        files: ["src/cli/*/**/*.ts"],
        rules: {
            "@typescript-eslint/no-restricted-imports": [
                "error",
                {
                    patterns: [
                        OUTSIDE_SRC,
                        {
                            regex: "^\\.\\./\\.\\./",
                            message:
                                "src/cli/ reaches the product only by its package name (copilot-sdk-tool-override/...), as an app does.",
                        },
                    ],
                },
            ],
        },
    },
    {
        files: ["src/sdk/**/*.ts"],
        rules: { "no-restricted-syntax": ["error", ...SHORT_PARTS] },
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
