// A custom agent's own `model`, checked as `setModel` checks a switch: on that model, no built-in
// may answer a call of a custom tool the agent is offered. The package sends every custom tool
// with the override flag unless the app sets `overridesBuiltInTool: false`, and the measured
// catalog holds the built-ins of every measured model family; so only such a tool (or a name
// whose override the runtime ignores) on a model id the measurements lack needs a check, and the
// runtime's own `tools.list({ model })` says which built-ins that model has.

import { formatList, quoteValue } from "../../shared/formatting.js";
import { SessionToolError } from "../api/sessionToolError.js";
import {
    runtimeListingFor,
    unmeasuredBuiltIns,
    type BuiltInToolCatalog,
    type ModelListingHost,
} from "../catalog/builtInToolCatalog.js";

/** A custom tool as it is sent. */
interface SentTool {
    readonly name: string;
    readonly overridesBuiltInTool?: boolean;
}

/** A custom agent as it is sent (its `tools` in the runtime's names). */
interface SentAgent {
    readonly name: string;
    readonly model?: unknown;
    readonly tools?: readonly string[] | null;
}

/**
 * Refuses, before the session is created, a custom agent whose `model` (one the measurements do
 * not know) has a built-in named like a custom tool the agent is offered that is sent without
 * `overridesBuiltInTool: true`, or whose override the runtime does not honour: in that agent a
 * built-in would answer the app's calls. Asks the runtime once per such model; a runtime that does
 * not answer leaves the measurements to decide, as `setModel` does.
 *
 * @param host - the client
 * @param catalog - the runtime's catalog
 * @param sessionModel - the session's model (an agent on it needs no check of its own)
 * @param tools - the custom tools as sent
 * @param agents - the custom agents as sent
 * @throws SessionToolError `BUILT_IN_TOOL_COLLISION`, naming the agent, its model and the tools
 */
export async function refuseAgentModelCollisions(
    host: ModelListingHost,
    catalog: BuiltInToolCatalog,
    sessionModel: unknown,
    tools: readonly SentTool[],
    agents: readonly SentAgent[] | undefined
): Promise<void> {
    // The package flags every custom tool but those the app sends with `overridesBuiltInTool:
    // false`; only those, and names whose override the runtime ignores, can be answered elsewhere.
    const exposed = tools
        .filter(
            (tool) =>
                tool.overridesBuiltInTool !== true || catalog.unsupportedOverrides.has(tool.name)
        )
        .map((tool) => tool.name);
    if (agents === undefined || exposed.length === 0) return;
    const listings = new Map<string, Promise<readonly string[] | undefined>>();
    for (const agent of agents) {
        const model = agent.model;
        if (typeof model !== "string" || model.length === 0 || model === sessionModel) continue;
        if (unmeasuredBuiltIns(catalog, model).length === 0) continue;
        let listing = listings.get(model);
        if (listing === undefined) {
            listing = runtimeListingFor(host, model);
            listings.set(model, listing);
        }
        const builtIns = new Set(await listing);
        const offered =
            agent.tools === undefined || agent.tools === null ? undefined : new Set(agent.tools);
        const answeredElsewhere = exposed.filter(
            (name) => builtIns.has(name) && (offered?.has(name) ?? true)
        );
        if (answeredElsewhere.length === 0) continue;
        const one = answeredElsewhere.length === 1;
        throw new SessionToolError(
            "BUILT_IN_TOOL_COLLISION",
            `Custom agent ${quoteValue(agent.name)} runs on model ${quoteValue(model)}, where the ` +
                `runtime has built-in ${formatList(answeredElsewhere)}: in that agent the built-in ` +
                `would answer calls of the session's custom ${one ? "tool" : "tools"} of that name. ` +
                `Set overridesBuiltInTool: true on ${one ? "it" : "them"}, rename ${one ? "it" : "them"}, ` +
                `or give the agent a model the measurements know (or the session's).`,
            answeredElsewhere
        );
    }
}
