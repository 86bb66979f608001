import { RevisionCreated, walkPages } from '@quire/domain';
import { ContentStore } from '@quire/content/store';
import { textArray } from '@quire/platform/db/binary-array';
import { Projection } from '@quire/projections/projection';
import { SPACE_PAGE_FUNCTION } from './space-page.function';

const decoder = new TextDecoder();

/**
 * Revisions, their page rows (for lookups by id and path) and the markdown of every page blob,
 * so reads never touch git. Documents are parsed from that markdown when a read asks for one
 * (once per blob while it stays in memory, see ContentQueries): parsing every page of a large
 * import here doubled the time for it to go live and stored each page a second time, three to
 * five times larger.
 */
export function contentProjection(store: ContentStore): Projection {
  return {
    name: 'content',
    // 3: rm_page_contents keeps markdown only.
    version: 3,
    tables: ['rm_revisions', 'rm_revision_pages', 'rm_page_contents'],
    handles: ['RevisionCreated'],
    schema: (t) => `
      CREATE TABLE ${t('rm_revisions')} (
        space_id text NOT NULL, id text NOT NULL, change_request_id text, parents jsonb NOT NULL, kind text NOT NULL,
        git jsonb, merged_from text, created_by text, created_at timestamptz NOT NULL,
        pages jsonb NOT NULL, files jsonb NOT NULL,
        PRIMARY KEY (space_id, id));
      CREATE TABLE ${t('rm_revision_pages')} (
        space_id text NOT NULL, revision_id text NOT NULL, page_id text NOT NULL, parent_id text, position int NOT NULL,
        kind text NOT NULL, title text NOT NULL, slug text NOT NULL, path text NOT NULL, file text, blob text,
        node jsonb NOT NULL,
        PRIMARY KEY (space_id, revision_id, page_id));
      CREATE INDEX rm_revision_pages_path ON ${t('rm_revision_pages')} (space_id, revision_id, path);
      CREATE TABLE ${t('rm_page_contents')} (
        blob text PRIMARY KEY, markdown text NOT NULL);
      ${SPACE_PAGE_FUNCTION}
    `,
    async apply(event, tx, t) {
      const d = (event as unknown as RevisionCreated).data;
      const inserted = await tx.query(
        `INSERT INTO ${t('rm_revisions')} (space_id, id, change_request_id, parents, kind, git, merged_from, created_by, created_at, pages, files)
         VALUES ($1,$2,$3,$4,$5,$6,$7,$8,$9,$10,$11) ON CONFLICT (space_id, id) DO NOTHING`,
        [
          d.spaceId,
          d.revision,
          d.changeRequestId ?? null,
          JSON.stringify(d.parents),
          d.kind,
          d.git ? JSON.stringify(d.git) : null,
          d.mergedFrom ?? null,
          d.createdBy ?? null,
          d.createdAt,
          JSON.stringify(d.pages),
          JSON.stringify(d.files),
        ],
      );
      if (inserted.rowCount === 0) return; // the same revision recorded again (e.g. fast-forward)
      const rows = [...walkPages(d.pages)].map(({ page, parent, index }) => ({
        page_id: page.id,
        parent_id: parent?.id ?? null,
        position: index,
        kind: page.kind,
        title: page.title,
        slug: page.slug,
        path: page.path,
        file: page.file ?? null,
        blob: page.blob ?? null,
        node: page,
      }));
      for (let i = 0; i < rows.length; i += 500) {
        await tx.query(
          `INSERT INTO ${t('rm_revision_pages')} (space_id, revision_id, page_id, parent_id, position, kind, title, slug, path, file, blob, node)
           SELECT $1, $2, x.page_id, x.parent_id, x.position, x.kind, x.title, x.slug, x.path, x.file, x.blob, x.node
             FROM jsonb_to_recordset($3::jsonb) AS x(page_id text, parent_id text, position int, kind text, title text, slug text, path text, file text, blob text, node jsonb)
           ON CONFLICT DO NOTHING`,
          [d.spaceId, d.revision, JSON.stringify(rows.slice(i, i + 500))],
        );
      }
      const blobs = [...new Set(rows.map((r) => r.blob).filter((b): b is string => !!b))];
      if (blobs.length === 0) return;
      const known = await tx.query<{ blob: string }>(`SELECT blob FROM ${t('rm_page_contents')} WHERE blob = ANY($1::text[])`, [blobs]);
      const have = new Set(known.rows.map((r) => r.blob));
      const missing = blobs.filter((b) => !have.has(b));
      for (let i = 0; i < missing.length; i += 200) {
        const parsed = await Promise.all(
          missing.slice(i, i + 200).map(async (blob) => ({ blob, markdown: decoder.decode(await store.readBlob(d.spaceId, blob)) })),
        );
        await tx.query(
          `INSERT INTO ${t('rm_page_contents')} (blob, markdown)
           SELECT x.blob, x.markdown FROM unnest($1::text[], $2::text[]) AS x(blob, markdown)
           ON CONFLICT (blob) DO NOTHING`,
          // Binary text[] (see textArray): markdown is long, and as an array literal it was escaped here and parsed back there.
          [textArray(parsed.map((p) => p.blob)), textArray(parsed.map((p) => p.markdown))],
        );
      }
    },
  };
}
