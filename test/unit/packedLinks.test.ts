/**
 * The shipped docs resolve: every relative link of every Markdown file in the tarball `npm pack`
 * makes leads to a file of the installed package (node_modules/copilot-sdk-tool-override/...),
 * and every other link is absolute. A link to a file the package does not ship is written as an
 * address in the repository that package.json names. The package names where it lives and where
 * to report a problem.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");
const manifest = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
    repository?: { type?: string; url?: string };
    homepage?: string;
    bugs?: { url?: string };
};
const work = mkdtempSync(join(tmpdir(), "packed-links-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
let installed = "";

beforeAll(() => {
    // The files `npm pack` selects, without its build (the test run has built already).
    const [pack] = JSON.parse(
        execFileSync("npm", ["pack", "--json", "--ignore-scripts", "--pack-destination", work], {
            cwd: ROOT,
            encoding: "utf8",
            env: { ...process.env, npm_config_loglevel: "error" },
        })
    ) as [{ filename: string }];
    execFileSync("tar", ["-xzf", join(work, pack.filename), "-C", work]);
    installed = join(work, "package");
}, 120_000);

/** The links of a Markdown text outside code blocks and code spans: inline and reference-style. */
export function markdownLinks(text: string): string[] {
    const prose = text
        .replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, "")
        .replace(/`[^`\n]*`/g, "");
    return [
        ...[...prose.matchAll(/\]\(\s*(?:<([^>\n]+)>|([^)\s]+))(?:\s+"[^"]*")?\s*\)/g)].map(
            (m) => (m[1] ?? m[2])!
        ),
        ...[...prose.matchAll(/^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)].map((m) => m[1]!),
    ];
}

function markdownFiles(dir: string): string[] {
    return readdirSync(dir, { withFileTypes: true, recursive: true })
        .filter((entry) => entry.isFile() && entry.name.endsWith(".md"))
        .map((entry) => join(entry.parentPath, entry.name));
}

describe("the links of the shipped Markdown files", () => {
    it("finds links in prose and skips code", () => {
        expect(
            markdownLinks(
                "See [a](docs/a.md#x) and [b](<b c.md>).\n`[no](code.md)`\n```\n[no](fenced.md)\n```\n[ref]: ./r.md\n"
            )
        ).toEqual(["docs/a.md#x", "b c.md", "./r.md"]);
    });

    it("each relative link leads to a file of the installed package", () => {
        const files = markdownFiles(installed);
        expect(files.map((file) => relative(installed, file))).toContain("docs/using.md");
        const broken: string[] = [];
        let checked = 0;
        for (const file of files) {
            for (const link of markdownLinks(readFileSync(file, "utf8"))) {
                if (/^[a-z][a-z0-9+.-]*:/i.test(link) || link.startsWith("#")) continue;
                checked++;
                const path = decodeURIComponent(link.replace(/[#?].*$/, ""));
                if (!existsSync(join(dirname(file), path))) {
                    broken.push(`${relative(installed, file)}: ${link}`);
                }
            }
        }
        expect(broken).toEqual([]);
        expect(checked).toBeGreaterThan(20);
    });

    it("each absolute link into the repository names the repository package.json names", () => {
        const home = manifest.homepage ?? "";
        const wrong: string[] = [];
        for (const file of markdownFiles(installed)) {
            for (const link of markdownLinks(readFileSync(file, "utf8"))) {
                if (
                    /github\.com\/[^/]+\/copilot-sdk-tool-override/.test(link) &&
                    !link.startsWith(home)
                ) {
                    wrong.push(`${relative(installed, file)}: ${link}`);
                }
            }
        }
        expect(wrong).toEqual([]);
    });
});

describe("where the package lives", () => {
    it("package.json names the repository, its home page and where to report bugs", () => {
        const home = "https://github.com/copilot-sdk-tool-override/copilot-sdk-tool-override";
        expect(manifest.repository).toEqual({ type: "git", url: `git+${home}.git` });
        expect(manifest.homepage).toBe(home);
        expect(manifest.bugs).toEqual({ url: `${home}/issues` });
    });

    it("SECURITY.md names the address where a vulnerability is reported privately", () => {
        const security = readFileSync(join(installed, "SECURITY.md"), "utf8");
        expect(security).toContain(`${manifest.homepage}/security/advisories/new`);
    });
});
