import { Queryable } from '@quire/platform/db/db';
import { binaryArray, PG_TYPE, textArray } from '@quire/platform/db/binary-array';
import type { TableNamer } from '@quire/projections/projection';
import type { ContentStore } from '@quire/content/store';
import { PageLexemes, tsvectorOf, vectorOf } from '../text/build-tsvector';
import { Lexicon, SKIPPED } from '../text/lexicon';
import { Stemmer } from '../text/stemmer';
import { isVocabularyWord, textTokens, tokenRuns, trigrams } from '../text/tokenize';
import { decodePostings, encodePostings, FreshPostings, patchPostings, Postings } from '../postings/postings';
import { SPECIFIC_WEIGHT, TITLE_WEIGHT } from '../ranking';
import { IndexedSection, pageSections } from './page-sections';
import { SearchablePage } from './searchable-pages';

interface IndexedPageRow {
  page_id: string;
  key: number;
  blob: string;
  title: string;
  path: string;
  description: string;
  ancestors: string[];
}

export interface IndexStats {
  pages: number;
  reindexed: number;
  removed: number;
  parsedBlobs: number;
  sections: number;
  /** Milliseconds spent per phase, for benchmarks. */
  ms: { diff: number; sections: number; tokens: number; stems: number; vectors: number; write: number; postings: number; vocabulary: number };
}

const READ_CONCURRENCY = 16;
/** Rows per INSERT: keeps each statement a few MB. */
const INSERT_CHUNK = 1000;
/** Postings rows per statement. */
const POSTINGS_CHUNK = 2000;
const decoder = new TextDecoder();
/** Pages tokenized or turned into rows between two turns of the event loop. */
const YIELD_EVERY = 50;

/**
 * Brings one space's index to a revision's pages. Pages whose blob, title, description and
 * ancestors are unchanged keep their rows (a move only rewrites the path); sections of a blob
 * are parsed once ever and cached by blob id, so a re-import of mostly unchanged content costs
 * little more than the diff.
 */
export class SpaceIndexer {
  constructor(
    private readonly contentStore: ContentStore,
    private readonly stemmer: Stemmer,
  ) {}

  async index(tx: Queryable, t: TableNamer, opts: { spaceId: string; spaceKey: number; config: string; pages: SearchablePage[]; force?: boolean }): Promise<IndexStats> {
    const { spaceId, config, pages } = opts;
    const ms = { diff: 0, sections: 0, tokens: 0, stems: 0, vectors: 0, write: 0, postings: 0, vocabulary: 0 };
    let clock = Date.now();
    const lap = (phase: keyof typeof ms) => {
      const now = Date.now();
      ms[phase] += now - clock;
      clock = now;
    };
    const current = new Map<string, IndexedPageRow>();
    // Asked now, not once the writes below are done: the postings are patched (or written anew,
    // for a space indexed for the first time) while the sections' inserts run.
    const [existing, postingsExist] = await Promise.all([
      tx.query<IndexedPageRow>(`SELECT page_id, key, blob, title, path, description, ancestors FROM ${t('rm_search_pages')} WHERE space_id = $1`, [spaceId]),
      tx.query(`SELECT 1 FROM ${t('rm_search_postings')} WHERE space_key = $1 LIMIT 1`, [opts.spaceKey]).then((r) => r.rows.length > 0),
    ]);
    for (const row of existing.rows) current.set(row.page_id, row);

    const next = new Map(pages.map((p) => [p.id, p]));
    const removed = [...current.keys()].filter((id) => !next.has(id));
    const reindex: SearchablePage[] = [];
    const moved: SearchablePage[] = [];
    for (const page of next.values()) {
      const cur = current.get(page.id);
      if (opts.force || !cur || cur.blob !== page.blob || cur.title !== page.title || cur.description !== page.description || !sameList(cur.ancestors, page.ancestors)) {
        reindex.push(page);
      } else if (cur.path !== page.path) moved.push(page);
    }

    lap('diff');
    // Writes nothing later in this call reads back are sent without waiting for each: the
    // connection runs them in order while the next rows are computed here (the tsvectors of a
    // 1,000-page import, ~0.2 s, were computed while PostgreSQL waited, then the reverse). A
    // failure reaches the caller from `settle` at the latest.
    const pending: Array<Promise<unknown>> = [];
    const send = <R = Record<string, unknown>>(sql: string, params: unknown[]) => {
      const sent = tx.query<R>(sql, params);
      sent.catch(() => undefined);
      pending.push(sent);
      return sent;
    };
    const settle = () => Promise.all(pending.splice(0));
    const { sections, fresh } = await this.sectionsOf(tx, t, spaceId, reindex);
    lap('sections');

    const gone = [...removed, ...reindex.filter((p) => current.has(p.id)).map((p) => p.id)];
    // The postings to take the gone pages out of: the lexemes of their sections (titles included).
    const goneKeys = new Set(gone.map((id) => current.get(id)!.key));
    const goneLexemes = gone.length
      ? (
          await tx.query<{ lexeme: string }>(
            `SELECT DISTINCT unnest(tsvector_to_array(tsv)) AS lexeme FROM ${t('rm_search_sections')} WHERE space_id = $1 AND page_id = ANY($2::text[])`,
            [spaceId, gone],
          )
        ).rows.map((r) => r.lexeme)
      : [];
    if (gone.length) {
      await tx.query(`DELETE FROM ${t('rm_search_sections')} WHERE space_id = $1 AND page_id = ANY($2::text[])`, [spaceId, gone]);
      await tx.query(`DELETE FROM ${t('rm_search_texts')} WHERE space_id = $1 AND page_id = ANY($2::text[])`, [spaceId, gone]);
      await tx.query(`DELETE FROM ${t('rm_search_pages')} WHERE space_id = $1 AND page_id = ANY($2::text[])`, [spaceId, gone]);
    }
    if (moved.length) {
      await tx.query(
        `UPDATE ${t('rm_search_pages')} p SET path = x.path FROM unnest($2::text[], $3::text[]) AS x(page_id, path)
          WHERE p.space_id = $1 AND p.page_id = x.page_id`,
        [spaceId, moved.map((p) => p.id), moved.map((p) => p.path)],
      );
    }

    let sectionCount = 0;
    if (reindex.length) {
      // Tokenize once, numbering every word (see Lexicon); stem every distinct word in one
      // statement; then build the tsvectors.
      const lexicon = new Lexicon();
      const prepared = await mapYielding(reindex, (page) => {
        const list = sections.get(page.blob) ?? [];
        // A page without text is still found by its title.
        const effective = list.length ? list : [{ id: '', title: '', text: '' }];
        return {
          page,
          title: lexicon.tokens(textTokens(page.title)),
          context: lexicon.tokens(textTokens([page.description, ...page.ancestors].filter(Boolean).join('\n'))),
          sections: effective.map((s) => ({ section: s, heading: lexicon.tokens(textTokens(s.title)), body: lexicon.tokens(textTokens(s.text)) })),
        };
      });
      const words = lexicon.words();
      lap('tokens');
      const stemmed = this.stemmer.load(tx, config, words);
      // The parsed sections are cached by blob behind the stems, which are waited for.
      for (const chunk of chunks(fresh, INSERT_CHUNK)) {
        send(
          `INSERT INTO ${t('rm_search_blobs')} (blob, sections) SELECT x.blob, x.sections FROM unnest($1::text[], $2::text[]) AS x(blob, sections)
           ON CONFLICT (blob) DO NOTHING`,
          [textArray(chunk.map((f) => f.blob)), textArray(chunk.map((f) => JSON.stringify(f.sections)))],
        );
      }
      await stemmed;
      // Bound after the load, which may have started the stemmer's cache over (see Stemmer.lexemesFor).
      const lexemes = this.stemmer.lexemesFor(config);
      lexicon.prepare(lexemes);
      lap('stems');

      const pageRows = reindex.map((p) => ({
        id: p.id,
        page_id: p.id,
        blob: p.blob,
        title: p.title,
        path: p.path,
        description: p.description,
        ancestors: JSON.stringify(p.ancestors),
        title_tsv: tsvectorOf(
          [
            { text: p.title, weight: 'A' },
            { text: p.description, weight: 'B' },
            { text: p.ancestors[p.ancestors.length - 1] ?? '', weight: 'C' },
          ],
          lexemes,
        ),
        title_words: titleWords(p.title),
      }));
      const insertedPages: Array<Promise<{ rows: Array<{ page_id: string; key: number }> }>> = [];
      for (const chunk of chunks(pageRows, INSERT_CHUNK)) {
        insertedPages.push(send<{ page_id: string; key: number }>(
          `INSERT INTO ${t('rm_search_pages')} (space_id, page_id, blob, title, path, description, ancestors, title_tsv, title_words)
           SELECT $1, x.page_id, x.blob, x.title, x.path, x.description, x.ancestors::jsonb, x.title_tsv, x.title_words
             FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::tsvector[], $9::int[])
               AS x(page_id, blob, title, path, description, ancestors, title_tsv, title_words)
           RETURNING page_id, key`,
          [
            spaceId,
            ...textColumns(chunk, ['page_id', 'blob', 'title', 'path', 'description', 'ancestors']),
            binaryArray(PG_TYPE.tsvector, chunk.map((r) => r.title_tsv)),
            chunk.map((r) => r.title_words),
          ],
        ));
      }

      let sectionRows: Array<{ page_id: string; ord: number; section_id: string; title: string; body: string; tsv: Buffer }> = [];
      const sendSections = () => {
        sectionCount += sectionRows.length;
        send(
          `INSERT INTO ${t('rm_search_sections')} (space_id, page_id, ord, tsv)
           SELECT $1, x.page_id, x.ord, x.tsv FROM unnest($2::text[], $3::int[], $4::tsvector[]) AS x(page_id, ord, tsv)`,
          [spaceId, ...textColumns(sectionRows, ['page_id']), sectionRows.map((r) => r.ord), binaryArray(PG_TYPE.tsvector, sectionRows.map((r) => r.tsv))],
        );
        send(
          `INSERT INTO ${t('rm_search_texts')} (space_id, page_id, ord, section_id, title, body)
           SELECT $1, x.page_id, x.ord, x.section_id, x.title, x.body
             FROM unnest($2::text[], $3::int[], $4::text[], $5::text[], $6::text[]) AS x(page_id, ord, section_id, title, body)`,
          [spaceId, ...textColumns(sectionRows, ['page_id']), sectionRows.map((r) => r.ord), ...textColumns(sectionRows, ['section_id', 'title', 'body'])],
        );
        sectionRows = [];
      };
      // Lexeme number -> the pages holding it (by their index in `prepared`), with each page's
      // impact and positions, for the postings.
      const postings: Array<{ pages: number[]; impacts: number[]; positions: number[][] } | undefined> = [];
      for (const [i, p] of prepared.entries()) {
        // Sections are sent as they are built, and the event loop runs now and then: the
        // connection sends each statement once the one before it is done, and PostgreSQL would
        // otherwise wait for the whole loop.
        if (sectionRows.length >= INSERT_CHUNK) sendSections();
        if (i % YIELD_EVERY === YIELD_EVERY - 1) await yieldToEventLoop();
        const page = new PageLexemes();
        p.sections.forEach((s, ord) => {
          page.ord = ord;
          sectionRows.push({
            page_id: p.page.id,
            ord,
            section_id: s.section.id,
            title: s.section.title,
            body: s.section.text,
            tsv: vectorOf(
              [
                { tokens: p.title, weight: 'A' },
                { tokens: s.heading, weight: 'B' },
                { tokens: p.context, weight: 'C' },
                { tokens: s.body, weight: 'D' },
              ],
              lexicon,
              page,
            ),
          });
        });
        // As the page's title_tsv: its description and its parent's title.
        addTitleShare(page, p.title, lexicon.tokens(textTokens(`${p.page.description}\n${p.page.ancestors[p.page.ancestors.length - 1] ?? ''}`)), lexicon);
        for (let k = 0; k < page.ids.length; k++) {
          const list = (postings[page.ids[k]] ??= { pages: [], impacts: [], positions: [] });
          list.pages.push(i);
          list.impacts.push(page.impacts[k]);
          list.positions.push(page.positions[k]);
        }
      }
      if (sectionRows.length) sendSections();
      lap('vectors');
      const keyOf = new Map<string, number>();
      for (const inserted of await Promise.all(insertedPages)) for (const row of inserted.rows) keyOf.set(row.page_id, row.key);
      const pageKeys = prepared.map((p) => keyOf.get(p.page.id)!);
      // Lexeme -> its new pages, by key.
      const added = new Map<string, FreshPostings>();
      postings.forEach((list, id) => {
        if (list) added.set(lexicon.text(id), byKey(list.pages.map((i) => pageKeys[i]), list.impacts, list.positions));
      });
      lap('write');
      await this.writePostings(tx, t, opts.spaceKey, postingsExist, goneKeys, goneLexemes, added);
      lap('postings');
      await this.addVocabulary(tx, t, words.filter(isVocabularyWord));
      lap('vocabulary');
    } else if (goneKeys.size) {
      await this.writePostings(tx, t, opts.spaceKey, postingsExist, goneKeys, goneLexemes, new Map());
      lap('postings');
    }
    await settle();
    lap('write');
    return { pages: pages.length, reindexed: reindex.length, removed: removed.length, parsedBlobs: fresh.length, sections: sectionCount, ms };
  }

  /** Sections of the pages' blobs: from the cache, else read and parsed (`fresh`: for the cache). */
  private async sectionsOf(tx: Queryable, t: TableNamer, spaceId: string, pages: SearchablePage[]) {
    const sections = new Map<string, IndexedSection[]>();
    const fresh: Array<{ blob: string; sections: IndexedSection[] }> = [];
    const blobs = [...new Set(pages.map((p) => p.blob))];
    if (blobs.length === 0) return { sections, fresh };
    const cached = await tx.query<{ blob: string; sections: string }>(`SELECT blob, sections FROM ${t('rm_search_blobs')} WHERE blob = ANY($1::text[])`, [blobs]);
    for (const row of cached.rows) sections.set(row.blob, JSON.parse(row.sections) as IndexedSection[]);
    const missing = blobs.filter((b) => !sections.has(b));
    await forEachLimited(missing, READ_CONCURRENCY, async (blob) => {
      const bytes = await this.readBlob(spaceId, blob);
      if (!bytes) return; // not cached: a later revision with another blob for the page parses again
      const parsed = pageSections(decoder.decode(bytes));
      sections.set(blob, parsed);
      fresh.push({ blob, sections: parsed });
    });
    return { sections, fresh };
  }

  private async readBlob(spaceId: string, blob: string): Promise<Uint8Array | undefined> {
    try {
      return await this.contentStore.readBlob(spaceId, blob);
    } catch (err: any) {
      // A page whose bytes are missing is indexed by its title alone rather than stopping the
      // search index for every space; any other failure is real and stops the projection.
      if (err?.code === 'object_not_found' || err?.code === 'invalid_space_id') return undefined;
      throw err;
    }
  }

  /**
   * Takes the gone pages out of their lexemes' postings and puts the new pages in: the rows of
   * every lexeme concerned are read, patched and written back whole (a space's row of a lexeme
   * is at most 8 bytes per page of the space, and its positions).
   */
  private async writePostings(
    tx: Queryable,
    t: TableNamer,
    spaceKey: number,
    postingsExist: boolean,
    goneKeys: ReadonlySet<number>,
    goneLexemes: readonly string[],
    added: ReadonlyMap<string, FreshPostings>,
  ): Promise<void> {
    const lexemes = [...new Set([...goneLexemes, ...added.keys()])];
    const current = new Map<string, Postings>();
    // A space indexed for the first time has no rows to patch.
    if (goneKeys.size > 0 || postingsExist) {
      for (const chunk of chunks(lexemes, POSTINGS_CHUNK)) {
        const r = await tx.query<{ lexeme: string; entries: Uint8Array; positions: Uint8Array }>(
          `SELECT lexeme, entries, positions FROM ${t('rm_search_postings')} WHERE space_key = $1 AND lexeme = ANY($2::text[])`,
          [spaceKey, chunk],
        );
        for (const row of r.rows) current.set(row.lexeme, decodePostings(row.entries, row.positions));
      }
    }
    const write: Array<{ lexeme: string; entries: Uint8Array; positions: Uint8Array; pages: number }> = [];
    const empty: string[] = [];
    for (const lexeme of lexemes) {
      const had = current.get(lexeme);
      const next = patchPostings(had, goneKeys, added.get(lexeme));
      if (next.keys.length) write.push({ lexeme, entries: encodePostings(next.keys, next.impacts), positions: next.positions, pages: next.keys.length });
      else if (had) empty.push(lexeme);
    }
    // The lists go as binary bytea[] (binaryArray), not as hex text that PostgreSQL decodes: 20,000
    // rows' statements took 180 ms of PostgreSQL CPU and 34 ms of node's instead of 280 and 64.
    for (const chunk of chunks(write, POSTINGS_CHUNK)) {
      await tx.query(
        `INSERT INTO ${t('rm_search_postings')} (lexeme, space_key, entries, positions, pages)
         SELECT x.lexeme, $1, x.entries, x.positions, x.pages
           FROM unnest($2::text[], $3::bytea[], $4::bytea[], $5::int[]) AS x(lexeme, entries, positions, pages)
         ON CONFLICT (lexeme, space_key) DO UPDATE SET entries = EXCLUDED.entries, positions = EXCLUDED.positions, pages = EXCLUDED.pages`,
        [
          spaceKey,
          chunk.map((r) => r.lexeme),
          binaryArray(PG_TYPE.bytea, chunk.map((r) => r.entries)),
          binaryArray(PG_TYPE.bytea, chunk.map((r) => r.positions)),
          chunk.map((r) => r.pages),
        ],
      );
    }
    if (empty.length) await tx.query(`DELETE FROM ${t('rm_search_postings')} WHERE space_key = $1 AND lexeme = ANY($2::text[])`, [spaceKey, empty]);
  }

  /** Words offered as typo corrections. Insert-only: a word that left the content costs nothing. */
  private async addVocabulary(tx: Queryable, t: TableNamer, words: string[]): Promise<void> {
    for (const chunk of chunks(words, 5000)) {
      await tx.query(
        `INSERT INTO ${t('rm_search_terms')} (term, len, trigrams)
         SELECT x.term, char_length(x.term), string_to_array(x.grams, ',') FROM unnest($1::text[], $2::text[]) AS x(term, grams)
         ON CONFLICT (term) DO NOTHING`,
        [chunk, chunk.map((w) => trigrams(w).join(','))],
      );
    }
  }
}

/**
 * A page's title share of its impacts: TITLE_WEIGHT for a lexeme of the title (and
 * SPECIFIC_WEIGHT over the title's length), half of TITLE_WEIGHT for one of the description or
 * the parent's title only (`near`): what the title boost of a one-word query gives the page.
 */
function addTitleShare(page: PageLexemes, title: Int32Array, near: Int32Array, lexicon: Lexicon): void {
  const lexemesOf = (tokens: Int32Array) => {
    const out = new Set<number>();
    for (const token of tokens) {
      if (token === SKIPPED) continue;
      out.add(token);
      for (const stem of lexicon.stemsOf(token)) out.add(stem);
    }
    return out;
  };
  const own = lexemesOf(title);
  const nearby = lexemesOf(near);
  let words = 0;
  for (const token of title) if (token !== SKIPPED) words++;
  words = Math.max(1, words);
  for (const lexeme of own) {
    const k = page.indexOf(lexeme);
    if (k >= 0) page.impacts[k] = page.impacts[k] + TITLE_WEIGHT + SPECIFIC_WEIGHT / words;
  }
  for (const lexeme of nearby) {
    const k = page.indexOf(lexeme);
    if (k >= 0 && !own.has(lexeme)) page.impacts[k] = page.impacts[k] + TITLE_WEIGHT / 2;
  }
}

/** A lexeme's new pages (keys in the order the pages were indexed) sorted by key. */
function byKey(keys: number[], impacts: number[], positions: number[][]): FreshPostings {
  let sorted = true;
  for (let i = 1; i < keys.length && sorted; i++) sorted = keys[i - 1] < keys[i];
  if (sorted) return { keys, impacts, positions };
  const order = keys.map((_, i) => i).sort((a, b) => keys[a] - keys[b]);
  return { keys: order.map((i) => keys[i]), impacts: order.map((i) => impacts[i]), positions: order.map((i) => positions[i]) };
}

/**
 * Words of a title that a query can be about: CJK runs and words of two characters or more with
 * a letter ("F.10. dblink" has one: numbering is not content).
 */
export function titleWords(title: string): number {
  return tokenRuns(title).filter((r) => r.cjk || (r.source.length >= 2 && /\p{L}/u.test(r.source))).length;
}

function sameList(a: unknown, b: string[]): boolean {
  return Array.isArray(a) && a.length === b.length && a.every((x, i) => x === b[i]);
}

function* chunks<T>(items: T[], size: number): Generator<T[]> {
  for (let i = 0; i < items.length; i += size) yield items.slice(i, i + size);
}

/**
 * Text columns of rows, each as one binary text[] parameter (see textArray): a section's body and
 * a blob's sections as JSON are long, and as array literals they were escaped here and parsed
 * back by the server.
 */
function textColumns<K extends string>(rows: ReadonlyArray<Record<K, string>>, keys: readonly K[]): Buffer[] {
  return keys.map((k) => textArray(rows.map((r) => r[k])));
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/** `items.map(fn)`, letting the event loop run between every YIELD_EVERY items (see `index`). */
async function mapYielding<T, R>(items: readonly T[], fn: (item: T) => R): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i++) {
    if (i % YIELD_EVERY === YIELD_EVERY - 1) await yieldToEventLoop();
    out.push(fn(items[i]));
  }
  return out;
}

async function forEachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
