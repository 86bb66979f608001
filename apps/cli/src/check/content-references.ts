import { RevisionCreated, walkPages } from '@quire/domain';
import { EventStore, RecordedEvent } from '@quire/event-store/event-store.port';
import { Position, START } from '@quire/event-store/position';
import { ContentStore } from '@quire/content/store';
import { ContentStoreError } from '@quire/content/store/store.errors';

/** Fields of events with a `spaceId` that name a commit of that space's repository. */
const COMMIT_FIELDS = ['revision', 'initialRevision', 'revisionInitial', 'revisionMerged', 'revisionMergedAncestor', 'spaceRevision'] as const;

export interface MissingContent {
  spaceId: string;
  kind: 'commit' | 'blob';
  oid: string;
  /** The first event that names it: `<type> <event id>`, and the path for a blob. */
  namedBy: string;
}

export interface ContentReferenceReport {
  events: number;
  commits: number;
  blobs: number;
  missing: MissingContent[];
}

/**
 * Every commit (revision) and blob (page or file) that an event names must be in its space's
 * repository: reads each once, in event order.
 */
export async function checkContentReferences(store: EventStore, content: ContentStore, batchSize = 2000): Promise<ContentReferenceReport> {
  const seen = new Set<string>();
  const missing: MissingContent[] = [];
  let events = 0;
  let commits = 0;
  let blobs = 0;
  const verify = async (spaceId: string, kind: 'commit' | 'blob', oid: string, namedBy: string) => {
    const key = `${spaceId}:${oid}`;
    if (seen.has(key)) return;
    seen.add(key);
    if (kind === 'commit') commits++;
    else blobs++;
    try {
      if (kind === 'commit') await content.readRevision(spaceId, oid);
      else await content.readBlob(spaceId, oid);
    } catch (err) {
      if (!(err instanceof ContentStoreError)) throw err;
      missing.push({ spaceId, kind, oid, namedBy });
    }
  };

  let position: Position = START;
  for (;;) {
    const batch = await store.readAll(position, batchSize);
    for (const event of batch) {
      events++;
      for (const ref of contentReferences(event)) await verify(ref.spaceId, ref.kind, ref.oid, ref.namedBy);
    }
    if (batch.length) position = batch[batch.length - 1].position;
    if (batch.length < batchSize) break;
  }
  return { events, commits, blobs, missing };
}

/** What one event names in the content store. */
export function* contentReferences(event: Pick<RecordedEvent, 'type' | 'id' | 'data'>): Generator<Omit<MissingContent, 'namedBy'> & { namedBy: string }> {
  const data = event.data as Record<string, unknown> | null;
  const spaceId = data?.spaceId;
  if (typeof spaceId !== 'string') return;
  const namedBy = `${event.type} ${event.id}`;
  for (const field of COMMIT_FIELDS) {
    const oid = data![field];
    if (typeof oid === 'string') yield { spaceId, kind: 'commit', oid, namedBy };
  }
  if (event.type !== 'RevisionCreated') return;
  const revision = data as RevisionCreated['data'];
  for (const parent of revision.parents ?? []) yield { spaceId, kind: 'commit', oid: parent, namedBy };
  for (const { page } of walkPages(revision.pages ?? [])) if (page.blob) yield { spaceId, kind: 'blob', oid: page.blob, namedBy: `${namedBy} (page ${page.file ?? page.path})` };
  for (const file of revision.files ?? []) yield { spaceId, kind: 'blob', oid: file.blob, namedBy: `${namedBy} (file ${file.file})` };
}
