export class TimeoutError extends Error {
  readonly code = 'timeout';
}

/** Rejects after `ms` unless the promise settles first; the timer never outlives the call. */
export async function withTimeout<T>(promise: Promise<T>, ms: number, message = `timed out after ${ms} ms`): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([promise, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new TimeoutError(message)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}
