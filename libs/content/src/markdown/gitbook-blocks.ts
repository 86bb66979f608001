import type MarkdownIt from 'markdown-it';
import { GITBOOK_BLOCK_TAGS, scanLiquidTag, type LiquidTag } from './liquid-tags';

/** Token type of one `{% tag %}` line item; `meta` holds the scanned {@link LiquidTag}. */
export const GITBOOK_TAG_TOKEN = 'gitbook_tag';

/**
 * markdown-it plugin: a line that starts with a known GitBook tag (`{% hint %}`, `{% endtab %}`,
 * ...) becomes `gitbook_tag` tokens, one per tag on the line, with any text between tags
 * emitted as paragraphs. The rule only marks tags; pairing an opening tag with its end tag
 * happens on the token tree (markdown-to-document), among siblings, so that nesting follows
 * the markdown structure and a `{% endhint %}` inside a fenced code block stays code.
 *
 * The rule may interrupt paragraphs, lists and blockquotes, as GitBook's exporter writes
 * `{% endhint %}` on the line right after the content.
 */
export function gitbookBlocksPlugin(md: MarkdownIt.MarkdownIt): void {
  md.block.ruler.before('code', GITBOOK_TAG_TOKEN, gitbookTagRule, {
    alt: ['paragraph', 'reference', 'blockquote', 'list'],
  });
  md.core.ruler.after('block', 'gitbook_tags_after_html', splitHtmlBeforeTags);
}

/**
 * An HTML block runs until a blank line, so `</details>` followed on the next line by
 * `{% endhint %}` (as GitBook's exporter writes it) would swallow the end tag: the block is cut
 * at the first line that starts with a known tag, and the rest parsed as markdown again.
 */
function splitHtmlBeforeTags(state: MarkdownIt.StateCore): void {
  const tokens = state.tokens;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.type !== 'html_block' || !token.content.includes('{%')) continue;
    const lines = token.content.split('\n');
    const at = lines.findIndex((line, k) => k > 0 && startsWithKnownTag(line));
    if (at < 0) continue;
    token.content = lines.slice(0, at).join('\n') + '\n';
    const rest: MarkdownIt.Token[] = [];
    state.md.block.parse(lines.slice(at).join('\n'), state.md, state.env, rest);
    for (const t of rest) t.level += token.level;
    tokens.splice(i + 1, 0, ...rest);
  }
}

function startsWithKnownTag(line: string): boolean {
  const m = /^ {0,3}\{%/.exec(line);
  return m !== null && scanKnownTag(line, m[0].length - 2, line.length) !== null;
}

function gitbookTagRule(state: MarkdownIt.StateBlock, startLine: number, _endLine: number, silent: boolean): boolean {
  if (state.sCount[startLine] - state.blkIndent >= 4) return false;
  const src = state.src;
  const start = state.bMarks[startLine] + state.tShift[startLine];
  const max = state.eMarks[startLine];
  if (src.charCodeAt(start) !== 0x7b || src.charCodeAt(start + 1) !== 0x25) return false;
  const first = scanLiquidTag(src, start, max);
  if (!first || !GITBOOK_BLOCK_TAGS.has(first.name)) return false;
  if (silent) return true;

  let pos = start;
  while (pos < max) {
    const tag = scanKnownTag(src, pos, max);
    if (tag) {
      pushTag(state, tag, startLine);
      pos = skipSpaces(src, tag.end, max);
      continue;
    }
    const textEnd = findNextKnownTag(src, pos, max);
    pushParagraph(state, src.slice(pos, textEnd).trim(), startLine);
    pos = textEnd;
  }
  state.line = startLine + 1;
  return true;
}

function scanKnownTag(src: string, pos: number, max: number): LiquidTag | null {
  const tag = scanLiquidTag(src, pos, max);
  return tag && GITBOOK_BLOCK_TAGS.has(tag.name) ? tag : null;
}

function findNextKnownTag(src: string, from: number, max: number): number {
  for (let p = src.indexOf('{%', from + 1); p !== -1 && p < max; p = src.indexOf('{%', p + 1)) {
    if (scanKnownTag(src, p, max)) return p;
  }
  return max;
}

function pushTag(state: MarkdownIt.StateBlock, tag: LiquidTag, line: number): void {
  const token = state.push(GITBOOK_TAG_TOKEN, '', 0);
  token.meta = tag as unknown as Record<string, unknown>;
  token.content = tag.raw;
  token.map = [line, line + 1];
}

function pushParagraph(state: MarkdownIt.StateBlock, text: string, line: number): void {
  if (text === '') return;
  const open = state.push('paragraph_open', 'p', 1);
  open.map = [line, line + 1];
  const inline = state.push('inline', '', 0);
  inline.content = text;
  inline.map = [line, line + 1];
  inline.children = [];
  state.push('paragraph_close', 'p', -1);
}

function skipSpaces(src: string, pos: number, max: number): number {
  while (pos < max && (src.charCodeAt(pos) === 0x20 || src.charCodeAt(pos) === 0x09)) pos++;
  return pos;
}
