import { Queryable } from '@quire/platform/db/db';
import { SIMPLE_CONFIG } from './text-search-config';

const MAX_ENTRIES = 300_000;

/**
 * Stems words with PostgreSQL's own dictionaries (`to_tsvector(config, word)`), once per
 * distinct word: the index builds its tsvectors in JavaScript (one pass, no second parse by
 * PostgreSQL) and queries build their tsqueries the same way, so stems always agree. Results
 * never change for a configuration, so they are kept for the life of the process.
 */
export class Stemmer {
  /** Words stemmed since the last start-over, by configuration. */
  private current = new Map<string, Map<string, readonly string[]>>();
  /**
   * The generation before: still read, never cleared in place. A start-over by one load would
   * otherwise empty the words another caller loaded a moment before and is about to read (a
   * query loads English for noise detection, then its own configuration; the indexer and
   * concurrent queries share nothing but this), and they would come back as themselves: wrong
   * stems in an index or a query.
   */
  private previous = new Map<string, Map<string, readonly string[]>>();
  private size = 0;

  /** `maxEntries`: words kept per generation (at most twice that in all). */
  constructor(private readonly maxEntries = MAX_ENTRIES) {}

  /** Looks up every word not known yet, in one statement. */
  async load(db: Queryable, config: string, words: Iterable<string>): Promise<void> {
    if (config === SIMPLE_CONFIG) return;
    const seen = new Set<string>();
    for (const w of words) if (w) seen.add(w);
    let missing = this.unknown(config, seen);
    if (missing.length === 0) return;
    if (this.size + missing.length > this.maxEntries) {
      // Start over: the current generation becomes the previous one (still read), the one before goes.
      this.previous = this.current;
      this.current = new Map();
      this.size = 0;
      missing = this.unknown(config, seen);
    }
    const cache = this.generation(config);
    for (let i = 0; i < missing.length; i += 20_000) {
      const chunk = missing.slice(i, i + 20_000);
      const r = await db.query<{ w: string; v: string }>(
        `SELECT w, to_tsvector($1::regconfig, w)::text AS v FROM unnest($2::text[]) AS w`,
        [config, chunk],
      );
      for (const row of r.rows) cache.set(row.w, parseLexemes(row.v));
      this.size += r.rows.length;
    }
  }

  /**
   * The lexemes the configuration gives a word: usually one stem, none for a stop word, and
   * none under `simple` (the index and queries use the word itself then). `load` must have
   * seen the word (unknown words are returned as themselves).
   */
  lexemes(config: string, word: string): readonly string[] {
    return this.lexemesFor(config)(word);
  }

  /** `lexemes` bound to one configuration, for hot loops: it keeps finding what was loaded before it was bound. */
  lexemesFor(config: string): (word: string) => readonly string[] {
    if (config === SIMPLE_CONFIG) return () => NONE;
    const current = this.generation(config);
    const previous = this.previous.get(config);
    return (word) => current.get(word) ?? previous?.get(word) ?? [word];
  }

  /** The words of `words` neither generation holds for the configuration. */
  private unknown(config: string, words: ReadonlySet<string>): string[] {
    const current = this.current.get(config);
    const previous = this.previous.get(config);
    const out: string[] = [];
    for (const w of words) if (!current?.has(w) && !previous?.has(w)) out.push(w);
    return out;
  }

  private generation(config: string): Map<string, readonly string[]> {
    let cache = this.current.get(config);
    if (!cache) this.current.set(config, (cache = new Map()));
    return cache;
  }
}

const NONE: readonly string[] = [];

function parseLexemes(tsvector: string): string[] {
  const out: string[] = [];
  for (const m of tsvector.matchAll(/'((?:[^']|'')*)'/g)) out.push(m[1].replace(/''/g, "'"));
  return out;
}
