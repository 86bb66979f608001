import { Injectable } from '@nestjs/common';
import { LRUCache } from 'lru-cache';

/** Memory for what is computed from revisions, by an estimate of the bytes it holds. */
const REVISION_CACHE_BYTES = 96 * 1024 * 1024;

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
 * Concurrent reads of one missing key share one load.
 */
@Injectable()
export class RevisionCache {
  private readonly entries = new LRUCache<string, Entry, Load>({
    maxSize: REVISION_CACHE_BYTES,
    sizeCalculation: (entry) => Math.max(1, entry.bytes),
    fetchMethod: (_key, _stale, { context }) => context(),
  });

  /**
   * The value under `key`, loaded once when absent. `load` answering undefined keeps nothing (a
   * revision the read model does not hold yet); `bytes` estimates what the value holds.
   */
  async get<T>(key: readonly string[], load: () => Promise<T | undefined>, bytes: (value: T) => number): Promise<T | undefined> {
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
