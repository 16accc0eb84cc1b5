// Whether a value a caller's function returned is to be awaited: anything with a callable `then`,
// as `await` and `Promise.resolve` treat it.

/**
 * Whether `value` is a promise or another thenable.
 *
 * @param value - what a caller's function returned
 */
export function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
    return (
        value !== null &&
        (typeof value === "object" || typeof value === "function") &&
        typeof (value as { then?: unknown }).then === "function"
    );
}
