export { searchProjection, SEARCH_TABLES } from './search.projection';
export { SearchQueries, type SearchCaller, type SearchableSpace, type SearchResult, type PageHit, type SectionHit, type RetrievedSection } from './search.queries';
export { AskPipeline } from './ask/ask-pipeline';
export { NOTHING_FOUND, type AskAnswer, type AskPageSource, type SectionLink } from './ask/ask-answer';
export { AskModelError, chatCompletionsUrl, type AskModelConfig } from './ask/model-answer';
export type { IndexStats } from './indexing/space-indexer';
