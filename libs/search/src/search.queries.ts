import { createHash } from 'crypto';
import { Queryable } from '@quire/platform/db/db';
import { decodeCursor, encodeCursor, InvalidCursorError } from '@quire/platform/http/pagination';
import { effectiveRankSql } from '@quire/read-models/permissions/access.sql';
import { buildTsquery, cjkRequirements, CjkRequirement, Lexemes, pageMatch, restrictWeights, termTsqueries } from './query/build-tsquery';
import { bestPages, matchingPages, PageCandidates, PageMatch, Scores } from './postings/page-candidates';
import { PostingsCache } from './postings/postings-cache';
import { parseQuery, QueryTerm, queryWords } from './query/parse-query';
import { countMatched, snippetAndMatch, TermMatcher, termMatchers } from './query/term-matchers';
import { Stemmer } from './text/stemmer';
import { isVocabularyWord, trigramSimilarity, trigrams } from './text/tokenize';
import { quoteLexeme } from './text/build-tsvector';
import { RANK_WEIGHTS, SPECIFIC_WEIGHT, TITLE_WEIGHT } from './ranking';

/** `ts_rank`'s weights as an array literal (see RANK_WEIGHTS). */
const RANK_WEIGHTS_SQL = `{${RANK_WEIGHTS.join(', ')}}`;
/** Normalisation 1: divide by 1 + log(length), so long sections do not win by size alone. */
const RANK_NORMALIZATION = 1;
/**
 * Exact spelling bonus: a page holding a query word as written (not only a word sharing its stem,
 * as "managment" shares "management"'s, nor a longer word it starts) gains up to EXACT_WEIGHT,
 * scaled by how rare that spelling is among the matching pages, ln(matches / holders) /
 * ln(matches): all of it for the one page that holds it, nothing when every match holds it.
 * A word written on one page thus finds that page first however common its stem is, while a
 * form most matches share ("install") barely moves the order. Averaged over such words.
 */
const EXACT_WEIGHT = 1.0;
/**
 * Pages ranked exactly per query, at least: the best of them by their postings' impacts (see
 * `matchingPages`). Where fewer pages match, all of them are, and the ranking is exact.
 */
const CANDIDATE_PAGES = 200;
/**
 * The candidate pages and their sections, read by key and primary key, and materialised: the
 * tsquery is matched against these few sections only. (Sections have no GIN index: its posting
 * lists hold every matching section of the installation, which the planner reached for when it
 * had one; the postings choose the candidates instead.)
 * Each candidate's sections are looked up by primary key (LATERAL, OFFSET 0 keeps the planner from
 * flattening it into a join): in an index of a few thousand sections the planner preferred a hash
 * join over a scan of every section, whose wide tsvectors it copies into the hash table, at twice
 * the cost of the 200 lookups (a space of 1,000 pages, "buffer": 4.2 -> 2.2 ms of backend CPU).
 * The sections are materialised only for a statement that reads them more than once (`shared`: one
 * branch per configuration); read once, each candidate's are matched where they are looked up,
 * without copying their wide tsvectors into the CTE's store first (202 candidates, 808 sections at
 * 100 spaces: 4.7 -> 4.1 ms of backend time for the space search mix, on average).
 */
const CANDIDATES_SQL = (keys: string, shared: boolean) =>
  `candidates AS MATERIALIZED (SELECT space_id, page_id, title_tsv, title_words FROM rm_search_pages WHERE key = ANY(${keys})),
   candidate_sections AS ${shared ? '' : 'NOT '}MATERIALIZED (
     SELECT s.space_id, s.page_id, s.ord, s.tsv, c.title_tsv, c.title_words
       FROM candidates c
       CROSS JOIN LATERAL (SELECT s.space_id, s.page_id, s.ord, s.tsv FROM rm_search_sections s WHERE s.space_id = c.space_id AND s.page_id = c.page_id OFFSET 0) s)`;
/**
 * Ranking statement texts run by name at most (see `rankingName`): at about 400 KB each on the
 * server, at most 6.4 MB for each connection of the pool.
 */
const NAMED_RANKINGS = 16;
/**
 * Whether some page of the spaces `keys` (an int[] expression) holds the word `x.w`, or a word it
 * starts when `x.prefix`: the one test of heldWords and unknownWords.
 */
const HELD_SQL = (keys: string) => `CASE WHEN x.prefix
       THEN EXISTS (SELECT 1 FROM rm_search_postings p WHERE p.lexeme >= x.w AND p.lexeme < x.w || chr(1114111) AND p.space_key = ANY(${keys}))
       ELSE EXISTS (SELECT 1 FROM rm_search_postings p WHERE p.lexeme = x.w AND p.space_key = ANY(${keys})) END`;
/** Ask ranks sections, not pages: a flat boost when the page title holds a question term. */
const TITLE_BOOST = 0.3;
/** A long CJK run in search: weight of the share of its chunks a section holds, bonus for all of it in order. */
const CJK_SHARE_WEIGHT = 0.2;
const CJK_PHRASE_BONUS = 0.3;
/** Ask: earlier questions used as context at most, their terms each, and the weight of the most recent. */
const CONTEXT_QUESTIONS = 3;
const CONTEXT_TERMS = 8;
const CONTEXT_WEIGHT = 0.5;
/** Sections shown per page result. */
const SECTIONS_PER_PAGE = 3;
/** Typo corrections offered per unknown word, and how close they must be (pg_trgm's default). */
const CORRECTIONS_PER_WORD = 3;
/** Words corrected per query at most (one trigram lookup each). */
const MAX_CORRECTED_WORDS = 5;
const MIN_SIMILARITY = 0.3;
/** Words this long or shorter are corrected by one edit only, found without trigrams. */
const SHORT_WORD = 5;
/** Close words kept before checking that the searched spaces hold them. */
const CORRECTION_CANDIDATES = 8;
/** Words of any first letter compared when none with the word's own first letter is close. */
const ANY_FIRST_CANDIDATES = 50;

export interface SearchCaller {
  userId: string;
  instanceAdmin: boolean;
}

/** A space the caller may search, with what its index needs. */
export interface SearchableSpace {
  id: string;
  /** The index's key of the space (its postings are keyed by it). */
  key: number;
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
  /** The same for each earlier question used as context, most recent first. */
  matchedEarlier?: number[];
}

/**
 * Whether a section holding `matched` of a question's `total` terms answers it: all of one or
 * two terms, at least half of more (a CJK run counts chunk by chunk, so this is the share of
 * its chunks).
 */
export function isRelevant(matched: number, total: number): boolean {
  return total > 0 && matched >= (total <= 2 ? total : Math.ceil(total / 2));
}

type Mode = 'all' | 'fuzzy' | 'any';
interface Group {
  config: string;
  spaceIds: string[];
  spaceKeys: number[];
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
  /** Ranking statements' names, by their text (see `rankingName`). */
  private readonly rankingNames = new Map<string, string>();

  constructor(
    private readonly db: Queryable,
    private readonly stemmer = new Stemmer(),
    private readonly postings = new PostingsCache(),
  ) {}

  /** The indexed state of one space (undefined while it has no indexed revision). */
  async space(spaceId: string): Promise<{ key: number; config: string; revision: string } | undefined> {
    const r = await this.db.query<{ key: number; config: string; indexed_revision: string }>(
      `SELECT key, config, indexed_revision FROM rm_search_spaces WHERE space_id = $1 AND indexed_revision IS NOT NULL AND NOT deleted`,
      [spaceId],
      // Every space search starts here: parsed once per connection (0.09 -> 0.04 ms of backend CPU).
      { name: 'quire_search_space' },
    );
    const row = r.rows[0];
    return row ? { key: row.key, config: row.config, revision: row.indexed_revision } : undefined;
  }

  /** Live, indexed spaces of the organization the caller can read (any role). */
  async readableSpaces(organizationId: string, caller: SearchCaller): Promise<SearchableSpace[]> {
    const r = await this.db.query<{ id: string; key: number; title: string; config: string; indexed_revision: string }>(
      `SELECT s.id, ss.key, s.title, ss.config, ss.indexed_revision
         FROM rm_spaces s
         JOIN rm_search_spaces ss ON ss.space_id = s.id AND ss.indexed_revision IS NOT NULL AND NOT ss.deleted
         JOIN rm_access_nodes n ON n.id = s.id
         LEFT JOIN rm_organization_members m ON m.organization_id = s.organization_id AND m.user_id = $2
        WHERE s.organization_id = $1 AND s.deleted_at IS NULL AND ${effectiveRankSql('n', 'm', '$2', '$3')} > 0
        ORDER BY s.id`,
      [organizationId, caller.userId, caller.instanceAdmin],
    );
    return r.rows.map((x) => ({ id: x.id, key: x.key, title: x.title, config: x.config, revision: x.indexed_revision }));
  }

  /** Live, indexed spaces among `spaceIds` (a site's spaces: whoever may read the site may search them). */
  async indexedSpaces(spaceIds: readonly string[]): Promise<SearchableSpace[]> {
    const r = await this.db.query<{ id: string; key: number; title: string; config: string; indexed_revision: string }>(
      `SELECT s.id, ss.key, s.title, ss.config, ss.indexed_revision
         FROM rm_spaces s
         JOIN rm_search_spaces ss ON ss.space_id = s.id AND ss.indexed_revision IS NOT NULL AND NOT ss.deleted
        WHERE s.id = ANY($1::text[]) AND s.deleted_at IS NULL
        ORDER BY s.id`,
      [spaceIds],
    );
    return r.rows.map((x) => ({ id: x.id, key: x.key, title: x.title, config: x.config, revision: x.indexed_revision }));
  }

  async searchSpace(spaceId: string, query: string, opts: { page?: string; limit: number }): Promise<SearchResult> {
    const space = await this.space(spaceId);
    if (!space) return { items: [], count: 0 };
    return this.search([{ config: space.config, spaceIds: [spaceId], spaceKeys: [space.key] }], query, opts);
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
      const alternatives = mode === 'fuzzy' ? await this.corrections(terms, groups) : undefined;
      if (mode === 'fuzzy' && alternatives!.size === 0) continue;
      const queries = groups.map((g) => {
        const options = { mode: mode === 'any' ? ('any' as const) : ('all' as const), lexemes: lexemes.get(g.config)!, alternatives, isNoise: (w: string) => this.isNoise(w) };
        return { query: buildTsquery(terms, options), match: pageMatch(terms, options), perTerm: termTsqueries(terms, options), cjk: cjkRequirements(terms, options) };
      });
      if (queries.every((q) => !q.query)) continue;
      const exact = this.exactWords(terms, groups, lexemes);
      // Enough candidates for the page of results asked for (a cursor carries its rank), more
      // when the exact ranking leaves too few of them (a page holding every word, none of its
      // sections all of them). A phrase is matched by its positions there, like a word.
      let wanted = Math.max(CANDIDATE_PAGES, 2 * ((cursor?.[4] ?? 0) + opts.limit + 1));
      let result: SearchResult;
      const matching = await this.matching(groups, queries.map((q) => q.match), exact);
      for (;;) {
        const candidates = this.candidates(matching, wanted);
        if (candidates.keys.length === 0) {
          result = { items: [], count: 0 };
          break;
        }
        result = await this.rankPages(groups, queries, exact, mode, cursor, opts.limit, candidates);
        // rankPages reads a round that goes on here for its number of results only (its items bare).
        if (!candidates.truncated || result.next) break;
        wanted = moreCandidates(wanted, cursor?.[4] ?? 0, result.items.length, opts.limit);
      }
      if (result.count === 0 && !cursor) continue;
      const matchers = termMatchers(terms, lexemes.get(groups[0].config)!);
      for (const page of result.items) {
        for (const section of page.sections) {
          // The heading or the text (no matcher's word or chunk holds a line break, so none matches across them).
          const { snippet, matched } = snippetAndMatch(section.body, matchers);
          section.matchedContent = matched || countMatched(section.title, matchers) > 0;
          section.body = snippet;
        }
      }
      return result;
    }
    return { items: [], count: 0 };
  }

  private async rankPages(
    groups: Group[],
    queries: Array<{ query: string; perTerm: Array<{ exact: string; loose: string }>; cjk: CjkRequirement[] }>,
    exactWords: readonly string[],
    mode: Mode,
    cursor: Cursor | undefined,
    limit: number,
    candidates: Candidates,
  ): Promise<SearchResult> {
    const params: unknown[] = [];
    const p = (v: unknown) => (params.push(v), `$${params.length}`);
    const hits: string[] = [];
    // Whether each section holds each exact spelling (see EXACT_WEIGHT).
    const exact = exactWords.map((w, k) => ({ holds: `s.tsv @@ ${p(quoteLexeme(w))}::tsquery AS e${k}`, col: `e${k}`, df: `d${k}` }));
    const exactHolds = exact.map((e) => `, ${e.holds}`).join('');
    const exactAny = exact.map((e) => `, bool_or(${e.col}) AS ${e.col}`).join('');
    const exactBonus = exact.length
      ? ` + ${EXACT_WEIGHT} * (${exact.map((e) => `CASE WHEN b.${e.col} THEN ln(sp.n / sp.${e.df}) / ln(greatest(sp.n, 2)) ELSE 0 END`).join(' + ')}) / ${exact.length}`
      : '';
    // Over every matching page: counted here when all of them are candidates, else from the postings.
    const spread = !exact.length
      ? ''
      : candidates.truncated
        ? `spread AS (SELECT ${p(candidates.total)}::float8 AS n${exact.map((e, k) => `, ${p(Math.max(1, candidates.holders[k]))}::float8 AS ${e.df}`).join('')}),`
        : `spread AS (SELECT count(*)::float8 AS n${exact.map((e) => `, count(*) FILTER (WHERE ${e.col})::float8 AS ${e.df}`).join('')} FROM best),`;
    const keys = `${p(candidates.keys)}::int[]`;
    groups.forEach((g, i) => {
      const { query, perTerm, cjk } = queries[i];
      if (!query) return;
      const q = `${p(query)}::tsquery`;
      // One space: an equality the planner estimates well (and answers from the primary key).
      const inSpaces = (column: string) => (g.spaceIds.length === 1 ? `${column} = ${p(g.spaceIds[0])}` : `${column} = ANY(${p(g.spaceIds)}::text[])`);
      // A long CJK run: enough of its chunks, more of them and the exact phrase ranking higher.
      const counts = cjk.map((c, k) => `CROSS JOIN LATERAL (SELECT count(*)::float8 AS n FROM unnest(${p(c.grams)}::tsquery[]) AS u(q) WHERE s.tsv @@ u.q) k${k}`);
      const needs = cjk.map((c, k) => ` AND k${k}.n >= ${c.needed}`).join('');
      const bonus = cjk
        .map((c, k) => ` + ${CJK_SHARE_WEIGHT} * k${k}.n / ${c.grams.length} + CASE WHEN s.tsv @@ ${p(c.phrase)}::tsquery THEN ${CJK_PHRASE_BONUS} ELSE 0 END`)
        .join('');
      // The title boost, from the page's title_tsv carried by each of its sections (a join of
      // the two sets of candidates was planned as a nested loop over both).
      const n = Math.max(1, perTerm.length);
      hits.push(
        `SELECT s.space_id, s.page_id, s.ord, rk.sr, (rk.sr${bonus})::float8 AS r, ${i} AS g,
                x.own >= ${n} AS all_terms,
                (${TITLE_WEIGHT} * x.tm / ${n} + ${SPECIFIC_WEIGHT} * (x.tm / ${n}) * least(1, x.tm / greatest(s.title_words, 1)))::float8 AS boost${exactHolds}
           FROM candidate_sections s ${counts.join(' ')}
           CROSS JOIN LATERAL (SELECT ts_rank('${RANK_WEIGHTS_SQL}', s.tsv, ${q}, ${RANK_NORMALIZATION})::float8 AS sr) rk
           CROSS JOIN LATERAL (
             SELECT coalesce(sum(CASE WHEN s.title_tsv @@ u.ea THEN 1.0 WHEN s.title_tsv @@ u.la OR s.title_tsv @@ u.e THEN 0.5 WHEN s.title_tsv @@ u.l THEN 0.25 ELSE 0 END), 0)::float8 AS tm,
                    count(*) FILTER (WHERE s.title_tsv @@ u.lab) AS own
               FROM unnest(${p(perTerm.map((t) => restrictWeights(t.exact, 'A')))}::tsquery[], ${p(perTerm.map((t) => restrictWeights(t.loose, 'A')))}::tsquery[],
                           ${p(perTerm.map((t) => t.exact))}::tsquery[], ${p(perTerm.map((t) => t.loose))}::tsquery[],
                           ${p(perTerm.map((t) => restrictWeights(t.loose, 'AB')))}::tsquery[]) AS u(ea, la, e, l, lab)) x
          WHERE ${inSpaces('s.space_id')} AND s.tsv @@ ${q}${needs}`,
      );
    });
    const after = cursor ? `WHERE score < ${p(cursor[1])}::float8 OR (score = ${p(cursor[1])}::float8 AND (space_id, page_id) > (${p(cursor[2])}, ${p(cursor[3])}))` : '';
    // Rank every matching section (the tsvectors are inline and uncompressed for this), rank
    // pages by their best section plus the title boost, each page carrying its best three
    // sections' ords and ranks; then read those sections' texts for the returned page of results
    // only. (Picking them by joining the results back to the hits cost a scan of every hit per
    // result: 5 of 10 ms of a space search returning 100 pages.) Each returned page comes as one
    // row per section shown, in order (a section without texts as a row of nulls): received as
    // plain columns, not built into JSON, escaped and parsed again (100 pages, about 250 sections
    // of 600 characters: 7.9 -> 7.1 ms a ranking statement, client side, over the space search
    // mix). The page's own columns come on its first row only (null on the others), so that its
    // title, path and ancestors are sent and parsed once, not once per section shown.
    // A round that `search` ranks again with more candidates (some left out, and no more than
    // `limit` results) is read for its number of results only: one row per page, without its
    // columns or texts ("timeout retry limit": 83 pages and their 81 KB of texts read, sent and
    // dropped before ranking 307 candidates). Two branches, each whole under a one-time filter:
    // the condition in the joins' ON clauses was checked row by row, after the lookups.
    const shown = `(${p(!candidates.truncated)}::boolean OR (SELECT count(*) FROM top) > ${p(limit)})`;
    const sql =
      `WITH ${CANDIDATES_SQL(keys, hits.length > 1)},
       hits AS MATERIALIZED (${hits.join(' UNION ALL ')}),
       best AS (
         SELECT space_id, page_id, g, max(r) AS r, bool_or(all_terms) AS page_match, max(boost) AS boost${exactAny},
                (array_agg(ord ORDER BY sr DESC, ord))[1:${SECTIONS_PER_PAGE}] AS ords, (array_agg(sr ORDER BY sr DESC, ord))[1:${SECTIONS_PER_PAGE}] AS srs
           FROM hits GROUP BY space_id, page_id, g),
       ${spread}
       scored AS (
         SELECT b.space_id, b.page_id, b.g, b.page_match, b.ords, b.srs, (b.r + b.boost${exactBonus})::float8 AS score, count(*) OVER () AS total
           FROM best b${exact.length ? ' CROSS JOIN spread sp' : ''}),
       top AS (SELECT * FROM scored ${after} ORDER BY score DESC, space_id, page_id LIMIT ${p(limit + 1)})
       SELECT top.space_id, top.page_id, top.page_match, top.score, top.total,
              CASE WHEN sx.i = 1 THEN p.title END AS title, CASE WHEN sx.i = 1 THEN p.path END AS path,
              CASE WHEN sx.i = 1 THEN p.description END AS description, CASE WHEN sx.i = 1 THEN p.ancestors END AS ancestors,
              sx.section_id, sx.section_title, sx.body, sx.section_score, sx.i
         FROM top JOIN rm_search_pages p ON p.space_id = top.space_id AND p.page_id = top.page_id
         CROSS JOIN LATERAL (
           SELECT sh.i, x.section_id, x.title AS section_title, x.body, sh.r AS section_score
             FROM unnest(top.ords, top.srs) WITH ORDINALITY AS sh(ord, r, i)
             LEFT JOIN rm_search_texts x ON x.space_id = top.space_id AND x.page_id = top.page_id AND x.ord = sh.ord) sx
        WHERE ${shown}
       UNION ALL
       SELECT space_id, page_id, page_match, score, total, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, 1 FROM top WHERE NOT ${shown}
        ORDER BY score DESC, space_id, page_id, i`;
    const r = await this.db.query<{
      space_id: string;
      page_id: string;
      title: string | null;
      path: string | null;
      description: string | null;
      ancestors: string[] | null;
      page_match: boolean;
      score: number;
      total: number;
      section_id: string | null;
      section_title: string;
      body: string;
      section_score: number;
    }>(sql, params, { name: this.rankingName(sql) });
    const firstRank = cursor ? cursor[4] + 1 : 1;
    const items: PageHit[] = [];
    let more = false;
    let page: PageHit | undefined;
    for (const row of r.rows) {
      if (!page || page.pageId !== row.page_id || page.spaceId !== row.space_id) {
        if (items.length === limit) {
          more = true;
          break;
        }
        // A page's first row (sx.i = 1: every ranked page has a best section) carries its columns.
        page = {
          spaceId: row.space_id,
          pageId: row.page_id,
          title: row.title!,
          path: row.path!,
          description: row.description!,
          ancestors: row.ancestors!,
          score: row.score,
          rank: firstRank + items.length,
          pageMatch: row.page_match,
          sections: [],
        };
        items.push(page);
      }
      if (row.section_id !== null) page.sections.push({ id: row.section_id, title: row.section_title, body: row.body, score: row.section_score, matchedContent: true });
    }
    const result: SearchResult = { items, count: candidates.truncated ? candidates.total : Number(r.rows[0]?.total ?? 0) };
    if (more) {
      const last = items[items.length - 1];
      result.next = { page: encodeCursor([mode, last.score, last.spaceId, last.pageId, last.rank]) };
    }
    return result;
  }

  /**
   * The name a ranking statement runs under (QueryOptions.name), for the first NAMED_RANKINGS texts
   * this process builds, none for others. Named, PostgreSQL parses it once per connection and,
   * after five runs, plans it no more once a generic plan is estimated no dearer (a ranking's order
   * is total, so its results do not depend on the plan). Its text varies with the query's shape
   * (exact words, terms, configurations, a cursor, all candidates or not: 7 texts for the growth
   * bench's space search mix), and each one prepared holds about 400 KB on every connection that
   * ran it: hence the bound. The name is the text's digest, not a count: node-postgres refuses a
   * name a connection prepared with another text, and two SearchQueries may share a pool.
   */
  private rankingName(sql: string): string | undefined {
    let name = this.rankingNames.get(sql);
    if (!name && this.rankingNames.size < NAMED_RANKINGS) {
      name = `quire_search_rank_${createHash('sha1').update(sql).digest('hex').slice(0, 20)}`;
      this.rankingNames.set(sql, name);
    }
    return name;
  }

  /**
   * The best sections for a question across spaces, any word matching (question words left
   * out), each with the number of distinct query terms it holds. Earlier questions of the
   * conversation are context: most recent first, each weighted lower than the one after it
   * and all lower than the question itself, at most `CONTEXT_QUESTIONS` of them. `relevant`
   * holds the sections that answer the question: enough of its terms (see `isRelevant`), or,
   * when the question has no terms of its own ("what about it?"), enough of an earlier one's.
   */
  async retrieveSections(
    spaces: readonly SearchableSpace[],
    question: string,
    opts: { limit: number; context?: readonly string[] },
  ): Promise<{ sections: RetrievedSection[]; relevant: RetrievedSection[]; matchers: TermMatcher[] }> {
    const wordsOf = (text: string) => parseQuery(text).map((t) => (t.kind === 'word' ? { ...t, prefix: false } : t));
    const groups = groupByConfig(spaces);
    if (groups.length === 0) return { sections: [], relevant: [], matchers: [] };
    const terms = wordsOf(question);
    const earlier = [...(opts.context ?? [])]
      .reverse()
      .slice(0, CONTEXT_QUESTIONS)
      .map((q) => wordsOf(q).filter((t) => t.kind !== 'word' || !NOISE.has(t.word)).slice(0, CONTEXT_TERMS))
      .filter((t) => t.length > 0);
    const lexemes = await this.loadLexemes(groups, [...terms, ...earlier.flat()]);
    const own = terms.filter((t) => t.kind !== 'word' || !this.isNoise(t.word));
    // Without terms of its own, a follow-up stands on the earlier questions alone.
    const current = own.length || earlier.length === 0 ? terms : [];
    const revisions = new Map(spaces.map((s) => [s.id, s.revision]));
    const weightedByGroup = groups.map((g) => {
      const options = { mode: 'any' as const, lexemes: lexemes.get(g.config)!, isNoise: (w: string) => this.isNoise(w) };
      return [
        { q: current.length ? buildTsquery(current, options) : '', match: current.length ? pageMatch(current, options) : undefined, weight: 1 },
        ...earlier.map((t, i) => ({ q: buildTsquery(t, options), match: pageMatch(t, options), weight: CONTEXT_WEIGHT / 2 ** i })),
      ].filter((x) => x.q);
    });
    const matches = weightedByGroup.map((weighted) => {
      const parts = weighted.map((x) => x.match).filter((m): m is PageMatch => !!m);
      return parts.length === 0 ? undefined : parts.length === 1 ? parts[0] : { any: parts };
    });
    // The sections of the best pages by their postings are ranked (all of them where few match).
    const candidates = this.candidates(await this.matching(groups, matches), Math.max(CANDIDATE_PAGES, opts.limit * 4));
    if (candidates.keys.length === 0) return { sections: [], relevant: [], matchers: [] };
    const params: unknown[] = [];
    const p = (v: unknown) => (params.push(v), `$${params.length}`);
    const keys = `${p(candidates.keys)}::int[]`;
    const branches: string[] = [];
    for (const [i, g] of groups.entries()) {
      const weighted = weightedByGroup[i];
      if (weighted.length === 0) continue;
      const qs = weighted.map((x) => ({ sql: `${p(x.q)}::tsquery`, weight: x.weight }));
      const any = `(${qs.map((x) => x.sql).join(' || ')})`;
      const rank = qs.map((x) => `${x.weight} * ts_rank('${RANK_WEIGHTS_SQL}', s.tsv, ${x.sql}, ${RANK_NORMALIZATION})`).join(' + ');
      const spaces = `${p(g.spaceIds)}::text[]`;
      // The title boost when the page's title (description, parent title) holds a term of the question.
      branches.push(
        `SELECT s.space_id, s.page_id, s.ord,
                (${rank} + CASE WHEN s.title_tsv @@ ${qs[0].sql} THEN ${TITLE_BOOST} ELSE 0 END)::float8 AS score
           FROM candidate_sections s
          WHERE s.space_id = ANY(${spaces}) AND s.tsv @@ ${any}`,
      );
    }
    if (branches.length === 0) return { sections: [], relevant: [], matchers: [] };
    // Rank more than needed, then prefer sections that hold more of the question's terms.
    const r = await this.db.query<any>(
      `WITH ${CANDIDATES_SQL(keys, branches.length > 1)},
       top AS (${branches.join(' UNION ALL ')} ORDER BY score DESC, space_id, page_id, ord LIMIT ${p(opts.limit * 4)})
       SELECT top.*, x.section_id, x.title, x.body, p.title AS page_title, p.path
         FROM top JOIN rm_search_texts x ON x.space_id = top.space_id AND x.page_id = top.page_id AND x.ord = top.ord
         JOIN rm_search_pages p ON p.space_id = top.space_id AND p.page_id = top.page_id
        ORDER BY top.score DESC, top.space_id, top.page_id, top.ord`,
      params,
    );
    const lex = lexemes.get(groups[0].config)!;
    const matchersOf = (list: readonly QueryTerm[]) => termMatchers(list.filter((t) => t.kind !== 'word' || !this.isNoise(t.word)), lex);
    const matchers = matchersOf(current);
    const earlierMatchers = earlier.map(matchersOf);
    const sections: RetrievedSection[] = r.rows.map((row) => {
      const text = `${row.page_title}\n${row.title}\n${row.body}`;
      return {
        spaceId: row.space_id,
        revision: revisions.get(row.space_id)!,
        pageId: row.page_id,
        pageTitle: row.page_title,
        path: row.path,
        sectionId: row.section_id,
        sectionTitle: row.title,
        body: row.body,
        score: row.score,
        matchedTerms: countMatched(text, matchers),
        matchedEarlier: earlierMatchers.map((m) => countMatched(text, m)),
      };
    });
    sections.sort((a, b) => b.matchedTerms - a.matchedTerms || b.score - a.score);
    const relevant = sections.filter((s) =>
      matchers.length ? isRelevant(s.matchedTerms, matchers.length) : earlierMatchers.some((m, i) => m.length > 0 && isRelevant(s.matchedEarlier![i], m.length)),
    );
    // Sentences are picked by the question's terms, or the earlier ones' when it has none.
    return { sections: sections.slice(0, opts.limit), relevant: relevant.slice(0, opts.limit), matchers: matchers.length ? matchers : earlierMatchers.flat() };
  }

  /**
   * Every matching page of each group, scored by its postings, and how many hold each of
   * `exactWords` (for the exact spelling bonus): read once per query, however many rounds of
   * candidates the ranking takes.
   */
  private async matching(groups: readonly Group[], matches: ReadonlyArray<PageMatch | undefined>, exactWords: readonly string[] = []): Promise<Matching> {
    const found: Matching['found'] = [];
    for (const [i, g] of groups.entries()) {
      const match = matches[i];
      if (match) found.push(await matchingPages(this.db, g.spaceKeys, match, exactWords, this.postings));
    }
    return { found, exactWords: exactWords.length };
  }

  /** The best `wanted` pages of each group, and, over all matching pages, how many there are and hold each exact spelling. */
  private candidates(matching: Matching, wanted: number): Candidates {
    const out: Candidates = { keys: [], total: 0, truncated: false, holders: new Array<number>(matching.exactWords).fill(0) };
    for (const found of matching.found) {
      const best = bestPages(found.scores, wanted);
      out.keys.push(...best.keys);
      out.total += best.total;
      out.truncated ||= best.truncated;
      found.holders.forEach((n, k) => (out.holders[k] += n));
    }
    return out;
  }

  /**
   * The query's words whose spelling a match may lack (see EXACT_WEIGHT): words matched by their
   * stems or as a prefix, stop words and question words left out.
   */
  private exactWords(terms: readonly QueryTerm[], groups: readonly Group[], lexemes: Map<string, Lexemes>): string[] {
    const words = terms.filter((t): t is Extract<QueryTerm, { kind: 'word' }> => t.kind === 'word' && !this.isNoise(t.word));
    return words
      .filter((t) => t.prefix || groups.some((g) => lexemes.get(g.config)!(t.word).some((l) => l !== t.word)))
      .map((t) => t.word);
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
   * Close vocabulary words for query words the searched spaces have never seen (or, for a
   * prefix, that start nothing there), by trigram similarity or one or two edits (a swap of
   * neighbours counts as one: "jbos" is "jobs"), computed in plain SQL and here (pg_trgm is not
   * assumed). Words with the same first letter are tried first (one range of the primary key);
   * only when none is close, the whole vocabulary, by shared trigrams ("ubernetes").
   * Corrections the searched spaces do not hold are left out.
   */
  private async corrections(terms: readonly QueryTerm[], groups: readonly Group[]): Promise<Map<string, string[]>> {
    const candidates = terms.filter((t): t is Extract<QueryTerm, { kind: 'word' }> => t.kind === 'word' && isVocabularyWord(t.word) && !this.isNoise(t.word));
    if (candidates.length === 0) return new Map();
    const out = new Map<string, string[]>();
    for (const [word, sameFirst] of await this.unknownWords(groups, candidates)) {
      let close = closeWords(word, sameFirst);
      if (close.length === 0) {
        // The first letter wrong or missing: the words sharing most trigrams, of any letter.
        const grams = trigrams(word).filter((g) => !g.startsWith('^'));
        if (grams.length) {
          const anyFirst = await this.db.query<{ term: string }>(
            `SELECT term FROM rm_search_terms
              WHERE len BETWEEN $1 AND $2 AND trigrams && $3::text[]
              ORDER BY cardinality(ARRAY(SELECT unnest(trigrams) INTERSECT SELECT unnest($3::text[]))) DESC, term
              LIMIT ${ANY_FIRST_CANDIDATES}`,
            [word.length - 2, word.length + 2, grams],
          );
          close = closeWords(word, anyFirst.rows.map((r) => r.term));
        }
      }
      if (close.length) {
        const inSpaces = await this.heldWords(groups, close.map((word) => ({ word, prefix: false })));
        close = close.filter((w) => inSpaces.has(w));
      }
      if (close.length) out.set(word, close.slice(0, CORRECTIONS_PER_WORD));
    }
    return out;
  }

  /**
   * The first MAX_CORRECTED_WORDS of `words` that no page of the searched spaces holds (see
   * `heldWords`), in order, each with the vocabulary words of its first letter and about its
   * length (sharing a trigram with it unless it is short): one statement for what took one to
   * find the unknown words and one more for each of them ("certficate": 7 round trips -> 6).
   */
  private async unknownWords(groups: readonly Group[], words: ReadonlyArray<{ word: string; prefix: boolean }>): Promise<Array<[string, string[]]>> {
    // Like fuzzy matchers with a prefix length of one: a typo rarely hits the first letter.
    const first = words.map(({ word }) => String.fromCodePoint(word.codePointAt(0)!));
    const spread = words.map(({ word }) => (word.length <= SHORT_WORD ? 1 : 3));
    // Each long word's trigrams, flattened with the word's index (its arrays are not of one length).
    const grams = words.flatMap(({ word }, i) => (word.length <= SHORT_WORD ? [] : trigrams(word).map((g) => [i + 1, g] as const)));
    const r = await this.db.query<{ i: number; term: string | null }>(
      `WITH unknown AS MATERIALIZED (
         SELECT x.i, x.first, x.next, x.shortest, x.longest,
                (SELECT array_agg(g.gram) FROM unnest($7::int[], $8::text[]) AS g(i, gram) WHERE g.i = x.i) AS grams
           FROM unnest($1::text[], $2::boolean[], $3::text[], $4::text[], $5::int[], $6::int[]) WITH ORDINALITY AS x(w, prefix, first, next, shortest, longest, i)
          WHERE NOT ${HELD_SQL('$9::int[]')}
          ORDER BY x.i LIMIT ${MAX_CORRECTED_WORDS})
       SELECT u.i::int AS i, t.term FROM unknown u
         LEFT JOIN LATERAL (
           SELECT term FROM rm_search_terms
            WHERE term >= u.first AND term < u.next AND len BETWEEN u.shortest AND u.longest AND (u.grams IS NULL OR trigrams && u.grams)) t ON true
        ORDER BY u.i`,
      [
        words.map((w) => w.word),
        words.map((w) => w.prefix),
        first,
        first.map((f) => String.fromCodePoint(f.codePointAt(0)! + 1)),
        words.map(({ word }, i) => word.length - spread[i]),
        words.map(({ word }, i) => word.length + spread[i]),
        grams.map(([i]) => i),
        grams.map(([, g]) => g),
        groups.flatMap((g) => g.spaceKeys),
      ],
    );
    const out = new Map<number, string[]>();
    for (const row of r.rows) {
      let terms = out.get(row.i);
      if (!terms) out.set(row.i, (terms = []));
      if (row.term !== null) terms.push(row.term);
    }
    return [...out].map(([i, terms]) => [words[i - 1].word, terms]);
  }

  /** The words some page of the searched spaces holds (as a prefix: some word it starts). */
  private async heldWords(groups: readonly Group[], words: ReadonlyArray<{ word: string; prefix: boolean }>): Promise<Set<string>> {
    const r = await this.db.query<{ w: string }>(
      `SELECT x.w FROM unnest($1::text[], $2::boolean[]) AS x(w, prefix)
        WHERE ${HELD_SQL('$3::int[]')}`,
      [words.map((w) => w.word), words.map((w) => w.prefix), groups.flatMap((g) => g.spaceKeys)],
    );
    return new Set(r.rows.map((x) => x.w));
  }
}

/** Vocabulary words close to `word`, closest first: by trigram similarity or edit distance. */
function closeWords(word: string, terms: readonly string[]): string[] {
  const maxEdits = word.length <= SHORT_WORD ? 1 : 2;
  return terms
    .filter((term) => term !== word)
    .map((term) => ({ term, sim: trigramSimilarity(word, term), edits: editDistance(word, term, maxEdits) }))
    .filter((c) => c.sim >= MIN_SIMILARITY || c.edits <= maxEdits)
    .sort((a, b) => a.edits - b.edits || b.sim - a.sim || (a.term < b.term ? -1 : 1))
    .slice(0, CORRECTION_CANDIDATES)
    .map((c) => c.term);
}

/**
 * The candidates to rank next when `wanted` of them gave `found` results past a cursor at rank
 * `before`, fewer than the `limit` + 1 asked for: as many as that yield says are needed, with half
 * again as margin, and at most four times as many (all that is grown when none was found). The
 * yield seen sets the step: 640 pages of a space holding "timeout", "retry" and "limit" with 213
 * sections holding all three, 202 candidates gave 83 of the 101 results a search asks for, and
 * ranking 307 then costs 8 ms where ranking the 808 of a blind step cost 20.
 */
export function moreCandidates(wanted: number, before: number, found: number, limit: number): number {
  const most = wanted * 4;
  if (before + found === 0) return most;
  return Math.min(most, Math.max(wanted + 1, Math.ceil((1.5 * wanted * (before + limit + 1)) / (before + found))));
}

/**
 * Edits (insertions, deletions, substitutions, swaps of neighbours) between two words, or
 * `max + 1` as soon as it is known to be more than `max`.
 */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  const rows: number[][] = [Array.from({ length: b.length + 1 }, (_, j) => j)];
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(rows[i - 1][j] + 1, row[j - 1] + 1, rows[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, rows[i - 2][j - 2] + 1);
      row.push(d);
      best = Math.min(best, d);
    }
    if (best > max) return max + 1;
    rows.push(row);
  }
  return Math.min(rows[a.length][b.length], max + 1);
}

type Cursor = [Mode, number, string, string, number];

interface Matching {
  found: Array<{ scores: Scores; holders: number[] }>;
  /** How many exact spellings were counted. */
  exactWords: number;
}

interface Candidates extends PageCandidates {
  /** Matching pages holding each exact spelling, all of them counted. */
  holders: number[];
}

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

function groupByConfig(spaces: readonly SearchableSpace[]): Group[] {
  const groups = new Map<string, Group>();
  for (const s of spaces) {
    let g = groups.get(s.config);
    if (!g) groups.set(s.config, (g = { config: s.config, spaceIds: [], spaceKeys: [] }));
    g.spaceIds.push(s.id);
    g.spaceKeys.push(s.key);
  }
  return [...groups.values()];
}

export type { TermMatcher };
