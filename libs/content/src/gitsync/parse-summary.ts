import MarkdownIt from 'markdown-it';
import { inlineToTitle, unescapeMarkdown } from './markdown-inline';
import { percentDecode } from './repo-path';

export interface SummaryGroup {
  type: 'group';
  title: string;
  line: number;
  items: SummaryEntry[];
}

export interface SummaryEntry {
  type: 'entry';
  /** Link text, or the whole bullet text when the bullet has no link. */
  title: string;
  /** The quoted part of `[Title](page.md "Link title")`. */
  linkTitle?: string;
  /** Local targets: decoded path as written, anchor removed, not yet resolved.
   * External targets: the URL as written. Absent for a bullet without a link. */
  target?: string;
  external: boolean;
  /** 1-based line in SUMMARY.md, for warnings. */
  line: number;
  children: SummaryEntry[];
}

export type SummaryItem = SummaryGroup | SummaryEntry;

export interface ParsedSummary {
  /** The optional leading `# Title` (`Table of contents`, `Summary`). */
  title?: string;
  items: SummaryItem[];
  warnings: string[];
}

/**
 * SUMMARY.md grammar, as GitBook writes and reads it:
 * - an optional `# Title` line (a level-1 heading before any bullet or group);
 * - `## Heading` starts a page group; groups exist only at the top level. Any other
 *   heading after the title starts one too, with a warning (GitBook writes `##`);
 * - a thematic break (`***`, `---`) ends the current group, so the bullets after it are
 *   root pages again: GitBook writes one when a root page follows a group (noislabs
 *   puts `networks-and-contracts/README.md` after `***`, outside the Overview group and
 *   its `overview/` folder), and the legacy format already treated rules as part breaks;
 * - `*`, `-` or `+` bullets (also `1.`), nested by indentation of any consistent width,
 *   tabs counted as four columns;
 * - the bullet's first link: `[Title](path.md "Link title")` (with `<a b.md>`, `%20`,
 *   `\_` and `#anchor` in the target), a reference link `[Title][ref]`, an autolink
 *   `<https://x>` or an HTML `<a href>`, wherever it sits in the bullet (`**[C](c.md)**`);
 *   the title is the plain text of the link; a bullet without a link keeps its text;
 * - a fenced block, on its own or as a bullet (GitBook's `* ```yaml type: builtin:openapi`
 *   bullets), is skipped up to its closing fence with one warning;
 * - everything else (prose, HTML comments, reference definitions) is ignored.
 * `name` is the file name used in warnings.
 */
export function parseSummary(markdown: string, name = 'SUMMARY.md'): ParsedSummary {
  const result: ParsedSummary = { items: [], warnings: [] };
  let group: SummaryGroup | undefined;
  let stack: Array<{ indent: number; entry: SummaryEntry }> = [];
  let fence: { marker: string; openapi: boolean; line: number } | undefined;
  let inComment = false;
  let warnedOpenApi = false;
  let warnedFence = false;
  const source = markdown.replace(/^\uFEFF/, '');
  const references = referencesOf(source);

  const closeFence = () => {
    if (!fence) return;
    if (fence.openapi) {
      if (!warnedOpenApi) result.warnings.push(`${name} line ${fence.line}: OpenAPI pages (builtin:openapi) are not imported`);
      warnedOpenApi = true;
    } else if (!warnedFence) {
      result.warnings.push(`${name} line ${fence.line}: fenced block ignored (computed pages are not supported)`);
      warnedFence = true;
    }
    fence = undefined;
  };

  const lines = source.split(/\r?\n/);
  lines.forEach((rawLine, index) => {
    const lineNo = index + 1;
    let line = rawLine;
    if (fence) {
      const closing = /^\s*(`{3,}|~{3,})\s*$/.exec(line);
      if (closing && closing[1][0] === fence.marker[0] && closing[1].length >= fence.marker.length) closeFence();
      else if (/builtin:openapi/.test(line)) fence.openapi = true;
      return;
    }
    if (inComment) {
      const end = line.indexOf('-->');
      if (end < 0) return;
      inComment = false;
      line = line.slice(end + 3);
    }
    line = line.replace(/<!--[\s\S]*?-->/g, '');
    if (line.includes('<!--')) {
      inComment = true;
      line = line.slice(0, line.indexOf('<!--'));
    }

    // A fence on its own line or as a bullet's content (`* ```yaml`).
    const fenceMatch = /^\s*(?:(?:[*+-]|\d{1,9}[.)])[ \t]+)?(`{3,}|~{3,})(.*)$/.exec(line);
    if (fenceMatch && !(fenceMatch[1][0] === '`' && fenceMatch[2].includes('`'))) {
      fence = { marker: fenceMatch[1], openapi: /openapi/i.test(fenceMatch[2]), line: lineNo };
      return;
    }

    const trimmed = line.trim();
    if (!trimmed) return;

    const heading = /^(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/.exec(trimmed);
    if (heading && !/^\s{4}/.test(line.replace(/\t/g, '    '))) {
      const text = plainInline(heading[2] ?? '', references);
      if (heading[1].length === 1 && result.title === undefined && result.items.length === 0) {
        result.title = text;
        return;
      }
      if (heading[1].length !== 2) {
        result.warnings.push(`${name} line ${lineNo}: "${trimmed}" read as a page group (GitBook writes groups as ## headings)`);
      }
      group = { type: 'group', title: text, line: lineNo, items: [] };
      result.items.push(group);
      stack = [];
      return;
    }

    if (/^(?:(?:\*[ \t]*){3,}|(?:-[ \t]*){3,}|(?:_[ \t]*){3,})$/.test(trimmed)) {
      group = undefined;
      stack = [];
      return;
    }

    const bullet = /^([ \t]*)(?:[*+-]|\d{1,9}[.)])[ \t]+(.*)$/.exec(line);
    if (!bullet) return;
    const indent = columnsOf(bullet[1]);
    const entry = parseEntry(bullet[2], lineNo, references);
    while (stack.length > 0 && stack[stack.length - 1].indent >= indent) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) parent.entry.children.push(entry);
    else (group ? group.items : result.items).push(entry);
    stack.push({ indent, entry });
  });
  closeFence();
  return result;
}

function columnsOf(whitespace: string): number {
  let columns = 0;
  for (const ch of whitespace) columns = ch === '\t' ? columns + 4 - (columns % 4) : columns + 1;
  return columns;
}

function parseEntry(content: string, line: number, references: References): SummaryEntry {
  const link = firstLink(content.trim(), references) ?? parseLink(content.trim());
  if (!link) {
    return { type: 'entry', title: plainInline(content, references), external: false, line, children: [] };
  }
  const external = /^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|\/\/)/.test(link.destination);
  const target = external
    ? link.destination
    : percentDecode(link.plain ? link.destination : unescapeMarkdown(link.destination)).replace(/[#?].*$/, '');
  const text = link.plain ? link.text : inlineToTitle(link.text);
  // `[Title]()` or `[Title](#anchor)` names no file: an entry without a link, not the folder's README.
  if (!external && target.trim() === '') return { type: 'entry', title: text, external: false, line, children: [] };
  return {
    type: 'entry',
    title: text,
    linkTitle: link.title === undefined ? undefined : (link.plain ? link.title : inlineToTitle(link.title)) || undefined,
    target,
    external,
    line,
    children: [],
  };
}

type References = Record<string, { href: string; title: string }>;

const inlineParser = (() => {
  const md = new MarkdownIt({ html: true, linkify: false, typographer: false });
  md.normalizeLink = (url) => url;
  md.normalizeLinkText = (url) => url;
  md.validateLink = () => true;
  return md;
})();

/** Reference definitions (`[a]: a.md "Title"`) anywhere in the file. */
function referencesOf(markdown: string): References {
  if (!/^\s{0,3}\[[^\]]+\]:/m.test(markdown)) return {};
  const env: { references?: References } = {};
  inlineParser.parse(markdown, env);
  return env.references ?? {};
}

function inlineTokens(content: string, references: References): MarkdownIt.Token[] {
  const env = { references };
  return inlineParser.parseInline(content, env)[0]?.children ?? [];
}

/** Plain text of inline markdown: markup, formatting HTML tags and images' syntax dropped. */
function plainInline(content: string, references: References): string {
  return textOf(inlineTokens(content, references));
}

/** HTML that only formats the text around it (dropped from titles); any other tag stays as text. */
const FORMATTING_TAG = /^<\/?(a|abbr|b|br|code|del|em|i|img|ins|kbd|mark|s|small|span|strong|sub|sup|u)(\s[^>]*)?\/?>$/i;

function textOf(tokens: MarkdownIt.Token[]): string {
  let text = '';
  for (const token of tokens) {
    if (token.type === 'text' || token.type === 'code_inline' || token.type === 'text_special') text += token.content;
    else if (token.type === 'softbreak' || token.type === 'hardbreak') text += ' ';
    else if (token.type === 'image') text += textOf(token.children ?? []);
    // `Optional<T>`, `List<String>`: what reads as a tag but formats nothing is title text.
    else if (token.type === 'html_inline') text += FORMATTING_TAG.test(token.content) ? (/^<br\b/i.test(token.content) ? ' ' : '') : token.content;
  }
  return text.replace(/\s+/g, ' ').trim();
}

/** The first link of a bullet, as the markdown parser reads it: inline, reference,
 * autolink, or an HTML `<a href>`. Text and title come out plain (escapes and entities
 * undone, markup dropped). */
function firstLink(content: string, references: References): (InlineLink & { plain: true }) | undefined {
  const tokens = inlineTokens(content, references);
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    let href: string | undefined;
    let title: string | undefined;
    let closer: (t: MarkdownIt.Token) => boolean;
    if (token.type === 'link_open') {
      href = String(token.attrGet('href') ?? '');
      title = token.attrGet('title') === null ? undefined : String(token.attrGet('title'));
      closer = (t) => t.type === 'link_close';
    } else if (token.type === 'html_inline' && /^<a\s/i.test(token.content)) {
      const attrs = token.content;
      const hrefMatch = /\shref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/i.exec(attrs);
      if (!hrefMatch) continue;
      href = decodeHtml(hrefMatch[1] ?? hrefMatch[2] ?? hrefMatch[3]);
      const titleMatch = /\stitle\s*=\s*(?:"([^"]*)"|'([^']*)')/i.exec(attrs);
      title = titleMatch ? decodeHtml(titleMatch[1] ?? titleMatch[2]) : undefined;
      closer = (t) => t.type === 'html_inline' && /^<\/a\s*>/i.test(t.content);
    } else continue;
    if (!href) continue;
    let end = i + 1;
    while (end < tokens.length && !closer(tokens[end])) end++;
    return { text: textOf(tokens.slice(i + 1, end)), destination: href.trim(), title: title || undefined, plain: true };
  }
  return undefined;
}

function decodeHtml(value: string): string {
  return inlineToTitle(value.replace(/\\/g, '\\\\'));
}

interface InlineLink {
  text: string;
  destination: string;
  title?: string;
  /** True when text, destination and title are already plain (escapes undone). */
  plain?: boolean;
}

/** Parses `[text](destination "title")` at the start of `s`, CommonMark style: balanced
 * brackets in the text, `<...>` or balanced-parenthesis destinations, three title forms.
 * Hand-written SUMMARY files also hold `[A](my page (1).md)`, which CommonMark rejects;
 * when the strict reading fails, everything up to the last ')' is taken as the target. */
export function parseLink(s: string): InlineLink | undefined {
  if (s[0] !== '[') return undefined;
  let i = 1;
  let depth = 1;
  for (; i < s.length; i++) {
    const ch = s[i];
    if (ch === '\\') i++;
    else if (ch === '[') depth++;
    else if (ch === ']' && --depth === 0) break;
  }
  if (depth !== 0 || s[i + 1] !== '(') return undefined;
  const text = s.slice(1, i);
  const rest = s.slice(i + 2);
  return parseDestinationAndTitle(rest, text) ?? lenientDestination(rest, text);
}

function parseDestinationAndTitle(s: string, text: string): InlineLink | undefined {
  let i = 0;
  const skipSpace = () => {
    while (i < s.length && /\s/.test(s[i])) i++;
  };
  skipSpace();

  let destination = '';
  if (s[i] === '<') {
    const end = findUnescaped(s, '>', i + 1);
    if (end < 0) return undefined;
    destination = s.slice(i + 1, end);
    i = end + 1;
  } else {
    let parens = 0;
    const start = i;
    for (; i < s.length; i++) {
      const ch = s[i];
      if (ch === '\\') i++;
      else if (ch === '(') parens++;
      else if (ch === ')') {
        if (parens === 0) break;
        parens--;
      } else if (/\s/.test(ch)) break;
    }
    destination = s.slice(start, i);
  }

  skipSpace();
  let title: string | undefined;
  const opener = s[i];
  if (opener === '"' || opener === "'" || opener === '(') {
    const closer = opener === '(' ? ')' : opener;
    const end = findUnescaped(s, closer, i + 1);
    if (end < 0) return undefined;
    title = s.slice(i + 1, end);
    i = end + 1;
    skipSpace();
  }
  if (s[i] !== ')') return undefined;
  return { text, destination: destination.trim(), title };
}

function lenientDestination(s: string, text: string): InlineLink | undefined {
  const close = s.lastIndexOf(')');
  if (close < 0) return undefined;
  const inner = /^\s*(.*?)(?:\s+"((?:[^"\\]|\\.)*)")?\s*$/.exec(s.slice(0, close));
  if (!inner || !inner[1]) return undefined;
  return { text, destination: inner[1], title: inner[2] };
}

function findUnescaped(s: string, ch: string, from: number): number {
  for (let i = from; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === ch) return i;
  }
  return -1;
}
