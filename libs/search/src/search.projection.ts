import type { ApplyContext, Projection, TableNamer } from '@quire/projections/projection';
import type { Queryable } from '@quire/platform/db/db';
import type { ContentStore } from '@quire/content/store';
import type { RevisionCreated, SpaceCreated, SpaceRevisionChanged, SpaceUpdated } from '@quire/domain';
import { IndexStats, SpaceIndexer } from './indexing/space-indexer';
import { SearchablePage, searchablePages } from './indexing/searchable-pages';
import { statisticsOutgrown } from '@quire/platform/db/table-statistics';
import { Stemmer } from './text/stemmer';
import { textSearchConfig } from './text/text-search-config';

const ANALYZE_AFTER_SECTIONS = 500;

/**
 * The statistics the search queries' plans use: row counts, and those of the columns they filter
 * or join on. The sections' tsvectors are filtered with `@@` and the postings' lexemes by value
 * and range, so both are analyzed whole; pages and texts are only ever joined or looked up by
 * their keys (`key`, and space, page and section rank), so the rest of their columns (titles,
 * bodies, ancestors, the titles' tsvectors) is not sampled: on a 1,000-page import's tables,
 * those columns were half of the statement, which runs inside the projection's transaction.
 */
export function analyzeStatement(t: TableNamer): string {
  return `ANALYZE ${t('rm_search_sections')}, ${t('rm_search_postings')}, ${t('rm_search_pages')} (space_id, page_id, key), ${t('rm_search_texts')} (space_id, page_id, ord)`;
}

export const SEARCH_TABLES = [
  'rm_search_spaces',
  'rm_search_revisions',
  'rm_search_blobs',
  'rm_search_pages',
  'rm_search_sections',
  'rm_search_texts',
  'rm_search_postings',
  'rm_search_terms',
] as const;

/**
 * The search index: sections of the live revision of every space, with weighted tsvectors
 * (page title A, section heading B, description and enclosing titles C, text D).
 * - `rm_search_sections` holds only the tsvectors, uncompressed and inline up to 8 KB
 *   (toast_tuple_target, STORAGE MAIN): matching and ranking read thousands of them per query,
 *   and decompressing them cost 4x the ranking itself; texts for snippets live apart in
 *   `rm_search_texts` and are read for the shown results only. No GIN index on the tsvectors
 *   (nor on the pages' title_tsv): queries read the sections of their candidate pages by primary
 *   key (see the postings below), and keeping the index up to date doubled the cost of writing
 *   a large import's sections (version 5);
 * - `rm_search_revisions` remembers the searchable pages of every revision of the space stream
 *   (imports, merges, standalone imports that may go live later), so SpaceRevisionChanged can
 *   swap the indexed set whichever order the two events arrive in. Keyed by space as well: two
 *   spaces can hold the very same commit (same files, same second) with different page ids;
 * - `rm_search_blobs` caches parsed sections by git blob id: content is parsed once ever. They
 *   are kept as JSON text, read back whole and never queried inside: as jsonb, PostgreSQL's
 *   parse of them cost four times the rest of the insert (version 5);
 * - `rm_search_postings` is the inverted index by page: per lexeme and space, the pages holding it
 *   with their impacts and, apart, their positions (see postings/postings.ts), keyed by the small
 *   integer keys of spaces and pages. Queries find their candidate pages there, best first, and
 *   rank only those exactly: reading every matching section (the GIN index's way) grows with the
 *   installation. A phrase is matched there too, by the positions (version 4);
 * - `rm_search_terms` is the vocabulary with trigrams, for typo tolerance without pg_trgm.
 * Reads page bytes through the content store, so a rebuild needs the data directory.
 */
export function searchProjection(contentStore: ContentStore, opts: { onIndexed?: (spaceId: string, stats: IndexStats) => void } = {}): Projection {
  const indexer = new SpaceIndexer(contentStore, new Stemmer());

  const syncSpace = async (tx: Queryable, t: TableNamer, ctx: ApplyContext | undefined, spaceId: string, force = false) => {
    const r = await tx.query<{ key: number; config: string; live_revision: string | null; indexed_revision: string | null; pages: SearchablePage[] | null }>(
      `SELECT s.key, s.config, s.live_revision, s.indexed_revision, r.pages
         FROM ${t('rm_search_spaces')} s LEFT JOIN ${t('rm_search_revisions')} r ON r.space_id = s.space_id AND r.revision = s.live_revision
        WHERE s.space_id = $1`,
      [spaceId],
    );
    const row = r.rows[0];
    if (!row?.live_revision || !row.pages) return; // its pages arrive with its RevisionCreated
    if (!force && row.indexed_revision === row.live_revision) return;
    const stats = await indexer.index(tx, t, { spaceId, spaceKey: row.key, config: row.config, pages: row.pages, force });
    // PGlite has no autovacuum, and PostgreSQL's comes late: after a large change the planner
    // would otherwise pick plans for empty tables. Only then: in a large index, ANALYZE samples
    // tens of thousands of tsvectors inside the projection's transaction (seconds, with every
    // import waiting), and statistics of 100,000 pages still describe 101,000.
    // After the commit where the runner allows it: inside the transaction, the statement (70-140 ms
    // after a 1,000-page import) was the last thing the import waited for before it was searchable,
    // with node idle; what it samples is committed by then, so the statistics are the same.
    if (stats.sections >= ANALYZE_AFTER_SECTIONS && (await statisticsOutgrown(tx, t('rm_search_sections'), stats.sections))) {
      if (ctx) ctx.afterCommit((db) => db.query(analyzeStatement(t)));
      else await tx.query(analyzeStatement(t));
    }
    opts.onIndexed?.(spaceId, stats);
    await tx.query(`UPDATE ${t('rm_search_spaces')} SET indexed_revision = $2 WHERE space_id = $1`, [spaceId, row.live_revision]);
  };

  return {
    name: 'search',
    version: 5,
    tables: SEARCH_TABLES,
    handles: ['SpaceCreated', 'SpaceUpdated', 'SpaceDeleted', 'SpaceRestored', 'RevisionCreated', 'SpaceRevisionChanged'],
    schema: (t) => `
      CREATE TABLE ${t('rm_search_spaces')} (
        space_id text PRIMARY KEY,
        key int GENERATED ALWAYS AS IDENTITY UNIQUE,
        organization_id text,
        language text,
        config text NOT NULL,
        live_revision text,
        indexed_revision text,
        deleted boolean NOT NULL DEFAULT false);
      CREATE TABLE ${t('rm_search_revisions')} (
        space_id text NOT NULL,
        revision text NOT NULL,
        pages jsonb NOT NULL,
        PRIMARY KEY (space_id, revision));
      CREATE TABLE ${t('rm_search_blobs')} (
        blob text PRIMARY KEY,
        sections text NOT NULL);
      CREATE TABLE ${t('rm_search_pages')} (
        space_id text NOT NULL,
        page_id text NOT NULL,
        blob text NOT NULL,
        title text NOT NULL,
        path text NOT NULL,
        description text NOT NULL,
        ancestors jsonb NOT NULL,
        title_tsv tsvector NOT NULL,
        title_words int NOT NULL,
        key int GENERATED ALWAYS AS IDENTITY UNIQUE,
        PRIMARY KEY (space_id, page_id));
      CREATE TABLE ${t('rm_search_sections')} (
        space_id text NOT NULL,
        page_id text NOT NULL,
        ord int NOT NULL,
        tsv tsvector NOT NULL,
        PRIMARY KEY (space_id, page_id, ord)) WITH (toast_tuple_target = 8160);
      ALTER TABLE ${t('rm_search_sections')} ALTER COLUMN tsv SET STORAGE MAIN;
      CREATE TABLE ${t('rm_search_texts')} (
        space_id text NOT NULL,
        page_id text NOT NULL,
        ord int NOT NULL,
        section_id text NOT NULL,
        title text NOT NULL,
        body text NOT NULL,
        PRIMARY KEY (space_id, page_id, ord));
      CREATE TABLE ${t('rm_search_postings')} (
        lexeme text COLLATE "C" NOT NULL,
        space_key int NOT NULL,
        entries bytea NOT NULL,
        positions bytea NOT NULL,
        pages int NOT NULL,
        PRIMARY KEY (lexeme, space_key) INCLUDE (pages));
      ALTER TABLE ${t('rm_search_postings')} ALTER COLUMN entries SET STORAGE EXTERNAL, ALTER COLUMN positions SET STORAGE EXTERNAL;
      CREATE TABLE ${t('rm_search_terms')} (
        term text PRIMARY KEY,
        len int NOT NULL,
        trigrams text[] NOT NULL);
      CREATE INDEX rm_search_terms_trigrams ON ${t('rm_search_terms')} USING gin (trigrams);
    `,
    async apply(event, tx, t, ctx) {
      switch (event.type) {
        case 'SpaceCreated': {
          const d = event.data as SpaceCreated['data'];
          await tx.query(
            `INSERT INTO ${t('rm_search_spaces')} (space_id, organization_id, language, config, live_revision) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (space_id) DO UPDATE SET organization_id = EXCLUDED.organization_id, language = EXCLUDED.language, config = EXCLUDED.config,
               live_revision = coalesce(${t('rm_search_spaces')}.live_revision, EXCLUDED.live_revision)`,
            [d.spaceId, d.organizationId, d.language ?? null, textSearchConfig(d.language), d.initialRevision],
          );
          await syncSpace(tx, t, ctx, d.spaceId);
          break;
        }
        case 'SpaceUpdated': {
          const d = event.data as SpaceUpdated['data'];
          if (!d.changes || !('language' in d.changes)) break;
          const config = textSearchConfig(d.changes.language);
          const r = await tx.query(
            `UPDATE ${t('rm_search_spaces')} SET language = $2, config = $3 WHERE space_id = $1 AND config IS DISTINCT FROM $3`,
            [d.spaceId, d.changes.language ?? null, config],
          );
          // Stems depend on the language: every section is rebuilt (from the blob cache).
          if (r.rowCount > 0) await syncSpace(tx, t, ctx, d.spaceId, true);
          else await tx.query(`UPDATE ${t('rm_search_spaces')} SET language = $2 WHERE space_id = $1`, [d.spaceId, d.changes.language ?? null]);
          break;
        }
        case 'SpaceDeleted':
        case 'SpaceRestored': {
          const d = event.data as { spaceId: string };
          await tx.query(`UPDATE ${t('rm_search_spaces')} SET deleted = $2 WHERE space_id = $1`, [d.spaceId, event.type === 'SpaceDeleted']);
          break;
        }
        case 'RevisionCreated': {
          const d = event.data as RevisionCreated['data'];
          // A change request's revisions are never live: merges (fast-forwards included) record
          // a new revision on the space stream. Keeping theirs would store a tree per edit.
          if (d.changeRequestId) break;
          await tx.query(
            `INSERT INTO ${t('rm_search_revisions')} (space_id, revision, pages) VALUES ($2, $1, $3::jsonb) ON CONFLICT (space_id, revision) DO NOTHING`,
            [d.revision, d.spaceId, JSON.stringify(searchablePages(d.pages ?? []))],
          );
          await syncSpace(tx, t, ctx, d.spaceId);
          break;
        }
        case 'SpaceRevisionChanged': {
          const d = event.data as SpaceRevisionChanged['data'];
          await tx.query(
            `INSERT INTO ${t('rm_search_spaces')} (space_id, config, live_revision) VALUES ($1, $2, $3)
             ON CONFLICT (space_id) DO UPDATE SET live_revision = EXCLUDED.live_revision`,
            [d.spaceId, textSearchConfig(undefined), d.revision],
          );
          await syncSpace(tx, t, ctx, d.spaceId);
          break;
        }
      }
    },
  };
}
