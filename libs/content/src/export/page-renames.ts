import { walkPages, type RevisionPageNode } from '@quire/domain';

/**
 * Pages whose file moved between two revisions of a space, by page id: revision path ->
 * path in `base`. Quire's editor lays a revision out afresh (a page with children becomes
 * `<slug>/README.md`), so a page imported as `guides/linux.md` may sit elsewhere after an
 * edit; the export puts it back where the repository has it.
 */
export function pageRenames(base: readonly RevisionPageNode[], current: readonly RevisionPageNode[]): Map<string, string> {
  const before = new Map<string, string>();
  for (const { page } of walkPages(base)) if (page.file) before.set(page.id, page.file);
  const renames = new Map<string, string>();
  const taken = new Set<string>();
  for (const { page } of walkPages(current)) if (page.file) taken.add(page.file);
  for (const { page } of walkPages(current)) {
    const was = page.file && before.get(page.id);
    // A path another page of the revision now uses stays that page's.
    if (was && was !== page.file && !taken.has(was)) renames.set(page.file!, was);
  }
  return renames;
}

/** SUMMARY.md with its link targets moved along with their pages. */
export function renameSummaryLinks(summary: string, renames: ReadonlyMap<string, string>): string {
  return summary.replace(/\]\((?:<([^>\n]+)>|([^)\s]+))/g, (all, bracketed: string | undefined, plain: string | undefined) => {
    const to = renames.get(bracketed ?? plain ?? '');
    if (!to) return all;
    return bracketed !== undefined || /[\s()]/.test(to) ? `](<${to}>` : `](${to}`;
  });
}
