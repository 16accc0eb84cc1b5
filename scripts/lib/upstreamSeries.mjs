// Generates the upstream pull-request series (patches/upstream/*.patch) from the upstream core.
//
// For each patch of upstreamEdits.mjs PATCHES, in a scratch clone of github/copilot-sdk at the
// base commit: copy the patch's modules from src/core/ into nodejs/src and its tests from
// test/core/ into nodejs/test (with upstream's license header; test imports point at upstream's
// src/ instead of this project's), apply the patch's anchored edits to upstream's own files,
// format with upstream's pinned prettier, commit with the patch's message
// (scripts/upstream/<n>-<stage>.md) under a fixed identity and date, and render the commits with
// `git format-patch`. Deterministic: the same core, tests and base give byte-identical patches.
// The fork's safety net (src/safetyNet/) is never part of the series.

import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { applyEdits } from "./sdkEdits.mjs";
import { PATCHES, upstreamEdits } from "./upstreamEdits.mjs";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

export const LICENSE_HEADER =
    "/*---------------------------------------------------------------------------------------------\n" +
    " *  Copyright (c) Microsoft Corporation. All rights reserved.\n" +
    " *--------------------------------------------------------------------------------------------*/\n\n";

const IDENTITY = {
    GIT_AUTHOR_NAME: "copilot-sdk-tool-override",
    GIT_AUTHOR_EMAIL: "tool-override@users.noreply.github.com",
    GIT_COMMITTER_NAME: "copilot-sdk-tool-override",
    GIT_COMMITTER_EMAIL: "tool-override@users.noreply.github.com",
    GIT_AUTHOR_DATE: "2026-11-22T12:00:00Z",
    GIT_COMMITTER_DATE: "2026-11-22T12:00:00Z",
};

/**
 * A test of test/core as upstream holds it: its imports of this project's core and of the SDK
 * package point at upstream's own src/.
 */
function upstreamTest(text) {
    return (
        LICENSE_HEADER +
        text
            .replace(/from "\.\.\/\.\.\/src\/core\/([^"]+)"/g, 'from "../src/$1"')
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
        for (const [index, { stage, modules, tests }] of PATCHES.entries()) {
            for (const file of modules) {
                const text = readFileSync(join(ROOT, "src", "core", file), "utf8");
                writeFileSync(join(tree, "nodejs", "src", file), LICENSE_HEADER + text);
            }
            for (const file of tests) {
                const text = readFileSync(join(ROOT, "test", "core", file), "utf8");
                writeFileSync(join(tree, "nodejs", "test", file), upstreamTest(text));
            }
            for (const [file, edits] of Object.entries(upstreamEdits(stage))) {
                const path = join(tree, "nodejs", file);
                writeFileSync(
                    path,
                    applyEdits(
                        `nodejs/${file}`,
                        readFileSync(path, "utf8"),
                        edits,
                        `upstream ${base.slice(0, 9)}`,
                        "scripts/lib/upstreamEdits.mjs"
                    )
                );
            }
            formatWithPrettier(tree);
            const message = messages.find((name) => name.startsWith(`${index + 1}-`));
            if (message === undefined)
                throw new Error(
                    `scripts/upstream/ has no message for patch ${index + 1} (${stage}).`
                );
            git(tree, ["add", "-A", "nodejs"]);
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
