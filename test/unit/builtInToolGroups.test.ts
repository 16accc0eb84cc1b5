import { describe, expect, it } from "vitest";
import { BuiltInTools, ToolSet } from "@github/copilot-sdk";
import { RAW_MEASUREMENTS } from "../support/rawMeasurements.js";
import { EDIT_MEMBERS, EXECUTE_MEMBERS } from "../support/toolSetMembers.js";

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
        expect(BuiltInTools.Edit).toEqual(EDIT_MEMBERS);
        expect(BuiltInTools.Search).toEqual([
            "glob",
            "grep",
            "rg",
            "file_search",
            "grep_search",
            "semantic_search",
        ]);
        expect(BuiltInTools.Execute).toEqual(EXECUTE_MEMBERS);
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
            "builtin:file_search",
            "builtin:grep_search",
            "builtin:semantic_search",
        ]);
    });

    it("puts every shell-family built-in ever measured in Execute, so excluding it fails closed", () => {
        const measured = new Set(RAW_MEASUREMENTS.flatMap((file) => file.builtIns));
        const shellFamily = [...measured].filter((name) =>
            /(^|_)(bash|powershell|shell)(_|$)/.test(name)
        );
        expect(shellFamily.length).toBeGreaterThan(0);
        expect(BuiltInTools.Execute).toEqual(expect.arrayContaining(shellFamily));
    });
});
