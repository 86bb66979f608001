import { firstSheet } from './first-sheet';
import type { ImportedPageKind } from './imported-layout';
import { escapeTitle, splitFrontMatter } from './markdown-inline';
import { toDirPrefix } from './repo-path';
import { claimUniqueSlug, slugFromFileName, slugify } from './slugify';
import { slugSourceOf } from './summary-pages';

export interface PageToWrite {
  id: string;
  kind: ImportedPageKind;
  title: string;
  slug: string;
  linkTitle?: string;
  /** Target of a link page. */
  href?: string;
  /** Page body; a `# Title` line is added when it does not start with a level-1 heading. */
  markdown?: string;
  /** The repository path the page's file has now (a revision being edited): kept while it still
   * names the page (see keptFiles); otherwise the page is laid out as GitBook lays it out. */
  file?: string;
  children: PageToWrite[];
}

export interface WriteGitSyncLayoutOptions {
  /** Directory for the docs, e.g. 'docs/'; a `.gitbook.yaml` pointing at it is added. */
  docsRoot?: string;
  /** First line of SUMMARY.md; GitBook writes "Table of contents". */
  summaryTitle?: string;
}

export interface GitSyncFiles {
  /** Repository path -> UTF-8 content. */
  files: Record<string, string>;
  /** Page id -> repository path of the page's file (sheets only). */
  pathById: Record<string, string>;
}

/**
 * Lays a page tree out the way GitBook exports a space, so readGitSyncLayout reads the
 * same titles, slugs and paths back:
 * - the first page (first sheet at the root or at the top of a group) is `README.md`;
 * - a leaf page is `<dir>/<slug>.md`; a page with children is `<dir>/<slug>/README.md`
 *   and its children live in `<dir>/<slug>/`;
 * - a group is a `## Title` heading in SUMMARY.md and its pages live in `<group-slug>/`
 *   (`-1`, `-2`... when a root page already uses that folder: the reader takes page
 *   slugs from file names, not from group folders, so the folder is free to move);
 * - a root page that follows a group comes after a `***` rule, which ends the group.
 * What does not survive: the README's slug and group slugs, which the reader derives from
 * their titles, and slugs that are not already in file-name form (upper case, spaces).
 */
export function writeGitSyncLayout(pages: PageToWrite[], opts: WriteGitSyncLayoutOptions = {}): GitSyncFiles {
  const root = toDirPrefix(opts.docsRoot) ?? '';
  const files: Record<string, string> = {};
  const pathById: Record<string, string> = {};
  const summary: string[] = [`# ${opts.summaryTitle ?? 'Table of contents'}`, ''];
  const readme = firstSheet(pages);
  const kept = keptFiles(pages, root, readme);
  const keptPaths = new Set(kept.values());

  /** Where a page's file goes: where it is, when kept; else `file` (root-relative), made
   * unique against the kept files. Returns the path relative to the docs root. */
  const place = (page: PageToWrite, file: string): string => {
    const current = kept.get(page);
    if (current !== undefined) return current.slice(root.length);
    let candidate = file;
    for (let n = 1; keptPaths.has(root + candidate); n++) candidate = file.replace(/(\/README)?\.md$/, `-${n}$&`);
    return candidate;
  };
  const writePage = (page: PageToWrite, file: string) => {
    files[root + file] = pageMarkdown(page);
    pathById[page.id] = root + file;
  };

  const bullet = (page: PageToWrite, target: string, depth: number) => {
    const linkTitle = page.linkTitle ? ` "${page.linkTitle.replace(/["\\]/g, '\\$&')}"` : '';
    summary.push(`${'  '.repeat(depth)}* [${escapeTitle(page.title)}](${linkDestination(target)}${linkTitle})`);
  };

  /** Writes siblings living in `dir` ('' or 'a/b/'). Pages with children take the
   * folders named after their slugs first; `usedDirs` then hands out the remaining
   * folders (for groups and the README's children). */
  const writeSiblings = (
    siblings: PageToWrite[],
    dir: string,
    depth: number,
    usedDirs = folderNeeds(siblings, readme),
    names = fileNames(siblings),
  ) => {
    for (const page of siblings) {
      if (page.kind === 'group') throw new Error(`Group ${page.id} is nested; groups exist only at the root`);
      if (page.kind === 'link') {
        bullet(page, page.href ?? '', depth);
        continue;
      }
      const name = names.get(page) as string;
      if (page === readme) {
        bullet(page, 'README.md', depth);
        writePage(page, 'README.md');
        if (page.children.length > 0) writeSiblings(page.children, `${claimDir(dir, name, usedDirs)}/`, depth + 1);
      } else if (needsFolder(page, name)) {
        const file = place(page, `${dir}${name}/README.md`);
        bullet(page, file, depth);
        writePage(page, file);
        writeSiblings(page.children, `${dir}${name}/`, depth + 1);
      } else {
        const file = place(page, `${dir}${name}.md`);
        bullet(page, file, depth);
        writePage(page, file);
      }
    }
  };

  // Root pages are siblings across groups, so their names are settled once for all runs.
  const rootDirs = folderNeeds(pages, readme);
  const rootNames = fileNames(pages);
  let afterGroup = false;
  let run: PageToWrite[] = [];
  const flushRun = () => {
    if (run.length === 0) return;
    if (afterGroup) summary.push('***', '');
    writeSiblings(run, '', 0, rootDirs, rootNames);
    summary.push('');
    run = [];
  };
  for (const page of pages) {
    if (page.kind !== 'group') {
      run.push(page);
      continue;
    }
    flushRun();
    summary.push(`## ${escapeTitle(page.title)}`, '');
    const groupDir = claimDir('', slugify(page.title) || 'untitled', rootDirs);
    writeSiblings(page.children, `${groupDir}/`, 0);
    summary.push('');
    afterGroup = true;
  }
  flushRun();

  files[`${root}SUMMARY.md`] = summary.join('\n').replace(/\n{3,}/g, '\n\n').replace(/\n+$/, '\n');
  if (root) files['.gitbook.yaml'] = `root: ./${root}\n\nstructure:\n  readme: README.md\n  summary: SUMMARY.md\n`;
  return { files, pathById };
}

/**
 * The pages that keep the file they have (`PageToWrite.file`), so that an edit moves no file:
 * a sheet other than the first page, whose file is under the docs root, is not a README at the
 * docs root (that is the first page's), names the page's slug as the reader derives it
 * (`foo.md`, `foo/README.md`), and is no other kept page's. A page whose slug changed, or a
 * first page that moved, is laid out afresh.
 */
function keptFiles(pages: PageToWrite[], root: string, readme: PageToWrite | undefined): Map<PageToWrite, string> {
  const kept = new Map<PageToWrite, string>();
  const taken = new Set<string>([`${root}README.md`, `${root}SUMMARY.md`]);
  const visit = (page: PageToWrite) => {
    const file = page.file;
    if (page.kind === 'sheet' && page !== readme && file && file.startsWith(root) && /\.md$/i.test(file) && !taken.has(file)) {
      const source = slugSourceOf(file.slice(root.length), '');
      if (source !== undefined && slugFromFileName(source) === slugFromFileName(page.slug)) {
        kept.set(page, file);
        taken.add(file);
      }
    }
    page.children.forEach(visit);
  };
  pages.forEach(visit);
  return kept;
}

/** Each sheet's slug in the form the reader gets back from a file name, unique among
 * its siblings (upper case, spaces and duplicates do not survive a file system). */
function fileNames(siblings: PageToWrite[]): Map<PageToWrite, string> {
  const taken = new Set<string>();
  const names = new Map<PageToWrite, string>();
  for (const page of siblings) {
    if (page.kind !== 'sheet') continue;
    names.set(page, claimUniqueSlug(slugFromFileName(page.slug) || slugify(page.title) || 'untitled', taken));
  }
  return names;
}

/** A page with children needs `<slug>/README.md`; so does a leaf named `readme`, which
 * would otherwise read back as its folder's page. */
function needsFolder(page: PageToWrite, name: string): boolean {
  return page.children.length > 0 || name === 'readme';
}

function folderNeeds(siblings: PageToWrite[], readme: PageToWrite | undefined): Set<string> {
  const used = new Set<string>();
  for (const [page, name] of fileNames(siblings)) if (page !== readme && needsFolder(page, name)) used.add(name);
  return used;
}

function claimDir(dir: string, name: string, used: Set<string>): string {
  let candidate = name;
  for (let n = 1; used.has(candidate); n++) candidate = `${name}-${n}`;
  used.add(candidate);
  return `${dir}${candidate}`;
}

function linkDestination(target: string): string {
  return /[\s()<>]/.test(target) ? `<${target.replace(/[<>]/g, '\\$&')}>` : target;
}

function pageMarkdown(page: PageToWrite): string {
  const { frontMatter, body: rawBody } = splitFrontMatter(page.markdown ?? '');
  const body = rawBody.replace(/^(?:[ \t]*\r?\n)+/, '');
  const content = /^# /.test(body) ? body : `# ${escapeTitle(page.title)}\n${body.trim() ? `\n${body}` : ''}`;
  const withFrontMatter = frontMatter === undefined ? content : `---\n${frontMatter}\n---\n\n${content}`;
  return withFrontMatter.endsWith('\n') ? withFrontMatter : `${withFrontMatter}\n`;
}
