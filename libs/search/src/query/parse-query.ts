import { tokenRuns } from '../text/tokenize';

export type QueryTerm =
  /** A word; `prefix` for the last word of a query still being typed. */
  | { kind: 'word'; word: string; prefix: boolean }
  /** A run of CJK text: its bigrams must follow each other. */
  | { kind: 'cjk'; grams: string[]; source: string }
  /** `"quoted words"`: tokens at consecutive positions. */
  | { kind: 'phrase'; tokens: Array<{ text: string; cjk: boolean }>; source: string };

const ENDS_IN_WORD = /[\p{L}\p{M}\p{N}]$/u;

/**
 * A search box query: words (all required), `"phrases"` in double quotes, CJK runs matched as
 * phrases of bigrams. The last word is a prefix when the query ends in it (search as you type).
 * An unterminated quote is a phrase up to the end.
 */
export function parseQuery(input: string): QueryTerm[] {
  const terms: QueryTerm[] = [];
  let lastUnquotedEnd = -1;
  for (const m of input.matchAll(/"([^"]*)"?|[^"]+/g)) {
    if (m[0].startsWith('"')) {
      const runs = tokenRuns(m[1]);
      const tokens = runs.flatMap((r) => r.tokens.map((text) => ({ text, cjk: r.cjk })));
      if (tokens.length === 1 && !tokens[0].cjk) terms.push({ kind: 'word', word: tokens[0].text, prefix: false });
      else if (tokens.length > 0) terms.push({ kind: 'phrase', tokens, source: m[1] });
      continue;
    }
    for (const run of tokenRuns(m[0])) {
      if (!run.cjk) terms.push({ kind: 'word', word: run.tokens[0], prefix: false });
      else for (const part of cjkQueryParts(run.source)) for (const r of tokenRuns(part)) terms.push({ kind: 'cjk', grams: r.tokens, source: r.source });
    }
    lastUnquotedEnd = m.index! + m[0].length;
  }
  const last = terms[terms.length - 1];
  if (last?.kind === 'word' && lastUnquotedEnd === input.length && ENDS_IN_WORD.test(input) && last.word.length >= 2) last.prefix = true;
  return dedupe(terms);
}

/**
 * Question words of Chinese and Japanese ("what is", "how do I", "please"), left out of an
 * unquoted CJK run the way English question words are left out of "any word" queries: they
 * are not in the page, and their chunks only dilute the match.
 */
const CJK_QUESTION_WORDS = [
  '是什麼', '是什么', '什麼是', '什么是', '為什麼', '为什么', '什麼', '什么', '如何', '怎麼', '怎么', '怎樣', '怎样', '哪裡', '哪里', '哪個', '哪个', '請問', '请问',
  'とは何', 'とは', 'ですか', 'ますか', 'ください', 'どうやって', 'どうすれば', 'どう',
];
const CJK_QUESTION_RE = new RegExp(CJK_QUESTION_WORDS.join('|'), 'gu');
/** Trailing question particles (Chinese). */
const CJK_FINAL_PARTICLE = /[嗎吗呢]+$/u;
/** A Japanese particle written as one hiragana between kanji or katakana: "サーバーにインストール". */
const JA_PARTICLE = /(?<=[\p{sc=Han}\p{sc=Katakana}ー])[はがをにでのとへもか](?=[\p{sc=Han}\p{sc=Katakana}]|$)/gu;

/** The parts of a CJK run worth searching for, question words and particles cut out. */
export function cjkQueryParts(run: string): string[] {
  const parts = run
    .replace(CJK_QUESTION_RE, ' ')
    .replace(CJK_FINAL_PARTICLE, ' ')
    .replace(JA_PARTICLE, ' ')
    .split(' ')
    .filter(Boolean);
  return parts.length ? parts : [run];
}

function dedupe(terms: QueryTerm[]): QueryTerm[] {
  const seen = new Set<string>();
  return terms.filter((t) => {
    const key = t.kind === 'word' ? `w:${t.word}:${t.prefix}` : t.kind === 'cjk' ? `c:${t.grams.join(' ')}` : `p:${t.tokens.map((x) => x.text).join(' ')}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The words of the terms (phrase words included), for stemming. */
export function queryWords(terms: readonly QueryTerm[]): string[] {
  const out: string[] = [];
  for (const t of terms) {
    if (t.kind === 'word') out.push(t.word);
    else if (t.kind === 'phrase') for (const x of t.tokens) if (!x.cjk) out.push(x.text);
  }
  return out;
}
