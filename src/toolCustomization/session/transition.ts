/**
 * The rule of a change of a running session's tools, as a pure function: from the tools the
 * runtime holds, the tools asked for and the session's turn state, the runtime calls to make in
 * order, or a refusal. `session/toolChange.ts` carries the calls out; the property test
 * (`test/unit/toolTransition.property.test.ts`) checks the rule against a model of the runtime.
 *
 * What the runtime does, measured on 1.0.14 and 1.0.15-preview.4 (`test/e2e/setToolsSwap.test.ts`):
 * one `session.tools.set` whose list keeps a custom name with the SAME definition leaves that name
 * alone (0 built-in answers in thousands of such requests mid-turn); one whose list keeps the name
 * with a CHANGED definition replaces it inside the runtime, and a call the model makes with either
 * definition meanwhile can reach the built-in of that name (6 of 11 calls), whatever the filter
 * excludes. No order of requests from the SDK closes that gap, so a change that redefines a name,
 * or moves a name between a custom tool and a built-in, is made only while the session is idle.
 */

/** A filter as the runtime receives it (`session.options.update`). */
export interface WireFilter {
    readonly availableTools: readonly string[] | null;
    readonly excludedTools: readonly string[];
}

/** One side of a change, as the rule sees it. */
export interface ToolSide {
    /** By custom tool name, its definition as `session.tools.set` carries it (serialised). */
    readonly definitions: ReadonlyMap<string, string>;
    /** The filter as sent. */
    readonly filter: WireFilter;
    /** Built-ins that custom tools of this side replace. */
    readonly overridden: readonly string[];
    /** Enablement of every offered tool, by name (`toolResolution.toolEnablement`). */
    readonly enablement: ReadonlyMap<string, boolean>;
    /** Built-ins the runtime adds in plan or autopilot mode under this side's filter. */
    readonly modeBuiltIns: readonly string[];
}

/** What the rule needs to know about the session besides its tools. */
export interface TurnFacts {
    /** Whether the session processes a message now (see `turns.ts`). */
    readonly busy: boolean;
    /** False after a change failed half-way and could not be undone. */
    readonly known: boolean;
    /** While not known: every built-in a custom tool may replace in the runtime now. */
    readonly mayReplace: ReadonlySet<string>;
}

/** One step of a change. */
export type RuntimeCall =
    /** Handlers of both sides answer; `first` says whose handler answers a shared name. */
    | { readonly kind: "handlers"; readonly first: "current" | "next" }
    /** Only the next side's handlers answer (the last step). */
    | { readonly kind: "handlers-next" }
    /** `session.options.update` with this filter. */
    | { readonly kind: "filter"; readonly filter: WireFilter }
    /** `session.tools.set` with the next side's definitions. */
    | { readonly kind: "tools" }
    /** `session.tools.initializeAndValidate`, where the session asks for it. */
    | { readonly kind: "validate" };

/** The rule's answer. */
export type ToolTransition =
    | {
          readonly kind: "refuse";
          /** Names whose owner or definition would change while the session is busy. */
          readonly names: readonly string[];
      }
    | {
          readonly kind: "apply";
          readonly calls: readonly RuntimeCall[];
          /**
           * Names whose owner or definition changes: the change must stay in an idle session
           * (messages sent through the session wait for it; a turn that starts another way
           * before the tool definitions are sent stops it).
           */
          readonly idleOnly: readonly string[];
      };

/**
 * The runtime calls that move a session from `current` to `next`, each state between them safe:
 *
 * 1. handlers of both sides answer (the current side's for shared names);
 * 2. the filter becomes the meet of both ({@link meetFilter}), which also excludes every built-in
 *    a custom tool replaces on either side;
 * 3. the runtime gets the next definitions in one `session.tools.set`;
 * 4. handlers of both answer (the next side's for shared names), then the filter becomes the next
 *    one, the runtime validates where asked, and only the next handlers answer.
 *
 * A name whose owner changes (a custom tool starts or stops replacing a built-in) or whose
 * definition changes (same name, another definition: the runtime replaces it with a gap, see the
 * module comment) is changed only while the session is idle: while it is busy the change is
 * refused before anything is sent. While the runtime's tools are unknown, every name of either
 * side counts as changing.
 *
 * @param current - what the runtime holds now
 * @param next - what the change asks for
 * @param turn - the session's turn state at the moment of the decision
 * @returns the calls to make, or a refusal naming the names
 */
export function planToolTransition(
    current: ToolSide,
    next: ToolSide,
    turn: TurnFacts
): ToolTransition {
    const changing = changingNames(current, next, turn);
    if (changing.length > 0 && turn.busy) return { kind: "refuse", names: changing };
    const toolsChanged = !turn.known || !sameDefinitions(current.definitions, next.definitions);
    const filterChanged = !turn.known || !sameFilter(current.filter, next.filter);
    if (!toolsChanged && !filterChanged) {
        return { kind: "apply", calls: [{ kind: "handlers-next" }], idleOnly: changing };
    }
    const meet = meetFilter(current, next);
    const calls: RuntimeCall[] = [{ kind: "handlers", first: "current" }];
    if (!turn.known || !sameFilter(current.filter, meet))
        calls.push({ kind: "filter", filter: meet });
    if (toolsChanged) calls.push({ kind: "tools" });
    calls.push({ kind: "handlers", first: "next" });
    if (!sameFilter(meet, next.filter)) calls.push({ kind: "filter", filter: next.filter });
    calls.push({ kind: "validate" }, { kind: "handlers-next" });
    return { kind: "apply", calls, idleOnly: changing };
}

/**
 * Whether the updater must stop before `call` because a turn started while a change that must
 * stay in an idle session was under way (another client's message, `fleet.start`): checked
 * before the tool definitions are sent, the one request that opens a gap.
 *
 * @param plan - the change being carried out
 * @param call - the call about to be made
 * @param busy - whether the session is busy now
 */
export function stopsForTurn(
    plan: Extract<ToolTransition, { kind: "apply" }>,
    call: RuntimeCall,
    busy: boolean
): boolean {
    return busy && call.kind === "tools" && plan.idleOnly.length > 0;
}

/**
 * The names a change moves between owners or redefines: a built-in a custom tool starts or stops
 * replacing, a custom name on both sides with another definition, and, while the runtime's tools
 * are unknown, every name it may hold.
 */
export function changingNames(current: ToolSide, next: ToolSide, turn: TurnFacts): string[] {
    const before = new Set(current.overridden);
    const after = new Set(next.overridden);
    const names = new Set<string>();
    for (const name of after) if (!before.has(name)) names.add(name);
    for (const name of before) if (!after.has(name)) names.add(name);
    for (const [name, definition] of next.definitions) {
        const previous = current.definitions.get(name);
        if (previous !== undefined && previous !== definition) names.add(name);
    }
    if (!turn.known) {
        for (const name of turn.mayReplace) names.add(name);
        for (const name of current.definitions.keys()) names.add(name);
        for (const name of next.definitions.keys()) names.add(name);
    }
    return [...names];
}

/** The built-ins a side lets the model call: enabled, and not replaced by a custom tool. */
export function builtInsOn(side: ToolSide): Set<string> {
    const on = new Set<string>();
    for (const [name, enabled] of side.enablement) {
        if (enabled && !side.definitions.has(name)) on.add(name);
    }
    for (const name of side.modeBuiltIns) if (!side.definitions.has(name)) on.add(name);
    return on;
}

/**
 * A filter that allows only what both sides allow: the allowlists' common entries and the tools
 * both enable, every exclusion of either, every built-in that one enables and the other does not,
 * and every built-in a custom tool replaces on either side. It may allow less than both (a tool
 * named differently in the two lists is out for the moment), never more.
 */
export function meetFilter(current: ToolSide, next: ToolSide): WireFilter {
    const a = current.filter.availableTools;
    const b = next.filter.availableTools;
    let availableTools: readonly string[] | null;
    if (a === null) availableTools = b;
    else if (b === null) availableTools = a;
    else {
        const inB = new Set(b);
        const enabledInBoth = [...current.enablement]
            .filter(([name, on]) => on && next.enablement.get(name) === true)
            .map(([name]) => name);
        availableTools = unique([...a.filter((entry) => inB.has(entry)), ...enabledInBoth]);
    }
    const excluded = unique([...current.filter.excludedTools, ...next.filter.excludedTools]);
    const excludedSet = new Set(excluded);
    // A built-in the lists above still let in although one side does not: excluded too.
    const listed = availableTools === null ? undefined : new Set(availableTools);
    const letIn = (name: string) =>
        !excludedSet.has(name) &&
        !excludedSet.has(`builtin:${name}`) &&
        (listed === undefined ||
            listed.has(name) ||
            listed.has(`builtin:${name}`) ||
            listed.has("builtin:*"));
    const before = builtInsOn(current);
    const after = builtInsOn(next);
    const differing = [...new Set([...before, ...after])].filter(
        (name) => before.has(name) !== after.has(name)
    );
    const replaced = [...current.overridden, ...next.overridden];
    const excludedTools = unique([
        ...excluded,
        ...[...differing, ...replaced].filter(letIn).map((name) => `builtin:${name}`),
    ]);
    return { availableTools, excludedTools };
}

/** Whether two filters are the same, entry for entry. */
export function sameFilter(a: WireFilter, b: WireFilter): boolean {
    return (
        sameList(a.availableTools, b.availableTools) && sameList(a.excludedTools, b.excludedTools)
    );
}

function sameList(a: readonly string[] | null, b: readonly string[] | null): boolean {
    if (a === null || b === null) return a === b;
    return a.length === b.length && a.every((entry, index) => entry === b[index]);
}

function sameDefinitions(a: ReadonlyMap<string, string>, b: ReadonlyMap<string, string>): boolean {
    if (a.size !== b.size) return false;
    const left = [...a];
    const right = [...b];
    return left.every(([name, definition], index) => {
        const [otherName, other] = right[index]!;
        return name === otherName && definition === other;
    });
}

function unique(entries: readonly string[]): readonly string[] {
    return Object.freeze([...new Set(entries)]);
}
