/**
 * PostgreSQL text-search configuration (stemmer and stop words) for a space's language.
 * Only configurations present in both PostgreSQL 15 and PGlite are used. A space without a
 * language is read as English (GitBook's default content language); a language PostgreSQL
 * has no stemmer for falls back to `simple` (no stemming). CJK text never goes through a
 * stemmer: it is indexed as bigrams whatever the language.
 */
const BY_LANGUAGE: Record<string, string> = {
  en: 'english',
  fr: 'french',
  de: 'german',
  es: 'spanish',
  it: 'italian',
  pt: 'portuguese',
  'pt-br': 'portuguese',
  ru: 'russian',
  ar: 'arabic',
  hi: 'hindi',
  nl: 'dutch',
  tr: 'turkish',
  sv: 'swedish',
  no: 'norwegian',
  da: 'danish',
  fi: 'finnish',
  el: 'greek',
  hu: 'hungarian',
  ro: 'romanian',
  id: 'indonesian',
  lt: 'lithuanian',
};

export const SIMPLE_CONFIG = 'simple';

export function textSearchConfig(language: string | null | undefined): string {
  if (!language) return 'english';
  return BY_LANGUAGE[language.toLowerCase()] ?? SIMPLE_CONFIG;
}
