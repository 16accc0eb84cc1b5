/**
 * Finds the known name a mistyped one was most likely meant to be: the same name in another
 * case, else the only known name it is the beginning of (`toolset:exec` for `toolset:execute`;
 * at least three characters after any `<prefix>:`), else the closest name at most two edits away
 * (insertions, deletions, substitutions and swaps of neighbours), else nothing.
 *
 * @param name - the unknown name
 * @param known - the names that exist, in order of preference for ties
 * @returns the suggestion, or undefined when nothing is close enough
 */
export function closestName(name: string, known: Iterable<string>): string | undefined {
    const lower = name.toLowerCase();
    const checkPrefix = name.length - name.lastIndexOf(":") - 1 >= MIN_PREFIX_LENGTH;
    const beginsWith = new Set<string>();
    // Short names are two edits from almost anything; allow one edit below five characters.
    const limit = name.length < 5 ? 1 : 2;
    let best: string | undefined;
    let bestDistance = limit + 1;
    for (const candidate of known) {
        if (candidate === name) continue;
        const lengthDifference = Math.abs(candidate.length - name.length);
        if (lengthDifference === 0 && candidate.toLowerCase() === lower) return candidate;
        if (
            checkPrefix &&
            candidate.length > name.length &&
            candidate.toLowerCase().startsWith(lower)
        ) {
            beginsWith.add(candidate);
        }
        if (lengthDifference >= bestDistance) continue;
        const distance = editDistance(lower, candidate.toLowerCase(), bestDistance);
        if (distance < bestDistance) {
            best = candidate;
            bestDistance = distance;
        }
    }
    return beginsWith.size === 1 ? [...beginsWith][0] : best;
}

/** How much of a name must be typed before it counts as the beginning of a longer one. */
const MIN_PREFIX_LENGTH = 3;

/**
 * Optimal-string-alignment distance between `a` and `b`, or `bound` once it is certain to be at
 * least that (so a far-off candidate costs little).
 */
function editDistance(a: string, b: string, bound: number): number {
    let previous2: number[] = [];
    let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
    for (let i = 1; i <= a.length; i++) {
        const current = [i];
        let rowMin = i;
        for (let j = 1; j <= b.length; j++) {
            const cost = a[i - 1] === b[j - 1] ? 0 : 1;
            let value = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
            if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
                value = Math.min(value, previous2[j - 2]! + 1);
            }
            current[j] = value;
            rowMin = Math.min(rowMin, value);
        }
        if (rowMin >= bound) return bound;
        previous2 = previous;
        previous = current;
    }
    return previous[b.length]!;
}
