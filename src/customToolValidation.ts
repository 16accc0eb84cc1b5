import { SessionToolError, quoteValue } from "./sessionToolError.js";

/**
 * The shape of a custom tool as far as session construction checks it. It is structural, so the
 * SDK's own `Tool` type (with handler, parameters and flags) fits it unchanged.
 */
export interface CustomToolLike {
    readonly name: string;
    readonly handler?: unknown;
    readonly overridesBuiltInTool?: unknown;
    readonly declarationOnly?: unknown;
}

/**
 * Options of a custom tool that this patch adds to the SDK's `Tool` type.
 */
export interface CustomToolDeclarationOptions {
    /**
     * Declares a tool without a handler on purpose: the model may call it, and the app resolves
     * each call itself from the external tool request events. Without this flag a tool with no
     * handler is refused at session construction, because its calls would reach no code.
     */
    declarationOnly?: boolean;
}

/** Tool names the model APIs accept: letters, digits, `_` and `-`, at most 64 characters. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Names that JavaScript objects carry through their prototype. The runtime keys tools by plain
 * objects in places, where such names are dropped or mistaken for inherited members, so the SDK
 * refuses them as custom tool names.
 */
export const PROTOTYPE_TOOL_NAMES: ReadonlySet<string> = new Set([
    ...Object.getOwnPropertyNames(Object.prototype),
    "prototype",
]);

/**
 * Checks the custom tools of a session config and returns them as a new array. Throws a
 * {@link SessionToolError} naming the offending tool for: entries that are not objects, names
 * that are not strings, outside {@link TOOL_NAME_PATTERN} or in {@link PROTOTYPE_TOOL_NAMES},
 * duplicate names (also names that differ only in case, which a model cannot tell apart
 * reliably), a non-boolean `overridesBuiltInTool` or `declarationOnly`, and a missing or
 * non-function handler on a tool that is not `declarationOnly`.
 *
 * @param tools - the `tools` option as the caller passed it
 * @returns the tools in their original order (the same objects, never modified)
 */
export function validateCustomTools(tools: unknown): readonly CustomToolLike[] {
    if (tools === undefined || tools === null) return [];
    if (!Array.isArray(tools)) {
        throw new SessionToolError(
            "INVALID_CUSTOM_TOOL",
            `Invalid tools option ${quoteValue(tools)}: pass an array of tools, e.g. tools: [defineTool("my_tool", { ... })].`
        );
    }
    const problems: string[] = [];
    const offenders: string[] = [];
    const byName = new Map<string, number>();
    const byFoldedName = new Map<string, { name: string; index: number }>();
    const duplicates: string[] = [];

    tools.forEach((tool: unknown, index: number) => {
        if (tool === null || typeof tool !== "object") {
            problems.push(`tools[${index}] is ${quoteValue(tool)}, not a tool object`);
            offenders.push(`tools[${index}]`);
            return;
        }
        const candidate = tool as Record<string, unknown>;
        const name = candidate.name;
        if (typeof name !== "string") {
            problems.push(
                `tools[${index}] has name ${quoteValue(name)}; a tool name must be a string`
            );
            offenders.push(`tools[${index}]`);
            return;
        }
        const where = `(tools[${index}])`;
        const before = problems.length;
        if (!TOOL_NAME_PATTERN.test(name)) {
            problems.push(
                `Custom tool ${quoteValue(name)} ${where} has an invalid name: tool names must match ${TOOL_NAME_PATTERN} ` +
                    `(letters, digits, '_' and '-', 1 to 64 characters)${name.length > 64 ? `; this one has ${name.length}` : ""}`
            );
        } else if (PROTOTYPE_TOOL_NAMES.has(name)) {
            problems.push(
                `Custom tool ${quoteValue(name)} ${where} uses a name that JavaScript objects inherit, which the runtime cannot key tools by; rename it, e.g. 'my_${name.replace(/^_+|_+$/g, "")}'`
            );
        }
        const override = candidate.overridesBuiltInTool;
        if (override !== undefined && typeof override !== "boolean") {
            problems.push(
                `Custom tool ${quoteValue(name)} ${where} has overridesBuiltInTool ${quoteValue(override)}; use true, false, or leave it out`
            );
        }
        const declarationOnly = candidate.declarationOnly;
        if (declarationOnly !== undefined && typeof declarationOnly !== "boolean") {
            problems.push(
                `Custom tool ${quoteValue(name)} ${where} has declarationOnly ${quoteValue(declarationOnly)}; use true or leave it out`
            );
        }
        const handler = candidate.handler;
        if (declarationOnly === true) {
            if (handler !== undefined) {
                problems.push(
                    `Custom tool ${quoteValue(name)} ${where} is declarationOnly but also has a handler; remove one of the two`
                );
            }
        } else if (typeof handler !== "function") {
            problems.push(
                handler === undefined
                    ? `Custom tool ${quoteValue(name)} ${where} has no handler, so a call to it would reach no code; pass handler: async (args) => ..., or set declarationOnly: true if your app answers its calls itself`
                    : `Custom tool ${quoteValue(name)} ${where} has handler ${quoteValue(handler)}; a handler must be a function`
            );
        }
        if (problems.length > before) offenders.push(name);

        const seenAt = byName.get(name);
        if (seenAt !== undefined) {
            duplicates.push(
                `${quoteValue(name)} is defined twice (tools[${seenAt}] and tools[${index}]); the model would see one definition and the SDK would run the other's handler. Keep one tool per name`
            );
            offenders.push(name);
            return;
        }
        byName.set(name, index);
        const folded = name.toLowerCase();
        const caseTwin = byFoldedName.get(folded);
        if (caseTwin !== undefined) {
            duplicates.push(
                `${quoteValue(caseTwin.name)} (tools[${caseTwin.index}]) and ${quoteValue(name)} (tools[${index}]) differ only in case, which models confuse; rename one of them`
            );
            offenders.push(name);
            return;
        }
        byFoldedName.set(folded, { name, index });
    });

    if (problems.length > 0) {
        throw new SessionToolError(
            "INVALID_CUSTOM_TOOL",
            `Invalid custom tools: ${problems.join("; ")}.`,
            offenders
        );
    }
    if (duplicates.length > 0) {
        throw new SessionToolError(
            "DUPLICATE_TOOL_NAME",
            `Duplicate custom tool names: ${duplicates.join("; ")}.`,
            offenders
        );
    }
    return [...(tools as CustomToolLike[])];
}
