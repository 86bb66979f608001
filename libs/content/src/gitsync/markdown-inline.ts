/** Just enough inline Markdown for titles and link targets; page bodies go through the
 * real Markdown parser elsewhere. */

const NAMED_ENTITIES: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
};

/** CommonMark backslash escapes: any ASCII punctuation may be escaped (`\(`, `\_`). */
export function unescapeMarkdown(text: string): string {
  return text.replace(/\\([!-/:-@[-`{-~])/g, '$1');
}

export function decodeEntities(text: string): string {
  return text.replace(/&(#[xX][0-9a-fA-F]{1,6}|#[0-9]{1,7}|[a-zA-Z]+);/g, (whole, body: string) => {
    if (body[0] === '#') {
      const code = body[1] === 'x' || body[1] === 'X' ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[body] ?? whole;
  });
}

/** Link text or heading text -> plain title. */
export function inlineToTitle(text: string): string {
  return decodeEntities(unescapeMarkdown(text)).replace(/\s+/g, ' ').trim();
}

/** Escapes a title so that `[title](...)` or `# title` reads back as the same text. */
export function escapeTitle(title: string): string {
  return title
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/[\\[\]*_`<>]/g, '\\$&')
    .replace(/&(?=#?[a-zA-Z0-9]+;)/g, '&#x26;');
}

/** Splits an optional YAML front matter block from the body. */
export function splitFrontMatter(markdown: string): { frontMatter?: string; body: string } {
  const match = /^---[ \t]*\r?\n([\s\S]*?)\r?\n(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/.exec(markdown);
  if (!match) return { body: markdown };
  return { frontMatter: match[1], body: markdown.slice(match[0].length) };
}
