import { describe, expect, it } from "vitest";
import { parseFilterEntry } from "../../src/toolCustomization/input/filterEntry.js";

// The entry forms of docs/using.md's "availableTools / excludedTools with toolsets" section: bare
// names are tools, `toolset:<name>` is a toolset, `builtin:` / `custom:` / `mcp:` are the SDK's
// source patterns, and any other `<prefix>:` is refused later.
describe("parseFilterEntry", () => {
    it("reads an entry without a colon as a bare tool name", () => {
        expect(parseFilterEntry("view")).toEqual({ kind: "tool", text: "view", name: "view" });
    });

    it("reads toolset:<name> as a toolset, whatever follows the prefix", () => {
        expect(parseFilterEntry("toolset:edit")).toEqual({
            kind: "toolSet",
            text: "toolset:edit",
            name: "edit",
        });
        expect(parseFilterEntry("toolset:")).toEqual({
            kind: "toolSet",
            text: "toolset:",
            name: "",
        });
    });

    it("reads the SDK's source patterns by their prefix, '*' and empty names included", () => {
        expect(parseFilterEntry("builtin:view")).toEqual({
            kind: "builtin",
            text: "builtin:view",
            name: "view",
        });
        expect(parseFilterEntry("custom:*")).toEqual({
            kind: "custom",
            text: "custom:*",
            name: "*",
        });
        expect(parseFilterEntry("mcp:")).toEqual({ kind: "mcp", text: "mcp:", name: "" });
        expect(parseFilterEntry("mcp:github-list_issues")).toEqual({
            kind: "mcp",
            text: "mcp:github-list_issues",
            name: "github-list_issues",
        });
    });

    it("keeps any other prefix, case included, as an other prefix; the first colon splits", () => {
        expect(parseFilterEntry("Builtin:view")).toEqual({
            kind: "otherPrefix",
            text: "Builtin:view",
            prefix: "Builtin",
            name: "view",
        });
        expect(parseFilterEntry(":x")).toEqual({
            kind: "otherPrefix",
            text: ":x",
            prefix: "",
            name: "x",
        });
        expect(parseFilterEntry("builtin:a:b")).toEqual({
            kind: "builtin",
            text: "builtin:a:b",
            name: "a:b",
        });
    });

    it("returns a frozen entry", () => {
        expect(Object.isFrozen(parseFilterEntry("toolset:edit"))).toBe(true);
    });
});
