import { describe, expect, it } from "vitest";
import { ToolSet } from "@github/copilot-sdk";
import { SessionToolError } from "../../src/toolCustomization/api/sessionToolError.js";
import {
    resolveSessionToolFilter,
    type SessionToolFilter,
    type SessionToolFilterOptions,
    type SessionToolInventory,
} from "../../src/toolCustomization/construction/filter.js";
import type { SessionToolWarning } from "../../src/toolCustomization/api/sessionToolWarning.js";
import { EDIT_MEMBERS, EXECUTE_MEMBERS } from "../support/toolSetMembers.js";

// The filter rule (docs/using.md, "availableTools / excludedTools with toolsets"), in the SDK's vocabulary: availableTools / excludedTools with
// bare tool names, toolset:<name> entries and builtin:/custom:/mcp: patterns, and customToolSets.
// The inventory is written by hand: a session whose model is offered `edit` and `create` (not
// `apply_patch`, which another model family gets), and whose custom `view` replaces the built-in.
const inventory: SessionToolInventory = {
    builtIns: ["apply_patch", "bash", "create", "edit", "glob", "grep", "rg", "view", "web_fetch"],
    custom: ["lint", "view"],
    overridden: new Set(["view"]),
    excludedWith: new Map([
        ["grep", ["rg"]],
        ["rg", ["grep"]],
    ]),
};

const DEFAULT_TOOL_SET_LIST =
    "'toolset:read', 'toolset:edit', 'toolset:search', 'toolset:execute', 'toolset:web', 'toolset:agent'";

function resolve(options: SessionToolFilterOptions): {
    filter: SessionToolFilter;
    warnings: SessionToolWarning[];
    enabled: Record<string, boolean>;
} {
    const warnings: SessionToolWarning[] = [];
    const filter = resolveSessionToolFilter(options, inventory, (w) => warnings.push(w));
    return { filter, warnings, enabled: Object.fromEntries(filter.result.toolEnablement) };
}

function refusal(options: SessionToolFilterOptions): SessionToolError {
    try {
        resolveSessionToolFilter(options, inventory, () => {});
    } catch (error) {
        expect(error).toBeInstanceOf(SessionToolError);
        return error as SessionToolError;
    }
    throw new Error("expected the filter to be refused");
}

describe("session tool filter: what reaches the runtime", () => {
    it("sends bare names and builtin:, custom: and mcp: patterns unchanged", () => {
        const available = ["bash", "builtin:glob", "custom:lint", "mcp:github-list_issues"];
        const { filter, warnings, enabled } = resolve({
            availableTools: available,
            excludedTools: ["mcp:github-delete_repo"],
        });
        expect(filter.availableTools).toEqual(available);
        expect(filter.excludedTools).toEqual(["mcp:github-delete_repo"]);
        expect(warnings).toEqual([]);
        expect(enabled).toEqual({
            apply_patch: false,
            bash: true,
            create: false,
            edit: false,
            glob: true,
            grep: false,
            rg: false,
            web_fetch: false,
            lint: true,
            view: false,
        });
    });

    it("sends nothing for an option that was not given", () => {
        const { filter } = resolve({});
        expect(filter.availableTools).toBeUndefined();
        expect(filter.excludedTools).toBeUndefined();
        expect(filter.result.mode).toBe("default");
    });

    it("replaces a toolset entry by its members, those of every model family included", () => {
        const { filter, enabled } = resolve({
            availableTools: ["toolset:edit"],
            excludedTools: ["toolset:web"],
        });
        expect(filter.availableTools).toEqual(EDIT_MEMBERS);
        expect(filter.excludedTools).toEqual(["web_fetch"]);
        expect(enabled).toMatchObject({ edit: true, create: true, apply_patch: true, bash: false });
        expect(filter.result.toolSetEnablement.get("edit")).toBe(true);
    });

    it("treats a bare name as the tool, not the toolset of that name", () => {
        const { filter, enabled } = resolve({ availableTools: ["edit"] });
        expect(filter.availableTools).toEqual(["edit"]);
        expect(enabled).toMatchObject({ edit: true, create: false, apply_patch: false });
        expect(filter.result.toolSetEnablement.get("edit")).toBe(false);
    });
});

describe("session tool filter: precedence", () => {
    it("lets an explicit exclusion win over an explicit inclusion", () => {
        const { filter, enabled } = resolve({
            availableTools: ["bash", "lint"],
            excludedTools: ["bash"],
        });
        expect(enabled).toMatchObject({ bash: false, lint: true });
        expect(filter.availableTools).toEqual(["bash", "lint"]);
        expect(filter.excludedTools).toEqual(["bash"]);
    });

    it("lets an explicit exclusion win over a toolset inclusion", () => {
        const { filter, enabled } = resolve({
            availableTools: ["toolset:edit"],
            excludedTools: ["create"],
        });
        expect(enabled).toMatchObject({ edit: true, create: false, apply_patch: true });
        expect(filter.excludedTools).toEqual(["create"]);
    });

    it("keeps a tool named bare in availableTools when a toolset it belongs to is excluded", () => {
        const { filter, enabled } = resolve({
            availableTools: ["toolset:edit", "create"],
            excludedTools: ["toolset:edit"],
        });
        expect(enabled).toMatchObject({ edit: false, create: true, apply_patch: false });
        expect(filter.availableTools).toEqual(EDIT_MEMBERS);
        expect(filter.excludedTools).toEqual(["edit", "apply_patch", "str_replace_editor"]);
    });

    it("keeps a tool named as builtin:<name> in availableTools when its toolset is excluded", () => {
        const { filter, enabled } = resolve({
            availableTools: ["builtin:create"],
            excludedTools: ["toolset:edit"],
        });
        expect(enabled).toMatchObject({ edit: false, create: true });
        expect(filter.availableTools).toEqual(["builtin:create"]);
        expect(filter.excludedTools).toEqual(["edit", "apply_patch", "str_replace_editor"]);
    });

    it("keeps a tool named as custom:<name> in availableTools when its toolset is excluded", () => {
        const { filter, enabled } = resolve({
            customToolSets: { quality: ["lint", "bash"] },
            availableTools: ["custom:lint", "toolset:quality"],
            excludedTools: ["toolset:quality"],
        });
        expect(enabled).toMatchObject({ lint: true, bash: false });
        expect(filter.availableTools).toEqual(["custom:lint", "lint", "bash"]);
        expect(filter.excludedTools).toEqual(["bash"]);
    });

    it("excludes a tool that is in an included and an excluded toolset", () => {
        const { filter, enabled } = resolve({
            customToolSets: { shell: ["bash", "lint"] },
            availableTools: ["toolset:shell"],
            excludedTools: ["toolset:execute"],
        });
        expect(enabled).toMatchObject({ bash: false, lint: true });
        expect(filter.availableTools).toEqual(["bash", "lint"]);
        expect(filter.excludedTools).toEqual(EXECUTE_MEMBERS);
        expect(filter.result.toolSetEnablement.get("shell")).toBe(false);
    });

    it("spares in an excluded toolset the members the runtime removes together with a named tool", () => {
        // The runtime's filter removes grep with rg, so excluding rg would take the named grep.
        const { filter, enabled } = resolve({
            availableTools: ["grep"],
            excludedTools: ["toolset:search"],
        });
        expect(enabled).toMatchObject({ grep: true, glob: false, rg: false });
        expect(filter.excludedTools).toEqual([
            "glob",
            "file_search",
            "grep_search",
            "semantic_search",
        ]);
    });

    it("lets builtin:<name> and builtin:* keep the custom tool that replaces that built-in", () => {
        const named = resolve({ availableTools: ["builtin:view", "builtin:bash"] });
        expect(named.filter.availableTools).toEqual([
            "builtin:view",
            "builtin:bash",
            "custom:view",
        ]);
        expect(named.enabled).toMatchObject({ view: true, bash: true, lint: false });
        const all = resolve({ availableTools: ["builtin:*"] });
        expect(all.filter.availableTools).toEqual(["builtin:*", "custom:view"]);
        expect(all.enabled).toMatchObject({ view: true, bash: true, lint: false });
    });
});

describe("session tool filter: toolsets", () => {
    it("has the default toolsets, keyed by name", () => {
        const { filter } = resolve({});
        expect(Object.fromEntries(filter.toolSets)).toEqual({
            read: ["view", "read_file"],
            edit: EDIT_MEMBERS,
            search: ["glob", "grep", "rg", "file_search", "grep_search", "semantic_search"],
            execute: EXECUTE_MEMBERS,
            web: ["web_fetch"],
            agent: ["task", "read_agent", "write_agent", "list_agents"],
        });
        expect([...filter.result.toolSetEnablement.keys()]).toEqual([
            "read",
            "edit",
            "search",
            "execute",
            "web",
            "agent",
        ]);
    });

    it("adds the toolsets of customToolSets, each member once", () => {
        const { filter, enabled } = resolve({
            customToolSets: { quality: ["lint", "bash", "lint"] },
            availableTools: ["toolset:quality"],
        });
        expect(filter.toolSets.get("quality")).toEqual(["lint", "bash"]);
        expect(filter.availableTools).toEqual(["lint", "bash"]);
        expect(enabled).toMatchObject({ lint: true, bash: true, edit: false });
        expect(filter.result.toolSetEnablement.get("quality")).toBe(true);
    });

    it("replaces a default toolset with a custom one of the same name", () => {
        const { filter, enabled } = resolve({
            customToolSets: { edit: ["lint"] },
            availableTools: ["toolset:edit"],
        });
        expect(filter.toolSets.get("edit")).toEqual(["lint"]);
        expect(filter.availableTools).toEqual(["lint"]);
        expect(enabled).toMatchObject({ lint: true, edit: false });
    });
});

describe("session tool filter: warnings", () => {
    it("treats availableTools: [] as a session without tools, silently", () => {
        const { filter, warnings } = resolve({ availableTools: [] });
        expect(filter.availableTools).toEqual([]);
        expect(filter.result.enabledTools).toEqual([]);
        expect(warnings).toEqual([]);
    });

    it("warns NO_TOOLS_ENABLED when a non-empty availableTools leaves no tool", () => {
        const { warnings } = resolve({ availableTools: ["bash"], excludedTools: ["bash"] });
        expect(warnings).toEqual([
            {
                code: "NO_TOOLS_ENABLED",
                message:
                    "availableTools with excludedTools leaves no tool enabled. Check the names against the available tools and toolsets, or widen the filter.",
            },
        ]);
    });

    it("does not warn NO_TOOLS_ENABLED when availableTools has entries only the runtime resolves", () => {
        const { warnings } = resolve({ availableTools: ["mcp:*"] });
        expect(warnings).toEqual([]);
    });

    it("warns once per option about unknown names, with suggestions and the toolsets", () => {
        const { filter, warnings } = resolve({
            availableTools: ["bash", "veiw", "read", "Bash"],
            excludedTools: ["nope", "mcp:unknown_server-x"],
        });
        expect(filter.result.unknownIdentifiers).toEqual([
            { option: "availableTools", identifier: "veiw", suggestion: "view" },
            { option: "availableTools", identifier: "read", suggestion: "toolset:read" },
            { option: "availableTools", identifier: "Bash", suggestion: "bash" },
            { option: "excludedTools", identifier: "nope" },
        ]);
        expect(warnings).toEqual([
            {
                code: "UNKNOWN_IDENTIFIERS",
                option: "availableTools",
                identifiers: ["veiw", "read", "Bash"],
                message: `3 availableTools entries name no known tool or toolset: 'veiw', 'read', 'Bash'. Did you mean 'view' for 'veiw', 'toolset:read' for 'read', 'bash' for 'Bash'? Toolsets: ${DEFAULT_TOOL_SET_LIST}.`,
            },
            {
                code: "UNKNOWN_IDENTIFIERS",
                option: "excludedTools",
                identifiers: ["nope"],
                message: `1 excludedTools entry names no known tool or toolset: 'nope'. Toolsets: ${DEFAULT_TOOL_SET_LIST}.`,
            },
        ]);
    });

    it("caps the list in the message and keeps every unknown name in unknownIdentifiers", () => {
        const unknown = Array.from(
            { length: 40 },
            (_, i) => `zz_unknown_${String(i).padStart(2, "0")}`
        );
        const { filter, warnings } = resolve({ availableTools: ["bash", ...unknown] });
        expect(filter.result.unknownIdentifiers).toHaveLength(40);
        expect(warnings).toHaveLength(1);
        expect(warnings[0]!.identifiers).toEqual(unknown);
        expect(warnings[0]!.message).toContain("'zz_unknown_12', 'zz_unknown_13' and 26 more.");
    });
});

describe("session tool filter: refusals", () => {
    it("refuses an availableTools or excludedTools that is not an array with INVALID_TOOL_FILTER", () => {
        const error = refusal({ availableTools: "view" });
        expect(error.code).toBe("INVALID_TOOL_FILTER");
        expect(error.message).toBe(
            "Invalid availableTools 'view': pass an array of tool names, 'toolset:<name>' entries and 'builtin:'/'custom:'/'mcp:' patterns, or a ToolSet."
        );
        expect(refusal({ excludedTools: { bash: true } }).message).toMatch(
            /^Invalid excludedTools \{"bash":true\}: pass an array/
        );
    });

    it("refuses non-string, empty and missing entries with INVALID_TOOL_FILTER", () => {
        const sparse: unknown[] = ["bash"];
        sparse[2] = "view";
        const cases: [SessionToolFilterOptions, string][] = [
            [
                { excludedTools: ["view", 3] },
                "Invalid excludedTools[1] 3: every entry must be a tool name, 'toolset:<name>', or a 'builtin:'/'custom:'/'mcp:' pattern.",
            ],
            [
                { availableTools: [""] },
                "Invalid availableTools[0] '': every entry must be a tool name, 'toolset:<name>', or a 'builtin:'/'custom:'/'mcp:' pattern.",
            ],
            [
                { availableTools: sparse },
                "Invalid availableTools[1] (empty slot): every entry must be a tool name, 'toolset:<name>', or a 'builtin:'/'custom:'/'mcp:' pattern.",
            ],
        ];
        for (const [options, message] of cases) {
            const error = refusal(options);
            expect([error.code, error.message]).toEqual(["INVALID_TOOL_FILTER", message]);
        }
    });

    it("refuses a malformed toolset entry with INVALID_TOOL_FILTER", () => {
        for (const [option, entry] of [
            ["availableTools", "toolset:"],
            ["excludedTools", "toolset:a b"],
        ] as const) {
            const error = refusal({ [option]: [entry] });
            expect(error.code).toBe("INVALID_TOOL_FILTER");
            expect(error.toolNames).toEqual([entry]);
            expect(error.message).toBe(
                `Invalid ${option} entry '${entry}': write 'toolset:' followed by a toolset name (letters, digits, '_' or '-'), e.g. 'toolset:edit'.`
            );
        }
    });

    it("refuses a customToolSets that is not an object with INVALID_TOOL_SET", () => {
        for (const [value, quoted] of [
            [[], "[]"],
            ["quality", "'quality'"],
            [42, "42"],
        ] as const) {
            const error = refusal({ customToolSets: value });
            expect(error.code).toBe("INVALID_TOOL_SET");
            expect(error.message).toBe(
                `Invalid customToolSets ${quoted}: pass an object of toolset names to tool names, e.g. { quality: ["lint", "format"] }.`
            );
        }
    });

    it("refuses a ToolSet builder as customToolSets, explaining where a ToolSet goes", () => {
        for (const builder of [new ToolSet(), new ToolSet().addBuiltIn("view")]) {
            const error = refusal({ customToolSets: builder });
            expect(error.code).toBe("INVALID_TOOL_SET");
            expect(error.message).toBe(
                'customToolSets got a ToolSet builder. A ToolSet is a filter list: pass it as availableTools or excludedTools. customToolSets defines named groups: { quality: ["lint", "format"] }.'
            );
        }
    });

    it("refuses a customToolSets name that is not a toolset name", () => {
        const error = refusal({ customToolSets: { "a b": ["lint"] } });
        expect(error.code).toBe("INVALID_TOOL_SET");
        expect(error.toolNames).toEqual(["a b"]);
        expect(error.message).toBe(
            "Invalid customToolSets name 'a b': use letters, digits, '_' or '-'."
        );
    });

    it("refuses customToolSets members that are not plain tool names", () => {
        const cases: [unknown, string][] = [
            [["toolset:edit"], "'toolset:edit'"],
            [["builtin:view"], "'builtin:view'"],
            [["lint", ""], "''"],
            [[7], "7"],
        ];
        for (const [members, quoted] of cases) {
            const error = refusal({ customToolSets: { q: members } });
            expect(error.code).toBe("INVALID_TOOL_SET");
            expect(error.toolNames).toEqual(["q"]);
            expect(error.message).toBe(
                `Invalid member ${quoted} of customToolSets.q: list tool names, e.g. q: ["lint", "format"]; to combine toolsets, list their members.`
            );
        }
    });

    it("says a customToolSets value must be a list when it is a single name or anything else", () => {
        for (const [members, quoted] of [
            ["lint", "'lint'"],
            [{ 0: "lint" }, '{"0":"lint"}'],
            [7, "7"],
        ] as const) {
            const error = refusal({ customToolSets: { q: members } });
            expect(error.code).toBe("INVALID_TOOL_SET");
            expect(error.toolNames).toEqual(["q"]);
            expect(error.message).toBe(
                `Invalid customToolSets.q ${quoted}: it must be a list of tool names, e.g. q: ["lint", "format"].`
            );
        }
    });
});

describe("session tool filter: every entry is checked", () => {
    it("refuses an entry whose source prefix is not one the runtime knows, suggesting the right one", () => {
        for (const [option, entry, message] of [
            [
                "availableTools",
                "Builtin:view",
                "Invalid availableTools entry 'Builtin:view': 'Builtin' is not a tool source, so the entry would match no tool. Did you mean 'builtin:view'? Write a bare tool name, or prefix it with 'builtin:', 'custom:', 'mcp:' or 'toolset:'.",
            ],
            [
                "availableTools",
                "biultin:view",
                "Invalid availableTools entry 'biultin:view': 'biultin' is not a tool source, so the entry would match no tool. Did you mean 'builtin:view'? Write a bare tool name, or prefix it with 'builtin:', 'custom:', 'mcp:' or 'toolset:'.",
            ],
            [
                "excludedTools",
                "mpc:github-x",
                "Invalid excludedTools entry 'mpc:github-x': 'mpc' is not a tool source, so the entry would match no tool. Did you mean 'mcp:github-x'? Write a bare tool name, or prefix it with 'builtin:', 'custom:', 'mcp:' or 'toolset:'.",
            ],
            [
                "availableTools",
                "x:y",
                "Invalid availableTools entry 'x:y': 'x' is not a tool source, so the entry would match no tool. Write a bare tool name, or prefix it with 'builtin:', 'custom:', 'mcp:' or 'toolset:'.",
            ],
        ] as const) {
            const error = refusal({ [option]: ["view", entry] });
            expect([error.code, error.message, error.toolNames]).toEqual([
                "INVALID_TOOL_FILTER",
                message,
                [entry],
            ]);
        }
    });

    it("refuses a source prefix with no name after it", () => {
        for (const entry of ["builtin:", "custom:", "mcp:"]) {
            const error = refusal({ excludedTools: [entry] });
            expect([error.code, error.message]).toEqual([
                "INVALID_TOOL_FILTER",
                `Invalid excludedTools entry '${entry}': a tool name or '*' must follow '${entry}', e.g. '${entry}*'.`,
            ]);
        }
    });

    it("names a customToolSets member that is no known tool, with a suggestion, before NO_TOOLS_ENABLED", () => {
        const { filter, warnings } = resolve({
            customToolSets: { q: ["lnt"] },
            availableTools: ["toolset:q"],
        });
        expect(warnings.map((warning) => [warning.code, warning.option])).toEqual([
            ["UNKNOWN_IDENTIFIERS", "customToolSets.q"],
            ["NO_TOOLS_ENABLED", undefined],
        ]);
        expect(warnings[0]).toEqual({
            code: "UNKNOWN_IDENTIFIERS",
            option: "customToolSets.q",
            identifiers: ["lnt"],
            message:
                "1 customToolSets.q member names no known tool: 'lnt'. Did you mean 'lint'? It still reaches the runtime, which may know it (an MCP tool).",
        });
        expect(filter.unknownMembers).toEqual([
            { option: "customToolSets.q", identifier: "lnt", suggestion: "lint" },
        ]);
        // Still sent: the runtime may know it (an MCP tool's bare name).
        expect(filter.availableTools).toEqual(["lnt"]);
    });

    it("names unknown members of a toolset that is not used, and none that are built-ins of any model family or custom tools", () => {
        const { filter, warnings } = resolve({
            customToolSets: { mine: ["lint", "view", "apply_patch", "str_replace_editor", "vew"] },
        });
        // str_replace_editor is not in this inventory: the hand-written one has no such built-in.
        expect(warnings.map((warning) => [warning.code, warning.identifiers])).toEqual([
            ["UNKNOWN_IDENTIFIERS", ["str_replace_editor", "vew"]],
        ]);
        expect(filter.unknownMembers.map((entry) => entry.suggestion)).toEqual([undefined, "view"]);
    });

    it("warns EMPTY_TOOL_SET for a custom toolset without members", () => {
        const { warnings } = resolve({ customToolSets: { empty: [] } });
        expect(warnings).toEqual([
            {
                code: "EMPTY_TOOL_SET",
                option: "customToolSets.empty",
                identifiers: ["toolset:empty"],
                message:
                    'customToolSets.empty has no members, so \'toolset:empty\' names no tool. List its tools, e.g. empty: ["lint", "format"], or leave it out.',
            },
        ]);
    });
});

describe("session tool filter: a toolset entry that names no toolset", () => {
    it("refuses 'toolset:serach' in excludedTools, suggesting 'toolset:search', instead of excluding nothing", () => {
        const error = refusal({ excludedTools: ["toolset:serach"] });
        expect(error.code).toBe("INVALID_TOOL_FILTER");
        expect(error.toolNames).toEqual(["toolset:serach"]);
        expect(error.message).toBe(
            "Invalid excludedTools entry 'toolset:serach': the session has no toolset 'serach', " +
                "so the entry would name no tool. Did you mean 'toolset:search'? " +
                "Toolsets: 'read', 'edit', 'search', 'execute', 'web', 'agent'; " +
                "define others with customToolSets."
        );
    });

    it("refuses it in availableTools too, and the cut-off 'toolset:exec' suggests 'toolset:execute'", () => {
        expect(refusal({ availableTools: ["toolset:edti"] }).message).toContain(
            "Did you mean 'toolset:edit'?"
        );
        expect(refusal({ excludedTools: ["toolset:exec"] }).message).toContain(
            "Did you mean 'toolset:execute'?"
        );
        expect(refusal({ availableTools: ["view", "toolset:nope"] }).message).not.toContain(
            "Did you mean"
        );
    });

    it("accepts a toolset that customToolSets defines, and refuses a near miss of it", () => {
        const { filter } = resolve({
            availableTools: ["toolset:quality"],
            customToolSets: { quality: ["view"] },
        });
        expect(filter.availableTools).toEqual(["view"]);
        expect(
            refusal({ excludedTools: ["toolset:qualty"], customToolSets: { quality: ["view"] } })
                .message
        ).toContain("Did you mean 'toolset:quality'?");
    });
});

describe("session tool filter: caller lists are read once", () => {
    /** An array whose own methods lie: every method a reader could call answers for another list. */
    function lyingArray(entries: string[], lie: string[]): string[] {
        const array = [...entries];
        for (const method of [
            "filter",
            "flatMap",
            "map",
            "some",
            "every",
            "includes",
            "forEach",
            "slice",
            "concat",
            "indexOf",
            "find",
            "findIndex",
            "reduce",
            "entries",
            "values",
            "keys",
        ] as const) {
            Object.defineProperty(array, method, {
                value: (...args: unknown[]) =>
                    (Array.prototype[method] as (...a: unknown[]) => unknown).apply(lie, args),
            });
        }
        Object.defineProperty(array, Symbol.iterator, {
            value: () => lie[Symbol.iterator](),
        });
        return array;
    }

    it("sends what it checked, by index, whatever the array's own methods answer", () => {
        const available = lyingArray(["view", "lint"], ["bash", "toolset:execute"]);
        const excluded = lyingArray(["glob"], ["view"]);
        const { filter, enabled } = resolve({ availableTools: available, excludedTools: excluded });
        expect(filter.availableTools).toEqual(["view", "lint"]);
        expect(filter.excludedTools).toEqual(["glob"]);
        expect(enabled).toMatchObject({ view: true, lint: true, bash: false, glob: false });
    });

    it("refuses a bare '*' that the list's own iterator hid from the SDK's check", () => {
        const hidden = lyingArray(["view", "*"], ["view"]);
        const error = refusal({ availableTools: hidden });
        expect(error.code).toBe("INVALID_TOOL_FILTER");
        expect(error.message).toBe(
            "Invalid availableTools entry '*': there is no bare wildcard. Use 'builtin:*', 'custom:*' or 'mcp:*' to name the tools of one source."
        );
    });

    it("reads customToolSets members by index too", () => {
        const members = lyingArray(["lint"], ["bash"]);
        const { filter } = resolve({
            customToolSets: { q: members },
            availableTools: ["toolset:q"],
        });
        expect(filter.toolSets.get("q")).toEqual(["lint"]);
        expect(filter.availableTools).toEqual(["lint"]);
    });

    it("does not modify the caller's lists", () => {
        const available = ["toolset:edit", "view"];
        const excluded = ["toolset:read"];
        const customToolSets = { q: ["lint"] };
        resolve({ availableTools: available, excludedTools: excluded, customToolSets });
        expect(available).toEqual(["toolset:edit", "view"]);
        expect(excluded).toEqual(["toolset:read"]);
        expect(customToolSets).toEqual({ q: ["lint"] });
    });
});

describe("session tool filter: names that are Object.prototype keys", () => {
    it.each([
        ["constructor", "toolset:read"],
        ["valueOf", "toolset:search"],
        ["toString", "toolset:edit"],
        ["__proto__", "toolset:execute"],
        ["hasOwnProperty", "toolset:agent"],
    ])(
        "treats '%s' in availableTools as an unknown tool name beside an excluded %s",
        (name, toolSet) => {
            const { filter, warnings } = resolve({
                availableTools: [name, "view", "bash"],
                excludedTools: [toolSet],
            });
            expect(filter.availableTools).toEqual(
                [name, "view", "bash", "custom:view"].slice(0, 3)
            );
            expect(warnings.map((w) => w.code)).toContain("UNKNOWN_IDENTIFIERS");
        }
    );
});
