/*---------------------------------------------------------------------------------------------
 *  includeTools / excludeTools: decide which tools of a catalog a chat session may use.
 *
 *  Pure and synchronous: no I/O, no runtime dependencies, no import from the SDK, so the same
 *  code can be unit-tested here and compiled into the SDK's dist by the patch build.
 *--------------------------------------------------------------------------------------------*/

import { ToolFilterError } from "./toolFilterError.js";

/**
 * A tool as the filter sees it: the id it is registered under and, optionally, the shorter name
 * users write to reference it (VS Code's `toolReferenceName`, e.g. `"editFile"` for
 * `"vscode_editFile"`).
 */
export interface ToolCatalogTool {
    /** Unique tool id. */
    readonly id: string;
    /** Optional short name; several tools may share one (it then names all of them). */
    readonly toolReferenceName?: string;
}

/**
 * A named group of tools. Naming the toolset in `includeTools` / `excludeTools` affects every
 * member at once.
 */
export interface ToolCatalogToolSet {
    /** Unique toolset id, e.g. `"toolset:GitHub.copilot-chat/edit"`. */
    readonly id: string;
    /** Short name users write, e.g. `"edit"`. */
    readonly referenceName: string;
    /**
     * Ids of the member tools. Ids the catalog does not contain are ignored with an
     * `UNKNOWN_TOOLSET_MEMBER` warning; repeated ids count once.
     */
    readonly tools: readonly string[];
}

/**
 * Everything identifiers are resolved against: the available tools and the named toolsets.
 *
 * Tool ids must be unique, and so must toolset ids (otherwise `INVALID_CATALOG`). A toolset id
 * may equal a tool id or name; {@link resolveToolFilter} documents which one wins.
 */
export interface ToolCatalog {
    /** All available tools, in the order results should list them. */
    readonly tools: readonly ToolCatalogTool[];
    /** Named toolsets; omitted or `null` means none. */
    readonly toolSets?: readonly ToolCatalogToolSet[];
}

/**
 * The two filter options, as passed to `workbench.action.chat.open` or a session config.
 *
 * Each entry is a toolset id, toolset `referenceName`, tool id or tool `toolReferenceName`;
 * matching is exact and case-sensitive. At runtime `null` is treated like an omitted option.
 */
export interface ToolFilterOptions {
    /**
     * When given, only these tools and toolsets are enabled (whitelist). `[]` is rejected with
     * `EMPTY_INCLUDE_TOOLS`, since it would enable nothing.
     */
    readonly includeTools?: readonly string[];
    /**
     * Tools and toolsets to remove, applied after `includeTools`. `[]` has no effect. An explicit
     * tool exclusion always wins; a toolset exclusion yields to an explicit tool inclusion.
     */
    readonly excludeTools?: readonly string[];
}

/** Name of a filter option, used in warnings, errors and unknown-identifier reports. */
export type ToolFilterOptionName = "includeTools" | "excludeTools";

/**
 * Why a {@link ToolFilterWarning} was reported. None of them stops filtering.
 *
 * - `UNKNOWN_IDENTIFIER`: an identifier matches nothing in the catalog; it is ignored.
 * - `DUPLICATE_IDENTIFIER`: an identifier repeats within the same option; the repeat is ignored.
 * - `AMBIGUOUS_IDENTIFIER`: a reference name is shared by several toolsets (or several tools);
 *   it applies to all of them.
 * - `EMPTY_TOOLSET`: an identifier names a toolset with no member in the catalog, so it
 *   enables or excludes nothing.
 * - `UNKNOWN_TOOLSET_MEMBER`: a toolset lists a tool id the catalog lacks; that member is ignored.
 */
export type ToolFilterWarningCode =
    | "UNKNOWN_IDENTIFIER"
    | "DUPLICATE_IDENTIFIER"
    | "AMBIGUOUS_IDENTIFIER"
    | "EMPTY_TOOLSET"
    | "UNKNOWN_TOOLSET_MEMBER";

/**
 * A problem worth telling the user about that does not stop filtering (typos, repeats, catalog
 * quirks). Delivered to {@link ResolveToolFilterSettings.onWarning} and listed in
 * {@link ToolFilterResult.warnings}.
 */
export interface ToolFilterWarning {
    /** Machine-readable reason. */
    readonly code: ToolFilterWarningCode;
    /** Human-readable message naming the option and the identifier. */
    readonly message: string;
    /** The option the identifier came from; absent for catalog warnings. */
    readonly option?: ToolFilterOptionName;
    /** The identifier concerned (for `UNKNOWN_TOOLSET_MEMBER`, the missing member tool id). */
    readonly identifier?: string;
    /** For `UNKNOWN_TOOLSET_MEMBER` and `EMPTY_TOOLSET`, the toolset concerned. */
    readonly toolSetId?: string;
}

/**
 * How {@link resolveToolFilter} reports warnings.
 */
export interface ResolveToolFilterSettings {
    /**
     * Called synchronously with each warning, in the order found. Defaults to
     * `console.warn(warning.message)`; pass `() => {}` to silence warnings (they are still listed
     * in {@link ToolFilterResult.warnings}). An exception thrown here propagates to the caller.
     */
    readonly onWarning?: (warning: ToolFilterWarning) => void;
}

/**
 * Which row of the behaviour matrix applied:
 *
 * | `includeTools` | `excludeTools`      | mode          |
 * |----------------|---------------------|---------------|
 * | omitted        | omitted or `[]`     | `"default"`   |
 * | given          | omitted or `[]`     | `"whitelist"` |
 * | omitted        | given, non-empty    | `"blacklist"` |
 * | given          | given, non-empty    | `"combined"`  |
 */
export type ToolFilterMode = "default" | "whitelist" | "blacklist" | "combined";

/**
 * How one identifier resolved against the catalog.
 *
 * Matching order is toolset `id`, toolset `referenceName`, tool `id`, tool `toolReferenceName`;
 * the first kind of name that matches decides, so a name that is both a toolset `referenceName`
 * and a tool id names the toolset. `toolIds` are the tools it affects: the (catalog-present,
 * de-duplicated) members for a toolset, or the tool itself. A reference name shared by several
 * toolsets or tools resolves to all of them.
 */
export type ResolvedIdentifier =
    | {
          readonly kind: "toolSet";
          readonly matchedBy: "id" | "referenceName";
          readonly toolSetIds: readonly string[];
          readonly toolIds: readonly string[];
      }
    | {
          readonly kind: "tool";
          readonly matchedBy: "id" | "toolReferenceName";
          readonly toolIds: readonly string[];
      }
    | { readonly kind: "unknown" };

/** An identifier from one of the options together with what it resolved to. */
export interface IdentifierResolution {
    /** Option the identifier was listed in. */
    readonly option: ToolFilterOptionName;
    /** The identifier as given. */
    readonly identifier: string;
    /** What it matched in the catalog. */
    readonly resolution: ResolvedIdentifier;
}

/** An identifier that matched nothing, and the option it came from. */
export interface UnknownToolIdentifier {
    /** Option the identifier was listed in. */
    readonly option: ToolFilterOptionName;
    /** The identifier as given. */
    readonly identifier: string;
}

/**
 * The outcome of {@link resolveToolFilter}. Deeply immutable: arrays are frozen and the maps
 * are read-only views that cannot be modified even through a cast.
 */
export interface ToolFilterResult {
    /** Which row of the behaviour matrix applied. */
    readonly mode: ToolFilterMode;
    /** Ids of the enabled tools, in catalog order. */
    readonly enabledTools: readonly string[];
    /** Enablement of every catalog tool, keyed by tool id, in catalog order. */
    readonly toolEnablement: ReadonlyMap<string, boolean>;
    /**
     * Enablement of every catalog toolset, keyed by toolset id: `true` iff the toolset has at
     * least one member in the catalog and all of them are enabled.
     */
    readonly toolSetEnablement: ReadonlyMap<string, boolean>;
    /** Identifiers that matched nothing, in option order (`includeTools` first). */
    readonly unknownIdentifiers: readonly UnknownToolIdentifier[];
    /** Every distinct identifier of both options and what it resolved to, in option order. */
    readonly resolutions: readonly IdentifierResolution[];
    /** All warnings reported during this call, catalog warnings first. */
    readonly warnings: readonly ToolFilterWarning[];
}

/**
 * A read-only view of a `Map`. Unlike a `Map` typed as `ReadonlyMap`, it has no `set`, `delete`
 * or `clear` to reach through a cast, so a result can be shared without defensive copies.
 *
 * @example
 * ```typescript
 * const view = new ReadonlyMapView(new Map([["view", true]]));
 * view.get("view"); // true
 * new Map(view); // a mutable copy, when one is needed
 * ```
 */
export class ReadonlyMapView<K, V> implements ReadonlyMap<K, V> {
    readonly #map: Map<K, V>;

    /**
     * @param map - The map to expose. The view takes ownership: the caller must not modify it
     *   afterwards.
     */
    constructor(map: Map<K, V>) {
        this.#map = map;
        Object.freeze(this);
    }

    /** Number of entries. */
    get size(): number {
        return this.#map.size;
    }

    /** @param key - Key to look up. @returns The value, or `undefined` when absent. */
    get(key: K): V | undefined {
        return this.#map.get(key);
    }

    /** @param key - Key to look up. @returns Whether the key is present. */
    has(key: K): boolean {
        return this.#map.has(key);
    }

    /**
     * Calls `callback` for each entry in insertion order.
     *
     * @param callback - Receives value, key and this view (never the underlying map).
     * @param thisArg - `this` for the callback.
     */
    forEach(callback: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
        this.#map.forEach((value, key) => callback.call(thisArg, value, key, this));
    }

    /** @returns The entries in insertion order. */
    entries(): MapIterator<[K, V]> {
        return this.#map.entries();
    }

    /** @returns The keys in insertion order. */
    keys(): MapIterator<K> {
        return this.#map.keys();
    }

    /** @returns The values in insertion order. */
    values(): MapIterator<V> {
        return this.#map.values();
    }

    /** @returns The entries in insertion order. */
    [Symbol.iterator](): MapIterator<[K, V]> {
        return this.#map.entries();
    }

    /** Shows the entries (not an empty object) in `console.log` and the Node REPL. */
    [Symbol.for("nodejs.util.inspect.custom")](
        _depth: number,
        options: unknown,
        inspect: (value: unknown, options: unknown) => string
    ): string {
        return `ReadonlyMapView ${inspect(this.#map, options)}`;
    }
}

/**
 * The enablement maps of a {@link ToolFilterResult}: a read-only map from id to enabled,
 * answering from the catalog index's id → position table and one byte per entry.
 */
class EnablementView implements ReadonlyMap<string, boolean> {
    readonly #positions: NameTable;
    readonly #ids: readonly string[];
    readonly #enabled: Uint8Array;

    constructor(positions: NameTable, ids: readonly string[], enabled: Uint8Array) {
        this.#positions = positions;
        this.#ids = ids;
        this.#enabled = enabled;
        Object.freeze(this);
    }

    get size(): number {
        return this.#ids.length;
    }

    get(id: string): boolean | undefined {
        const position = this.#positions.find(id);
        return position === -1 ? undefined : this.#enabled[position] === 1;
    }

    has(id: string): boolean {
        return this.#positions.find(id) !== -1;
    }

    forEach(
        callback: (value: boolean, key: string, map: ReadonlyMap<string, boolean>) => void,
        thisArg?: unknown
    ): void {
        for (let position = 0; position < this.#ids.length; position++) {
            callback.call(thisArg, this.#enabled[position] === 1, this.#ids[position]!, this);
        }
    }

    *entries(): MapIterator<[string, boolean]> {
        for (let position = 0; position < this.#ids.length; position++) {
            yield [this.#ids[position]!, this.#enabled[position] === 1];
        }
    }

    *keys(): MapIterator<string> {
        yield* this.#ids;
    }

    *values(): MapIterator<boolean> {
        for (let position = 0; position < this.#ids.length; position++) {
            yield this.#enabled[position] === 1;
        }
    }

    [Symbol.iterator](): MapIterator<[string, boolean]> {
        return this.entries();
    }

    [Symbol.for("nodejs.util.inspect.custom")](
        _depth: number,
        options: unknown,
        inspect: (value: unknown, options: unknown) => string
    ): string {
        return `ReadonlyMap ${inspect(new Map(this), options)}`;
    }
}

/**
 * A hash table from name to position: open addressing with linear probing in a single
 * `Int32Array` whose slots hold 1 + a position (0 = empty), the names themselves staying in the
 * caller's position-indexed array. Several positions may share a name (reference names); they
 * then sit on one probe chain in insertion order, so {@link NameTable.collect} lists them in
 * catalog order.
 *
 * Why not a `Map`: a catalog of 100,000 tools would need several 100,000-entry maps per call,
 * each rehashed as it grows and traced by the garbage collector, which made large catalogs
 * markedly slower than linear. This table is sized once, holds no pointers and is several
 * times smaller. Names are compared with `===`, so `__proto__` or `constructor` are just names.
 */
class NameTable {
    readonly #names: readonly (string | undefined)[];
    /**
     * Each slot is 0 (empty) or `1 + position` in the low bits with the name's hash in the
     * remaining high bits, which spares most string comparisons at four bytes a slot.
     */
    readonly #slots: Int32Array;
    /** Slot count - 1 (a power of two - 1). */
    readonly #mask: number;
    /** Low bits holding `1 + position`; the others hold hash bits. */
    readonly #positionMask: number;

    /**
     * @param names - Name of each position; positions are added with {@link NameTable.add} or
     *   {@link NameTable.addUnique}. The array may still grow, but an added position's name
     *   must not change.
     * @param capacity - How many positions will be added at most.
     */
    constructor(names: readonly (string | undefined)[], capacity: number) {
        // At most half full, so probe chains stay short.
        let size = 8;
        while (size < capacity * 2) {
            size *= 2;
        }
        let positionMask = 1;
        while (positionMask <= capacity) {
            positionMask = positionMask * 2 + 1;
        }
        this.#names = names;
        this.#slots = new Int32Array(size);
        this.#mask = size - 1;
        this.#positionMask = positionMask;
    }

    /**
     * Adds `position` under its name unless another position already has that name.
     *
     * @returns The position already holding the name, or -1 when `position` was added.
     */
    addUnique(position: number): number {
        const existing = this.find(this.#names[position]!);
        if (existing === -1) {
            this.add(position);
        }
        return existing;
    }

    /** Adds `position` under its name, after any positions already sharing it. */
    add(position: number): void {
        const hash = hashName(this.#names[position]!);
        const slots = this.#slots;
        let slot = hash & this.#mask;
        while (slots[slot] !== 0) {
            slot = (slot + 1) & this.#mask;
        }
        slots[slot] = (hash & ~this.#positionMask) | (position + 1);
    }

    /** @returns The first position added under `name`, or -1. */
    find(name: string): number {
        const hash = hashName(name);
        const tag = hash & ~this.#positionMask;
        const slots = this.#slots;
        let slot = hash & this.#mask;
        for (let entry = slots[slot]!; entry !== 0; entry = slots[slot]!) {
            if ((entry & ~this.#positionMask) === tag) {
                const position = (entry & this.#positionMask) - 1;
                if (this.#names[position] === name) {
                    return position;
                }
            }
            slot = (slot + 1) & this.#mask;
        }
        return -1;
    }

    /** Appends to `into` every position added under `name`, in the order they were added. */
    collect(name: string, into: number[]): void {
        const hash = hashName(name);
        const tag = hash & ~this.#positionMask;
        const slots = this.#slots;
        let slot = hash & this.#mask;
        for (let entry = slots[slot]!; entry !== 0; entry = slots[slot]!) {
            if ((entry & ~this.#positionMask) === tag) {
                const position = (entry & this.#positionMask) - 1;
                if (this.#names[position] === name) {
                    into.push(position);
                }
            }
            slot = (slot + 1) & this.#mask;
        }
    }
}

/**
 * Tool reference names when only a few of them will ever be looked up: for each watched name,
 * the tools whose `toolReferenceName` it is. {@link resolveToolFilter} watches just the
 * identifiers of the call when given a plain catalog, instead of building a table of every
 * tool's reference name; names it does not watch are reported as matching no tool.
 */
class WatchedNames {
    /** Watched names; the first occurrence of a name is its canonical index. */
    readonly #table: NameTable;
    /** 1 + the first tool with the canonical index's name as reference name; 0 = none yet. */
    readonly #first: Int32Array;
    /** Further tools sharing a reference name (rare), by canonical index. */
    #more: Map<number, number[]> | undefined;

    /** @param names - The only names {@link WatchedNames.collect} will be asked about. */
    constructor(names: readonly string[]) {
        this.#table = new NameTable(names, names.length);
        for (let index = 0; index < names.length; index++) {
            this.#table.addUnique(index);
        }
        this.#first = new Int32Array(names.length);
    }

    /** Records that the tool at `position` has reference name `name`, if that name is watched. */
    note(name: string, position: number): void {
        const watched = this.#table.find(name);
        if (watched === -1) {
            return;
        }
        if (this.#first[watched] === 0) {
            this.#first[watched] = position + 1;
            return;
        }
        this.#more ??= new Map();
        const more = this.#more.get(watched);
        if (more === undefined) {
            this.#more.set(watched, [position]);
        } else {
            more.push(position);
        }
    }

    /** Appends to `into` the tools noted under `name`, in the order they were noted. */
    collect(name: string, into: number[]): void {
        const watched = this.#table.find(name);
        if (watched === -1 || this.#first[watched] === 0) {
            return;
        }
        into.push(this.#first[watched]! - 1);
        const more = this.#more?.get(watched);
        if (more !== undefined) {
            into.push(...more);
        }
    }
}

/**
 * 32-bit FNV-1a hash of a string's UTF-16 code units. Any string may be looked up (not only
 * valid names), so it must not assume anything about the characters.
 */
function hashName(name: string): number {
    let hash = 0x811c9dc5;
    for (let index = 0; index < name.length; index++) {
        hash = Math.imul(hash ^ name.charCodeAt(index), 0x01000193);
    }
    return hash;
}

/** Catalog data in the shape the resolver works on: everything addressed by position. */
interface CatalogData {
    readonly toolIds: readonly string[];
    readonly toolSetIds: readonly string[];
    readonly toolById: NameTable;
    /** Several tools may share a reference name. */
    readonly toolsByReferenceName: NameTable | WatchedNames;
    readonly toolSetById: NameTable;
    readonly toolSetsByReferenceName: NameTable;
    /**
     * Members of toolset t (catalog-present, de-duplicated, in listed order) are the tool
     * positions memberList[memberStart[t]] up to memberList[memberStart[t + 1]]. Two flat arrays
     * instead of an array per toolset keep large catalogs cheap to build and to collect.
     */
    readonly memberStart: Int32Array;
    readonly memberList: Int32Array;
    /** Frozen member id arrays, built on first use by a resolution and then shared. */
    readonly memberIdsCache: (readonly string[] | undefined)[];
    readonly warnings: readonly ToolFilterWarning[];
}

/**
 * Which kind of name an identifier matched. The positions it matched (toolsets for the first
 * two, tools for the others) are collected separately, so a lookup allocates nothing.
 */
type MatchKind = "toolSetId" | "toolSetReferenceName" | "toolId" | "toolReferenceName";

// Lets resolveToolFilter reach an index's data without making it part of the public surface.
let catalogDataOf: (index: ToolCatalogIndex) => CatalogData;

/**
 * A validated catalog with lookup tables, so identifiers resolve in O(1). Building it is linear
 * in the number of tools plus toolset members. {@link resolveToolFilter} builds one per call
 * when given a plain catalog; build it once with {@link ToolCatalogIndex.fromCatalog} to reuse
 * it across calls or to inspect how identifiers resolve.
 *
 * Names are looked up in hash tables of strings (not object properties), so identifiers such as
 * `__proto__` or `constructor` are just names.
 *
 * @example
 * ```typescript
 * const index = ToolCatalogIndex.fromCatalog({
 *     tools: [{ id: "vscode_editFile", toolReferenceName: "editFile" }],
 *     toolSets: [{ id: "toolset:edit", referenceName: "edit", tools: ["vscode_editFile"] }],
 * });
 * index.resolve("edit"); // { kind: "toolSet", matchedBy: "referenceName", ... }
 * index.resolve("editFile"); // { kind: "tool", matchedBy: "toolReferenceName", ... }
 * ```
 */
export class ToolCatalogIndex {
    readonly #data: CatalogData;

    static {
        catalogDataOf = (index) => index.#data;
    }

    private constructor(data: CatalogData) {
        this.#data = data;
        Object.freeze(this);
    }

    /**
     * Validates `catalog` and builds the lookup tables. Does not modify or retain `catalog`.
     *
     * @param catalog - Tools and toolsets to resolve identifiers against.
     * @returns The index; catalog warnings (`UNKNOWN_TOOLSET_MEMBER`) are in
     *   {@link ToolCatalogIndex.warnings} and are re-reported by every
     *   {@link resolveToolFilter} call that uses the index.
     * @throws {@link ToolFilterError} `INVALID_CATALOG` when the catalog is malformed, a tool id
     *   or toolset id repeats, or a toolset member is not a string.
     */
    static fromCatalog(catalog: ToolCatalog): ToolCatalogIndex {
        return new ToolCatalogIndex(buildCatalogData(catalog));
    }

    /** Tool ids in catalog order. */
    get toolIds(): readonly string[] {
        return this.#data.toolIds;
    }

    /** Toolset ids in catalog order. */
    get toolSetIds(): readonly string[] {
        return this.#data.toolSetIds;
    }

    /** Problems found in the catalog that do not prevent using it. */
    get warnings(): readonly ToolFilterWarning[] {
        return this.#data.warnings;
    }

    /**
     * Resolves one identifier, in the order toolset id, toolset `referenceName`, tool id, tool
     * `toolReferenceName`. Exact, case-sensitive match; O(1) apart from the size of a shared
     * reference name's result.
     *
     * @param identifier - Any name; a non-string simply resolves to `unknown`.
     * @returns What the identifier names; see {@link ResolvedIdentifier}.
     */
    resolve(identifier: string): ResolvedIdentifier {
        if (typeof identifier !== "string") {
            return UNKNOWN_RESOLUTION;
        }
        const targets: number[] = [];
        const match = lookup(this.#data, identifier, targets);
        return match === undefined
            ? UNKNOWN_RESOLUTION
            : toResolvedIdentifier(this.#data, match, targets);
    }

    /**
     * @param toolSetId - A toolset id (not a reference name).
     * @returns The toolset's catalog-present member tool ids, de-duplicated, or `undefined` when
     *   there is no such toolset.
     */
    toolSetMembers(toolSetId: string): readonly string[] | undefined {
        const position = this.#data.toolSetById.find(toolSetId);
        return position === -1 ? undefined : memberIdsOf(this.#data, position);
    }
}

const UNKNOWN_RESOLUTION: ResolvedIdentifier = Object.freeze({ kind: "unknown" });

/**
 * Resolves `identifier` (see {@link ResolvedIdentifier} for the order).
 *
 * @param targets - Cleared, then filled with the matched positions; never empty on a match.
 * @returns What matched, or `undefined` for nothing.
 */
function lookup(data: CatalogData, identifier: string, targets: number[]): MatchKind | undefined {
    targets.length = 0;
    let position = data.toolSetById.find(identifier);
    if (position !== -1) {
        targets.push(position);
        return "toolSetId";
    }
    data.toolSetsByReferenceName.collect(identifier, targets);
    if (targets.length > 0) {
        return "toolSetReferenceName";
    }
    position = data.toolById.find(identifier);
    if (position !== -1) {
        targets.push(position);
        return "toolId";
    }
    data.toolsByReferenceName.collect(identifier, targets);
    return targets.length > 0 ? "toolReferenceName" : undefined;
}

function isToolSetMatch(match: MatchKind): match is "toolSetId" | "toolSetReferenceName" {
    return match === "toolSetId" || match === "toolSetReferenceName";
}

function toResolvedIdentifier(
    data: CatalogData,
    match: MatchKind,
    targets: readonly number[]
): ResolvedIdentifier {
    if (match === "toolId" || match === "toolReferenceName") {
        return Object.freeze({
            kind: "tool",
            matchedBy: match === "toolId" ? "id" : "toolReferenceName",
            toolIds: Object.freeze(idsAt(data.toolIds, targets)),
        });
    }
    const toolSetIds = Object.freeze(idsAt(data.toolSetIds, targets));
    let toolIds: readonly string[];
    if (targets.length === 1) {
        // The common case hands out the cached array: no per-lookup copy of the members.
        toolIds = memberIdsOf(data, targets[0]!);
    } else {
        const seen = new Set<string>();
        for (const position of targets) {
            for (const id of memberIdsOf(data, position)) {
                seen.add(id);
            }
        }
        toolIds = Object.freeze([...seen]);
    }
    return Object.freeze({
        kind: "toolSet",
        matchedBy: match === "toolSetId" ? "id" : "referenceName",
        toolSetIds,
        toolIds,
    });
}

/** `positions.map((position) => ids[position])`, without a closure per call. */
function idsAt(ids: readonly string[], positions: readonly number[]): string[] {
    const result = new Array<string>(positions.length);
    for (let index = 0; index < positions.length; index++) {
        result[index] = ids[positions[index]!]!;
    }
    return result;
}

/**
 * Validates `catalog` and builds its {@link CatalogData}.
 *
 * @param watched - When given, tool reference names are only noted for these names (see
 *   {@link WatchedNames}) instead of all being indexed.
 */
function buildCatalogData(catalog: ToolCatalog, watched?: WatchedNames): CatalogData {
    if (!isObject(catalog)) {
        throw catalogError(
            `Invalid tool catalog '${formatValue(catalog)}': expected an object such as { tools: [{ id: "view" }], toolSets: [] }.`,
            undefined,
            catalog
        );
    }
    const tools: unknown = catalog.tools;
    if (!Array.isArray(tools)) {
        throw catalogError(
            `Invalid tool catalog tools '${formatValue(tools)}': expected an array of { id, toolReferenceName? } objects.`,
            undefined,
            tools
        );
    }
    // Pre-sized: growing by push would allocate about three times the final size.
    const toolIds = new Array<string>(tools.length);
    const toolById = new NameTable(toolIds, tools.length);
    let toolReferenceNames: (string | undefined)[] | undefined;
    let toolsByReferenceName: NameTable | WatchedNames;
    if (watched === undefined) {
        toolReferenceNames = new Array<string | undefined>(tools.length);
        toolsByReferenceName = new NameTable(toolReferenceNames, tools.length);
    } else {
        toolsByReferenceName = watched;
    }
    for (let position = 0; position < tools.length; position++) {
        const tool: unknown = tools[position];
        if (!isObject(tool) || !isName(tool.id)) {
            throw catalogError(
                `Invalid tool catalog entry tools[${position}] '${formatValue(tool)}': expected an object with a non-empty string id.`,
                position,
                tool
            );
        }
        const id = tool.id;
        toolIds[position] = id;
        const earlier = toolById.addUnique(position);
        if (earlier !== -1) {
            throw catalogError(
                `Invalid tool catalog: duplicate tool id '${id}' at tools[${earlier}] and tools[${position}]. Tool ids must be unique; remove or rename one of them.`,
                position,
                id
            );
        }
        const referenceName: unknown = tool.toolReferenceName;
        if (referenceName !== undefined && referenceName !== null) {
            if (!isName(referenceName)) {
                throw catalogError(
                    `Invalid tool catalog entry tools[${position}].toolReferenceName '${formatValue(referenceName)}' of tool '${id}': expected a non-empty string, or omit it.`,
                    position,
                    referenceName
                );
            }
            if (toolReferenceNames === undefined) {
                (toolsByReferenceName as WatchedNames).note(referenceName, position);
            } else {
                toolReferenceNames[position] = referenceName;
                (toolsByReferenceName as NameTable).add(position);
            }
        }
    }

    const rawToolSets: unknown = catalog.toolSets;
    if (rawToolSets !== undefined && rawToolSets !== null && !Array.isArray(rawToolSets)) {
        throw catalogError(
            `Invalid tool catalog toolSets '${formatValue(rawToolSets)}': expected an array of { id, referenceName, tools } objects, or omit it.`,
            undefined,
            rawToolSets
        );
    }
    const toolSets: readonly unknown[] = Array.isArray(rawToolSets) ? rawToolSets : [];
    const toolSetIds: string[] = [];
    const toolSetReferenceNames: string[] = [];
    const toolSetById = new NameTable(toolSetIds, toolSets.length);
    const toolSetsByReferenceName = new NameTable(toolSetReferenceNames, toolSets.length);
    const memberStart = new Int32Array(toolSets.length + 1);
    // Grown by doubling; members are usually about as many as tools.
    let memberList = new Int32Array(Math.max(16, toolIds.length));
    let memberCount = 0;
    const warnings: ToolFilterWarning[] = [];
    // lastToolSet[tool] = 1 + the toolset that last listed the tool: an O(1) duplicate-member
    // check without allocating a Set per toolset.
    const lastToolSet = new Int32Array(toolIds.length);
    for (let position = 0; position < toolSets.length; position++) {
        const toolSet: unknown = toolSets[position];
        if (
            !isObject(toolSet) ||
            !isName(toolSet.id) ||
            !isName(toolSet.referenceName) ||
            !Array.isArray(toolSet.tools)
        ) {
            throw catalogError(
                `Invalid tool catalog entry toolSets[${position}] '${formatValue(toolSet)}': expected an object with a non-empty string id, a non-empty string referenceName and a tools array of tool ids.`,
                position,
                toolSet
            );
        }
        const id = toolSet.id;
        toolSetIds.push(id);
        const earlier = toolSetById.addUnique(position);
        if (earlier !== -1) {
            throw catalogError(
                `Invalid tool catalog: duplicate toolset id '${id}' at toolSets[${earlier}] and toolSets[${position}]. Toolset ids must be unique; remove or rename one of them.`,
                position,
                id
            );
        }
        const listed: readonly unknown[] = toolSet.tools;
        for (let memberIndex = 0; memberIndex < listed.length; memberIndex++) {
            const memberId = listed[memberIndex];
            if (typeof memberId !== "string") {
                throw catalogError(
                    `Invalid tool catalog entry toolSets[${position}].tools[${memberIndex}] '${formatValue(memberId)}' of toolset '${id}': expected a tool id string.`,
                    position,
                    memberId
                );
            }
            const tool = toolById.find(memberId);
            if (tool === -1) {
                // Tools vary by model and host, so a toolset defined ahead of time may list one
                // that is absent; skipping it keeps the rest of the toolset usable.
                warnings.push(
                    Object.freeze({
                        code: "UNKNOWN_TOOLSET_MEMBER",
                        message: `Toolset '${id}' lists tool '${memberId}', which is not in the tool catalog; that member is ignored. Register the tool or remove it from the toolset.`,
                        identifier: memberId,
                        toolSetId: id,
                    })
                );
                continue;
            }
            if (lastToolSet[tool] === position + 1) {
                continue;
            }
            lastToolSet[tool] = position + 1;
            if (memberCount === memberList.length) {
                const grown = new Int32Array(memberList.length * 2);
                grown.set(memberList);
                memberList = grown;
            }
            memberList[memberCount++] = tool;
        }
        memberStart[position + 1] = memberCount;
        toolSetReferenceNames.push(toolSet.referenceName);
        toolSetsByReferenceName.add(position);
    }

    return {
        toolIds: Object.freeze(toolIds),
        toolSetIds: Object.freeze(toolSetIds),
        toolById,
        toolsByReferenceName,
        toolSetById,
        toolSetsByReferenceName,
        memberStart,
        memberList,
        memberIdsCache: new Array<readonly string[] | undefined>(toolSetIds.length),
        warnings: Object.freeze(warnings),
    };
}

function memberIdsOf(data: CatalogData, toolSet: number): readonly string[] {
    let ids = data.memberIdsCache[toolSet];
    if (ids === undefined) {
        const start = data.memberStart[toolSet]!;
        const list = new Array<string>(data.memberStart[toolSet + 1]! - start);
        for (let index = 0; index < list.length; index++) {
            list[index] = data.toolIds[data.memberList[start + index]!]!;
        }
        ids = Object.freeze(list);
        data.memberIdsCache[toolSet] = ids;
    }
    return ids;
}

function catalogError(message: string, index: number | undefined, value: unknown): ToolFilterError {
    return new ToolFilterError(
        "INVALID_CATALOG",
        message,
        index === undefined ? { value } : { index, value }
    );
}

// Why a tool ends up enabled or not, accumulated as bits so order of identifiers cannot matter.
const DIRECT_INCLUDE = 1;
const TOOLSET_INCLUDE = 2;
const DIRECT_EXCLUDE = 4;
const TOOLSET_EXCLUDE = 8;

/**
 * Decides which catalog tools and toolsets are enabled for the given `includeTools` /
 * `excludeTools`. Pure: never modifies `catalog`, `options` or their arrays.
 *
 * **Modes.** Neither option → every tool enabled. `includeTools` only → only what it names.
 * `excludeTools` only → everything except what it names. Both → start from `includeTools`,
 * then remove `excludeTools`. `excludeTools: []` is the same as omitting it.
 *
 * **Identifiers** resolve as described by {@link ResolvedIdentifier}; a toolset affects all its
 * members. Unknown identifiers are ignored with an `UNKNOWN_IDENTIFIER` warning and listed in
 * {@link ToolFilterResult.unknownIdentifiers}; repeats within one option are ignored with
 * `DUPLICATE_IDENTIFIER`.
 *
 * **Precedence**, for each tool, strongest first:
 * 1. Named directly (by tool id or `toolReferenceName`) in `excludeTools` → disabled. This wins
 *    over everything, including a direct inclusion.
 * 2. Named directly in `includeTools` → enabled, even if toolsets containing it are excluded
 *    (however many).
 * 3. Member of any toolset named in `excludeTools` → disabled, even if another toolset that
 *    contains it is included: exclusions are applied after inclusions, and only a direct tool
 *    reference overrides a toolset exclusion.
 * 4. Member of a toolset named in `includeTools` → enabled.
 * 5. Otherwise → enabled if `includeTools` is omitted, disabled if it is given.
 *
 * **Toolsets** are enabled iff they have at least one member in the catalog and every member is
 * enabled. An empty toolset (no members, or only members the catalog lacks) is therefore always
 * disabled, and naming it warns with `EMPTY_TOOLSET`, since it enables or excludes nothing.
 *
 * Runs in time linear in the catalog size plus the number of identifiers.
 *
 * @param catalog - The tools and toolsets to choose from, or a prebuilt {@link ToolCatalogIndex}.
 * @param options - `includeTools` / `excludeTools`; `null` or `undefined` (for the object or
 *   either option) means omitted, other properties are ignored.
 * @param settings - Where warnings go; defaults to `console.warn`.
 * @returns The immutable {@link ToolFilterResult}.
 * @throws {@link ToolFilterError} with code
 *   - `INVALID_OPTION` when `options` is not an object, an option is not an array (a single
 *     string must be wrapped: `["view"]`), or `onWarning` is not a function;
 *   - `INVALID_IDENTIFIER` when an entry is not a string or is empty / whitespace only;
 *   - `EMPTY_INCLUDE_TOOLS` for `includeTools: []`;
 *   - `INVALID_CATALOG` when the catalog is malformed;
 *   - `NO_TOOLS_ENABLED` when a filter is in effect and leaves no tool enabled (warnings found
 *     so far, such as unknown identifiers, are reported first since they usually explain why).
 *     Without a filter an empty catalog is returned as is: there is nothing the caller could
 *     change in the options to fix it.
 *
 * @example
 * ```typescript
 * const result = resolveToolFilter(
 *     {
 *         tools: [
 *             { id: "vscode_editFile", toolReferenceName: "editFile" },
 *             { id: "vscode_deleteFile", toolReferenceName: "deleteFile" },
 *             { id: "vscode_fetch", toolReferenceName: "fetch" },
 *         ],
 *         toolSets: [
 *             { id: "toolset:edit", referenceName: "edit", tools: ["vscode_editFile", "vscode_deleteFile"] },
 *         ],
 *     },
 *     { includeTools: ["edit"], excludeTools: ["deleteFile"] }
 * );
 * result.mode; // "combined"
 * result.enabledTools; // ["vscode_editFile"]
 * result.toolSetEnablement.get("toolset:edit"); // false: one member is excluded
 * ```
 */
export function resolveToolFilter(
    catalog: ToolCatalog | ToolCatalogIndex,
    options: ToolFilterOptions,
    settings?: ResolveToolFilterSettings
): ToolFilterResult {
    const onWarning = readOnWarning(settings);
    const includeTools = readIdentifierList(options, "includeTools");
    const excludeTools = readIdentifierList(options, "excludeTools");
    if (includeTools !== undefined && includeTools.length === 0) {
        throw new ToolFilterError(
            "EMPTY_INCLUDE_TOOLS",
            "Invalid includeTools '[]': an empty list would enable no tools, and at least one tool must stay enabled. Omit includeTools to keep all tools, or list at least one tool or toolset identifier.",
            { option: "includeTools", value: includeTools }
        );
    }
    const data =
        catalog instanceof ToolCatalogIndex
            ? catalogDataOf(catalog)
            : buildCatalogData(catalog, watchIdentifiers(includeTools, excludeTools));

    const warnings: ToolFilterWarning[] = [];
    const warn = (warning: ToolFilterWarning): void => {
        const frozen = Object.freeze(warning);
        warnings.push(frozen);
        onWarning(frozen);
    };
    for (const warning of data.warnings) {
        warn(warning);
    }

    const flags = new Uint8Array(data.toolIds.length);
    const unknownIdentifiers: UnknownToolIdentifier[] = [];
    const resolutions: IdentifierResolution[] = [];
    // Tools (not identifiers) each option actually reached; used only to explain
    // NO_TOOLS_ENABLED.
    let includeReached = 0;

    // Positions an identifier matched; reused by every lookup of this call.
    const targets: number[] = [];
    const apply = (
        option: ToolFilterOptionName,
        identifiers: readonly string[],
        directFlag: number,
        toolSetFlag: number
    ): number => {
        let reached = 0;
        const seen = new NameTable(identifiers, identifiers.length);
        // Expand each toolset once per option even when several identifiers name it.
        const expanded = new Uint8Array(data.toolSetIds.length);
        for (let index = 0; index < identifiers.length; index++) {
            const identifier = identifiers[index]!;
            if (seen.addUnique(index) !== -1) {
                warn({
                    code: "DUPLICATE_IDENTIFIER",
                    message: `Duplicate ${option} identifier '${identifier}' at index ${index}: it is already listed, so the repeat has no effect. Remove it.`,
                    option,
                    identifier,
                });
                continue;
            }
            const match = lookup(data, identifier, targets);
            if (match === undefined) {
                unknownIdentifiers.push(Object.freeze({ option, identifier }));
                resolutions.push(
                    Object.freeze({ option, identifier, resolution: UNKNOWN_RESOLUTION })
                );
                warn({
                    code: "UNKNOWN_IDENTIFIER",
                    message: unknownIdentifierMessage(data, option, identifier),
                    option,
                    identifier,
                });
                continue;
            }
            const resolution = toResolvedIdentifier(data, match, targets);
            resolutions.push(Object.freeze({ option, identifier, resolution }));
            if (targets.length > 1) {
                warn({
                    code: "AMBIGUOUS_IDENTIFIER",
                    message: ambiguousIdentifierMessage(data, option, identifier, match, targets),
                    option,
                    identifier,
                });
            }
            if (!isToolSetMatch(match)) {
                for (const tool of targets) {
                    flags[tool]! |= directFlag;
                }
                reached += targets.length;
                continue;
            }
            for (const toolSet of targets) {
                if (expanded[toolSet] === 1) {
                    continue;
                }
                expanded[toolSet] = 1;
                const start = data.memberStart[toolSet]!;
                const end = data.memberStart[toolSet + 1]!;
                if (start === end) {
                    const toolSetId = data.toolSetIds[toolSet]!;
                    warn({
                        code: "EMPTY_TOOLSET",
                        message: `${option} identifier '${identifier}' names toolset '${toolSetId}', which has no tools in the catalog, so it ${option === "includeTools" ? "enables" : "excludes"} nothing. Name its tools directly or remove the identifier.`,
                        option,
                        identifier,
                        toolSetId,
                    });
                }
                for (let m = start; m < end; m++) {
                    flags[data.memberList[m]!]! |= toolSetFlag;
                }
                reached += end - start;
            }
        }
        return reached;
    };

    if (includeTools !== undefined) {
        includeReached = apply("includeTools", includeTools, DIRECT_INCLUDE, TOOLSET_INCLUDE);
    }
    if (excludeTools !== undefined) {
        apply("excludeTools", excludeTools, DIRECT_EXCLUDE, TOOLSET_EXCLUDE);
    }

    const hasInclude = includeTools !== undefined;
    const hasExclude = excludeTools !== undefined && excludeTools.length > 0;
    const mode: ToolFilterMode = hasInclude
        ? hasExclude
            ? "combined"
            : "whitelist"
        : hasExclude
          ? "blacklist"
          : "default";

    const toolEnabled = new Uint8Array(data.toolIds.length);
    let enabledCount = 0;
    for (let tool = 0; tool < data.toolIds.length; tool++) {
        if (isEnabled(flags[tool]!, hasInclude)) {
            toolEnabled[tool] = 1;
            enabledCount++;
        }
    }
    // Pre-sized: growing by push would allocate about three times the final size.
    const enabledTools = new Array<string>(enabledCount);
    for (let tool = 0, next = 0; next < enabledCount; tool++) {
        if (toolEnabled[tool] === 1) {
            enabledTools[next++] = data.toolIds[tool]!;
        }
    }

    if (mode !== "default" && enabledTools.length === 0) {
        throw noToolsEnabledError(includeTools, excludeTools, includeReached, data.toolIds.length);
    }

    const toolSetEnabled = new Uint8Array(data.toolSetIds.length);
    for (let toolSet = 0; toolSet < data.toolSetIds.length; toolSet++) {
        const end = data.memberStart[toolSet + 1]!;
        let m = data.memberStart[toolSet]!;
        let enabled = m < end;
        for (; enabled && m < end; m++) {
            enabled = toolEnabled[data.memberList[m]!] === 1;
        }
        toolSetEnabled[toolSet] = enabled ? 1 : 0;
    }

    return Object.freeze({
        mode,
        enabledTools: Object.freeze(enabledTools),
        // Views over the index's id → position tables: no per-call map of every tool id, which
        // would dominate the cost on large catalogs.
        toolEnablement: new EnablementView(data.toolById, data.toolIds, toolEnabled),
        toolSetEnablement: new EnablementView(data.toolSetById, data.toolSetIds, toolSetEnabled),
        unknownIdentifiers: Object.freeze(unknownIdentifiers),
        resolutions: Object.freeze(resolutions),
        warnings: Object.freeze(warnings),
    });
}

/**
 * The tool reference names a call can ask about: its identifiers and, for the "did you mean"
 * hint of unknown ones, their trimmed forms.
 */
function watchIdentifiers(
    includeTools: readonly string[] | undefined,
    excludeTools: readonly string[] | undefined
): WatchedNames {
    const names: string[] = [];
    for (const identifiers of [includeTools, excludeTools]) {
        for (const identifier of identifiers ?? []) {
            names.push(identifier);
            const trimmed = identifier.trim();
            if (trimmed !== identifier) {
                names.push(trimmed);
            }
        }
    }
    return new WatchedNames(names);
}

/** Applies the documented precedence (see {@link resolveToolFilter}) to one tool's flags. */
function isEnabled(flags: number, hasInclude: boolean): boolean {
    if (flags & DIRECT_EXCLUDE) {
        return false;
    }
    if (flags & DIRECT_INCLUDE) {
        return true;
    }
    if (flags & TOOLSET_EXCLUDE) {
        return false;
    }
    return hasInclude ? (flags & TOOLSET_INCLUDE) !== 0 : true;
}

function readOnWarning(
    settings: ResolveToolFilterSettings | undefined
): (warning: ToolFilterWarning) => void {
    if (settings === undefined || settings === null) {
        return defaultOnWarning;
    }
    if (!isObject(settings)) {
        throw new ToolFilterError(
            "INVALID_OPTION",
            `Invalid tool filter settings '${formatValue(settings)}': expected an object such as { onWarning: (warning) => ... }, or omit it.`,
            { value: settings }
        );
    }
    const onWarning: unknown = settings.onWarning;
    if (onWarning === undefined || onWarning === null) {
        return defaultOnWarning;
    }
    if (typeof onWarning !== "function") {
        throw new ToolFilterError(
            "INVALID_OPTION",
            `Invalid onWarning '${formatValue(onWarning)}': expected a function that receives each ToolFilterWarning. Omit onWarning to log warnings with console.warn, or pass () => {} to silence them.`,
            { option: "onWarning", value: onWarning }
        );
    }
    return onWarning as (warning: ToolFilterWarning) => void;
}

function defaultOnWarning(warning: ToolFilterWarning): void {
    console.warn(warning.message);
}

/**
 * Reads and validates one option, copying it so later changes by the caller (or getters that
 * answer differently on a second read) cannot affect the result.
 */
function readIdentifierList(
    options: ToolFilterOptions,
    option: ToolFilterOptionName
): readonly string[] | undefined {
    if (options === undefined || options === null) {
        return undefined;
    }
    if (!isObject(options) || Array.isArray(options)) {
        throw new ToolFilterError(
            "INVALID_OPTION",
            `Invalid tool filter options '${formatValue(options)}': expected an object such as { includeTools: ["edit"] } or { excludeTools: ["web"] }.`,
            { value: options }
        );
    }
    const value: unknown = options[option];
    if (value === undefined || value === null) {
        return undefined;
    }
    if (typeof value === "string") {
        throw new ToolFilterError(
            "INVALID_OPTION",
            `Invalid ${option} '${formatValue(value)}': expected an array of tool or toolset identifiers. Wrap a single identifier in an array: ${option}: ["${formatValue(value)}"].`,
            { option, value }
        );
    }
    if (!Array.isArray(value)) {
        throw new ToolFilterError(
            "INVALID_OPTION",
            `Invalid ${option} '${formatValue(value)}': expected an array of tool or toolset identifiers, such as ${option}: ["edit", "search"]. Omit ${option} to ${option === "includeTools" ? "keep all tools" : "exclude nothing"}.`,
            { option, value }
        );
    }
    const identifiers: string[] = [];
    for (let index = 0; index < value.length; index++) {
        const entry: unknown = value[index];
        if (typeof entry !== "string") {
            throw new ToolFilterError(
                "INVALID_IDENTIFIER",
                `Invalid ${option} entry at index ${index} '${formatValue(entry)}': identifiers must be strings naming a tool id, tool reference name, toolset id or toolset reference name. Remove the entry or replace it with such a name.`,
                { option, index, value: entry }
            );
        }
        if (entry.trim() === "") {
            throw new ToolFilterError(
                "INVALID_IDENTIFIER",
                `Invalid ${option} entry at index ${index} '${entry}': an identifier cannot be empty or whitespace only. Remove the entry or replace it with a tool or toolset name.`,
                { option, index, value: entry }
            );
        }
        identifiers.push(entry);
    }
    return identifiers;
}

function unknownIdentifierMessage(
    data: CatalogData,
    option: ToolFilterOptionName,
    identifier: string
): string {
    let message = `Unknown ${option} identifier '${identifier}': it matches no toolset id, toolset reference name, tool id or tool reference name, so it is ignored.`;
    const trimmed = identifier.trim();
    if (trimmed !== identifier && lookup(data, trimmed, []) !== undefined) {
        // Stray whitespace is the one typo we can detect for free.
        return `${message} Did you mean '${trimmed}'? Identifiers are matched exactly.`;
    }
    message += " Check its spelling (matching is exact and case-sensitive).";
    return message;
}

function ambiguousIdentifierMessage(
    data: CatalogData,
    option: ToolFilterOptionName,
    identifier: string,
    match: MatchKind,
    targets: readonly number[]
): string {
    const toolSets = isToolSetMatch(match);
    const names = formatList(idsAt(toolSets ? data.toolSetIds : data.toolIds, targets));
    return `Ambiguous ${option} identifier '${identifier}': it is the reference name of ${targets.length} ${toolSets ? "toolsets" : "tools"} (${names}), so it applies to all of them. Use ${toolSets ? "a toolset id" : "a tool id"} to name just one.`;
}

function noToolsEnabledError(
    includeTools: readonly string[] | undefined,
    excludeTools: readonly string[] | undefined,
    includeReached: number,
    catalogSize: number
): ToolFilterError {
    const hasExclude = excludeTools !== undefined && excludeTools.length > 0;
    const filters: string[] = [];
    if (includeTools !== undefined) {
        filters.push(`includeTools [${formatList(includeTools)}]`);
    }
    if (hasExclude) {
        filters.push(`excludeTools [${formatList(excludeTools)}]`);
    }
    let advice: string;
    let option: ToolFilterOptionName;
    if (catalogSize === 0) {
        advice = "The tool catalog is empty; register tools or omit the filter options.";
        option = includeTools !== undefined ? "includeTools" : "excludeTools";
    } else if (includeTools !== undefined && includeReached === 0) {
        advice =
            "No includeTools identifier names a known tool or a toolset with tools; check them against the tool ids, tool reference names, toolset ids and toolset reference names (see the warnings), or omit includeTools to start from all tools.";
        option = "includeTools";
    } else if (includeTools !== undefined) {
        advice =
            "excludeTools removes every tool that includeTools enables; remove entries from excludeTools or add tools to includeTools.";
        option = "excludeTools";
    } else {
        advice =
            "excludeTools removes every tool in the catalog; remove some entries from excludeTools, or use includeTools to list the tools to keep.";
        option = "excludeTools";
    }
    return new ToolFilterError(
        "NO_TOOLS_ENABLED",
        `Tool filtering leaves no tools enabled: ${filters.join(" with ")}. At least one tool must stay enabled. ${advice}`,
        { option }
    );
}

/** Quotes up to a few names for a message, so huge option lists keep messages readable. */
function formatList(names: readonly string[]): string {
    const shown = names.slice(0, 5).map((name) => `'${name}'`);
    if (names.length > shown.length) {
        shown.push(`and ${names.length - shown.length} more`);
    }
    return shown.join(", ");
}

/** Renders any value for quoting in a message, shortened so one bad value cannot flood logs. */
function formatValue(value: unknown): string {
    let text: string;
    if (typeof value === "string") {
        text = value;
    } else if (typeof value === "object" && value !== null) {
        try {
            text = JSON.stringify(value) ?? String(value);
        } catch {
            // Cycles and BigInts cannot be serialised; the type is still worth showing.
            text = Object.prototype.toString.call(value);
        }
    } else {
        text = String(value);
    }
    return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

function isObject(value: unknown): value is Record<string, unknown> {
    return typeof value === "object" && value !== null;
}

function isName(value: unknown): value is string {
    return typeof value === "string" && value.length > 0;
}
