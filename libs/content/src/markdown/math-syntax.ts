import type MarkdownIt from 'markdown-it';

export const MATH_BLOCK_TOKEN = 'math_block';
export const MATH_INLINE_TOKEN = 'math_inline';

const DOLLAR = 0x24;

/**
 * markdown-it plugin for GitBook's TeX syntax: a block opens with a line holding only `$$`
 * and closes at the next line ending in `$$`; inline math is `$$formula$$` inside text.
 * Single-dollar math is deliberately not recognised: GitBook writes `$$` in both places,
 * and `$1` / `$NAME` are common in technical prose.
 */
export function mathSyntaxPlugin(md: MarkdownIt.MarkdownIt): void {
  md.block.ruler.before('fence', MATH_BLOCK_TOKEN, mathBlockRule, {
    alt: ['paragraph', 'reference', 'blockquote', 'list'],
  });
  md.inline.ruler.after('escape', MATH_INLINE_TOKEN, mathInlineRule);
}

function mathBlockRule(state: MarkdownIt.StateBlock, startLine: number, endLine: number, silent: boolean): boolean {
  if (state.sCount[startLine] - state.blkIndent >= 4) return false;
  const src = state.src;
  const start = state.bMarks[startLine] + state.tShift[startLine];
  const max = state.eMarks[startLine];
  if (src.charCodeAt(start) !== DOLLAR || src.charCodeAt(start + 1) !== DOLLAR) return false;
  if (src.slice(start + 2, max).trim() !== '') return false;

  let closeLine = -1;
  let closeText = '';
  for (let line = startLine + 1; line < endLine; line++) {
    const lineStart = state.bMarks[line] + state.tShift[line];
    const lineEnd = state.eMarks[line];
    if (lineStart < lineEnd && state.sCount[line] < state.blkIndent) break;
    const text = src.slice(lineStart, lineEnd).trimEnd();
    if (text.endsWith('$$')) {
      closeLine = line;
      closeText = text.slice(0, -2);
      break;
    }
  }
  if (closeLine === -1) return false;
  if (silent) return true;

  const body = state.getLines(startLine + 1, closeLine, state.sCount[startLine], false);
  const formula = (closeText.trim() === '' ? body : `${body}${body === '' ? '' : '\n'}${closeText}`)
    .replace(/\s+$/, '')
    .replace(/^\n+/, '');
  const token = state.push(MATH_BLOCK_TOKEN, 'math', 0);
  token.block = true;
  token.content = formula;
  token.markup = '$$';
  token.map = [startLine, closeLine + 1];
  state.line = closeLine + 1;
  return true;
}

function mathInlineRule(state: MarkdownIt.StateInline, silent: boolean): boolean {
  const src = state.src;
  const start = state.pos;
  if (src.charCodeAt(start) !== DOLLAR || src.charCodeAt(start + 1) !== DOLLAR) return false;
  const contentStart = start + 2;
  const close = src.indexOf('$$', contentStart);
  if (close === -1 || close >= state.posMax || close === contentStart) return false;
  if (isSpace(src.charCodeAt(contentStart)) || isSpace(src.charCodeAt(close - 1))) return false;
  if (src.charCodeAt(contentStart) === DOLLAR) return false;
  if (!silent) {
    const token = state.push(MATH_INLINE_TOKEN, 'math', 0);
    token.content = src.slice(contentStart, close);
    token.markup = '$$';
  }
  state.pos = close + 2;
  return true;
}

function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a;
}
