import { Inject, Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';
import { QUIRE_CONFIG, type QuireConfig } from '@quire/platform/config/config';

interface Entry {
  value: unknown;
  bytes: number;
}

type Load = () => Promise<Entry | undefined>;

/**
 * What is read or computed from one revision of a space: its pages looked up by id or path, their
 * bodies (markdown, documents with references resolved), its row and file tree. A revision never
 * changes, so an entry is never stale and nothing read from one is computed twice while it stays
 * in memory; the least recently used entries go first when the bytes run out. Keys name the
 * revision (or a blob, which names its bytes); which revision is live is never cached here.
 * Concurrent reads of one missing key share one load. Its size is QUIRE_CONTENT_CACHE_MB: an LRU
 * read in a cycle wider than it (a crawler, a search engine, the read-path bench going through a
 * 1,000-page space live and in a past revision) hits nothing, so it should hold the documents of
 * the spaces a process serves (96 MiB held about 2,000 documents of the bench's pages: too few).
 */
@Injectable()
export class RevisionCache {
  private readonly entries: LRUCache<string, Entry, Load>;

  constructor(@Inject(QUIRE_CONFIG) config: Pick<QuireConfig, 'contentCacheBytes'>) {
    this.entries = new LRUCache<string, Entry, Load>({
      maxSize: config.contentCacheBytes,
      sizeCalculation: (entry) => Math.max(1, entry.bytes),
      fetchMethod: (_key, _stale, { context }) => context(),
    });
  }

  /** The value kept under `key`, if any: what `get` answers at once, for a caller whose warm path should make no promise. */
  cached<T>(key: readonly string[]): T | undefined {
    return this.entries.get(key.join('\u0000'))?.value as T | undefined;
  }

  /**
   * The value under `key`, loaded once when absent. `load` answering undefined keeps nothing (a
   * revision the read model does not hold yet); `bytes` estimates what the value holds.
   */
  async get<T>(key: readonly string[], load: () => Promise<T | undefined>, bytes: (value: T) => number): Promise<T | undefined> {
    // A warm read (the common case) takes the entry without the fetch's closure and promise.
    const hit = this.cached<T>(key);
    if (hit !== undefined) return hit;
    const entry = await this.entries.fetch(key.join('\u0000'), {
      context: async () => {
        const value = await load();
        return value === undefined ? undefined : { value, bytes: bytes(value) };
      },
    });
    return entry?.value as T | undefined;
  }
}

/** Bytes of a value as JSON holds it, UTF-16: an estimate of its size on the heap that errs high. */
export function jsonBytes(value: unknown): number {
  return 2 * (JSON.stringify(value)?.length ?? 0) + 64;
}
