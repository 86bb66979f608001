import { referencedAssetPaths, type ImportedLayout, type ImportedPage, type SourceTree } from '@quire/content/gitsync';
import { referencedAssets } from '@quire/content/markdown';
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
  const total = () => pagePaths.length + assetPaths.size;

  // Warnings are kept per page and joined in layout order, whatever order reads finish in.
  const pageWarnings: string[][] = pagePaths.map(() => []);
  await forEachLimited(pagePaths, READ_CONCURRENCY, async (sourcePath, i) => {
    const warn = (message: string) => pageWarnings[i].push(message);
    const key = relative(sourcePath);
    const bytes = key === undefined ? undefined : await tree.read(sourcePath);
    if (key === undefined) warn(`${sourcePath} is outside the docs root ${layout.docsRoot}; not imported`);
    else if (!bytes) warn(`${sourcePath} could not be read; not imported`);
    else {
      files[key] = bytes;
      const markdown = decoder.decode(bytes);
      const urls = mayReferenceAssets(markdown) ? referencedAssets(markdown) : [];
      const refs = referencedAssetPaths(sourcePath, urls, tree, { docsRoot: layout.docsRoot });
      for (const found of refs.found) {
        if (relative(found.path) === undefined) warn(`${sourcePath}: ${found.url} is outside the docs root; not imported`);
        else assetPaths.add(found.path);
      }
      for (const url of refs.missing) warn(`${sourcePath}: ${url} does not exist in the repository`);
    }
    opts.onProgress?.(++done, total());
  });
  warnings.push(...pageWarnings.flat());

  const assets: ImportedAsset[] = [];
  const pageSet = new Set(pagePaths);
  const toRead = [...assetPaths].filter((path) => !pageSet.has(path)).sort();
  await forEachLimited(toRead, READ_CONCURRENCY, async (path) => {
    const bytes = await tree.read(path);
    const key = relative(path) as string;
    if (!bytes) warnings.push(`${path} could not be read; not imported`);
    else {
      files[key] = bytes;
      assets.push(describeAsset(key, bytes));
    }
    opts.onProgress?.(++done, total());
  });
  assets.sort((x, y) => (x.path < y.path ? -1 : 1));
  return { files, assets, warnings };
}

/**
 * referencedAssets parses the whole page; most pages of a large space reference no file,
 * and one look for the syntaxes that can (Markdown and HTML images, `{% file %}`, a cover,
 * any mention of the assets folder) spares their parse. The worker parses every page again
 * when it builds documents, so this keeps the import from doing it twice for nothing.
 */
const ASSET_SYNTAX = /!\[|<img|<source|\{%\s*file|^\s*cover\s*:|\.gitbook\/assets/im;

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
