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
 * - an optional `# Title` line;
 * - `## Heading` starts a page group; groups exist only at the top level;
 * - a thematic break (`***`, `---`) ends the current group, so the bullets after it are
 *   root pages again: GitBook writes one when a root page follows a group (noislabs
 *   puts `networks-and-contracts/README.md` after `***`, outside the Overview group and
 *   its `overview/` folder), and the legacy format already treated rules as part breaks;
 * - `*`, `-` or `+` bullets (also `1.`), nested by indentation of any consistent width,
 *   tabs counted as four columns;
 * - `[Title](path.md "Link title")`, with `<a b.md>`, `%20`, `\_` and `#anchor` in the
 *   target and backslash escapes in the text; a bullet without a link keeps its text;
 * - everything else (prose, fenced blocks, HTML comments) is ignored.
 * `name` is the file name used in warnings.
 */
export function parseSummary(markdown: string, name = 'SUMMARY.md'): ParsedSummary {
  const result: ParsedSummary = { items: [], warnings: [] };
  let group: SummaryGroup | undefined;
  let stack: Array<{ indent: number; entry: SummaryEntry }> = [];
  let fence: string | undefined;
  let inComment = false;

  const lines = markdown.replace(/^\uFEFF/, '').split(/\r?\n/);
  lines.forEach((rawLine, index) => {
    const lineNo = index + 1;
    let line = rawLine;
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

    const fenceMatch = /^\s*(`{3,}|~{3,})/.exec(line);
    if (fenceMatch) {
      if (!fence) {
        fence = fenceMatch[1];
        result.warnings.push(`${name} line ${lineNo}: fenced block ignored (computed pages are not supported)`);
      } else if (fenceMatch[1][0] === fence[0] && fenceMatch[1].length >= fence.length) {
        fence = undefined;
      }
      return;
    }
    if (fence) return;

    const trimmed = line.trim();
    if (!trimmed) return;

    const heading = /^(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/.exec(trimmed);
    if (heading && !/^\s{4}/.test(line.replace(/\t/g, '    '))) {
      const text = inlineToTitle(heading[2] ?? '');
      if (heading[1].length === 1) {
        if (result.title === undefined && result.items.length === 0) result.title = text;
        return;
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
    const entry = parseEntry(bullet[2], lineNo);
    while (stack.length > 0 && stack[stack.length - 1].indent >= indent) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) parent.entry.children.push(entry);
    else (group ? group.items : result.items).push(entry);
    stack.push({ indent, entry });
  });
  return result;
}

function columnsOf(whitespace: string): number {
  let columns = 0;
  for (const ch of whitespace) columns = ch === '\t' ? columns + 4 - (columns % 4) : columns + 1;
  return columns;
}

function parseEntry(content: string, line: number): SummaryEntry {
  const link = parseLink(content.trim());
  if (!link) {
    return { type: 'entry', title: inlineToTitle(content), external: false, line, children: [] };
  }
  const external = /^(?:[a-zA-Z][a-zA-Z0-9+.-]*:|\/\/)/.test(link.destination);
  const target = external
    ? link.destination
    : percentDecode(unescapeMarkdown(link.destination)).replace(/[#?].*$/, '');
  return {
    type: 'entry',
    title: inlineToTitle(link.text),
    linkTitle: link.title === undefined ? undefined : inlineToTitle(link.title) || undefined,
    target,
    external,
    line,
    children: [],
  };
}

interface InlineLink {
  text: string;
  destination: string;
  title?: string;
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
