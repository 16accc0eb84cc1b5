import { describe, expect, it } from "vitest";
import { closestName } from "../../src/toolFilter/nameSuggestions.js";

// "Did you mean": the same name in another case, else the closest name within the edit limit.
describe("closestName", () => {
    it("suggests the same name in another case before anything closer by edits", () => {
        expect(closestName("VIEW", ["vie", "view"])).toBe("view");
        expect(closestName("Bash", new Set(["bash"]))).toBe("bash");
    });

    it("never suggests the name itself", () => {
        expect(closestName("view", ["view"])).toBeUndefined();
    });

    it("allows one edit below five characters, a swap of neighbours counting as one", () => {
        expect(closestName("veiw", ["view"])).toBe("view");
        expect(closestName("bsh", ["bash"])).toBe("bash");
        expect(closestName("vw", ["view"])).toBeUndefined();
        expect(closestName("bahs", ["bsah"])).toBeUndefined();
    });

    it("allows two edits from five characters on", () => {
        expect(closestName("read_agnet", ["read_agent"])).toBe("read_agent");
        expect(closestName("web_fetchxx", ["web_fetch"])).toBe("web_fetch");
        expect(closestName("web_fxxxch", ["web_fetch"])).toBeUndefined();
    });

    it("prefers the closest name, and the earlier one among equally close names", () => {
        expect(closestName("lintt", ["lin", "lint"])).toBe("lint");
        expect(closestName("cat", ["bat", "hat"])).toBe("bat");
        expect(closestName("cat", ["hat", "bat"])).toBe("hat");
    });

    it("suggests nothing when no name is close", () => {
        expect(closestName("nothing_like_it", ["view", "bash"])).toBeUndefined();
        expect(closestName("view", [])).toBeUndefined();
    });

    it("suggests the only known name that an unknown one begins, before one two edits away", () => {
        const toolSets = ["toolset:read", "toolset:edit", "toolset:execute", "toolset:agent"];
        // 'toolset:edit' is two edits from 'toolset:exec'; the cut-off name is the likelier typo.
        expect(closestName("toolset:exec", toolSets)).toBe("toolset:execute");
        expect(closestName("toolset:agen", toolSets)).toBe("toolset:agent");
        expect(closestName("web_fe", ["web_fetch", "view"])).toBe("web_fetch");
    });

    it("does not guess from a beginning several names share, or one under three characters", () => {
        expect(closestName("read_", ["read_bash", "read_agent"])).toBeUndefined();
        expect(closestName("toolset:e", ["toolset:edit", "toolset:execute"])).toBeUndefined();
        expect(closestName("toolset:ex", ["toolset:execute"])).toBeUndefined();
    });
});
