import { Queryable } from '@quire/platform/db/db';
import type { TableNamer } from '@quire/projections/projection';
import type { ContentStore } from '@quire/content/store';
import { buildTsvector, collectWords, tsvectorOf } from '../text/build-tsvector';
import { Stemmer } from '../text/stemmer';
import { isVocabularyWord, textTokens, tokenRuns, trigrams } from '../text/tokenize';
import { IndexedSection, pageSections } from './page-sections';
import { SearchablePage } from './searchable-pages';

interface IndexedPageRow {
  page_id: string;
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
  ms: { diff: number; sections: number; tokens: number; stems: number; vectors: number; write: number; vocabulary: number };
}

const READ_CONCURRENCY = 16;
/** Rows per INSERT: keeps each statement a few MB. */
const INSERT_CHUNK = 1000;
const decoder = new TextDecoder();

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

  async index(tx: Queryable, t: TableNamer, opts: { spaceId: string; config: string; pages: SearchablePage[]; force?: boolean }): Promise<IndexStats> {
    const { spaceId, config, pages } = opts;
    const ms = { diff: 0, sections: 0, tokens: 0, stems: 0, vectors: 0, write: 0, vocabulary: 0 };
    let clock = Date.now();
    const lap = (phase: keyof typeof ms) => {
      const now = Date.now();
      ms[phase] += now - clock;
      clock = now;
    };
    const current = new Map<string, IndexedPageRow>();
    const existing = await tx.query<IndexedPageRow>(
      `SELECT page_id, blob, title, path, description, ancestors FROM ${t('rm_search_pages')} WHERE space_id = $1`,
      [spaceId],
    );
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
    const { sections, parsed } = await this.sectionsOf(tx, t, spaceId, reindex);
    lap('sections');

    const gone = [...removed, ...reindex.filter((p) => current.has(p.id)).map((p) => p.id)];
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
      // Tokenize once; stem every distinct word in one statement; then build the tsvectors.
      const prepared = reindex.map((page) => {
        const list = sections.get(page.blob) ?? [];
        // A page without text is still found by its title.
        const effective = list.length ? list : [{ id: '', title: '', text: '' }];
        return {
          page,
          title: textTokens(page.title),
          context: textTokens([page.description, ...page.ancestors].filter(Boolean).join('\n')),
          sections: effective.map((s) => ({ section: s, heading: textTokens(s.title), body: textTokens(s.text) })),
        };
      });
      const words = new Set<string>();
      for (const p of prepared) {
        collectWords([p.title, p.context], words);
        for (const s of p.sections) collectWords([s.heading, s.body], words);
      }
      lap('tokens');
      await this.stemmer.load(tx, config, words);
      const lexemes = this.stemmer.lexemesFor(config);
      lap('stems');

      const pageRows = reindex.map((p) => ({
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
      for (const chunk of chunks(pageRows, INSERT_CHUNK)) {
        await tx.query(
          `INSERT INTO ${t('rm_search_pages')} (space_id, page_id, blob, title, path, description, ancestors, title_tsv, title_words)
           SELECT $1, x.page_id, x.blob, x.title, x.path, x.description, x.ancestors::jsonb, x.title_tsv::tsvector, x.title_words
             FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::int[])
               AS x(page_id, blob, title, path, description, ancestors, title_tsv, title_words)`,
          [spaceId, ...columns(chunk, ['page_id', 'blob', 'title', 'path', 'description', 'ancestors', 'title_tsv', 'title_words'])],
        );
      }

      const sectionRows: Array<{ page_id: string; ord: number; section_id: string; title: string; body: string; tsv: string }> = [];
      for (const p of prepared) {
        p.sections.forEach((s, ord) => {
          sectionRows.push({
            page_id: p.page.id,
            ord,
            section_id: s.section.id,
            title: s.section.title,
            body: s.section.text,
            tsv: buildTsvector(
              [
                { tokens: p.title, weight: 'A' },
                { tokens: s.heading, weight: 'B' },
                { tokens: p.context, weight: 'C' },
                { tokens: s.body, weight: 'D' },
              ],
              lexemes,
            ),
          });
        });
      }
      sectionCount = sectionRows.length;
      lap('vectors');
      for (const chunk of chunks(sectionRows, INSERT_CHUNK)) {
        await tx.query(
          `INSERT INTO ${t('rm_search_sections')} (space_id, page_id, ord, tsv)
           SELECT $1, x.page_id, x.ord, x.tsv::tsvector FROM unnest($2::text[], $3::int[], $4::text[]) AS x(page_id, ord, tsv)`,
          [spaceId, ...columns(chunk, ['page_id', 'ord', 'tsv'])],
        );
        await tx.query(
          `INSERT INTO ${t('rm_search_texts')} (space_id, page_id, ord, section_id, title, body)
           SELECT $1, x.page_id, x.ord, x.section_id, x.title, x.body
             FROM unnest($2::text[], $3::int[], $4::text[], $5::text[], $6::text[]) AS x(page_id, ord, section_id, title, body)`,
          [spaceId, ...columns(chunk, ['page_id', 'ord', 'section_id', 'title', 'body'])],
        );
      }
      lap('write');
      await this.addVocabulary(tx, t, [...words].filter(isVocabularyWord));
      lap('vocabulary');
    }
    lap('write');
    return { pages: pages.length, reindexed: reindex.length, removed: removed.length, parsedBlobs: parsed, sections: sectionCount, ms };
  }

  /** Sections of the pages' blobs: from the cache, else read, parsed and cached. */
  private async sectionsOf(tx: Queryable, t: TableNamer, spaceId: string, pages: SearchablePage[]) {
    const sections = new Map<string, IndexedSection[]>();
    const blobs = [...new Set(pages.map((p) => p.blob))];
    if (blobs.length === 0) return { sections, parsed: 0 };
    const cached = await tx.query<{ blob: string; sections: IndexedSection[] }>(
      `SELECT blob, sections FROM ${t('rm_search_blobs')} WHERE blob = ANY($1::text[])`,
      [blobs],
    );
    for (const row of cached.rows) sections.set(row.blob, row.sections);
    const missing = blobs.filter((b) => !sections.has(b));
    const fresh: Array<{ blob: string; sections: IndexedSection[] }> = [];
    await forEachLimited(missing, READ_CONCURRENCY, async (blob) => {
      const bytes = await this.readBlob(spaceId, blob);
      if (!bytes) return; // not cached: a later revision with another blob for the page parses again
      const parsed = pageSections(blob, decoder.decode(bytes));
      sections.set(blob, parsed);
      fresh.push({ blob, sections: parsed });
    });
    for (const chunk of chunks(fresh, INSERT_CHUNK)) {
      await tx.query(
        `INSERT INTO ${t('rm_search_blobs')} (blob, sections) SELECT x.blob, x.sections::jsonb FROM unnest($1::text[], $2::text[]) AS x(blob, sections)
         ON CONFLICT (blob) DO NOTHING`,
        [chunk.map((f) => f.blob), chunk.map((f) => JSON.stringify(f.sections))],
      );
    }
    return { sections, parsed: fresh.length };
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

function columns<T extends Record<string, unknown>>(rows: T[], keys: Array<keyof T>): unknown[][] {
  return keys.map((k) => rows.map((r) => r[k]));
}

async function forEachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
