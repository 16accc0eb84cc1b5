import type { BuiltInToolCatalog } from "../catalog/builtInToolCatalog.js";
import type { CustomToolSnapshot } from "../input/customTools.js";
import { byCount, formatList } from "../../shared/formatting.js";
import { SessionToolError } from "../api/sessionToolError.js";
import type { BuiltInToolCollisionPolicy } from "../api/publicTypes.js";

/** The policy of a client that does not set `builtInToolCollisions`. */
export const DEFAULT_BUILT_IN_TOOL_COLLISIONS: BuiltInToolCollisionPolicy = "override";

/** The custom tools to send, and which built-ins they replace. */
export interface BuiltInToolOverrides {
    /**
     * The tools to send: each with `overridesBuiltInTool: true` unless the app set `false`, so no
     * built-in, measured or not, can answer a call meant for a custom tool (see
     * {@link markedAsOverride}).
     */
    readonly tools: readonly CustomToolSnapshot[];
    /** Known built-ins that custom tools replace. */
    readonly overridden: readonly string[];
    /** Of those, the ones replaced without the app setting `overridesBuiltInTool: true`. */
    readonly automatic: readonly string[];
    /** Custom tools whose name matches a built-in's only when case is ignored. */
    readonly caseOnlyMatches: readonly { readonly tool: string; readonly builtIn: string }[];
}

/**
 * The wire form of an accepted tool: `overridesBuiltInTool: true` unless the app set it. The
 * runtime pre-loads a tool with the flag instead of deferring it to tool search, so a tool that
 * is not replacing a known built-in also gets `defer: "auto"` (the SDK's documented default)
 * unless the app chose a `defer` of its own.
 */
function markedAsOverride(tool: CustomToolSnapshot, replacesBuiltIn: boolean): CustomToolSnapshot {
    if (tool.overridesBuiltInTool !== undefined) return tool;
    const keepsDefer = replacesBuiltIn || tool.defer !== undefined;
    // A snapshot is frozen and shared by the sessions that read the same tool (customTools.ts):
    // its wire form is made once.
    let forms = wireForms.get(tool);
    if (forms === undefined) wireForms.set(tool, (forms = {}));
    if (keepsDefer)
        return (forms.keepsDefer ??= Object.freeze({ ...tool, overridesBuiltInTool: true }));
    return (forms.defersAuto ??= Object.freeze({
        ...tool,
        overridesBuiltInTool: true,
        defer: "auto",
    }));
}

/** By snapshot, its wire forms made so far. */
const wireForms = new WeakMap<
    CustomToolSnapshot,
    { keepsDefer?: CustomToolSnapshot; defersAuto?: CustomToolSnapshot }
>();

/**
 * Decides, for every custom tool, whether it may replace the built-in of its name, and marks
 * every tool it accepts as an override. Refuses, naming every such tool:
 * - a known built-in's name without the flag, under the `"error"` policy, or with
 *   `overridesBuiltInTool: false` (the built-in would answer its calls);
 * - names whose override the runtime does not honour;
 * - names the runtime keeps only while its tool search defers tools (`tool_search_tool`): when it
 *   does depends on the model and on how the runtime counts tools, which construction cannot
 *   show, so such a tool could be dropped or answered by the built-in.
 *
 * @param tools - the snapshots of the session's custom tools
 * @param catalog - the runtime's built-in catalog
 * @param policy - the client's `builtInToolCollisions`
 * @returns the tools to send and the overridden built-ins
 * @throws SessionToolError `BUILT_IN_TOOL_COLLISION` or `UNSUPPORTED_OVERRIDE`
 */
export function resolveBuiltInToolOverrides(
    tools: readonly CustomToolSnapshot[],
    catalog: BuiltInToolCatalog,
    policy: BuiltInToolCollisionPolicy
): BuiltInToolOverrides {
    const refusedFlag: string[] = [];
    const refusedPolicy: string[] = [];
    const unsupported: string[] = [];
    const onlyWithToolSearch: string[] = [];
    const overridden: string[] = [];
    const automatic: string[] = [];
    const caseOnlyMatches: { tool: string; builtIn: string }[] = [];
    const builtInsByFoldedName = new Map(
        [...catalog.builtIns].map((name) => [name.toLowerCase(), name])
    );

    for (const { name, overridesBuiltInTool: flag } of tools) {
        if (!catalog.builtIns.has(name)) {
            const builtIn = builtInsByFoldedName.get(name.toLowerCase());
            if (builtIn !== undefined) caseOnlyMatches.push({ tool: name, builtIn });
            continue;
        }
        if (flag === false) refusedFlag.push(name);
        else if (flag === undefined && policy === "error") refusedPolicy.push(name);
        else if (catalog.keptOnlyWithToolSearch.has(name)) onlyWithToolSearch.push(name);
        else if (catalog.unsupportedOverrides.has(name)) unsupported.push(name);
        else {
            overridden.push(name);
            if (flag === undefined) automatic.push(name);
        }
    }

    if (refusedFlag.length > 0) {
        const one = refusedFlag.length === 1;
        throw new SessionToolError(
            "BUILT_IN_TOOL_COLLISION",
            `${customTools(refusedFlag)} ${one ? "sets" : "set"} overridesBuiltInTool: false, ` +
                `but the runtime has ${one ? "a built-in tool of that name, which would answer its calls" : "built-in tools of these names, which would answer their calls"}. ` +
                `Rename ${one ? "it" : "them"}, or set overridesBuiltInTool: ` +
                `true to replace the ${byCount(refusedFlag.length, "built-in", "built-ins")}.`,
            refusedFlag
        );
    }
    if (refusedPolicy.length > 0) {
        const one = refusedPolicy.length === 1;
        throw new SessionToolError(
            "BUILT_IN_TOOL_COLLISION",
            `${customTools(refusedPolicy)} ${one ? "has the name of a built-in tool" : "have the names of built-in tools"}. ` +
                `Set overridesBuiltInTool: true on ${one ? "it to replace the built-in" : "them to replace the built-ins"}, ` +
                `or rename ${one ? "it" : "them"} to keep both.`,
            refusedPolicy
        );
    }
    if (onlyWithToolSearch.length > 0) {
        const one = onlyWithToolSearch.length === 1;
        // tool_search_tool is the runtime's tool search; another name (session_store_sql on runtime
        // 1.0.73) is a built-in measured to behave the same way.
        const replaced = onlyWithToolSearch.every((name) => name === "tool_search_tool")
            ? "the runtime's tool-search tool, which the runtime keeps"
            : `${one ? "a built-in" : "built-ins"} that the runtime may keep`;
        throw new SessionToolError(
            "UNSUPPORTED_OVERRIDE",
            `${customTools(onlyWithToolSearch)} ${one ? "replaces" : "replace"} ${replaced} ` +
                `only while its tool search defers tools; ` +
                `when that happens depends on the model and on how the runtime counts tools, ` +
                `so the SDK cannot show that the calls would reach your handler (elsewhere the tool is dropped or the built-in answers). ` +
                `Rename ${one ? "it" : "them"}; toolSearch: { enabled: true } keeps the runtime's own tool search.`,
            onlyWithToolSearch
        );
    }
    if (unsupported.length > 0) {
        const one = unsupported.length === 1;
        throw new SessionToolError(
            "UNSUPPORTED_OVERRIDE",
            `The runtime (version ${catalog.measured.runtimeVersion}) ` +
                (`does not let a custom tool replace its built-in ${byCount(unsupported.length, "tool", "tools")} ` +
                    `${formatList(unsupported)}: `) +
                `the built-in would still answer, or the custom tool would be dropped. Rename ${one ? "this tool" : "these tools"}.`,
            unsupported
        );
    }
    return {
        tools: tools.map((tool) => markedAsOverride(tool, catalog.builtIns.has(tool.name))),
        overridden,
        automatic,
        caseOnlyMatches,
    };
}

/** "Custom tool 'a'" or "Custom tools 'a' and 'b'", to begin a message. */
function customTools(names: readonly string[]): string {
    return `${byCount(names.length, "Custom tool", "Custom tools")} ${formatList(names)}`;
}
