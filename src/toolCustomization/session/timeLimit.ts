// One bounded wait for a runtime's answer that may never come.

/**
 * `pending`'s value, or undefined when it has not settled within `ms` milliseconds (a rejection
 * within the time rejects). The timer does not keep the process alive.
 */
export function answerWithin<T>(pending: Promise<T>, ms: number): Promise<T | undefined> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    return Promise.race([
        pending,
        new Promise<undefined>((resolve) => {
            timer = setTimeout(() => resolve(undefined), ms);
            timer.unref?.();
        }),
    ]).finally(() => clearTimeout(timer));
}
