import { mkdtempSync, rmSync } from 'fs';
import { tmpdir } from 'os';
import { join } from 'path';
import type { Db } from '@quire/platform/db/db';
import { PgDb } from '@quire/platform/db/pg-db';
import { PgliteDb } from '@quire/platform/db/pglite-db';
import { SqlEventStore } from '@quire/event-store/sql/sql-event-store';
import type { Position } from '@quire/event-store/position';
import { Projector } from '@quire/projections/projector';
import type { Projection } from '@quire/projections/projection';
import { ContentStore } from '@quire/content/store';
import type { RevisionPageNode } from '@quire/domain';
import { identityProjection } from '@quire/read-models/identity/identity.projection';
import { spacesProjection } from '@quire/read-models/spaces/spaces.projection';
import { permissionsProjection } from '@quire/read-models/permissions/permissions.projection';
import { createTestDatabase, TestDatabase } from '@quire/test-support/databases';
import type { IndexStats } from '../indexing/space-indexer';
import { searchProjection } from '../search.projection';
import { SearchQueries } from '../search.queries';
import { appendLiveRevision, appendSpaceCreated, writeRevision } from './search-fixtures';

export type DbKind = 'postgres' | 'pglite';

export interface SearchHarness {
  db: Db;
  store: SqlEventStore;
  content: ContentStore;
  projector: Projector;
  projection: Projection;
  queries: SearchQueries;
  /** Index statistics by space, in order. */
  indexed: Array<{ spaceId: string; stats: IndexStats }>;
  createSpace(spaceId: string, opts?: { organizationId?: string; language?: string; title?: string }): Promise<void>;
  /** Writes files as the space's next revision and makes it live (or records it only). */
  publish(
    spaceId: string,
    files: Record<string, string | Uint8Array>,
    opts?: { changeRequestId?: string; makeLive?: boolean },
  ): Promise<{ revision: string; pages: RevisionPageNode[] }>;
  append(stream: string, events: Array<{ type: string; data: unknown }>): Promise<void>;
  waitFor(position: Position): Promise<void>;
  close(): Promise<void>;
}

const encoder = new TextEncoder();
const ALL_TYPES = ['SpaceCreated', 'SpaceUpdated', 'SpaceDeleted', 'SpaceRestored', 'RevisionCreated', 'SpaceRevisionChanged', 'OrganizationCreated', 'OrganizationMemberRoleSet'];

/** A projector running the search projection (and what org search reads) on a fresh database. */
export async function startSearchHarness(kind: DbKind, opts: { withAccess?: boolean } = {}): Promise<SearchHarness> {
  const dataDir = mkdtempSync(join(tmpdir(), 'quire-search-test-'));
  let database: TestDatabase | undefined;
  let db: Db;
  if (kind === 'postgres') {
    database = await createTestDatabase('quire_search');
    db = new PgDb(database.url);
  } else db = await PgliteDb.open();
  const content = new ContentStore({ dataDir });
  const store = await SqlEventStore.create(db);
  const indexed: SearchHarness['indexed'] = [];
  const projection = searchProjection(content, { onIndexed: (spaceId, stats) => indexed.push({ spaceId, stats }) });
  const projector = new Projector(db, store, [...(opts.withAccess ? [identityProjection, spacesProjection, permissionsProjection] : []), projection]);
  await projector.prepare();
  await projector.startObserving();
  await projector.startRunning();
  const heads = new Map<string, { revision: string; pages: RevisionPageNode[] }>();
  const waitFor = (position: Position) => projector.waitFor(position, ALL_TYPES, 60_000);

  const harness: SearchHarness = {
    db,
    store,
    content,
    projector,
    projection,
    queries: new SearchQueries(db),
    indexed,
    async createSpace(spaceId, o = {}) {
      await waitFor(await appendSpaceCreated(store, { spaceId, organizationId: o.organizationId ?? 'org1', language: o.language, title: o.title }));
    },
    async publish(spaceId, files, o = {}) {
      const bytes = Object.fromEntries(Object.entries(files).map(([k, v]) => [k, typeof v === 'string' ? encoder.encode(v) : v]));
      const previous = heads.get(spaceId);
      const rev = await writeRevision(content, spaceId, bytes, previous);
      const position = await appendLiveRevision(store, spaceId, rev, { parents: previous ? [previous.revision] : [], changeRequestId: o.changeRequestId, makeLive: o.makeLive });
      await waitFor(position);
      if (o.makeLive !== false && !o.changeRequestId) heads.set(spaceId, rev);
      return rev;
    },
    async append(stream, events) {
      await waitFor((await store.append(stream, events, 'any')).position);
    },
    waitFor,
    async close() {
      await projector.stop();
      await db.close();
      await database?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return harness;
}
