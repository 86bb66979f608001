/**
 * The weights of ranking, shared by the index (page impacts in the postings) and the queries.
 *
 * Weights of D (section text), C (description, enclosing titles), B (section heading), A (page
 * title), in `ts_rank`'s order. The text is D, PostgreSQL's default weight, because D positions
 * are written without a letter: the bulk of every tsvector literal is shorter.
 */
export const RANK_WEIGHTS = [0.2, 0.1, 0.5, 1.0] as const;
/**
 * Page title boost: TITLE_WEIGHT times the share of query terms the title holds, plus
 * SPECIFIC_WEIGHT times that share times the share of the title's words they cover (so
 * "CREATE TABLE" beats "CREATE FOREIGN TABLE" for the query `create table`). A term counts 1
 * in the title itself, half as a prefix there or in the description or the parent's title
 * ("tail" under "Input Plugins" for `tail input plugin`), a quarter as a prefix there.
 */
export const TITLE_WEIGHT = 0.3;
export const SPECIFIC_WEIGHT = 0.1;
