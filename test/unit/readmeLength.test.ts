/**
 * The README is for the user of today's version and stays short: at most 300 lines, the depth in
 * docs/ (which it links).
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const README = readFileSync(join(import.meta.dirname, "..", "..", "README.md"), "utf8");

describe("the README", () => {
    it("has at most 300 lines", () => {
        expect(README.split("\n").length - 1).toBeLessThanOrEqual(300);
    });
});
