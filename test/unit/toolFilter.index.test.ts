import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import {
    ReadonlyMapView,
    resolveToolFilter,
    ToolCatalogIndex,
    type ToolCatalog,
} from "../../src/toolFilter.js";
import { ToolFilterError } from "../../src/toolFilterError.js";

const catalog: ToolCatalog = {
    tools: [
        { id: "vscode_editFile", toolReferenceName: "editFile" },
        { id: "vscode_deleteFile", toolReferenceName: "deleteFile" },
        { id: "view" },
    ],
    toolSets: [
        {
            id: "toolset:edit",
            referenceName: "edit",
            tools: ["vscode_editFile", "vscode_deleteFile", "ghost"],
        },
    ],
};

describe("ToolCatalogIndex", () => {
    it("resolves each kind of identifier and reports unknown names", () => {
        const index = ToolCatalogIndex.fromCatalog(catalog);
        expect(index.resolve("toolset:edit")).toEqual({
            kind: "toolSet",
            matchedBy: "id",
            toolSetIds: ["toolset:edit"],
            toolIds: ["vscode_editFile", "vscode_deleteFile"],
        });
        expect(index.resolve("edit")).toMatchObject({
            kind: "toolSet",
            matchedBy: "referenceName",
        });
        expect(index.resolve("view")).toEqual({ kind: "tool", matchedBy: "id", toolIds: ["view"] });
        expect(index.resolve("deleteFile")).toEqual({
            kind: "tool",
            matchedBy: "toolReferenceName",
            toolIds: ["vscode_deleteFile"],
        });
        expect(index.resolve("__proto__")).toEqual({ kind: "unknown" });
        expect(index.resolve(42 as unknown as string)).toEqual({ kind: "unknown" });
    });

    it("lists ids in catalog order and keeps the catalog warnings", () => {
        const index = ToolCatalogIndex.fromCatalog(catalog);
        expect(index.toolIds).toEqual(["vscode_editFile", "vscode_deleteFile", "view"]);
        expect(index.toolSetIds).toEqual(["toolset:edit"]);
        expect(index.toolSetMembers("toolset:edit")).toEqual([
            "vscode_editFile",
            "vscode_deleteFile",
        ]);
        expect(index.toolSetMembers("edit")).toBeUndefined();
        expect(index.warnings.map((warning) => warning.code)).toEqual(["UNKNOWN_TOOLSET_MEMBER"]);
    });

    it("returns frozen resolutions", () => {
        const resolved = ToolCatalogIndex.fromCatalog(catalog).resolve("edit");
        expect(Object.isFrozen(resolved)).toBe(true);
        expect(resolved.kind === "toolSet" && Object.isFrozen(resolved.toolIds)).toBe(true);
    });

    it("validates the catalog when it is built", () => {
        expect(() => ToolCatalogIndex.fromCatalog({ tools: [{ id: "a" }, { id: "a" }] })).toThrow(
            ToolFilterError
        );
    });

    it("can be reused across resolveToolFilter calls, re-reporting its catalog warnings", () => {
        const index = ToolCatalogIndex.fromCatalog(catalog);
        const codes: string[] = [];
        const settings = { onWarning: (warning: { code: string }) => codes.push(warning.code) };
        const first = resolveToolFilter(index, { includeTools: ["edit"] }, settings);
        const second = resolveToolFilter(index, { excludeTools: ["edit"] }, settings);
        expect(first.enabledTools).toEqual(["vscode_editFile", "vscode_deleteFile"]);
        expect(second.enabledTools).toEqual(["view"]);
        expect(codes).toEqual(["UNKNOWN_TOOLSET_MEMBER", "UNKNOWN_TOOLSET_MEMBER"]);
        expect(resolveToolFilter(catalog, { excludeTools: ["edit"] }, settings)).toEqual(second);
    });

    it("cannot be constructed or modified from outside", () => {
        const index = ToolCatalogIndex.fromCatalog(catalog);
        expect(Object.isFrozen(index)).toBe(true);
        expect(() => {
            (index as unknown as { extra: number }).extra = 1;
        }).toThrow(TypeError);
    });
});

describe("ReadonlyMapView", () => {
    it("answers like the map it wraps", () => {
        const view = new ReadonlyMapView(
            new Map([
                ["a", true],
                ["b", false],
            ])
        );
        expect(view.size).toBe(2);
        expect(view.get("b")).toBe(false);
        expect(view.has("c")).toBe(false);
        expect([...view]).toEqual([
            ["a", true],
            ["b", false],
        ]);
        expect([...view.keys()]).toEqual(["a", "b"]);
        expect([...view.values()]).toEqual([true, false]);
        expect([...view.entries()]).toEqual([...view]);
    });

    it("passes itself, not the wrapped map, to forEach callbacks", () => {
        const view = new ReadonlyMapView(new Map([["a", 1]]));
        const seen: unknown[] = [];
        const context = { tag: "ctx" };
        view.forEach(function (this: unknown, value, key, map) {
            seen.push(value, key, map === view, this);
        }, context);
        expect(seen).toEqual([1, "a", true, context]);
    });

    it("shows its entries when inspected", () => {
        expect(inspect(new ReadonlyMapView(new Map([["view", true]])))).toBe(
            "ReadonlyMapView Map(1) { 'view' => true }"
        );
    });
});
