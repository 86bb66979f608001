/**
 * A size-bounded least-recently-used map. Git objects are immutable, so entries never go
 * stale: the only question is which ones are worth the memory.
 */
export class LruCache<V> {
  private readonly entries = new Map<string, { value: V; size: number }>();
  private total = 0;
  /** Loads in flight (getOrLoad), by key. */
  private readonly loading = new Map<string, Promise<V>>();

  constructor(
    private readonly maxSize: number,
    private readonly sizeOf: (value: V) => number = () => 1,
  ) {}

  get size(): number {
    return this.total;
  }

  get(key: string): V | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    // Re-inserting moves the key to the end of the Map's insertion order: the newest.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  set(key: string, value: V): void {
    const size = this.sizeOf(value);
    const previous = this.entries.get(key);
    if (previous) {
      this.entries.delete(key);
      this.total -= previous.size;
    }
    // One oversized value would flush everything else for nothing.
    if (size > this.maxSize) return;
    this.entries.set(key, { value, size });
    this.total += size;
    for (const [oldest, entry] of this.entries) {
      if (this.total <= this.maxSize) break;
      this.entries.delete(oldest);
      this.total -= entry.size;
    }
  }

  /**
   * The value of `key`: cached, else loaded by `load` and kept. Callers that ask while it loads
   * share that one load (concurrent readers of one object inflate it once); a failed load is not
   * kept, so the next caller tries again.
   */
  getOrLoad(key: string, load: () => Promise<V>): Promise<V> {
    const cached = this.get(key);
    if (cached !== undefined) return Promise.resolve(cached);
    let loading = this.loading.get(key);
    if (!loading) {
      loading = load().then(
        (value) => {
          this.set(key, value);
          this.loading.delete(key);
          return value;
        },
        (error: unknown) => {
          this.loading.delete(key);
          throw error;
        },
      );
      this.loading.set(key, loading);
    }
    return loading;
  }
}
