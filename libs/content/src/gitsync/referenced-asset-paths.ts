import { unescapeMarkdown } from './markdown-inline';
import { dirnameOf, percentDecode, resolveRepoPath } from './repo-path';
import { fileSetOf, type SourceTree } from './source-tree';

export interface AssetReferences {
  /** URL as written in the page -> repository path of the file it names. */
  found: Array<{ url: string; path: string }>;
  /** URLs naming a repository file that does not exist. */
  missing: string[];
}

export interface ReferencedAssetPathsOptions {
  /** What a root-relative URL (`/images/x.png`) is relative to; the repository root by default. */
  docsRoot?: string;
}

/**
 * Resolves the local URLs a page uses (images, files, covers) to repository files.
 * GitBook writes them page-relative and percent-encoded
 * (`../.gitbook/assets/x%20%281%29.png`), people write them with raw spaces and `(1)`;
 * both are tried. External URLs, data: URIs and in-page anchors are neither found nor
 * missing.
 */
export function referencedAssetPaths(
  pageSourcePath: string,
  rawUrls: string[],
  tree: SourceTree,
  opts: ReferencedAssetPathsOptions = {},
): AssetReferences {
  const files = fileSetOf(tree);
  const pageDir = dirnameOf(pageSourcePath);
  const rootDir = (opts.docsRoot ?? '').replace(/\/+$/, '');
  const result: AssetReferences = { found: [], missing: [] };
  const seen = new Set<string>();

  for (const rawUrl of rawUrls) {
    if (seen.has(rawUrl)) continue;
    seen.add(rawUrl);
    let url = rawUrl.trim();
    if (url.startsWith('<') && url.endsWith('>')) url = url.slice(1, -1);
    if (!url || url.startsWith('#') || /^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|\/\/)/.test(url)) continue;
    const bare = unescapeMarkdown(url.replace(/[?#].*$/, ''));
    const base = bare.startsWith('/') ? rootDir : pageDir;
    const candidates = new Set([percentDecode(bare), bare, percentDecode(bare).normalize('NFC')]);
    let path: string | undefined;
    for (const candidate of candidates) {
      const resolved = resolveRepoPath(base, candidate.replace(/^\/+/, ''));
      if (resolved !== undefined && files.has(resolved)) {
        path = resolved;
        break;
      }
    }
    if (path === undefined) result.missing.push(rawUrl);
    else result.found.push({ url: rawUrl, path });
  }
  return result;
}
