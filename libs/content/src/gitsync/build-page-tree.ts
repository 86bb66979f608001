import type { ImportedPage, ImportedPageKind } from './imported-layout';
import { readMarkdownTitles, titleFromFileName } from './page-title';
import { basenameOf } from './repo-path';
import { claimUniqueSlug, slugFromFileName, slugify } from './slugify';
import { readText, type SourceTree } from './source-tree';
import { firstSheet } from './first-sheet';

/** A page before titles, slugs and paths are settled; SUMMARY.md and the folder
 * structure both produce these. */
export interface DraftPage {
  kind: ImportedPageKind;
  /** Absent or empty: the page file names itself (front matter `title`, then `# H1`). */
  title?: string;
  linkTitle?: string;
  href?: string;
  sourcePath?: string;
  /** File or folder name the slug comes from; the title when absent. */
  slugFrom?: string;
  children: DraftPage[];
}

export interface BuildPageTreeContext {
  tree: SourceTree;
  readmePath: string;
  warnings: string[];
}

/** Title of the space's first page when neither SUMMARY.md nor the file names it. */
const README_FALLBACK_TITLE = 'Introduction';
const UNTITLED = 'Untitled';

/**
 * Settles the page tree:
 * - the README (structure.readme) is the first page, added or moved there if needed;
 * - titles: SUMMARY link text first; without one, the file's front matter `title`, then
 *   its first `# H1`, then a title made from the file name;
 * - slugs: from the file name (`foo/bar.md` -> `bar`, `foo/README.md` -> `foo`), from the
 *   title for the README (its file name says nothing), groups and link-less bullets;
 *   made unique among siblings with -1, -2...;
 * - path: parent path + '/' + slug, groups included; link pages have neither.
 */
export async function buildPageTree(drafts: DraftPage[], ctx: BuildPageTreeContext): Promise<ImportedPage[]> {
  const readme = putReadmeFirst(drafts, ctx);
  await fillMissingTitles(drafts, readme, ctx.tree);
  return finalize(drafts, '', readme);
}

function putReadmeFirst(drafts: DraftPage[], ctx: BuildPageTreeContext): DraftPage {
  const found = findWithParent(drafts, (d) => d.kind === 'sheet' && d.sourcePath === ctx.readmePath);
  if (found && found.page === firstSheet(drafts)) return found.page;
  if (found) {
    found.siblings.splice(found.siblings.indexOf(found.page), 1);
    ctx.warnings.push(`${ctx.readmePath} is the space's first page; moved to the top of the table of contents`);
    drafts.unshift(found.page);
    return found.page;
  }
  const readme: DraftPage = { kind: 'sheet', sourcePath: ctx.readmePath, children: [] };
  drafts.unshift(readme);
  return readme;
}

function findWithParent(
  drafts: DraftPage[],
  match: (draft: DraftPage) => boolean,
): { page: DraftPage; siblings: DraftPage[] } | undefined {
  for (const draft of drafts) {
    if (match(draft)) return { page: draft, siblings: drafts };
    const inside = findWithParent(draft.children, match);
    if (inside) return inside;
  }
  return undefined;
}

async function fillMissingTitles(drafts: DraftPage[], readme: DraftPage, tree: SourceTree): Promise<void> {
  const untitled: DraftPage[] = [];
  const walk = (list: DraftPage[]) => {
    for (const draft of list) {
      if (!draft.title) untitled.push(draft);
      walk(draft.children);
    }
  };
  walk(drafts);
  await Promise.all(
    untitled.map(async (draft) => {
      const text = draft.sourcePath ? await readText(tree, draft.sourcePath) : undefined;
      const offered = text === undefined ? {} : readMarkdownTitles(text);
      draft.title = offered.frontMatterTitle ?? offered.heading ?? lastResortTitle(draft, readme);
    }),
  );
}

function lastResortTitle(draft: DraftPage, readme: DraftPage): string {
  if (draft === readme) return README_FALLBACK_TITLE;
  if (draft.slugFrom) return titleFromFileName(draft.slugFrom);
  if (draft.sourcePath) return titleFromFileName(basenameOf(draft.sourcePath));
  return UNTITLED;
}

function finalize(drafts: DraftPage[], parentPath: string, readme: DraftPage): ImportedPage[] {
  const taken = new Set<string>();
  return drafts.map((draft) => {
    const title = draft.title || UNTITLED;
    if (draft.kind === 'link') {
      return compact({ kind: 'link', title, slug: '', path: '', linkTitle: draft.linkTitle, href: draft.href, children: [] });
    }
    const fromFile = draft !== readme && draft.slugFrom !== undefined ? slugFromFileName(draft.slugFrom) : '';
    const base = fromFile || slugify(title) || 'untitled';
    const slug = claimUniqueSlug(base, taken);
    const path = parentPath ? `${parentPath}/${slug}` : slug;
    return compact({
      kind: draft.kind,
      title,
      slug,
      path,
      sourcePath: draft.sourcePath,
      linkTitle: draft.linkTitle,
      children: finalize(draft.children, path, readme),
    });
  });
}

/** Leaves optional fields out rather than set to undefined, so trees compare cleanly. */
function compact(page: ImportedPage): ImportedPage {
  for (const key of ['sourcePath', 'linkTitle', 'href'] as const) {
    if (page[key] === undefined) delete page[key];
  }
  return page;
}
