// The one reader of a `session.setTools` update: the options it may change, read once into
// frozen copies, before the construction checks them as it checks a session's.

import { quoteValue } from "../../shared/formatting.js";
import type { ToolSessionConfig } from "../api/sessionConfig.js";
import { SessionToolError } from "../api/sessionToolError.js";
import { readOrRefuse } from "./callerInput.js";
import { snapshotCustomTools } from "./customTools.js";
import { readFilterOptions } from "./filterOptions.js";

/** The options `setTools` changes. */
export const UPDATE_KEYS = ["tools", "availableTools", "excludedTools", "customToolSets"] as const;

/** One option `setTools` changes. */
export type UpdateKey = (typeof UPDATE_KEYS)[number];

/**
 * The update's options, read once (a `ToolSet` becomes its entries, lists frozen copies read by
 * index), `null` turned into "not set". Their values are checked by the session step, as at
 * construction.
 */
export function readToolUpdate(update: unknown): Pick<ToolSessionConfig, UpdateKey> {
    const example = "e.g. session.setTools({ tools: [lint] })";
    const unreadable = (reason: string) =>
        `Invalid setTools argument: it cannot be read (${reason}); pass a plain object, ${example}.`;
    const keys = readOrRefuse(
        () => {
            if (update === null || typeof update !== "object" || Array.isArray(update)) {
                throw new SessionToolError(
                    "INVALID_TOOL_UPDATE",
                    `Invalid setTools argument ${quoteValue(update)}: ` +
                        `pass an object with any of ${UPDATE_KEYS.map((key) => `'${key}'`).join(", ")}, ${example}.`
                );
            }
            return Object.keys(update);
        },
        "INVALID_TOOL_UPDATE",
        unreadable
    );
    const unknown = keys.filter((key) => !(UPDATE_KEYS as readonly string[]).includes(key));
    if (unknown.length > 0) {
        throw new SessionToolError(
            "INVALID_TOOL_UPDATE",
            `setTools does not change ${unknown.map((key) => quoteValue(key)).join(", ")}: ` +
                `it takes ${UPDATE_KEYS.map((key) => `'${key}'`).join(", ")}. Other options need a new session or resumeSession.`,
            unknown
        );
    }
    const given = readOrRefuse(
        () => {
            const values: Partial<Record<UpdateKey, unknown>> = {};
            for (const key of UPDATE_KEYS) {
                if (keys.includes(key)) values[key] = (update as Record<UpdateKey, unknown>)[key];
            }
            return values;
        },
        "INVALID_TOOL_UPDATE",
        unreadable
    );
    const present = (key: UpdateKey) => given[key] !== undefined;
    const orNull = (key: UpdateKey) => (given[key] === null ? undefined : given[key]);
    const filters = readFilterOptions({
        availableTools: orNull("availableTools"),
        excludedTools: orNull("excludedTools"),
        customToolSets: orNull("customToolSets"),
    });
    const read: Partial<Record<UpdateKey, unknown>> = {};
    if (present("tools")) read.tools = snapshotCustomTools(orNull("tools"));
    for (const key of ["availableTools", "excludedTools", "customToolSets"] as const) {
        if (present(key)) read[key] = filters[key];
    }
    return read as Pick<ToolSessionConfig, UpdateKey>;
}
