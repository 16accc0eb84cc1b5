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

    it("lists, per capability, the names of every model family and platform", () => {
        // Claude models edit with edit/create, GPT models with apply_patch; grep and rg likewise;
        // the powershell tools are the Windows shell.
        expect(BuiltInTools.Read).toEqual(["view", "read_file"]);
        expect(BuiltInTools.Edit).toEqual(["edit", "create", "apply_patch", "str_replace_editor"]);
        expect(BuiltInTools.Search).toEqual(["glob", "grep", "rg"]);
        expect(BuiltInTools.Execute).toEqual([
            "bash",
            "read_bash",
            "stop_bash",
            "list_bash",
            "powershell",
            "read_powershell",
            "stop_powershell",
            "list_powershell",
        ]);
        expect(BuiltInTools.Web).toEqual(["web_fetch"]);
        expect(BuiltInTools.Agent).toEqual(["task", "read_agent", "write_agent", "list_agents"]);
    });

    it("keeps Agent within Isolated: sub-agents without the rest of Isolated", () => {
        expect(BuiltInTools.Isolated).toEqual(expect.arrayContaining([...BuiltInTools.Agent]));
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
