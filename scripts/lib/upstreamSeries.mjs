// Generates the upstream pull-request series (patches/upstream/*.patch) from src/ and the tests.
//
// For each stage of upstreamEdits.mjs STAGES, in a scratch clone of github/copilot-sdk at the
// base commit: write the stage's modules into nodejs/src and tests into nodejs/test (upstream's
// layout and license header, imports rewritten), apply the stage's anchored edits to upstream's
// own files, commit with the stage's message (scripts/upstream/<n>-<stage>.md) under a fixed
// identity and date, and render the commits with `git format-patch`. Deterministic: the same
// src/, tests and base give byte-identical patches.
//
// Source transformations (the only differences from src/):
// - lines between `// #region upstream:<stage>` and `// #endregion upstream:<stage>` are left out
//   of the stages before <stage>; the marker lines themselves never appear upstream;
// - `// #region patch-only` blocks never appear upstream;
// - upstream's default policy: a collision without the flag is refused ("error").

import { execFileSync } from "node:child_process";
import {
    existsSync,
    mkdirSync,
    mkdtempSync,
    readdirSync,
    readFileSync,
    rmSync,
    writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { applyEdits } from "./sdkEdits.mjs";
import { STAGES, upstreamEdits } from "./upstreamEdits.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

export const LICENSE_HEADER =
    "/*---------------------------------------------------------------------------------------------\n" +
    " *  Copyright (c) Microsoft Corporation. All rights reserved.\n" +
    " *--------------------------------------------------------------------------------------------*/\n\n";

/** Which stage adds each src/ module; modules not listed stay out of the series. */
const MODULE_STAGES = {
    "formatting.ts": "resolver",
    "nameSuggestions.ts": "resolver",
    "toolFilter.ts": "resolver",
    "sessionToolError.ts": "construction",
    "sessionToolWarning.ts": "construction",
    "customTools.ts": "construction",
    "measuredBuiltInTools.ts": "construction",
    "measuredBuiltInTools.generated.ts": "construction",
    "builtInToolCatalog.ts": "construction",
    "builtInToolOverrides.ts": "construction",
    "sessionToolFilter.ts": "construction",
    "sessionToolSetup.ts": "construction",
    "defaultToolSets.ts": "toolsets",
};

/**
 * Which stage adds each test file of test/unit (upstream name: nodejs/test/<same name>). Left
 * out: the fast-check properties (upstream has no fast-check) and the chat-open adapter's tests
 * (the adapter is not part of the SDK).
 */
const TEST_STAGES = {
    "toolFilter.spec.test.ts": "resolver",
    "toolFilter.precedence.test.ts": "resolver",
    "toolFilter.validation.test.ts": "resolver",
    "formatting.test.ts": "resolver",
    "nameSuggestions.test.ts": "resolver",
    "builtInToolCatalog.test.ts": "construction",
    "customTools.test.ts": "construction",
    "builtInToolOverrides.test.ts": "construction",
    "sessionToolSetup.test.ts": "toolsets",
    "sessionToolFilter.test.ts": "toolsets",
};

/** Upstream's defaults where this project's patch chooses differently. */
const UPSTREAM_DEFAULTS = [
    {
        file: "builtInToolOverrides.ts",
        from: 'export const DEFAULT_BUILT_IN_TOOL_COLLISIONS: BuiltInToolCollisionPolicy = "override";',
        to: 'export const DEFAULT_BUILT_IN_TOOL_COLLISIONS: BuiltInToolCollisionPolicy = "error";',
    },
];

const IDENTITY = {
    GIT_AUTHOR_NAME: "copilot-sdk-tool-override",
    GIT_AUTHOR_EMAIL: "tool-override@users.noreply.github.com",
    GIT_COMMITTER_NAME: "copilot-sdk-tool-override",
    GIT_COMMITTER_EMAIL: "tool-override@users.noreply.github.com",
    GIT_AUTHOR_DATE: "2026-11-22T12:00:00Z",
    GIT_COMMITTER_DATE: "2026-11-22T12:00:00Z",
};

/**
 * Keeps the regions of stages up to `stage`, drops the others and every marker line.
 *
 * @param {string} text a src/ or test file
 * @param {string} stage the stage being generated
 * @param {string} file for messages
 * @returns {string}
 */
export function sourceForStage(text, stage, file) {
    const included = new Set(
        STAGES.slice(0, STAGES.indexOf(stage) + 1).map((s) => `upstream:${s}`)
    );
    const out = [];
    const open = [];
    for (const line of text.split("\n")) {
        const start = /^\s*\/\/ #region (\S+)\s*$/.exec(line);
        const end = /^\s*\/\/ #endregion (\S+)\s*$/.exec(line);
        if (start) {
            open.push(start[1]);
            continue;
        }
        if (end) {
            if (open.pop() !== end[1])
                throw new Error(`${file}: #endregion ${end[1]} does not close the open region`);
            continue;
        }
        if (open.every((region) => included.has(region))) out.push(line);
    }
    if (open.length > 0) throw new Error(`${file}: region ${open.at(-1)} is not closed`);
    return out.join("\n");
}

function upstreamSource(file, text, stage) {
    let result = sourceForStage(text, stage, file);
    for (const substitution of UPSTREAM_DEFAULTS.filter((s) => s.file === file)) {
        if (!result.includes(substitution.from)) {
            throw new Error(
                `${file} no longer has '${substitution.from}': update UPSTREAM_DEFAULTS.`
            );
        }
        result = result.replace(substitution.from, substitution.to);
    }
    return LICENSE_HEADER + result;
}

function upstreamTest(text) {
    return (
        LICENSE_HEADER +
        text
            .replace(/from "\.\.\/\.\.\/src\/([^"]+)"/g, 'from "../src/$1"')
            .replace(/from "@github\/copilot-sdk"/g, 'from "../src/index.js"')
    );
}

function git(cwd, args, options = {}) {
    return execFileSync("git", args, {
        cwd,
        encoding: "utf8",
        env: { ...process.env, ...IDENTITY },
        maxBuffer: 64 * 1024 * 1024,
        ...options,
    });
}

/**
 * @param {{ repo: string, base: string }} options a github/copilot-sdk git repository (bare or
 *   not) that has the base commit, and that commit
 * @returns {Promise<Map<string, string>>} the patch files by name, in order
 */
export async function generateUpstreamSeries({ repo, base }) {
    const work = mkdtempSync(join(tmpdir(), "upstream-series-"));
    try {
        git(work, ["clone", "--quiet", "--shared", "--no-checkout", repo, "tree"]);
        const tree = join(work, "tree");
        git(tree, ["checkout", "--quiet", "--detach", base]);
        const messages = readdirSync(join(ROOT, "scripts", "upstream")).sort();
        for (const [index, stage] of STAGES.entries()) {
            for (const [file, fileStage] of Object.entries(MODULE_STAGES)) {
                if (STAGES.indexOf(fileStage) > index) continue;
                const text = readFileSync(join(ROOT, "src", file), "utf8");
                writeFileSync(join(tree, "nodejs", "src", file), upstreamSource(file, text, stage));
            }
            for (const [file, fileStage] of Object.entries(TEST_STAGES)) {
                const path = join(ROOT, "test", "unit", file);
                if (fileStage !== stage || !existsSync(path)) continue;
                writeFileSync(
                    join(tree, "nodejs", "test", file),
                    upstreamTest(sourceForStage(readFileSync(path, "utf8"), stage, file))
                );
            }
            for (const [file, edits] of Object.entries(upstreamEdits(stage))) {
                const path = join(tree, "nodejs", "src", file);
                writeFileSync(
                    path,
                    applyEdits(
                        `nodejs/src/${file}`,
                        readFileSync(path, "utf8"),
                        edits,
                        `upstream ${base.slice(0, 9)}`
                    )
                );
            }
            formatWithPrettier(tree);
            const message = messages.find((name) => name.startsWith(`${index + 1}-`));
            if (message === undefined)
                throw new Error(
                    `scripts/upstream/ has no message for stage ${index + 1} (${stage}).`
                );
            git(tree, ["add", "-A", "nodejs/src", "nodejs/test"]);
            git(tree, [
                "commit",
                "--quiet",
                "--no-verify",
                "-F",
                join(ROOT, "scripts", "upstream", message),
            ]);
        }
        const out = join(work, "series");
        mkdirSync(out);
        git(tree, [
            "format-patch",
            "--quiet",
            "--no-signature",
            "--zero-commit",
            "-o",
            out,
            `${base}..HEAD`,
        ]);
        const series = new Map();
        for (const name of readdirSync(out).sort())
            series.set(name, readFileSync(join(out, name), "utf8"));
        return series;
    } finally {
        rmSync(work, { recursive: true, force: true });
    }
}

/**
 * Formats what the stage wrote or edited with upstream's own prettier version and settings, so
 * upstream's format check passes and its existing lines stay as they are.
 */
function formatWithPrettier(tree) {
    const changed = git(tree, ["status", "--porcelain", "--untracked-files=all", "nodejs"])
        .split("\n")
        .filter(Boolean)
        .map((line) => line.slice(3))
        .filter((path) => path.endsWith(".ts"));
    if (changed.length === 0) return;
    const manifest = JSON.parse(readFileSync(join(tree, "nodejs", "package.json"), "utf8"));
    const version = manifest.devDependencies.prettier.replace(/^[\^~]/, "");
    execFileSync(
        process.execPath,
        [
            prettierBin(version),
            "--write",
            "--config",
            join(tree, "nodejs", ".prettierrc.json"),
            ...changed,
        ],
        { cwd: tree, stdio: "ignore" }
    );
}

/** The prettier version upstream pins, installed once into .cache/prettier-<version>. */
function prettierBin(version) {
    const prefix = join(ROOT, ".cache", `prettier-${version}`);
    const bin = join(prefix, "node_modules", "prettier", "bin", "prettier.cjs");
    if (!existsSync(bin)) {
        mkdirSync(prefix, { recursive: true });
        writeFileSync(
            join(prefix, "package.json"),
            JSON.stringify({ name: "prettier-cache", private: true })
        );
        execFileSync(
            "npm",
            ["install", "--no-save", "--no-audit", "--no-fund", `prettier@${version}`],
            {
                cwd: prefix,
                stdio: "ignore",
            }
        );
    }
    return bin;
}

/** @returns {string} the base commit of the series */
export function seriesBase() {
    return readFileSync(join(ROOT, "patches", "upstream", "BASE"), "utf8").trim();
}
