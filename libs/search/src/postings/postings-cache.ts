import { LruCache } from '@quire/content/store/lru-cache';
import type { Scores } from './page-candidates';

/** A lexeme's stored list in one space: its records, and its positions when read. */
export interface StoredList {
  entries: Uint8Array;
  positions: Uint8Array | null;
}

/** What the API keeps of lists read before, and of lists decoded, at most each (a common word's lists in 100 spaces: about 1.5 MB with positions, decoded 1.8 MB). */
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
  /**
   * Each lexeme's lists over a set of spaces decoded as one (see `matchingPages`), by the rows'
   * versions: decoding a common word's 90,000 pages took 1-3 ms a query, and as much garbage.
   */
  private readonly decoded: LruCache<Scores>;

  constructor(maxBytes = DEFAULT_MAX_BYTES) {
    this.lists = new LruCache(maxBytes, ({ list }) => ENTRY_OVERHEAD + list.entries.byteLength + (list.positions?.byteLength ?? 0));
    this.decoded = new LruCache(maxBytes, (scores) => {
      const p = scores.positions;
      // The position rows are counted here too: the lists cache may let them go first.
      const positions = p ? p.row.byteLength + p.offset.byteLength + p.rows.reduce((sum, r) => sum + r.byteLength, 0) : 0;
      return ENTRY_OVERHEAD + scores.keys.byteLength + scores.scores.byteLength + positions;
    });
  }

  /** A lexeme's lists decoded as one, if kept from rows at these versions (`space@version`, in the order read). */
  scores(lexeme: string, versions: readonly string[], positions: boolean): Scores | undefined {
    return this.decoded.get(decodedKey(lexeme, versions, positions));
  }

  /** Keeps a lexeme's lists decoded as one (never changed afterwards: callers only read them). */
  keepScores(lexeme: string, versions: readonly string[], positions: boolean, scores: Scores): void {
    this.decoded.set(decodedKey(lexeme, versions, positions), scores);
  }

  /** The list of `lexeme` in the space, if kept at `version` (with its positions when `positions`). */
  get(lexeme: string, spaceKey: number, version: string, positions: boolean): StoredList | undefined {
    const kept = this.lists.get(key(lexeme, spaceKey));
    if (!kept || kept.version !== version || (positions && !kept.list.positions)) return undefined;
    return positions ? kept.list : { entries: kept.list.entries, positions: null };
  }

  /**
   * Keeps a list as read at `version`, and returns the copy kept. Its bytes are copied
   * (`new Uint8Array`; a Buffer's `slice` is a view): pg's small buffers are slices of a shared
   * pool, which a kept view would hold whole.
   */
  set(lexeme: string, spaceKey: number, version: string, list: StoredList): StoredList {
    const copy = { entries: new Uint8Array(list.entries), positions: list.positions ? new Uint8Array(list.positions) : null };
    this.lists.set(key(lexeme, spaceKey), { version, list: copy });
    return copy;
  }
}

const key = (lexeme: string, spaceKey: number) => `${spaceKey} ${lexeme}`;
/** A space's list and an org's lists of one lexeme are kept apart (their rows differ). */
const decodedKey = (lexeme: string, versions: readonly string[], positions: boolean) => `${positions ? 'p' : 'l'} ${lexeme} ${versions.join(' ')}`;
