// Generates the upstream pull requests (patches/upstream/<pull request>/*.patch) from the
// upstream contribution in upstream/ (see upstream/README.md).
//
// Each folder upstream/<n>-<slug>/ is one pull request: message.md is its commit message (the
// pull request's description), and each *.edits file holds its changes to one SDK of
// github/copilot-sdk (nodejs.edits, python.edits, ...; root.edits for files at the top) as
// anchored edits. For each pull request, in a scratch clone at the base commit: apply its edits,
// commit with its message under a fixed identity and date, and render the commit with
// `git format-patch`. Every pull request starts from the base commit, so each applies alone.
// Deterministic: the same edits and base give byte-identical patches. No formatter runs here: the
// edits are written formatted, and `npm run upstream:check` runs each SDK's own format check.

import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/** The upstream contribution: one folder per pull request. */
export const CONTRIBUTION = join(ROOT, "upstream");
/** Where the generated pull requests are committed. */
export const SERIES = join(ROOT, "patches", "upstream");
/** The record of what the committed series was generated from (see {@link seriesFingerprint}). */
export const FINGERPRINT = join(SERIES, "SOURCES.sha256");

/** The generator's own files: a change to them changes the series too. */
const GENERATOR_FILES = ["scripts/upstream/lib/upstreamSeries.mjs"];

const IDENTITY = {
    GIT_AUTHOR_NAME: "copilot-sdk-tool-override",
    GIT_AUTHOR_EMAIL: "tool-override@users.noreply.github.com",
    GIT_COMMITTER_NAME: "copilot-sdk-tool-override",
    GIT_COMMITTER_EMAIL: "tool-override@users.noreply.github.com",
    GIT_AUTHOR_DATE: "2026-11-22T12:00:00Z",
    GIT_COMMITTER_DATE: "2026-11-22T12:00:00Z",
};

/**
 * The pull requests of the contribution, in order.
 *
 * @returns {{ name: string, dir: string, editFiles: string[] }[]}
 */
export function pullRequests() {
    return readdirSync(CONTRIBUTION, { withFileTypes: true })
        .filter((entry) => entry.isDirectory() && /^\d+-/.test(entry.name))
        .map((entry) => entry.name)
        .sort((a, b) => parseInt(a, 10) - parseInt(b, 10))
        .map((name) => {
            const dir = join(CONTRIBUTION, name);
            const editFiles = readdirSync(dir)
                .filter((file) => file.endsWith(".edits"))
                .sort();
            if (!existsSync(join(dir, "message.md"))) {
                throw new Error(
                    `upstream/${name}/ has no message.md (the pull request's commit message).`
                );
            }
            return { name, dir, editFiles };
        });
}

// The .edits format: lines starting with `@@@` are directives, everything else is text, taken
// verbatim, whole lines:
//
//     @@@ edit <path from the repository root>: <what the edit does>
//     @@@ after | before | replace
//     <anchor lines: must occur exactly once in the file when the edit runs>
//     @@@ with
//     <lines inserted after / before the anchor, or replacing it>
//
//     @@@ file <path>: <what the file is>
//     <the whole content of a new file>
//
// Lines before the first directive are comments. An edit ends at the next `@@@ edit` or
// `@@@ file`, or at the end of the file. Blocks are verbatim, blank lines included: a blank line
// before the next directive is part of the text.

/**
 * Parses an .edits file (the format above).
 *
 * @param {string} text
 * @param {string} source the file's name, for messages
 * @returns {ParsedEdit[]}
 */
export function parseEdits(text, source) {
    /**
     * An edit being read: its blocks are lists of lines until finishBlock joins them.
     *
     * @typedef {{ kind: string, path: string, name: string, mode?: string, anchor?: any, text: any }} Draft
     */
    /** @type {Draft[]} */
    const edits = [];
    /** @type {Draft | null} */
    let current = null;
    /** @type {"anchor" | "text" | null} */
    let block = null;
    const lines = text.split("\n");
    if (lines.at(-1) === "") lines.pop();
    const finishBlock = () => {
        if (current === null || block === null) return;
        const body = current[block];
        current[block] = body.length === 0 ? "" : `${body.join("\n")}\n`;
    };
    for (const [index, line] of lines.entries()) {
        const where = `${source}:${index + 1}`;
        if (!line.startsWith("@@@")) {
            if (current !== null && block !== null) current[block].push(line);
            continue;
        }
        const directive = /^@@@ (edit|file) ([^:\s]+): (.+)$/.exec(line);
        if (directive) {
            finishBlock();
            current = {
                kind: String(directive[1]),
                path: String(directive[2]),
                name: String(directive[3]),
                text: [],
            };
            if (directive[1] === "edit") current.anchor = [];
            block = directive[1] === "file" ? "text" : null;
            edits.push(current);
            continue;
        }
        const mode = /^@@@ (after|before|replace|with)$/.exec(line);
        if (mode === null || current === null || current.kind !== "edit") {
            throw new Error(`${where}: unexpected directive '${line}'.`);
        }
        if (mode[1] === "with") {
            if (block !== "anchor") throw new Error(`${where}: '@@@ with' must follow an anchor.`);
            finishBlock();
            block = "text";
        } else {
            if (block !== null) throw new Error(`${where}: one anchor per edit.`);
            current.mode = mode[1];
            block = "anchor";
        }
    }
    finishBlock();
    for (const edit of edits) {
        if (edit.kind === "edit" && (edit.mode === undefined || edit.anchor === "")) {
            throw new Error(`${source}: edit '${edit.name}' has no anchor.`);
        }
    }
    return /** @type {ParsedEdit[]} */ (edits);
}

/**
 * One edit of an .edits file: a new file (`kind: "file"`), or text put after, before or in place
 * of an anchor.
 *
 * @typedef {{ kind: "edit" | "file", path: string, name: string, mode?: string, anchor?: string, text: string }} ParsedEdit
 */

/**
 * Applies one parsed edit to a file's text.
 *
 * @param {string} text the file's text
 * @param {ParsedEdit} edit an edit of kind "edit"
 * @param {string} source the .edits file, for messages
 * @param {string} base the upstream commit, for messages
 * @returns {string}
 * @throws Error naming the edit and its file when the anchor does not occur exactly once
 */
export function applyEdit(text, edit, source, base) {
    const anchor = edit.anchor ?? "";
    const first = text.indexOf(anchor);
    if (first === -1 || text.indexOf(anchor, first + 1) !== -1) {
        throw new Error(
            `${source}: edit '${edit.name}' expects its anchor exactly once in ${edit.path} at ` +
                `upstream ${base.slice(0, 9)}, but found ${first === -1 ? "no match" : "more than one"}. ` +
                "Upstream changed there: update the anchor (see upstream/README.md)."
        );
    }
    const replacement =
        edit.mode === "after"
            ? anchor + edit.text
            : edit.mode === "before"
              ? edit.text + anchor
              : edit.text;
    return text.slice(0, first) + replacement + text.slice(first + anchor.length);
}

/**
 * @param {string} cwd
 * @param {string[]} args
 * @param {import("node:child_process").ExecFileSyncOptions} [options]
 * @returns {string}
 */
function git(cwd, args, options = {}) {
    return /** @type {string} */ (
        execFileSync("git", args, {
            cwd,
            encoding: "utf8",
        env: { ...process.env, ...IDENTITY },
            maxBuffer: 64 * 1024 * 1024,
            ...options,
        })
    );
}

/**
 * Applies a pull request's edits to a work tree.
 *
 * @param {string} tree
 * @param {ReturnType<typeof pullRequests>[number]} pull
 * @param {string} base the upstream commit, for messages
 */
export function applyPullRequest(tree, pull, base) {
    for (const file of pull.editFiles) {
        const source = `upstream/${pull.name}/${file}`;
        for (const edit of parseEdits(readFileSync(join(pull.dir, file), "utf8"), source)) {
            const path = join(tree, edit.path);
            if (edit.kind === "file") {
                if (existsSync(path))
                    throw new Error(`${source}: ${edit.path} already exists upstream.`);
                mkdirSync(dirname(path), { recursive: true });
                writeFileSync(path, edit.text);
                continue;
            }
            if (!existsSync(path)) throw new Error(`${source}: upstream has no ${edit.path}.`);
            writeFileSync(path, applyEdit(readFileSync(path, "utf8"), edit, source, base));
        }
    }
}

/**
 * @param {{ repo: string, base: string }} options a github/copilot-sdk git repository (bare or
 *   not) that has the base commit, and that commit
 * @returns {Map<string, string>} the patch files by path under patches/upstream/, in order
 */
export function generateUpstreamSeries({ repo, base }) {
    const work = mkdtempSync(join(tmpdir(), "upstream-series-"));
    try {
        git(work, ["clone", "--quiet", "--shared", "--no-checkout", repo, "tree"]);
        const tree = join(work, "tree");
        /** @type {Map<string, string>} */
        const series = new Map();
        for (const pull of pullRequests()) {
            git(tree, ["checkout", "--quiet", "--force", "--detach", base]);
            git(tree, ["clean", "--quiet", "-fdx"]);
            applyPullRequest(tree, pull, base);
            git(tree, ["add", "-A"]);
            git(tree, ["commit", "--quiet", "--no-verify", "-F", join(pull.dir, "message.md")]);
            const out = join(work, "out", pull.name);
            mkdirSync(out, { recursive: true });
            git(tree, [
                "format-patch",
                "--quiet",
                "--no-signature",
                "--zero-commit",
                "-o",
                out,
                `${base}..HEAD`,
            ]);
            for (const name of readdirSync(out).sort()) {
                series.set(`${pull.name}/${name}`, readFileSync(join(out, name), "utf8"));
            }
        }
        return series;
    } finally {
        rmSync(work, { recursive: true, force: true });
    }
}

/** The committed patch files, by path under patches/upstream/. */
export function committedSeries() {
    /** @type {Map<string, string>} */
    const series = new Map();
    if (!existsSync(SERIES)) return series;
    for (const entry of readdirSync(SERIES, { withFileTypes: true })) {
        if (!entry.isDirectory() || !/^\d+-/.test(entry.name)) continue;
        for (const name of readdirSync(join(SERIES, entry.name)).sort()) {
            if (name.endsWith(".patch")) {
                series.set(
                    `${entry.name}/${name}`,
                    readFileSync(join(SERIES, entry.name, name), "utf8")
                );
            }
        }
    }
    return new Map([...series].sort(([a], [b]) => a.localeCompare(b, "en")));
}

/**
 * Compares two series; returns one line per difference (empty when identical).
 *
 * @param {Map<string, string>} committed
 * @param {Map<string, string>} generated
 */
export function seriesDifferences(committed, generated) {
    /** @type {string[]} */
    const problems = [];
    for (const name of committed.keys()) {
        if (!generated.has(name)) problems.push(`${name}: committed but no longer generated`);
    }
    for (const [name, text] of generated) {
        const old = committed.get(name);
        if (old === undefined) {
            problems.push(`${name}: generated but not committed`);
        } else if (old !== text) {
            const a = old.split("\n");
            const b = text.split("\n");
            const line = a.findIndex((l, i) => l !== b[i]) + 1 || Math.min(a.length, b.length) + 1;
            problems.push(
                `${name}: differs from line ${line} ('${(b[line - 1] ?? "").slice(0, 80)}')`
            );
        }
    }
    return problems;
}

/** @param {string | Buffer} text */
function sha256(text) {
    return createHash("sha256").update(text).digest("hex");
}

/**
 * What the series is generated from and what it is, as `<sha256>  <path>` lines: every file of
 * upstream/, the generator, the base commit, and the committed patches. `npm run upstream:build`
 * writes it next to the patches; the offline drift check (`npm run patch:check`, part of
 * `npm test`) recomputes it, so an edit of upstream/ without a rebuild, or a hand-edited patch,
 * fails without needing upstream's repository. The full regeneration, byte for byte, is in
 * `npm run upstream:check`.
 *
 * @param {Map<string, string>} series the patches, by path under patches/upstream/
 */
export function seriesFingerprint(series) {
    /** @type {string[]} */
    const lines = [];
    /**
     * @param {string} dir
     * @param {string} rel
     */
    const walk = (dir, rel) => {
        for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
            a.name.localeCompare(b.name, "en")
        )) {
            const path = `${rel}/${entry.name}`;
            if (entry.isDirectory()) walk(join(dir, entry.name), path);
            else lines.push(`${sha256(readFileSync(join(dir, entry.name)))}  ${path}`);
        }
    };
    walk(CONTRIBUTION, "upstream");
    for (const file of GENERATOR_FILES) {
        lines.push(`${sha256(readFileSync(join(ROOT, file)))}  ${file}`);
    }
    lines.push(`${sha256(seriesBase())}  patches/upstream/BASE`);
    for (const [name, text] of series) lines.push(`${sha256(text)}  patches/upstream/${name}`);
    return `${lines.join("\n")}\n`;
}

/** @returns {string} the base commit of the series */
export function seriesBase() {
    return readFileSync(join(SERIES, "BASE"), "utf8").trim();
}
