import { Queryable } from '@quire/platform/db/db';
import { decodeCursor, encodeCursor, InvalidCursorError } from '@quire/platform/http/pagination';
import { effectiveRankSql } from '@quire/read-models/permissions/access.sql';
import { buildTsquery, Lexemes, restrictWeights, termTsqueries } from './query/build-tsquery';
import { parseQuery, QueryTerm, queryWords } from './query/parse-query';
import { countMatched, snippet, TermMatcher, termMatchers } from './query/term-matchers';
import { Stemmer } from './text/stemmer';
import { isVocabularyWord, trigramSimilarity, trigrams } from './text/tokenize';

/**
 * Weights of D (section text), C (description, enclosing titles), B (section heading), A (page
 * title). The text is D, PostgreSQL's default weight, because D positions are written without a
 * letter: the bulk of every tsvector literal is shorter.
 */
const RANK_WEIGHTS = '{0.2, 0.1, 0.5, 1.0}';
/** Normalisation 1: divide by 1 + log(length), so long sections do not win by size alone. */
const RANK_NORMALIZATION = 1;
/**
 * Page title boost: TITLE_WEIGHT times the share of query terms the title holds, plus
 * SPECIFIC_WEIGHT times that share times the share of the title's words they cover (so
 * "CREATE TABLE" beats "CREATE FOREIGN TABLE" for the query `create table`). A term counts 1
 * in the title itself, half as a prefix there or in the description or the parent's title
 * ("tail" under "Input Plugins" for `tail input plugin`), a quarter as a prefix there.
 */
const TITLE_WEIGHT = 0.3;
const SPECIFIC_WEIGHT = 0.1;
/** Ask ranks sections, not pages: a flat boost when the page title holds a question term. */
const TITLE_BOOST = 0.3;
/** Sections shown per page result. */
const SECTIONS_PER_PAGE = 3;
/** Typo corrections offered per unknown word, and how close they must be (pg_trgm's default). */
const CORRECTIONS_PER_WORD = 3;
/** Words corrected per query at most (one trigram lookup each). */
const MAX_CORRECTED_WORDS = 5;
const MIN_SIMILARITY = 0.3;

export interface SearchCaller {
  userId: string;
  instanceAdmin: boolean;
}

/** A space the caller may search, with what its index needs. */
export interface SearchableSpace {
  id: string;
  title: string;
  config: string;
  revision: string;
}

export interface SectionHit {
  id: string;
  title: string;
  /** A snippet of the section's text around the match. */
  body: string;
  score: number;
  /** The section's own heading or text holds a query term (not only the page's title). */
  matchedContent: boolean;
}

export interface PageHit {
  spaceId: string;
  pageId: string;
  title: string;
  path: string;
  description: string;
  ancestors: string[];
  score: number;
  /** 1-based position in the whole ranked result, across pages of results. */
  rank: number;
  /** The page's title or description matches the query. */
  pageMatch: boolean;
  sections: SectionHit[];
}

export interface SearchResult {
  items: PageHit[];
  next?: { page: string };
  count: number;
}

/** A section retrieved for ask, with its whole text. */
export interface RetrievedSection {
  spaceId: string;
  revision: string;
  pageId: string;
  pageTitle: string;
  path: string;
  sectionId: string;
  sectionTitle: string;
  body: string;
  score: number;
  /** Distinct query terms found in the section (its page title included). */
  matchedTerms: number;
}

type Mode = 'all' | 'fuzzy' | 'any';
interface Group {
  config: string;
  spaceIds: string[];
}

/** Question words and fillers left out of "any word" queries, whatever the space's language. */
const NOISE = new Set(
  'a an and are can could did do does for from how i in is it me my of on or should the to what when where which who why will with would you your about please tell explain show'.split(' '),
);

/**
 * Full-text search over the index the search projection keeps: one space, or every space of
 * an organization the caller can read, ranked by weighted `ts_rank` with a boost for pages
 * whose own title matches; all words required, the last one as a prefix; unknown words
 * corrected from the vocabulary by trigram similarity when nothing matches; any word as the
 * last resort. Keyset pagination over (score, space, page) carries the global rank along.
 */
export class SearchQueries {
  constructor(
    private readonly db: Queryable,
    private readonly stemmer = new Stemmer(),
  ) {}

  /** The indexed state of one space (undefined while it has no indexed revision). */
  async space(spaceId: string): Promise<{ config: string; revision: string } | undefined> {
    const r = await this.db.query<{ config: string; indexed_revision: string }>(
      `SELECT config, indexed_revision FROM rm_search_spaces WHERE space_id = $1 AND indexed_revision IS NOT NULL AND NOT deleted`,
      [spaceId],
    );
    return r.rows[0] ? { config: r.rows[0].config, revision: r.rows[0].indexed_revision } : undefined;
  }

  /** Live, indexed spaces of the organization the caller can read (any role). */
  async readableSpaces(organizationId: string, caller: SearchCaller): Promise<SearchableSpace[]> {
    const r = await this.db.query<{ id: string; title: string; config: string; indexed_revision: string }>(
      `SELECT s.id, s.title, ss.config, ss.indexed_revision
         FROM rm_spaces s
         JOIN rm_search_spaces ss ON ss.space_id = s.id AND ss.indexed_revision IS NOT NULL AND NOT ss.deleted
         JOIN rm_access_nodes n ON n.id = s.id
         LEFT JOIN rm_organization_members m ON m.organization_id = s.organization_id AND m.user_id = $2
        WHERE s.organization_id = $1 AND s.deleted_at IS NULL AND ${effectiveRankSql('n', 'm', '$2', '$3')} > 0
        ORDER BY s.id`,
      [organizationId, caller.userId, caller.instanceAdmin],
    );
    return r.rows.map((x) => ({ id: x.id, title: x.title, config: x.config, revision: x.indexed_revision }));
  }

  async searchSpace(spaceId: string, query: string, opts: { page?: string; limit: number }): Promise<SearchResult> {
    const space = await this.space(spaceId);
    if (!space) return { items: [], count: 0 };
    return this.search([{ config: space.config, spaceIds: [spaceId] }], query, opts);
  }

  async searchSpaces(spaces: readonly SearchableSpace[], query: string, opts: { page?: string; limit: number }): Promise<SearchResult> {
    return this.search(groupByConfig(spaces), query, opts);
  }

  private async search(groups: Group[], query: string, opts: { page?: string; limit: number }): Promise<SearchResult> {
    const cursor = opts.page ? searchCursor(opts.page) : undefined;
    const terms = parseQuery(query);
    if (terms.length === 0 || groups.length === 0) return { items: [], count: 0 };
    const lexemes = await this.loadLexemes(groups, terms);
    const modes: Mode[] = cursor ? [cursor[0]] : terms.length > 1 ? ['all', 'fuzzy', 'any'] : ['all', 'fuzzy'];
    for (const mode of modes) {
      const alternatives = mode === 'fuzzy' ? await this.corrections(terms) : undefined;
      if (mode === 'fuzzy' && alternatives!.size === 0) continue;
      const queries = groups.map((g) => {
        const options = { mode: mode === 'any' ? ('any' as const) : ('all' as const), lexemes: lexemes.get(g.config)!, alternatives, isNoise: (w: string) => this.isNoise(w) };
        return { query: buildTsquery(terms, options), perTerm: termTsqueries(terms, options) };
      });
      if (queries.every((q) => !q.query)) continue;
      const result = await this.rankPages(groups, queries, mode, cursor, opts.limit);
      if (result.count === 0 && !cursor) continue;
      const matchers = termMatchers(terms, lexemes.get(groups[0].config)!);
      for (const page of result.items) {
        for (const section of page.sections) {
          section.matchedContent = countMatched(`${section.title}\n${section.body}`, matchers) > 0;
          section.body = snippet(section.body, matchers);
        }
      }
      return result;
    }
    return { items: [], count: 0 };
  }

  private async rankPages(
    groups: Group[],
    queries: Array<{ query: string; perTerm: Array<{ exact: string; loose: string }> }>,
    mode: Mode,
    cursor: Cursor | undefined,
    limit: number,
  ): Promise<SearchResult> {
    const params: unknown[] = [];
    const p = (v: unknown) => (params.push(v), `$${params.length}`);
    const hits: string[] = [];
    const titles: string[] = [];
    const qByGroup: string[] = [];
    groups.forEach((g, i) => {
      const { query, perTerm } = queries[i];
      if (!query) return;
      const q = `${p(query)}::tsquery`;
      // One space: an equality the planner estimates well (and answers from the primary key).
      const inSpaces = (column: string) => (g.spaceIds.length === 1 ? `${column} = ${p(g.spaceIds[0])}` : `${column} = ANY(${p(g.spaceIds)}::text[])`);
      qByGroup.push(`WHEN ${i} THEN ${q}`);
      hits.push(
        `SELECT s.space_id, s.page_id, ts_rank('${RANK_WEIGHTS}', s.tsv, ${q}, ${RANK_NORMALIZATION})::float8 AS r, ${i} AS g
           FROM rm_search_sections s WHERE ${inSpaces('s.space_id')} AND s.tsv @@ ${q}`,
      );
      const n = perTerm.length;
      titles.push(
        `SELECT p.space_id, p.page_id, x.own >= ${n} AS all_terms,
                (${TITLE_WEIGHT} * x.tm / ${n} + ${SPECIFIC_WEIGHT} * (x.tm / ${n}) * least(1, x.tm / greatest(p.title_words, 1)))::float8 AS boost
           FROM rm_search_pages p
           CROSS JOIN LATERAL (
             SELECT sum(CASE WHEN p.title_tsv @@ u.ea THEN 1.0 WHEN p.title_tsv @@ u.la OR p.title_tsv @@ u.e THEN 0.5 WHEN p.title_tsv @@ u.l THEN 0.25 ELSE 0 END)::float8 AS tm,
                    count(*) FILTER (WHERE p.title_tsv @@ u.lab) AS own
               FROM unnest(${p(perTerm.map((t) => restrictWeights(t.exact, 'A')))}::tsquery[], ${p(perTerm.map((t) => restrictWeights(t.loose, 'A')))}::tsquery[],
                           ${p(perTerm.map((t) => t.exact))}::tsquery[], ${p(perTerm.map((t) => t.loose))}::tsquery[],
                           ${p(perTerm.map((t) => restrictWeights(t.loose, 'AB')))}::tsquery[]) AS u(ea, la, e, l, lab)) x
          WHERE ${inSpaces('p.space_id')} AND p.title_tsv @@ ${p(perTerm.map((t) => `(${t.loose})`).join(' | '))}::tsquery`,
      );
    });
    const after = cursor ? `WHERE score < ${p(cursor[1])}::float8 OR (score = ${p(cursor[1])}::float8 AND (space_id, page_id) > (${p(cursor[2])}, ${p(cursor[3])}))` : '';
    // Rank every matching section (the tsvectors are inline and uncompressed for this), rank
    // pages by their best section plus the title boost; then, for the returned page of results
    // only, rank their sections again to pick the best three and read their texts.
    const r = await this.db.query<{
      space_id: string;
      page_id: string;
      title: string;
      path: string;
      description: string;
      ancestors: string[];
      page_match: boolean;
      score: number;
      total: number;
      sections: Array<{ id: string; title: string; body: string; score: number }> | null;
    }>(
      `WITH hits AS (${hits.join(' UNION ALL ')}),
       title_hits AS (${titles.join(' UNION ALL ')}),
       best AS (SELECT space_id, page_id, g, max(r) AS r FROM hits GROUP BY space_id, page_id, g),
       scored AS (
         SELECT b.space_id, b.page_id, b.g, coalesce(t.all_terms, false) AS page_match,
                (b.r + coalesce(t.boost, 0))::float8 AS score,
                count(*) OVER () AS total
           FROM best b LEFT JOIN title_hits t ON t.space_id = b.space_id AND t.page_id = b.page_id),
       top AS (SELECT * FROM scored ${after} ORDER BY score DESC, space_id, page_id LIMIT ${p(limit + 1)}),
       shown AS (
         SELECT s.space_id, s.page_id, s.ord, x.r, row_number() OVER (PARTITION BY s.space_id, s.page_id ORDER BY x.r DESC, s.ord) AS i
           FROM top JOIN rm_search_sections s ON s.space_id = top.space_id AND s.page_id = top.page_id
           CROSS JOIN LATERAL (SELECT (CASE top.g ${qByGroup.join(' ')} END) AS q) qq
           CROSS JOIN LATERAL (SELECT ts_rank('${RANK_WEIGHTS}', s.tsv, qq.q, ${RANK_NORMALIZATION})::float8 AS r) x
          WHERE s.tsv @@ qq.q)
       SELECT top.space_id, top.page_id, top.page_match, top.score, top.total, p.title, p.path, p.description, p.ancestors,
              (SELECT json_agg(json_build_object('id', x.section_id, 'title', x.title, 'body', x.body, 'score', sh.r) ORDER BY sh.i)
                 FROM shown sh JOIN rm_search_texts x ON x.space_id = sh.space_id AND x.page_id = sh.page_id AND x.ord = sh.ord
                WHERE sh.space_id = top.space_id AND sh.page_id = top.page_id AND sh.i <= ${SECTIONS_PER_PAGE}) AS sections
         FROM top JOIN rm_search_pages p ON p.space_id = top.space_id AND p.page_id = top.page_id
        ORDER BY top.score DESC, top.space_id, top.page_id`,
      params,
    );
    const rows = r.rows.slice(0, limit);
    const firstRank = cursor ? cursor[4] + 1 : 1;
    const items: PageHit[] = rows.map((row, i) => ({
      spaceId: row.space_id,
      pageId: row.page_id,
      title: row.title,
      path: row.path,
      description: row.description,
      ancestors: row.ancestors,
      score: row.score,
      rank: firstRank + i,
      pageMatch: row.page_match,
      sections: (row.sections ?? []).map((s) => ({ id: s.id, title: s.title, body: s.body, score: s.score, matchedContent: true })),
    }));
    const result: SearchResult = { items, count: Number(r.rows[0]?.total ?? 0) };
    if (r.rows.length > limit) {
      const last = items[items.length - 1];
      result.next = { page: encodeCursor([mode, last.score, last.spaceId, last.pageId, last.rank]) };
    }
    return result;
  }

  /**
   * The best sections for a question across spaces, any word matching (question words left
   * out), each with the number of distinct query terms it holds.
   */
  async retrieveSections(
    spaces: readonly SearchableSpace[],
    question: string,
    opts: { limit: number; context?: readonly string[] },
  ): Promise<{ sections: RetrievedSection[]; matchers: TermMatcher[] }> {
    let terms = parseQuery(question).map((t) => (t.kind === 'word' ? { ...t, prefix: false } : t));
    const groups = groupByConfig(spaces);
    if (groups.length === 0) return { sections: [], matchers: [] };
    // A follow-up such as "and on Windows?" leans on the previous question's words.
    const meaningful = terms.filter((t) => t.kind !== 'word' || !NOISE.has(t.word));
    if (meaningful.length < 2 && opts.context?.length) {
      const extra = parseQuery(opts.context[opts.context.length - 1]).map((t) => (t.kind === 'word' ? { ...t, prefix: false } : t));
      terms = [...terms, ...extra];
    }
    const lexemes = await this.loadLexemes(groups, terms);
    const revisions = new Map(spaces.map((s) => [s.id, s.revision]));
    const params: unknown[] = [];
    const p = (v: unknown) => (params.push(v), `$${params.length}`);
    const branches: string[] = [];
    for (const g of groups) {
      const q = buildTsquery(terms, { mode: 'any', lexemes: lexemes.get(g.config)!, isNoise: (w) => this.isNoise(w) });
      if (!q) continue;
      const qp = `${p(q)}::tsquery`;
      const spaces = `${p(g.spaceIds)}::text[]`;
      // The title boost comes from the (small) pages whose title matches, found by their own index.
      branches.push(
        `SELECT s.space_id, s.page_id, s.ord,
                (ts_rank('${RANK_WEIGHTS}', s.tsv, ${qp}, ${RANK_NORMALIZATION}) + CASE WHEN t.page_id IS NOT NULL THEN ${TITLE_BOOST} ELSE 0 END)::float8 AS score
           FROM rm_search_sections s
           LEFT JOIN (SELECT space_id, page_id FROM rm_search_pages WHERE space_id = ANY(${spaces}) AND title_tsv @@ ${qp}) t
             ON t.space_id = s.space_id AND t.page_id = s.page_id
          WHERE s.space_id = ANY(${spaces}) AND s.tsv @@ ${qp}`,
      );
    }
    if (branches.length === 0) return { sections: [], matchers: [] };
    // Rank more than needed, then prefer sections that hold more of the question's terms.
    const r = await this.db.query<any>(
      `WITH top AS (${branches.join(' UNION ALL ')} ORDER BY score DESC, space_id, page_id, ord LIMIT ${p(opts.limit * 4)})
       SELECT top.*, x.section_id, x.title, x.body, p.title AS page_title, p.path
         FROM top JOIN rm_search_texts x ON x.space_id = top.space_id AND x.page_id = top.page_id AND x.ord = top.ord
         JOIN rm_search_pages p ON p.space_id = top.space_id AND p.page_id = top.page_id
        ORDER BY top.score DESC, top.space_id, top.page_id, top.ord`,
      params,
    );
    const matchers = termMatchers(
      terms.filter((t) => t.kind !== 'word' || !this.isNoise(t.word)),
      lexemes.get(groups[0].config)!,
    );
    const sections: RetrievedSection[] = r.rows.map((row) => ({
      spaceId: row.space_id,
      revision: revisions.get(row.space_id)!,
      pageId: row.page_id,
      pageTitle: row.page_title,
      path: row.path,
      sectionId: row.section_id,
      sectionTitle: row.title,
      body: row.body,
      score: row.score,
      matchedTerms: countMatched(`${row.page_title}\n${row.title}\n${row.body}`, matchers),
    }));
    sections.sort((a, b) => b.matchedTerms - a.matchedTerms || b.score - a.score);
    return { sections: sections.slice(0, opts.limit), matchers };
  }

  /** Lexemes of the query's words for each configuration in play. */
  private async loadLexemes(groups: readonly Group[], terms: readonly QueryTerm[]): Promise<Map<string, Lexemes>> {
    const words = queryWords(terms);
    const out = new Map<string, Lexemes>();
    await this.stemmer.load(this.db, 'english', words); // for noise detection
    for (const config of new Set(groups.map((g) => g.config))) {
      await this.stemmer.load(this.db, config, words);
      out.set(config, (w) => this.stemmer.lexemes(config, w));
    }
    return out;
  }

  private isNoise(word: string): boolean {
    return NOISE.has(word) || this.stemmer.lexemes('english', word).length === 0;
  }

  /**
   * Close vocabulary words for query words the index has never seen (or, for a prefix, that
   * start nothing), by trigram similarity computed in plain SQL (pg_trgm is not assumed).
   */
  async corrections(terms: readonly QueryTerm[]): Promise<Map<string, string[]>> {
    const candidates = terms.filter((t): t is Extract<QueryTerm, { kind: 'word' }> => t.kind === 'word' && isVocabularyWord(t.word) && !this.isNoise(t.word));
    if (candidates.length === 0) return new Map();
    const words = candidates.map((t) => t.word);
    const known = await this.db.query<{ w: string }>(
      `SELECT w FROM unnest($1::text[], $2::boolean[]) AS x(w, prefix)
        WHERE EXISTS (SELECT 1 FROM rm_search_terms t WHERE CASE WHEN x.prefix THEN t.term LIKE x.w || '%' ELSE t.term = x.w END)`,
      [words, candidates.map((t) => t.prefix)],
    );
    const knownWords = new Set(known.rows.map((r) => r.w));
    const unknown = words.filter((w) => !knownWords.has(w)).slice(0, MAX_CORRECTED_WORDS);
    if (unknown.length === 0) return new Map();
    const out = new Map<string, string[]>();
    for (const word of unknown) {
      // The trigram index finds words sharing any trigram; similarity is ranked here.
      // Like fuzzy matchers with a prefix length of one: a typo rarely hits the first letter, and
      // keeping it narrows the candidates to one range of the primary key.
      const first = String.fromCodePoint(word.codePointAt(0)!);
      const r = await this.db.query<{ term: string }>(
        `SELECT term FROM rm_search_terms
          WHERE term >= $1 AND term < $2 AND len BETWEEN $3 AND $4 AND trigrams && $5::text[]`,
        [first, String.fromCodePoint(first.codePointAt(0)! + 1), word.length - 3, word.length + 3, trigrams(word)],
      );
      const close = r.rows
        .map((row) => ({ term: row.term, sim: trigramSimilarity(word, row.term) }))
        .filter((c) => c.sim >= MIN_SIMILARITY && c.term !== word)
        .sort((a, b) => b.sim - a.sim || (a.term < b.term ? -1 : 1))
        .slice(0, CORRECTIONS_PER_WORD);
      if (close.length) out.set(word, close.map((c) => c.term));
    }
    return out;
  }
}

type Cursor = [Mode, number, string, string, number];

/** The last item of the previous page: how it matched, its score, space, page and rank. */
function searchCursor(page: string): Cursor {
  const [mode, score, spaceId, pageId, rank] = decodeCursor(page, 5) as unknown[];
  const valid =
    (mode === 'all' || mode === 'fuzzy' || mode === 'any') &&
    typeof score === 'number' &&
    Number.isFinite(score) &&
    typeof spaceId === 'string' &&
    typeof pageId === 'string' &&
    Number.isInteger(rank) &&
    (rank as number) >= 1;
  if (!valid) throw new InvalidCursorError();
  return [mode, score, spaceId, pageId, rank as number];
}

function groupByConfig(spaces: readonly { id: string; config: string }[]): Group[] {
  const groups = new Map<string, string[]>();
  for (const s of spaces) groups.set(s.config, [...(groups.get(s.config) ?? []), s.id]);
  return [...groups].map(([config, spaceIds]) => ({ config, spaceIds }));
}

export type { TermMatcher };
