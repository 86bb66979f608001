import { ContentStore } from '../store';

/** The files of a new space: one README page (GitBook: "Introduction" unless a title is given). */
export function initialSpaceFiles(opts: { empty?: boolean; pageTitle?: string }): Record<string, Uint8Array> {
  const encode = (s: string) => new TextEncoder().encode(s);
  if (opts.empty) return { 'SUMMARY.md': encode('# Table of contents\n') };
  const title = opts.pageTitle?.trim() || 'Introduction';
  return {
    'README.md': encode(`# ${title}\n`),
    'SUMMARY.md': encode(`# Table of contents\n\n* [${title.replace(/([[\]\\])/g, '\\$1')}](README.md)\n`),
  };
}

export async function writeInitialRevision(store: ContentStore, spaceId: string, opts: { empty?: boolean; pageTitle?: string; now: Date }): Promise<string> {
  return store.writeRevision({
    spaceId,
    parents: [],
    files: initialSpaceFiles(opts),
    message: 'Initial revision',
    author: { name: 'Quire', email: 'quire@localhost' },
    timestamp: opts.now,
  });
}

/** Copies a revision's files from one space's repository into a new first revision of another. */
export async function copyRevision(store: ContentStore, opts: { fromSpaceId: string; revision: string; toSpaceId: string; now: Date }): Promise<string> {
  const entries = await store.readRevisionFiles(opts.fromSpaceId, opts.revision);
  const files: Record<string, Uint8Array> = {};
  for (const e of entries) files[e.path] = await store.readBlob(opts.fromSpaceId, e.oid);
  return store.writeRevision({
    spaceId: opts.toSpaceId,
    parents: [],
    files,
    message: `Copy of ${opts.fromSpaceId}@${opts.revision.slice(0, 12)}`,
    author: { name: 'Quire', email: 'quire@localhost' },
    timestamp: opts.now,
  });
}
