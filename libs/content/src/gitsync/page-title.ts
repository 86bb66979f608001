import { frontMatterData } from '../markdown/front-matter';
import { inlineToTitle, splitFrontMatter } from './markdown-inline';

export interface MarkdownTitles {
  /** `title:` from the front matter. */
  frontMatterTitle?: string;
  /** Text of the first level-1 heading outside code blocks. */
  heading?: string;
}

/** Titles a page file offers for itself. A SUMMARY link text takes precedence over both
 * (see readGitSyncLayout); these are used when a page has no link text: the space README
 * missing from SUMMARY.md, `[](page.md)`, and trees inferred from folders. */
export function readMarkdownTitles(markdown: string): MarkdownTitles {
  const { frontMatter, body } = splitFrontMatter(markdown);
  return { frontMatterTitle: frontMatterTitle(frontMatter), heading: firstHeading(body) };
}

export function markdownTitle(markdown: string): string | undefined {
  const { frontMatterTitle, heading } = readMarkdownTitles(markdown);
  return frontMatterTitle ?? heading;
}

function frontMatterTitle(frontMatter: string | undefined): string | undefined {
  // A broken front matter block is the page's problem, not the import's: no title from it.
  const title: unknown = frontMatter === undefined ? undefined : frontMatterData(frontMatter)?.title;
  return typeof title === 'string' && title.trim() ? title.trim() : undefined;
}

function firstHeading(body: string): string | undefined {
  let fence: string | undefined;
  const lines = body.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const fenceMatch = /^ {0,3}(`{3,}|~{3,})/.exec(line);
    if (fenceMatch) {
      if (!fence) fence = fenceMatch[1];
      else if (fenceMatch[1][0] === fence[0] && fenceMatch[1].length >= fence.length) fence = undefined;
      continue;
    }
    if (fence) continue;
    const atx = /^ {0,3}#(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/.exec(line);
    if (atx) {
      const title = inlineToTitle(atx[1] ?? '');
      if (title) return title;
      continue;
    }
    const next = lines[i + 1];
    if (next !== undefined && /^ {0,3}=+[ \t]*$/.test(next) && line.trim() && !/^ {4}/.test(line)) {
      return inlineToTitle(line);
    }
  }
  return undefined;
}

/** "install-by-rpm" -> "Install by rpm": the last resort when a file offers no title. */
export function titleFromFileName(name: string): string {
  const words = name.replace(/\.md$/i, '').replace(/[-_]+/g, ' ').replace(/\s+/g, ' ').trim();
  return words ? words[0].toUpperCase() + words.slice(1) : name;
}
