import { LruCache } from '@quire/content/store/lru-cache';

/** A lexeme's stored list in one space: its records, and its positions when read. */
export interface StoredList {
  entries: Uint8Array;
  positions: Uint8Array | null;
}

/** What the API keeps of lists read before, at most (a common word's lists in 100 spaces: about 1.5 MB with positions). */
const DEFAULT_MAX_BYTES = 64 * 2 ** 20;
/** Bookkeeping per kept list, counted against the bound beside its bytes. */
const ENTRY_OVERHEAD = 128;

/**
 * Lexemes' lists read before, by lexeme and space, each with the version of the row it was read
 * from: the row's table and the transaction that wrote it (`tableoid`, `xmin`). The indexer
 * rewrites a row whenever a space's list of a lexeme changes, and a rebuild swaps in fresh
 * tables, so a list is used only while its row's version is the one read: a query reads the
 * versions of the rows it needs (a few bytes each) and the lists of only those it does not hold
 * at that version. A common word's lists across 100 spaces are about 0.7 MB (1.4 MB of hex to
 * receive and decode, and as much garbage), read again by every query holding the word.
 */
export class PostingsCache {
  private readonly lists: LruCache<{ version: string; list: StoredList }>;

  constructor(maxBytes = DEFAULT_MAX_BYTES) {
    this.lists = new LruCache(maxBytes, ({ list }) => ENTRY_OVERHEAD + list.entries.byteLength + (list.positions?.byteLength ?? 0));
  }

  /** The list of `lexeme` in the space, if kept at `version` (with its positions when `positions`). */
  get(lexeme: string, spaceKey: number, version: string, positions: boolean): StoredList | undefined {
    const kept = this.lists.get(key(lexeme, spaceKey));
    if (!kept || kept.version !== version || (positions && !kept.list.positions)) return undefined;
    return positions ? kept.list : { entries: kept.list.entries, positions: null };
  }

  /**
   * Keeps a list as read at `version`. Its bytes are copied (`new Uint8Array`; a Buffer's `slice` is a
   * view): pg's small buffers are slices of a shared pool, which a kept view would hold whole.
   */
  set(lexeme: string, spaceKey: number, version: string, list: StoredList): void {
    this.lists.set(key(lexeme, spaceKey), { version, list: { entries: new Uint8Array(list.entries), positions: list.positions ? new Uint8Array(list.positions) : null } });
  }
}

const key = (lexeme: string, spaceKey: number) => `${spaceKey} ${lexeme}`;
