import type { DraftPage } from './build-page-tree';
import type { ParsedSummary, SummaryEntry } from './parse-summary';
import { basenameOf, dirnameOf, isMarkdownPath, isReadmePath, resolveRepoPath } from './repo-path';

export interface SummaryPagesContext {
  files: ReadonlySet<string>;
  summaryPath: string;
  docsRoot: string;
  warnings: string[];
  /** See SourceTree.absent: why a linked path that is not a file is not there. */
  absent?: (path: string) => string | undefined;
}

/**
 * Resolves SUMMARY.md entries against the repository. An entry that cannot become a page
 * (missing file, a file listed a second time, a non-Markdown target) is skipped with a
 * warning and its children take its place, so one bad line costs one page, not a branch.
 */
export function summaryToDrafts(summary: ParsedSummary, ctx: SummaryPagesContext): DraftPage[] {
  const seen = new Set<string>();
  const summaryDir = dirnameOf(ctx.summaryPath);
  const rootDir = ctx.docsRoot.replace(/\/$/, '');

  // Links are relative to SUMMARY.md; when it sits below the docs root, links written
  // relative to the root (as the legacy format had them) are accepted too.
  const relativeBases = summaryDir === rootDir ? [summaryDir] : [summaryDir, rootDir];
  /** The repository paths a target may name, in the order they are tried. */
  const candidates = (target: string): string[] =>
    (target.startsWith('/') ? [rootDir] : relativeBases)
      .map((base) => resolveRepoPath(base, target.replace(/^\/+/, '')))
      .filter((path): path is string => path !== undefined);
  const locateIn = (target: string, has: (path: string) => string | undefined): string | undefined => {
    for (const path of candidates(target)) {
      const found = path ? has(path) : undefined;
      if (found) return found;
      const folderReadme = path ? `${path}/README.md` : 'README.md';
      const readme = target.endsWith('/') || !isMarkdownPath(path) ? has(folderReadme) : undefined;
      if (readme) return readme;
    }
    return undefined;
  };
  // Exact match first; then, as for README.md and SUMMARY.md themselves, a match that
  // ignores case and Unicode normalisation (NFC vs NFD names from macOS), with a warning.
  let loose: Map<string, string> | undefined;
  const looseKey = (path: string) => path.normalize('NFC').toLowerCase();
  const locate = (target: string, line: number): string | undefined => {
    const exact = locateIn(target, (p) => (ctx.files.has(p) ? p : undefined));
    if (exact) return exact;
    if (!loose) {
      loose = new Map();
      for (const file of ctx.files) if (!loose.has(looseKey(file))) loose.set(looseKey(file), file);
    }
    const found = locateIn(target, (p) => loose!.get(looseKey(p)));
    if (found) ctx.warnings.push(`${ctx.summaryPath} line ${line}: ${target} matched ${found} only when case and Unicode form are ignored`);
    return found;
  };

  const whyAbsent = (target: string): string | undefined => {
    const absent = ctx.absent;
    if (!absent) return undefined;
    for (const path of candidates(target)) {
      const why = path ? absent(path) : undefined;
      if (why) return why;
    }
    return undefined;
  };

  const convert = (entries: SummaryEntry[]): DraftPage[] =>
    entries.flatMap((entry): DraftPage[] => {
      const where = `${ctx.summaryPath} line ${entry.line}`;
      if (entry.external) {
        const link: DraftPage = {
          kind: 'link',
          title: entry.title || entry.target,
          linkTitle: entry.linkTitle,
          href: entry.target,
          children: [],
        };
        if (entry.children.length > 0) {
          ctx.warnings.push(`${where}: link page ${entry.target} cannot have children; they move up a level`);
        }
        return [link, ...convert(entry.children)];
      }
      if (entry.target === undefined) {
        if (!entry.title && entry.children.length === 0) return [];
        ctx.warnings.push(`${where}: "${entry.title}" has no link; imported as an empty page`);
        return [{ kind: 'sheet', title: entry.title, children: convert(entry.children) }];
      }
      const path = locate(entry.target, entry.line);
      if (path === undefined) {
        const why = whyAbsent(entry.target);
        ctx.warnings.push(
          why
            ? `${ctx.summaryPath} links to ${entry.target}, which ${why} (line ${entry.line}); skipped`
            : `${ctx.summaryPath} links to missing file ${entry.target} (line ${entry.line})`,
        );
        return convert(entry.children);
      }
      if (!isMarkdownPath(path)) {
        ctx.warnings.push(`${ctx.summaryPath} links to ${path}, which is not a Markdown page (line ${entry.line}); skipped`);
        return convert(entry.children);
      }
      if (seen.has(path)) {
        const line = entry.line;
        ctx.warnings.push(`${ctx.summaryPath} lists ${path} more than once (line ${line}); only the first entry is imported`);
        return convert(entry.children);
      }
      seen.add(path);
      return [
        {
          kind: 'sheet',
          title: entry.title,
          linkTitle: entry.linkTitle,
          sourcePath: path,
          slugFrom: slugSourceOf(path, rootDir),
          children: convert(entry.children),
        },
      ];
    });

  return summary.items.flatMap((item): DraftPage[] =>
    item.type === 'group' ? [{ kind: 'group', title: item.title, children: convert(item.items) }] : convert([item]),
  );
}

/** `foo/README.md` is named by its folder; a README at the docs root has no name of its own. */
export function slugSourceOf(path: string, rootDir: string): string | undefined {
  if (!isReadmePath(path)) return basenameOf(path);
  const dir = dirnameOf(path);
  return dir === rootDir ? undefined : basenameOf(dir);
}
