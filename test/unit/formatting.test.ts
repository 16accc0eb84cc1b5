import { describe, expect, it } from "vitest";
import { formatList, quoteValue, suggestionSentence } from "../../src/shared/formatting.js";

// One formatter for values, one for lists: every message quotes what the caller passed.
describe("quoteValue", () => {
    it("puts strings in single quotes, escaping quotes and unprintable characters", () => {
        expect(quoteValue("view")).toBe("'view'");
        expect(quoteValue("")).toBe("''");
        expect(quoteValue("it's")).toBe("'it\\'s'");
        expect(quoteValue("a\nb\u0000")).toBe("'a\\nb\\u0000'");
    });

    it("shortens long values to 80 characters", () => {
        expect(quoteValue("a".repeat(100))).toBe(`'${"a".repeat(77)}...'`);
        expect(quoteValue(Array.from({ length: 50 }, () => 1))).toBe(`[${"1,".repeat(38)}...`);
    });

    it("renders other values as short JSON-like text", () => {
        expect(quoteValue(42)).toBe("42");
        expect(quoteValue(null)).toBe("null");
        expect(quoteValue(true)).toBe("true");
        expect(quoteValue([])).toBe("[]");
        expect(quoteValue({ quality: ["lint"] })).toBe('{"quality":["lint"]}');
        expect(quoteValue(undefined)).toBe("undefined");
        expect(quoteValue(5n)).toBe("5n");
        expect(quoteValue(() => "x")).toBe("a function");
    });

    it("names the type of a value JSON cannot render", () => {
        const cyclic: Record<string, unknown> = {};
        cyclic.self = cyclic;
        expect(quoteValue(cyclic)).toBe("a value of type object");
        expect(quoteValue(Symbol("s"))).toBe("a value of type symbol");
    });
});

describe("formatList", () => {
    it("quotes each name and separates them with commas", () => {
        expect(formatList(["lint", "fmt"])).toBe("'lint', 'fmt'");
        expect(formatList([])).toBe("");
    });

    it("counts the names past the length limit instead of listing them", () => {
        const names = Array.from({ length: 10 }, (_, i) => `n${i}`);
        expect(formatList(names, 20)).toBe("'n0', 'n1', 'n2', 'n3' and 6 more");
    });

    it("always lists the first name, and writes large counts with separators", () => {
        const names = Array.from({ length: 1200 }, (_, i) => `name_${i}`);
        expect(formatList(names, 0)).toBe("'name_0' and 1,199 more");
    });

    it("renders names as told", () => {
        expect(formatList(["'a' -> 'b'"], 240, (text) => text)).toBe("'a' -> 'b'");
    });
});

describe("suggestionSentence", () => {
    it("gives the suggestion alone for one unknown name", () => {
        expect(
            suggestionSentence([{ identifier: "toolset:reed", suggestion: "toolset:read" }])
        ).toBe(" Did you mean 'toolset:read'?");
    });

    it("pairs each suggestion with the name it replaces when several were unknown", () => {
        expect(
            suggestionSentence([
                { identifier: "veiw", suggestion: "view" },
                { identifier: "zzz" },
                { identifier: "Bash", suggestion: "bash" },
            ])
        ).toBe(" Did you mean 'view' for 'veiw', 'bash' for 'Bash'?");
    });

    it("says nothing when no name comes close", () => {
        expect(suggestionSentence([{ identifier: "zzz" }, { identifier: "qqq" }])).toBe("");
    });
});
