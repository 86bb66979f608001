/**
 * The one tokenizer of the index and of queries, so both sides always agree: NFKC (full-width
 * Latin becomes ASCII), lower case, runs of letters, marks and digits. Scripts written without
 * spaces (Han, kana, Hangul) become overlapping character bigrams, so "資料庫" is found by "資料"
 * and by the phrase "資料庫" (bigrams at consecutive positions); a lone character stays a
 * unigram. Everything else (punctuation, `_`, `-`, `.`) separates words, so "td-agent.conf"
 * gives `td agent conf` on both sides.
 */
const CJK_CHAR = /[\p{sc=Han}\p{sc=Hiragana}\p{sc=Katakana}\p{sc=Hangul}\u30fc\u3005]/u;
const WORD_CHAR = /[\p{L}\p{M}\p{N}]/u;
/** Longer "words" are hashes, base64 or minified code: they only bloat the index. */
const MAX_WORD_LENGTH = 60;

const SEPARATOR = 1;
const WORD = 2;
const CJK = 3;
/** Character classes of the Basic Multilingual Plane, filled lazily (0 = not looked up yet). */
const classes = new Uint8Array(65536);
for (let c = 0; c < 128; c++) classes[c] = (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) ? WORD : SEPARATOR;

function classify(ch: string): number {
  return CJK_CHAR.test(ch) ? CJK : WORD_CHAR.test(ch) ? WORD : SEPARATOR;
}

/** Class of the character at `i`; astral characters (surrogate pairs) are looked up each time. */
function classAt(text: string, i: number, code: number): number {
  if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) return classify(text.slice(i, i + 2));
  const cls = classes[code];
  return cls !== 0 ? cls : (classes[code] = classify(text[i]));
}

const widthAt = (code: number) => (code >= 0xd800 && code <= 0xdbff ? 2 : 1);

/** A word as indexed: NFKC (full-width Latin becomes ASCII) and lower case. */
export function normalizeWord(word: string): string {
  // eslint-disable-next-line no-control-regex
  return /^[\x00-\x7f]*$/.test(word) ? word.toLowerCase() : word.normalize('NFKC').toLowerCase();
}

/**
 * Scans a text once: calls `onWord` for each non-CJK word and `onCjk` for each CJK run, in
 * order. A hand-written scanner: Unicode property regexes over whole texts were the slowest
 * part of indexing.
 */
function scan(text: string, onWord: (word: string) => void, onCjk: (run: string) => void): void {
  const n = text.length;
  let i = 0;
  while (i < n) {
    let code = text.charCodeAt(i);
    const kind = code < 128 ? classes[code] : classAt(text, i, code);
    if (kind === SEPARATOR) {
      i += widthAt(code);
      continue;
    }
    const start = i;
    i += widthAt(code);
    while (i < n) {
      code = text.charCodeAt(i);
      if ((code < 128 ? classes[code] : classAt(text, i, code)) !== kind) break;
      i += widthAt(code);
    }
    const piece = text.slice(start, i);
    if (kind === CJK) onCjk(piece);
    else onWord(piece);
  }
}

/** Calls `emit` for each token in order (positions are the call order; '' is a skipped word). */
export function forEachToken(text: string, emit: (token: string, cjk: boolean) => void): void {
  scan(
    text,
    (word) => emit(word.length <= MAX_WORD_LENGTH ? normalizeWord(word) : '', false),
    (run) => emitCjk(run, emit),
  );
}

function emitCjk(run: string, emit: (token: string, cjk: boolean) => void): void {
  const chars = Array.from(run);
  if (chars.length === 1) {
    emit(chars[0], true);
    return;
  }
  for (let i = 0; i + 1 < chars.length; i++) emit(chars[i] + chars[i + 1], true);
}

/** The token runs of a text: each word alone, each CJK run as its chain of bigrams. */
export function tokenRuns(text: string): Array<{ cjk: boolean; tokens: string[]; source: string }> {
  const out: Array<{ cjk: boolean; tokens: string[]; source: string }> = [];
  scan(
    text,
    (word) => {
      if (word.length <= MAX_WORD_LENGTH) {
        const w = normalizeWord(word);
        out.push({ cjk: false, tokens: [w], source: w });
      }
    },
    (run) => {
      const tokens: string[] = [];
      emitCjk(run, (t) => tokens.push(t));
      out.push({ cjk: true, tokens, source: run });
    },
  );
  return out;
}

/** The tokens of a text in order, '' for a skipped (too long) word. */
export function textTokens(text: string): string[] {
  const out: string[] = [];
  if (text) forEachToken(text, (t) => out.push(t));
  return out;
}

/** Whether a token from `textTokens` is a CJK gram rather than a word. */
export function isCjkToken(token: string): boolean {
  if (!token) return false;
  const code = token.charCodeAt(0);
  return (code < 128 ? classes[code] : classAt(token, 0, code)) === CJK;
}

/** Trigrams of a word, padded as pg_trgm pads them (`^` stands for its blanks). */
export function trigrams(word: string): string[] {
  const chars = Array.from(`^^${word}^`);
  const out = new Set<string>();
  for (let i = 0; i + 2 < chars.length; i++) out.add(chars[i] + chars[i + 1] + chars[i + 2]);
  return [...out];
}

/** pg_trgm's similarity: shared trigrams over all distinct trigrams of both words. */
export function trigramSimilarity(a: string, b: string): number {
  const ta = new Set(trigrams(a));
  const tb = trigrams(b);
  let shared = 0;
  for (const g of tb) if (ta.has(g)) shared++;
  return shared / (ta.size + tb.length - shared);
}

/** Words worth offering as typo corrections: plain letters, not too short (three) or long. */
export function isVocabularyWord(word: string): boolean {
  return word.length >= 3 && word.length <= 24 && /^\p{L}+$/u.test(word) && !CJK_CHAR.test(word);
}
