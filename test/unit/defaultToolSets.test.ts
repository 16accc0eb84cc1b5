import { describe, expect, it } from "vitest";
import { DEFAULT_TOOL_SETS } from "../../src/toolCustomization/catalog/defaultToolSets.js";
import { RAW_MEASUREMENTS } from "../support/rawMeasurements.js";

// Every member of a default toolset must be a built-in of some measured runtime: a name no
// runtime has would make `toolset:<name>` promise a tool that never exists. The expected names
// come from the discovery's raw measurement files, not from the generated catalog.
const measuredBuiltIns = new Set(RAW_MEASUREMENTS.flatMap((file) => file.builtIns));

describe("default toolsets", () => {
    it("reads measurements of at least one runtime", () => {
        expect(measuredBuiltIns.size).toBeGreaterThan(50);
    });

    it.each(Object.entries(DEFAULT_TOOL_SETS))(
        "toolset:%s lists only names that are built-ins of a measured runtime",
        (_, members) => {
            expect(members.filter((member) => !measuredBuiltIns.has(member))).toEqual([]);
        }
    );
});
