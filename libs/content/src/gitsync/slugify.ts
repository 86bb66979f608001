/** GitBook caps RevisionPageSlug at 100 characters. */
const MAX_SLUG_LENGTH = 100;

/**
 * Slug for a title, GitBook style: lower case, words joined by '-', dots kept (GitBook
 * writes "4.3. 函數呼叫" as `4.3.-han-shu-hu-jiao.md`), accents dropped, emoji dropped.
 * GitBook transliterates CJK to pinyin; we keep such letters as they are instead of
 * shipping a transliteration table, so '常見問題' stays '常見問題'.
 */
export function slugify(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^\p{L}\p{N}._]+/gu, '-');
  return tidy(slug);
}

/** Slug for a page file or folder name: the name without `.md`, spaces and other
 * URL-unfriendly characters turned into '-', lower case; '_', '.' and '+' are kept so that
 * `01_intro-whatis.md` and `35.13.-c++-applications.md` (file names GitBook wrote from
 * its slugs) keep the URL they had on GitBook. */
export function slugFromFileName(name: string): string {
  const slug = name
    .replace(/\.md$/i, '')
    .normalize('NFC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}._+-]+/gu, '-');
  return tidy(slug);
}

function tidy(slug: string): string {
  return slug
    .replace(/-{2,}/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, MAX_SLUG_LENGTH)
    .replace(/[-.]+$/, '');
}

/** Appends -1, -2... until the slug is free among its siblings, and claims it. */
export function claimUniqueSlug(slug: string, taken: Set<string>): string {
  let candidate = slug;
  for (let n = 1; taken.has(candidate); n++) candidate = `${slug}-${n}`;
  taken.add(candidate);
  return candidate;
}
