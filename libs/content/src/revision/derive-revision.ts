import { imageSize } from 'image-size';
import { assignPageIds, PageWithoutId, RevisionFileNode, RevisionPageNode } from '@quire/domain';
import { GitSyncLayoutError, readGitSyncLayout, SourceTree } from '../gitsync';
import type { ImportedLayout } from '../gitsync';
import type { ImportedPage } from '../gitsync';
import { parseFrontMatter } from '../markdown';
import { contentTypeOf } from '../import/content-type';
import { ContentStore } from '../store';

export interface DerivedRevision {
  pages: RevisionPageNode[];
  files: RevisionFileNode[];
  warnings: string[];
}

const decoder = new TextDecoder();

/**
 * Reads a revision's page tree and files from its commit (GitBook's git-sync layout), giving
 * pages and files the ids they had in `previous` when their path (or file) is unchanged. The
 * one way every revision — imported, merged, updated — gets its tree, so they always agree
 * with the bytes.
 */
export async function deriveRevision(opts: {
  store: ContentStore;
  spaceId: string;
  revision: string;
  previous?: { pages: RevisionPageNode[]; files: RevisionFileNode[] };
  newId: () => string;
}): Promise<DerivedRevision> {
  const entries = await opts.store.readRevisionFiles(opts.spaceId, opts.revision);
  const oidByPath = new Map(entries.map((e) => [e.path, e.oid]));
  const blobs = new Map<string, Uint8Array>();
  const read = async (path: string) => {
    const oid = oidByPath.get(path);
    if (!oid) return undefined;
    let bytes = blobs.get(oid);
    if (!bytes) {
      bytes = await opts.store.readBlob(opts.spaceId, oid);
      blobs.set(oid, bytes);
    }
    return bytes;
  };
  const tree: SourceTree = { files: () => [...oidByPath.keys()], read };
  const layout = await readLayoutOrEmpty(tree);

  const toPage = async (p: ImportedPage): Promise<PageWithoutId> => {
    const node: PageWithoutId = { kind: p.kind, title: p.title, slug: p.slug, path: p.path, children: [] };
    if (p.linkTitle) node.linkTitle = p.linkTitle;
    if (p.href) node.href = p.href;
    if (p.sourcePath && oidByPath.has(p.sourcePath)) {
      node.file = p.sourcePath;
      node.blob = oidByPath.get(p.sourcePath);
      const { data } = parseFrontMatter(decoder.decode((await read(p.sourcePath))!));
      if (typeof data.description === 'string') node.description = data.description;
      if (typeof data.icon === 'string') node.icon = data.icon;
      if (typeof data.emoji === 'string') node.emoji = data.emoji;
      if (data.hidden === true) node.hidden = true;
    }
    node.children = await Promise.all(p.children.map(toPage));
    return node;
  };
  const pages = assignPageIds(await Promise.all(layout.pages.map(toPage)), opts.previous?.pages ?? [], opts.newId);

  const previousFiles = new Map((opts.previous?.files ?? []).map((f) => [f.file, f.id]));
  const assetsDir = `${layout.docsRoot}.gitbook/assets/`;
  const files: RevisionFileNode[] = [];
  for (const entry of entries) {
    if (!entry.path.startsWith(assetsDir)) continue;
    const bytes = (await read(entry.path))!;
    const file: RevisionFileNode = {
      id: previousFiles.get(entry.path) ?? opts.newId(),
      name: entry.path.slice(assetsDir.length),
      file: entry.path,
      blob: entry.oid,
      contentType: contentTypeOf(entry.path),
      size: bytes.byteLength,
    };
    if (file.contentType.startsWith('image/')) {
      try {
        const { width, height } = imageSize(bytes);
        if (width && height) Object.assign(file, { width, height });
      } catch {
        /* not a readable image: no dimensions */
      }
    }
    files.push(file);
  }
  return { pages, files, warnings: layout.warnings };
}

/** A revision without a README has no pages (an empty space, or every page deleted). */
async function readLayoutOrEmpty(tree: SourceTree): Promise<ImportedLayout> {
  try {
    return await readGitSyncLayout(tree);
  } catch (err) {
    if (err instanceof GitSyncLayoutError && err.code === 'no_readme') {
      return { docsRoot: '', readmePath: 'README.md', pages: [], redirects: {}, warnings: [] };
    }
    throw err;
  }
}
