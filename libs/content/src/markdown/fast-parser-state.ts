import type MarkdownIt from 'markdown-it';

type Token = MarkdownIt.Token;
type TokenNesting = -1 | 0 | 1;

/**
 * Why this exists: the markdown-it 15 build we depend on is transpiled with a `_defineProperty`
 * helper for every class field, so each `Token`, `StateBlock` and `StateInline` construction
 * pays several helper calls per field. On the pgsql-tw corpus that helper alone was a third
 * of parse time and kept page conversion below our throughput target.
 *
 * This swaps, on one markdown-it instance only, the three parser State classes for versions
 * that assign the same fields directly and create tokens of a plain-assignment Token class.
 * Every other method is the library's own (shared prototype). Tokens are indistinguishable
 * from stock ones: same own fields in the same order, same prototype methods; the spec
 * compares full token streams against a stock instance.
 */
export function useFastParserState(md: MarkdownIt.MarkdownIt): void {
  const StockToken = new md.core.State('', md, {}).Token;
  const FastToken = createTokenClass(StockToken);

  const StockCore = md.core.State;
  const StockBlock = md.block.State;
  const StockInline = md.inline.State;

  function FastStateCore(this: MarkdownIt.StateCore, src: string, mdInstance: MarkdownIt.MarkdownIt, env: MarkdownIt.Env) {
    this.tokens = [];
    this.inlineMode = false;
    this.Token = FastToken;
    this.src = src;
    this.env = env;
    this.md = mdInstance;
  }
  FastStateCore.prototype = Object.create(StockCore.prototype);
  FastStateCore.prototype.constructor = FastStateCore;

  function FastStateBlock(this: MarkdownIt.StateBlock, src: string, mdInstance: MarkdownIt.MarkdownIt, env: MarkdownIt.Env, tokens: Token[]) {
    this.bMarks = [];
    this.eMarks = [];
    this.tShift = [];
    this.sCount = [];
    this.bsCount = [];
    this.blkIndent = 0;
    this.line = 0;
    this.lineMax = 0;
    this.tight = false;
    this.listIndent = -1;
    this.parentType = 'root';
    this.level = 0;
    this.Token = FastToken;
    this.src = src;
    this.md = mdInstance;
    this.env = env;
    this.tokens = tokens;
    indexLines(this, src);
  }
  FastStateBlock.prototype = Object.create(StockBlock.prototype);
  FastStateBlock.prototype.constructor = FastStateBlock;
  FastStateBlock.prototype.push = function push(this: MarkdownIt.StateBlock, type: string, tag: string, nesting: TokenNesting): Token {
    const token = new FastToken(type, tag, nesting);
    token.block = true;
    if (nesting < 0) this.level--;
    token.level = this.level;
    if (nesting > 0) this.level++;
    this.tokens.push(token);
    return token;
  };

  function FastStateInline(this: MarkdownIt.StateInline, src: string, mdInstance: MarkdownIt.MarkdownIt, env: MarkdownIt.Env, outTokens: Token[]) {
    this.pos = 0;
    this.level = 0;
    this.pending = '';
    this.pendingLevel = 0;
    this.cache = {};
    this.backticks = {};
    this.backticksScanned = false;
    this.skipHtmlSpecial = false;
    this.linkLevel = 0;
    this.delimiters = [];
    this._prev_delimiters = [];
    this.Token = FastToken;
    this.src = src;
    this.env = env;
    this.md = mdInstance;
    this.tokens = outTokens;
    this.tokens_meta = Array(outTokens.length);
    this.posMax = src.length;
  }
  FastStateInline.prototype = Object.create(StockInline.prototype);
  FastStateInline.prototype.constructor = FastStateInline;
  FastStateInline.prototype.pushPending = function pushPending(this: MarkdownIt.StateInline): Token {
    const token = new FastToken('text', '', 0);
    token.content = this.pending;
    token.level = this.pendingLevel;
    this.tokens.push(token);
    this.pending = '';
    return token;
  };
  FastStateInline.prototype.push = function push(this: MarkdownIt.StateInline, type: string, tag: string, nesting: TokenNesting): Token {
    if (this.pending) this.pushPending();
    const token = new FastToken(type, tag, nesting);
    let tokenMeta: { delimiters: MarkdownIt.Delimiter[] } | undefined;
    if (nesting < 0) {
      this.level--;
      this.delimiters = this._prev_delimiters.pop() as MarkdownIt.Delimiter[];
    }
    token.level = this.level;
    if (nesting > 0) {
      this.level++;
      this._prev_delimiters.push(this.delimiters);
      this.delimiters = [];
      tokenMeta = { delimiters: this.delimiters };
    }
    this.pendingLevel = this.level;
    this.tokens.push(token);
    this.tokens_meta.push(tokenMeta);
    return token;
  };

  md.core.State = FastStateCore as unknown as typeof md.core.State;
  md.block.State = FastStateBlock as unknown as typeof md.block.State;
  md.inline.State = FastStateInline as unknown as typeof md.inline.State;
}

function createTokenClass(StockToken: typeof MarkdownIt.Token): typeof MarkdownIt.Token {
  function FastToken(this: Token, type: string, tag: string, nesting: TokenNesting) {
    this.map = null;
    this.level = 0;
    this.children = null;
    this.content = '';
    this.markup = '';
    this.info = '';
    this.block = false;
    this.hidden = false;
    this.type = type;
    this.tag = tag;
    this.attrs = null;
    this.nesting = nesting;
    this.meta = null;
  }
  FastToken.prototype = StockToken.prototype;
  return FastToken as unknown as typeof MarkdownIt.Token;
}

/** The line index StateBlock builds in its constructor (begin/end marks, indentation). */
function indexLines(state: MarkdownIt.StateBlock, s: string): void {
  const { bMarks, eMarks, tShift, sCount, bsCount } = state;
  for (let start = 0, pos = 0, indent = 0, offset = 0, len = s.length, indentFound = false; pos < len; pos++) {
    const ch = s.charCodeAt(pos);
    if (!indentFound) {
      if (ch === 0x20 || ch === 0x09) {
        indent++;
        if (ch === 0x09) offset += 4 - (offset % 4);
        else offset++;
        continue;
      } else indentFound = true;
    }
    if (ch === 0x0a || pos === len - 1) {
      if (ch !== 0x0a) pos++;
      bMarks.push(start);
      eMarks.push(pos);
      tShift.push(indent);
      sCount.push(offset);
      bsCount.push(0);
      indentFound = false;
      indent = 0;
      offset = 0;
      start = pos + 1;
    }
  }
  bMarks.push(s.length);
  eMarks.push(s.length);
  tShift.push(0);
  sCount.push(0);
  bsCount.push(0);
  state.lineMax = bMarks.length - 1;
}
