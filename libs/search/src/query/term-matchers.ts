import { Lexemes } from './build-tsquery';
import { QueryTerm } from './parse-query';

/**
 * Finds query terms in plain text, for snippets and for sentence picking in answers. A word
 * matches words that start with one of its stems or with the word itself (stems are prefixes
 * for the languages PostgreSQL stems); a CJK run is one matcher per chunk (bigram).
 */
export interface TermMatcher {
  /** A label for the term (its word or text). */
  label: string;
  regex: RegExp;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function termMatchers(terms: readonly QueryTerm[], lexemes: Lexemes): TermMatcher[] {
  const out: TermMatcher[] = [];
  const wordMatcher = (label: string, starts: string[]) => {
    const alternatives = [...new Set(starts.filter(Boolean))].sort((a, b) => b.length - a.length).map(escape);
    if (alternatives.length) out.push({ label, regex: new RegExp(`(?<![\\p{L}\\p{M}\\p{N}])(?:${alternatives.join('|')})`, 'giu') });
  };
  for (const term of terms) {
    if (term.kind === 'word') wordMatcher(term.word, [term.word, ...lexemes(term.word)]);
    else if (term.kind === 'cjk') {
      // Chunk by chunk: how much of a CJK run a text holds is the share of its chunks found.
      const units = term.grams.length > 1 ? [...new Set(term.grams)] : [term.source];
      for (const unit of units) out.push({ label: unit, regex: new RegExp(escape(unit), 'giu') });
    }
    else for (const t of term.tokens) if (!t.cjk) wordMatcher(t.text, [t.text, ...lexemes(t.text)]);
  }
  return out;
}

/** How many of the matchers find something in the text. */
export function countMatched(text: string, matchers: readonly TermMatcher[]): number {
  let n = 0;
  for (const m of matchers) {
    m.regex.lastIndex = 0;
    if (m.regex.test(text)) n++;
  }
  return n;
}

const SNIPPET_LENGTH = 240;
/**
 * A run of whitespace other than one plain space (those are left as they are): collapsing every
 * run, `/\s+/g`, rebuilt each snippet at each of its 30-40 single spaces, 2-3 µs a snippet where
 * this takes 0.6-1.3 (240 characters, with and without line breaks; the same strings as `\s+` on
 * 200,000 random mixes of spaces, tabs, line breaks and Unicode spaces). A run's first character
 * is where it matches, so the run is replaced whole.
 */
const SPACE_RUN = / ?[^\S ]\s*| {2,}\s*/g;

/**
 * A window of the text around its best cluster of matches, cut at word boundaries, whitespace
 * collapsed, `…` where it was cut. Without a match, the start of the text.
 */
export function snippet(text: string, matchers: readonly TermMatcher[], length = SNIPPET_LENGTH): string {
  return snippetAndMatch(text, matchers, length).snippet;
}

/**
 * `snippet`, and whether some matcher finds something in the text: found by the snippet's own
 * search, where asking `countMatched` as well searched each text twice (a search's 100 pages show
 * about 250 sections).
 */
export function snippetAndMatch(text: string, matchers: readonly TermMatcher[], length = SNIPPET_LENGTH): { snippet: string; matched: boolean } {
  if (!text) return { snippet: '', matched: false };
  const hits: Array<{ at: number; term: number }> = [];
  matchers.forEach((m, term) => {
    m.regex.lastIndex = 0;
    for (let found = m.regex.exec(text), n = 0; found && n < 50; found = m.regex.exec(text), n++) {
      hits.push({ at: found.index, term });
      if (found[0].length === 0) m.regex.lastIndex++;
    }
  });
  let start = 0;
  if (hits.length) {
    hits.sort((a, b) => a.at - b.at);
    // The window holding the most distinct terms, the first of equals: counted with one array of
    // flags, marked with the hit's index (no array and set per hit).
    const seenBy = new Int32Array(matchers.length).fill(-1);
    let best = -1;
    for (let i = 0; i < hits.length; i++) {
      const from = Math.max(0, hits[i].at - Math.floor(length / 4));
      let distinct = 0;
      for (const x of hits) {
        if (x.at >= from && x.at < from + length && seenBy[x.term] !== i) {
          seenBy[x.term] = i;
          distinct++;
        }
      }
      if (distinct > best) {
        best = distinct;
        start = from;
      }
    }
  }
  let end = Math.min(text.length, start + length);
  if (start > 0) {
    const space = text.lastIndexOf(' ', start);
    const nl = text.lastIndexOf('\n', start);
    const boundary = Math.max(space, nl);
    if (boundary >= 0 && start - boundary < 30) start = boundary + 1;
  }
  if (end < text.length) {
    const boundary = Math.max(text.lastIndexOf(' ', end), text.lastIndexOf('\n', end));
    if (boundary > start + length / 2) end = boundary;
  }
  const body = text.slice(start, end).replace(SPACE_RUN, ' ').trim();
  return { snippet: `${start > 0 ? '…' : ''}${body}${end < text.length ? '…' : ''}`, matched: hits.length > 0 };
}
