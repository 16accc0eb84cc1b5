/**
 * One stability story: docs/stability.md puts each export of the API report under the tag the
 * report gives it (`@public`: Stable, `@beta`: Experimental), and the README and the shipped docs
 * do not call the API anything else (no `@experimental`, a tag the report does not use).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "..", "..");

/** Each export of the API report with its release tag. */
function reportTags(): Map<string, string> {
    const report = readFileSync(join(ROOT, "api", "copilot-sdk-tool-override.api.md"), "utf8");
    const tags = new Map<string, string>();
    for (const match of report.matchAll(
        /\/\/ @(public|beta|alpha|internal)[^\n]*\n(?:\/\/[^\n]*\n)*export (?:declare )?(?:const|function|class|interface|type|enum|namespace) (\w+)/g
    )) {
        tags.set(match[2]!, match[1]!);
    }
    return tags;
}

/** The names in backticks of one `## ` section of docs/stability.md. */
function sectionNames(text: string, heading: string): Set<string> {
    const start = text.indexOf(`## ${heading}`);
    expect(start, heading).toBeGreaterThan(-1);
    const end = text.indexOf("\n## ", start + 1);
    const section = text.slice(start, end === -1 ? undefined : end);
    return new Set([...section.matchAll(/`([A-Za-z_][\w.]*)`/g)].map((match) => match[1]!));
}

describe("the stability story", () => {
    const tags = reportTags();
    const page = readFileSync(join(ROOT, "docs", "stability.md"), "utf8");
    const stable = sectionNames(page, "Stable (`@public`)");
    const experimental = sectionNames(page, "Experimental (`@beta`)");

    it("reads the report's tags", () => {
        expect(tags.get("CopilotClient")).toBe("public");
        expect(tags.get("resolveToolFilter")).toBe("beta");
        expect(new Set(tags.values())).toEqual(new Set(["public", "beta"]));
    });

    it("docs/stability.md lists each export under the tag the API report gives it", () => {
        const misplaced = [...tags].flatMap(([name, tag]) => {
            const listed = tag === "public" ? stable : experimental;
            const other = tag === "public" ? experimental : stable;
            return listed.has(name) && !other.has(name) ? [] : [`${name} (@${tag})`];
        });
        expect(misplaced).toEqual([]);
    });

    it("the README and the docs call no part of the API @experimental", () => {
        const files = [
            "README.md",
            ...readdirSync(join(ROOT, "docs"))
                .filter((file) => file.endsWith(".md"))
                .map((file) => join("docs", file)),
        ];
        const found = files.filter((file) =>
            readFileSync(join(ROOT, file), "utf8").includes("@experimental")
        );
        expect(found).toEqual([]);
        expect(readFileSync(join(ROOT, "README.md"), "utf8")).toContain(
            "[docs/stability.md](docs/stability.md)"
        );
    });
});
