/**
 * A value now, or a promise of it: what a read answers that is usually warm (kept in a cache)
 * and sometimes cold. A warm answer makes no promise, so a hot read passes no microtask hop and
 * no async frame per step; callers that `await` it see no difference.
 */
export type MaybePromise<T> = T | Promise<T>;

/**
 * `next(value)`: at once when the value is here (a throw then throws at once, which an `await`
 * in an async caller turns into the same rejection), once it is when it is a promise.
 */
export function thenMaybe<T, R>(value: MaybePromise<T>, next: (value: T) => MaybePromise<R>): MaybePromise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}
