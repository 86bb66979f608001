import { buildPageTree, type DraftPage } from './build-page-tree';
import { folderTreeDrafts } from './folder-tree';
import { readGitSyncConfig } from './gitbook-config';
import { GitSyncLayoutError } from './gitsync.errors';
import type { ImportedLayout, ImportedPage } from './imported-layout';
import { parseSummary } from './parse-summary';
import { findFileIgnoringCase } from './repo-path';
import { fileSetOf, readText, type SourceTree } from './source-tree';
import { summaryToDrafts } from './summary-pages';

export interface ReadGitSyncLayoutOptions {
  /** Monorepo project directory holding `.gitbook.yaml`; the repository root by default. */
  projectDirectory?: string;
}

/**
 * Reads a repository in GitBook's git-sync layout into a page tree. Problems that cost a
 * page or a redirect (a SUMMARY link to a missing file, a duplicate entry, a redirect to
 * nowhere) become warnings; only a repository without its README, or with a broken
 * `.gitbook.yaml`, is refused with a GitSyncLayoutError.
 */
export async function readGitSyncLayout(tree: SourceTree, opts: ReadGitSyncLayoutOptions = {}): Promise<ImportedLayout> {
  const files = fileSetOf(tree);
  const config = await readGitSyncConfig(tree, files, opts.projectDirectory);
  const warnings = [...config.warnings];

  const readmePath = findFileIgnoringCase(files, config.readmePath);
  if (!readmePath) {
    const message = `${config.readmePath} does not exist; it is the space's first page`;
    throw new GitSyncLayoutError('no_readme', message, config.readmePath);
  }

  const summaryPath = findFileIgnoringCase(files, config.summaryPath);
  let drafts: DraftPage[];
  if (summaryPath) {
    const summary = parseSummary((await readText(tree, summaryPath)) ?? '', summaryPath);
    warnings.push(...summary.warnings);
    drafts = summaryToDrafts(summary, { files, summaryPath, docsRoot: config.docsRoot, warnings, absent: tree.absent?.bind(tree) });
  } else {
    if (config.summaryConfigured) {
      warnings.push(`${config.summaryPath} does not exist; the table of contents comes from the folders`);
    }
    drafts = folderTreeDrafts(files, config.docsRoot, readmePath);
  }

  const pages = await buildPageTree(drafts, { tree, readmePath, warnings });
  const redirects = resolveRedirects(config.redirects, pages, warnings, config.configPath);
  return {
    docsRoot: config.docsRoot,
    readmePath,
    ...(summaryPath ? { summaryPath } : {}),
    pages,
    redirects: redirects.paths,
    redirectFiles: redirects.files,
    warnings,
  };
}

/** Redirect targets are files; a redirect is kept when its file became a page. The others
 * are one warning, however many there are (real repositories carry a hundred stale ones). */
function resolveRedirects(
  redirects: Record<string, string>,
  pages: ImportedPage[],
  warnings: string[],
  configPath: string | undefined,
): { paths: Record<string, string>; files: Record<string, string> } {
  const pathByFile = new Map<string, string>();
  const walk = (list: ImportedPage[]) => {
    for (const page of list) {
      if (page.sourcePath) pathByFile.set(page.sourcePath, page.path);
      walk(page.children);
    }
  };
  walk(pages);
  const paths: Record<string, string> = {};
  const files: Record<string, string> = {};
  const dropped: string[] = [];
  for (const [from, file] of Object.entries(redirects)) {
    const path = pathByFile.get(file);
    if (path !== undefined) {
      paths[from] = path;
      files[from] = file;
    } else dropped.push(`${from} -> ${file}`);
  }
  if (dropped.length === 1) {
    const [from, file] = dropped[0].split(' -> ');
    warnings.push(`${configPath}: redirect ${from} points to ${file}, which is not an imported page; ignored`);
  } else if (dropped.length > 1) {
    const examples = dropped.slice(0, 3).join(', ') + (dropped.length > 3 ? ', ...' : '');
    warnings.push(`${configPath}: ${dropped.length} redirects point to files that are not imported pages (${examples}); ignored`);
  }
  return { paths, files };
}
