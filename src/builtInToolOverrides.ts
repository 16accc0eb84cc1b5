import type { CustomToolLike } from "./customToolValidation.js";
import { SessionToolError, quoteValue } from "./sessionToolError.js";

/**
 * What session construction does with a custom tool whose name a built-in tool already has.
 *
 * - `"override"` (default): the custom tool replaces the built-in, as if it had set
 *   `overridesBuiltInTool: true`; each automatic override is reported once through the client's
 *   `onToolWarning`.
 * - `"error"`: construction fails unless the tool sets `overridesBuiltInTool: true` itself.
 *
 * Either way a tool that sets `overridesBuiltInTool: false` on a built-in's name is refused: it
 * asks for both definitions, and the model must see exactly one.
 */
export type BuiltInToolCollisionPolicy = "override" | "error";

/** The built-in tool names the override filter decides against. */
export interface ReservedToolNames {
    /** Every name the runtime reserves for a built-in tool. */
    readonly reserved: ReadonlySet<string>;
    /** Reserved names whose override this runtime ignores (its built-in still runs). */
    readonly unhonoured: ReadonlySet<string>;
}

/** The outcome of {@link resolveBuiltInToolOverrides}. */
export interface BuiltInToolOverrides<T extends CustomToolLike> {
    /** The custom tools to send, in order: copies with `overridesBuiltInTool` settled. */
    readonly tools: readonly T[];
    /** Names of the built-ins that custom tools replace. */
    readonly overridden: readonly string[];
    /** The subset of `overridden` that the tool did not mark itself (reported as warnings). */
    readonly automatic: readonly string[];
    /** Custom tools whose name matches a built-in's only when case is ignored: no override. */
    readonly caseOnlyMatches: readonly { readonly tool: string; readonly builtIn: string }[];
    /** Custom tools that set `overridesBuiltInTool: true` on a name no built-in has. */
    readonly needlessFlags: readonly string[];
}

/**
 * The override filter: decides, for every custom tool, whether it replaces a built-in, so that
 * the model receives exactly one definition per name, the custom one. Pure: it neither reads the
 * runtime nor changes the tools it is given.
 *
 * @param tools - validated custom tools
 * @param names - the built-in names of the runtime in use
 * @param policy - see {@link BuiltInToolCollisionPolicy}
 * @returns the tools to send and what was overridden
 * @throws SessionToolError `BUILT_IN_TOOL_COLLISION` naming every refused tool, or
 *   `UNSUPPORTED_OVERRIDE` naming every tool whose override this runtime ignores
 *
 * @example
 * ```typescript
 * const { tools, overridden } = resolveBuiltInToolOverrides(
 *     [{ name: "view", handler }],
 *     { reserved: new Set(["view", "bash"]), unhonoured: new Set() },
 *     "override"
 * );
 * // tools[0].overridesBuiltInTool === true, overridden = ["view"]
 * ```
 */
export function resolveBuiltInToolOverrides<T extends CustomToolLike>(
    tools: readonly T[],
    names: ReservedToolNames,
    policy: BuiltInToolCollisionPolicy
): BuiltInToolOverrides<T> {
    const foldedReserved = foldedNames(names.reserved);

    const refusedExplicitly: string[] = [];
    const refusedByPolicy: string[] = [];
    const unsupported: string[] = [];
    const overridden: string[] = [];
    const automatic: string[] = [];
    const caseOnlyMatches: { tool: string; builtIn: string }[] = [];
    const needlessFlags: string[] = [];
    const settled: T[] = [];

    for (const tool of tools) {
        const flag = tool.overridesBuiltInTool;
        if (!names.reserved.has(tool.name)) {
            const builtIn = foldedReserved.get(tool.name.toLowerCase());
            if (builtIn !== undefined) caseOnlyMatches.push({ tool: tool.name, builtIn });
            if (flag === true) needlessFlags.push(tool.name);
            settled.push(tool);
            continue;
        }
        if (flag === false) {
            refusedExplicitly.push(tool.name);
            continue;
        }
        if (flag !== true && policy === "error") {
            refusedByPolicy.push(tool.name);
            continue;
        }
        if (names.unhonoured.has(tool.name)) {
            unsupported.push(tool.name);
            continue;
        }
        overridden.push(tool.name);
        if (flag !== true) automatic.push(tool.name);
        settled.push(flag === true ? tool : { ...tool, overridesBuiltInTool: true });
    }

    const refused = [...refusedExplicitly, ...refusedByPolicy];
    if (refused.length > 0) {
        const reasons: string[] = [];
        if (refusedExplicitly.length > 0) {
            reasons.push(
                `${list(refusedExplicitly)} set overridesBuiltInTool: false, which would leave two tools of the same name; remove the flag (or set it to true) to replace the built-in, or rename the tool`
            );
        }
        if (refusedByPolicy.length > 0) {
            reasons.push(
                `builtInToolCollisions is 'error', so ${list(refusedByPolicy)} must set overridesBuiltInTool: true to replace the built-in, or be renamed`
            );
        }
        throw new SessionToolError(
            "BUILT_IN_TOOL_COLLISION",
            `Custom tools ${list(refused)} have the names of built-in tools: ${reasons.join("; ")}.`,
            refused
        );
    }
    if (unsupported.length > 0) {
        throw new SessionToolError(
            "UNSUPPORTED_OVERRIDE",
            `Custom tools ${list(unsupported)} cannot override the built-in tools of the same name: this runtime ignores the override and would run its own implementation. Rename the tools (for example 'my_${unsupported[0]}').`,
            unsupported
        );
    }
    return Object.freeze({
        tools: Object.freeze(settled),
        overridden: Object.freeze(overridden),
        automatic: Object.freeze(automatic),
        caseOnlyMatches: Object.freeze(caseOnlyMatches),
        needlessFlags: Object.freeze(needlessFlags),
    });
}

const foldedCache = new WeakMap<ReadonlySet<string>, ReadonlyMap<string, string>>();

/** Lower-cased name to name; a catalog's reserved set is shared by its sessions, so cache it. */
function foldedNames(reserved: ReadonlySet<string>): ReadonlyMap<string, string> {
    let folded = foldedCache.get(reserved);
    if (folded === undefined) {
        const map = new Map<string, string>();
        for (const name of reserved) map.set(name.toLowerCase(), name);
        foldedCache.set(reserved, map);
        folded = map;
    }
    return folded;
}

function list(names: readonly string[]): string {
    return names.map((name) => quoteValue(name)).join(", ");
}
