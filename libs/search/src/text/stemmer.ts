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
  private readonly byConfig = new Map<string, Map<string, readonly string[]>>();
  private size = 0;

  /** Looks up every word not known yet, in one statement. */
  async load(db: Queryable, config: string, words: Iterable<string>): Promise<void> {
    if (config === SIMPLE_CONFIG) return;
    let cache = this.byConfig.get(config);
    if (!cache) this.byConfig.set(config, (cache = new Map()));
    let missing: string[] = [];
    const seen = new Set<string>();
    for (const w of words) {
      if (!w || seen.has(w)) continue;
      seen.add(w);
      if (!cache.has(w)) missing.push(w);
    }
    if (missing.length === 0) return;
    if (this.size + missing.length > MAX_ENTRIES) {
      // Start over, keeping what the caller is about to use.
      for (const c of this.byConfig.values()) c.clear();
      this.size = 0;
      missing = [...seen];
    }
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

  /** `lexemes` bound to one configuration, for hot loops. */
  lexemesFor(config: string): (word: string) => readonly string[] {
    if (config === SIMPLE_CONFIG) return () => NONE;
    let cache = this.byConfig.get(config);
    if (!cache) this.byConfig.set(config, (cache = new Map()));
    const c = cache;
    return (word) => c.get(word) ?? [word];
  }
}

const NONE: readonly string[] = [];

function parseLexemes(tsvector: string): string[] {
  const out: string[] = [];
  for (const m of tsvector.matchAll(/'((?:[^']|'')*)'/g)) out.push(m[1].replace(/''/g, "'"));
  return out;
}
