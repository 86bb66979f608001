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
      if (run.cjk) terms.push({ kind: 'cjk', grams: run.tokens, source: run.source });
      else terms.push({ kind: 'word', word: run.tokens[0], prefix: false });
    }
    lastUnquotedEnd = m.index! + m[0].length;
  }
  const last = terms[terms.length - 1];
  if (last?.kind === 'word' && lastUnquotedEnd === input.length && ENDS_IN_WORD.test(input) && last.word.length >= 2) last.prefix = true;
  return dedupe(terms);
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
