/**
 * The prompt's view of a session's tools (`promptToolsOf`): a tool counts as absent only when the
 * package knows it is. On a runtime it has no measurements of, the stand-in measurements' word
 * that the model is not offered a built-in drives no removal; the app's filter and its custom
 * tools still do.
 */
import { describe, expect, it } from "vitest";
import {
    catalogWithoutAsking,
    offeredBuiltIns,
    type BuiltInToolCatalog,
} from "../../src/toolCustomization/catalog/builtInToolCatalog.js";
import { promptToolsOf } from "../../src/toolCustomization/prompt/promptTools.js";
import { MEASURED_BUILT_IN_TOOLS } from "../../src/toolCustomization/catalog/generated/measuredBuiltInTools.generated.js";

const MODEL = "claude-sonnet-4.5";

/** A session on `catalog` that excludes `excluded` and replaces `replaced`. */
function session(catalog: BuiltInToolCatalog, excluded: string[], replaced: string[] = []) {
    const offered = offeredBuiltIns(catalog, { model: MODEL });
    const toolEnablement = new Map(
        offered
            .filter((name) => !replaced.includes(name))
            .map((name) => [name, !excluded.includes(name)] as const)
    );
    for (const name of replaced) toolEnablement.set(name, true);
    return promptToolsOf({
        catalog,
        customTools: replaced,
        enabledTools: [...toolEnablement].filter(([, on]) => on).map(([name]) => name),
        toolEnablement,
        uncertainBuiltIns: [],
        replaced,
        isEnabled: (name) => !excluded.includes(name),
    });
}

describe("promptToolsOf: certain absence only", () => {
    const newest = MEASURED_BUILT_IN_TOOLS.at(-1)!;
    const measured = catalogWithoutAsking(newest.runtimeVersion);
    const fallback = catalogWithoutAsking("0.0.0-not-measured");
    // A model-facing built-in the measured model is not offered without an option.
    const notOffered = "ask_user";

    it("on a measured runtime, drops what the model is not offered", () => {
        expect(measured.source).toBe("measured");
        const tools = session(measured, ["view"]);
        expect(tools.dropped.has(notOffered)).toBe(true);
        expect(tools.dropped.has("view")).toBe(true);
        expect(tools.missing).toEqual(["view"]);
        expect(tools.unconfirmed).toEqual([]);
    });

    it("on a runtime it has not measured, drops only what the app removed or replaced, and names the rest unconfirmed", () => {
        expect(fallback.source).toBe("fallback");
        const tools = session(fallback, ["view"], ["grep"]);
        expect(tools.dropped.has(notOffered)).toBe(false);
        expect(tools.unconfirmed).toContain(notOffered);
        expect(tools.dropped.has("view")).toBe(true);
        expect(tools.dropped.has("grep")).toBe(true);
        expect(tools.missing).toEqual(["view"]);
        expect(tools.unconfirmed).not.toContain("view");
        expect(tools.unconfirmed).not.toContain("grep");
    });
});
