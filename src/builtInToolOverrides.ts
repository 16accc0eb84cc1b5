import type { BuiltInToolCatalog } from "./builtInToolCatalog.js";
import type { CustomToolSnapshot } from "./customTools.js";
import { formatList } from "./formatting.js";
import { SessionToolError } from "./sessionToolError.js";

/**
 * What happens when a custom tool has the name of a built-in tool and does not set
 * `overridesBuiltInTool`: `"override"` replaces the built-in, `"error"` refuses the session.
 *
 * @experimental
 */
export type BuiltInToolCollisionPolicy = "override" | "error";

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
    /** Of those, the ones the runtime keeps only while tool search defers tools. */
    readonly needToolSearch: readonly string[];
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
    return Object.freeze(
        replacesBuiltIn || tool.defer !== undefined
            ? { ...tool, overridesBuiltInTool: true }
            : { ...tool, overridesBuiltInTool: true, defer: "auto" }
    );
}

/**
 * Decides, for every custom tool, whether it may replace the built-in of its name, and marks
 * every tool it accepts as an override. Refuses, naming every such tool:
 * - a known built-in's name without the flag, under the `"error"` policy, or with
 *   `overridesBuiltInTool: false` (the built-in would answer its calls);
 * - names whose override the runtime does not honour.
 * Names it keeps only while tool search defers tools are listed in `needToolSearch`, for the
 * session step to check once it knows how many tools the model gets.
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
    const needToolSearch: string[] = [];
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
        else if (catalog.unsupportedOverrides.has(name)) unsupported.push(name);
        else {
            overridden.push(name);
            if (flag === undefined) automatic.push(name);
            if (catalog.keptOnlyWithToolSearch.has(name)) needToolSearch.push(name);
        }
    }

    if (refusedFlag.length > 0) {
        throw new SessionToolError(
            "BUILT_IN_TOOL_COLLISION",
            `Custom tools ${formatList(refusedFlag)} set overridesBuiltInTool: false, but the runtime has built-in tools of these names, which would answer their calls. Rename them, or set overridesBuiltInTool: true to replace the built-ins.`,
            refusedFlag
        );
    }
    if (refusedPolicy.length > 0) {
        throw new SessionToolError(
            "BUILT_IN_TOOL_COLLISION",
            `Custom tools ${formatList(refusedPolicy)} have the names of built-in tools. Set overridesBuiltInTool: true on them to replace the built-ins, or rename them to keep both.`,
            refusedPolicy
        );
    }
    if (unsupported.length > 0) {
        throw new SessionToolError(
            "UNSUPPORTED_OVERRIDE",
            `The runtime (version ${catalog.measured.runtimeVersion}) does not let custom tools replace its built-in tools ${formatList(unsupported)}: the built-in would still answer, or the custom tool would be dropped. Rename these tools.`,
            unsupported
        );
    }
    return {
        tools: tools.map((tool) => markedAsOverride(tool, catalog.builtIns.has(tool.name))),
        overridden,
        needToolSearch,
        automatic,
        caseOnlyMatches,
    };
}
