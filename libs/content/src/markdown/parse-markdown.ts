import MarkdownIt from 'markdown-it';
import footnotePlugin from 'markdown-it-footnote';
import { useFastParserState } from './fast-parser-state';
import { gitbookBlocksPlugin } from './gitbook-blocks';
import { mathSyntaxPlugin } from './math-syntax';
import { taskListsPlugin } from './task-lists';

export type MarkdownToken = MarkdownIt.Token;

/**
 * Creates the parser for GitBook-flavoured markdown: CommonMark + GFM tables and
 * strikethrough, raw HTML passed through as tokens (figures, details and inline tags are
 * interpreted later), task lists, `$$` math, footnotes (GitBook's annotations) and GitBook's
 * `{% %}` block tags.
 */
export function createMarkdownParser(): MarkdownIt.MarkdownIt {
  const md = new MarkdownIt({ html: true, linkify: false, typographer: false });
  // Link targets stay exactly as written (only markdown escapes are undone): they are
  // resolved against the repository later, and percent-encoding them here would hide
  // `image (1).png` style asset names.
  md.normalizeLink = (url) => url;
  md.normalizeLinkText = (url) => url;
  useFastParserState(md);
  md.use(gitbookBlocksPlugin).use(mathSyntaxPlugin).use(taskListsPlugin).use(footnotePlugin);
  // GitBook writes annotations as reference footnotes (`word[^1]` and `[^1]: note`) only.
  md.inline.ruler.disable('footnote_inline');
  return md;
}

let parser: MarkdownIt.MarkdownIt | undefined;

function sharedParser(): MarkdownIt.MarkdownIt {
  parser ??= createMarkdownParser();
  return parser;
}

/** Block token stream of a markdown body (front matter already removed). */
export function parseMarkdownTokens(markdown: string): MarkdownToken[] {
  return sharedParser().parse(markdown, {});
}

/** Inline tokens of a one-paragraph snippet, e.g. the inside of an HTML `<summary>`. */
export function parseInlineMarkdownTokens(markdown: string): MarkdownToken[] {
  const [inline] = sharedParser().parseInline(markdown, {});
  return inline?.children ?? [];
}
