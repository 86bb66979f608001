import { referencedAssetPaths, type ImportedLayout, type ImportedPage, type SourceTree } from '@quire/content/gitsync';
import { frontMatterProblem, parseBlobMarkdown, referencedAssets, referencedIncludes } from '@quire/content/markdown';
import { imageSize } from 'image-size';
import { contentTypeOf } from './content-type';

export interface ImportedAsset {
  /** Relative to the docs root, like the keys of `files`. */
  path: string;
  width?: number;
  height?: number;
  contentType: string;
  size: number;
}

export interface CollectImportFilesOptions {
  tree: SourceTree;
  layout: ImportedLayout;
  onProgress?: (done: number, total: number) => void;
}

export interface CollectedImportFiles {
  /** Page markdown and referenced assets, by path relative to the docs root. */
  files: Record<string, Uint8Array>;
  assets: ImportedAsset[];
  warnings: string[];
}

/** Concurrent blob reads: enough to overlap inflating with file reads, few enough that a
 * large repository is never all in flight at once. */
const READ_CONCURRENCY = 8;

/**
 * Reads what a space needs from the repository: the markdown of every page in the layout
 * and every local file those pages reference (images, files, covers). Nothing else is
 * read, so a repository full of unrelated files costs only its tree listing. A reference to
 * a file that does not exist, or that lies outside the docs root (GitBook does not sync
 * it either), is a warning.
 */
export async function collectImportFiles(opts: CollectImportFilesOptions): Promise<CollectedImportFiles> {
  const { tree, layout } = opts;
  const files: Record<string, Uint8Array> = {};
  const warnings: string[] = [];
  const assetPaths = new Set<string>();
  const pagePaths = sourcePaths(layout.pages);
  const relative = (path: string) => (path.startsWith(layout.docsRoot) ? path.slice(layout.docsRoot.length) : undefined);
  const decoder = new TextDecoder('utf-8');
  let done = 0;
  const total = () => markdownPaths.length + assetPaths.size;

  // Warnings are kept per page and joined in layout order, whatever order reads finish in.
  // Reusable content (`{% include "../.gitbook/includes/x.md" %}`) is read like a page, once,
  // after the pages that include it, with the files it references.
  const markdownPaths = [...pagePaths];
  const queued = new Set(markdownPaths);
  const pageWarnings: string[][] = [];
  const readMarkdown = async (sourcePath: string, i: number) => {
    const warn = (message: string) => (pageWarnings[i] ??= []).push(message);
    const key = relative(sourcePath);
    const bytes = key === undefined ? undefined : await tree.read(sourcePath);
    if (key === undefined) warn(`${sourcePath} is outside the docs root ${layout.docsRoot}; not imported`);
    else if (!bytes) warn(`${sourcePath} could not be read; not imported`);
    else {
      files[key] = bytes;
      const markdown = decoder.decode(bytes);
      const problem = frontMatterProblem(markdown);
      if (problem) warn(`${sourcePath}: front matter is not valid YAML (${problem}); its description, icon and other settings are ignored`);
      // Parsed through the process's blob cache: a re-import parses only the pages that changed.
      const oid = tree.oidOf?.(sourcePath);
      const urls = mayReferenceAssets(markdown) ? referencedAssets(markdown, oid ? parseBlobMarkdown(oid, markdown) : undefined) : [];
      const refs = referencedAssetPaths(sourcePath, urls, tree, { docsRoot: layout.docsRoot });
      for (const found of refs.found) {
        if (relative(found.path) === undefined) warn(`${sourcePath}: ${found.url} is outside the docs root; not imported`);
        else assetPaths.add(found.path);
      }
      for (const url of refs.missing) warn(`${sourcePath}: ${url} does not exist in the repository`);
      for (const include of referencedIncludes(markdown)) {
        const found = referencedAssetPaths(sourcePath, [include], tree, { docsRoot: layout.docsRoot }).found[0]?.path;
        if (found === undefined) warn(`${sourcePath}: include ${include} does not exist in the repository`);
        else if (relative(found) === undefined) warn(`${sourcePath}: include ${include} is outside the docs root; not imported`);
        else if (!queued.has(found)) {
          queued.add(found);
          markdownPaths.push(found);
        }
      }
    }
    opts.onProgress?.(++done, total());
  };
  await forEachLimited(markdownPaths, READ_CONCURRENCY, readMarkdown);
  warnings.push(...pageWarnings.flatMap((list) => list ?? []));

  const assets: ImportedAsset[] = [];
  const pageSet = new Set(markdownPaths);
  const toRead = [...assetPaths].filter((path) => !pageSet.has(path)).sort();
  const assetWarnings = new Map<string, string>();
  await forEachLimited(toRead, READ_CONCURRENCY, async (path) => {
    const bytes = await tree.read(path);
    const key = relative(path) as string;
    if (!bytes) assetWarnings.set(path, `${path} could not be read; not imported`);
    else if (isLfsPointer(bytes)) assetWarnings.set(path, `${path} is stored in Git LFS; not imported`);
    else {
      files[key] = bytes;
      assets.push(describeAsset(key, bytes));
    }
    opts.onProgress?.(++done, total());
  });
  for (const path of toRead) if (assetWarnings.has(path)) warnings.push(assetWarnings.get(path)!);
  assets.sort((x, y) => (x.path < y.path ? -1 : 1));
  return { files, assets, warnings };
}

const LFS_POINTER = new TextEncoder().encode('version https://git-lfs.github.com/spec/');

/** A Git LFS pointer (a small text file naming the real content) in place of the file. */
function isLfsPointer(bytes: Uint8Array): boolean {
  if (bytes.byteLength > 1024 || bytes.byteLength < LFS_POINTER.byteLength) return false;
  return LFS_POINTER.every((byte, i) => bytes[i] === byte);
}

/**
 * referencedAssets parses the whole page; most pages of a large space reference no file,
 * and one look for the syntaxes that can (Markdown and HTML images, `{% file %}`, a cover,
 * any mention of the assets folder) spares their parse. A link to an absolute URL
 * (`[site](https://example.com)`, on most pages) is not a file of the repository. The read
 * models parse every page again when they build documents and index them, so this keeps the
 * import from doing it twice for nothing.
 */
const ASSET_SYNTAX = /!\[|<img|<source|srcset|\{%\s*file|^\s*cover\s*:|\.gitbook\/assets|\{%\s*include|\]:?\s*\(?<?(?![a-z][a-z0-9+.-]*:|\/\/|[(<])[^\s)>]*\.(?!(?:md|markdown|html?)\b)[a-z0-9]{1,8}[)>#?\s]|\]\(\s*<(?![a-z][a-z0-9+.-]*:|\/\/)[^>\n]*\.(?!(?:md|markdown|html?)>)[a-z0-9]{1,8}>|href=/im;

export function mayReferenceAssets(markdown: string): boolean {
  return ASSET_SYNTAX.test(markdown);
}

function describeAsset(path: string, bytes: Uint8Array): ImportedAsset {
  const contentType = contentTypeOf(path);
  const asset: ImportedAsset = { path, contentType, size: bytes.byteLength };
  if (contentType.startsWith('image/')) {
    try {
      const { width, height } = imageSize(bytes);
      if (width && height) Object.assign(asset, { width, height });
    } catch {
      // A corrupt or unusual image still imports, only without dimensions.
    }
  }
  return asset;
}

function sourcePaths(pages: ImportedPage[], into: string[] = []): string[] {
  for (const page of pages) {
    if (page.sourcePath) into.push(page.sourcePath);
    sourcePaths(page.children, into);
  }
  return into;
}

async function forEachLimited<T>(items: T[], limit: number, work: (item: T, index: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      await work(items[index], index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}
