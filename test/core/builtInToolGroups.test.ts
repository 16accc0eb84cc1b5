import { describe, expect, it } from "vitest";
import { BuiltInTools, ToolSet } from "@github/copilot-sdk";

describe("BuiltInTools groups", () => {
    it("offers a group per capability beside Isolated", () => {
        expect(Object.keys(BuiltInTools)).toEqual([
            "Isolated",
            "Read",
            "Edit",
            "Search",
            "Execute",
            "Web",
            "Agent",
        ]);
    });

    it("names each model family's tools for the same capability", () => {
        // Claude models edit with edit/create, GPT models with apply_patch; grep and rg likewise.
        expect(BuiltInTools.Edit).toEqual(
            expect.arrayContaining(["edit", "create", "apply_patch"])
        );
        expect(BuiltInTools.Search).toEqual(expect.arrayContaining(["grep", "rg", "glob"]));
        expect(BuiltInTools.Read).toContain("view");
        expect(BuiltInTools.Execute).toEqual(expect.arrayContaining(["bash", "powershell"]));
        expect(BuiltInTools.Web).toContain("web_fetch");
        expect(BuiltInTools.Agent).toContain("task");
    });

    it("keeps the host-access groups apart from Isolated", () => {
        const isolated = new Set(BuiltInTools.Isolated);
        for (const group of ["Read", "Edit", "Search", "Execute", "Web"] as const) {
            expect(BuiltInTools[group].filter((name) => isolated.has(name))).toEqual([]);
        }
    });

    it("lists each tool in one group only", () => {
        const groups = [
            BuiltInTools.Read,
            BuiltInTools.Edit,
            BuiltInTools.Search,
            BuiltInTools.Execute,
            BuiltInTools.Web,
            BuiltInTools.Agent,
        ];
        const names = groups.flat();
        expect(new Set(names).size).toBe(names.length);
    });

    it("goes into availableTools through ToolSet.addBuiltIn", () => {
        const tools = new ToolSet()
            .addBuiltIn(BuiltInTools.Read)
            .addBuiltIn(BuiltInTools.Search)
            .toArray();
        expect(tools).toEqual([
            "builtin:view",
            "builtin:read_file",
            "builtin:glob",
            "builtin:grep",
            "builtin:rg",
        ]);
    });
});
