import { imageSize } from 'image-size';
import { assignPageIds, PageWithoutId, RevisionFileNode, RevisionPageLayout, RevisionPageNode } from '@quire/domain';
import { GitSyncLayoutError, readGitSyncLayout, SourceTree } from '../gitsync';
import { resolveRepoPath } from '../gitsync/repo-path';
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

  const previousFiles = new Map((opts.previous?.files ?? []).map((f) => [f.file, f.id]));
  // Every file of the space that is not a page or layout file: uploads in .gitbook/assets/,
  // and the legacy `assets/` and `images/` folders (or any other) imported repositories use.
  const assetsDir = `${layout.docsRoot}.gitbook/assets/`;
  const files: RevisionFileNode[] = [];
  for (const entry of entries) {
    if (!isSpaceFile(entry.path, layout.docsRoot)) continue;
    const bytes = (await read(entry.path))!;
    const file: RevisionFileNode = {
      id: previousFiles.get(entry.path) ?? opts.newId(),
      name: entry.path.startsWith(assetsDir) ? entry.path.slice(assetsDir.length) : entry.path.slice(entry.path.lastIndexOf('/') + 1),
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
  const fileIdByPath = new Map(files.map((f) => [f.file, f.id]));

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
      Object.assign(node, frontMatterPageOptions(data as Record<string, unknown>, p.sourcePath, fileIdByPath));
    }
    node.children = await Promise.all(p.children.map(toPage));
    return node;
  };
  const pages = assignPageIds(await Promise.all(layout.pages.map(toPage)), opts.previous?.pages ?? [], opts.newId);

  return { pages, files, warnings: layout.warnings };
}

/**
 * The page options GitBook writes into front matter beyond description/icon/emoji/hidden:
 * `layout` (each option as `{ visible: bool }` or a bare value, `width`, the cover's
 * `size`/`mask`), `cover` with `coverY`, and `if` (an adaptive-content condition).
 */
export function frontMatterPageOptions(
  data: Record<string, unknown>,
  pageFile: string,
  fileIdByPath: ReadonlyMap<string, string>,
): Pick<RevisionPageNode, 'layout' | 'cover' | 'condition'> {
  const out: Pick<RevisionPageNode, 'layout' | 'cover' | 'condition'> = {};
  if (data.layout && typeof data.layout === 'object' && !Array.isArray(data.layout)) {
    const raw = data.layout as Record<string, unknown>;
    const layout: RevisionPageLayout = {};
    const flag = (value: unknown): boolean | undefined => {
      if (typeof value === 'boolean') return value;
      if (value && typeof value === 'object' && typeof (value as { visible?: unknown }).visible === 'boolean') return (value as { visible: boolean }).visible;
      return undefined;
    };
    for (const key of ['cover', 'title', 'description', 'tableOfContents', 'outline', 'pagination', 'metadata', 'tags', 'actions', 'anchors'] as const) {
      const value = flag(raw[key]);
      if (value !== undefined) layout[key] = value;
    }
    if (raw.width === 'default' || raw.width === 'wide') layout.width = raw.width;
    const cover = raw.cover && typeof raw.cover === 'object' ? (raw.cover as Record<string, unknown>) : {};
    const size = cover.size ?? raw.coverSize;
    if (size === 'hero' || size === 'full' || size === 'background') layout.coverSize = size;
    const mask = cover.mask ?? raw.coverMask;
    if (mask === 'none' || mask === 'radial') layout.coverMask = mask;
    if (Object.keys(layout).length > 0) out.layout = layout;
  }
  if (typeof data.cover === 'string' && data.cover.trim()) {
    const url = data.cover.trim();
    const yPos = typeof data.coverY === 'number' && Number.isFinite(data.coverY) ? data.coverY : 0;
    if (/^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|\/\/)/.test(url)) out.cover = { url, yPos };
    else {
      const dir = pageFile.includes('/') ? pageFile.slice(0, pageFile.lastIndexOf('/')) : '';
      const resolved = resolveRepoPath(dir, decodeUrlPath(url.replace(/[?#].*$/, '')));
      const id = resolved === undefined ? undefined : fileIdByPath.get(resolved);
      if (id) out.cover = { file: id, yPos };
    }
  }
  if (typeof data.if === 'string' && data.if.trim()) out.condition = data.if.trim();
  return out;
}

function decodeUrlPath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

/** Markdown (pages, includes, SUMMARY.md) and `.gitbook.yaml` are the space's structure,
 * not its files; neither is anything outside the docs root. */
function isSpaceFile(path: string, docsRoot: string): boolean {
  if (!path.startsWith(docsRoot)) return false;
  const rel = path.slice(docsRoot.length);
  return !/\.md$/i.test(rel) && rel !== '.gitbook.yaml' && !path.endsWith('/.gitbook.yaml');
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
