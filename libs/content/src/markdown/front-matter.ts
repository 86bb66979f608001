import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';
import type { PageFrontMatter } from './document.types';

const OPENING_FENCE = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSING_FENCE = /^(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/gm;

/**
 * Splits a page into its YAML front matter and markdown body. Front matter that is not valid
 * YAML, or not a mapping, is left in the body untouched: a page must never fail to load
 * because of a typo in its metadata.
 */
export function parseFrontMatter(markdown: string): { data: PageFrontMatter; body: string } {
  const opening = OPENING_FENCE.exec(markdown);
  if (!opening) return { data: {}, body: stripBom(markdown) };

  const closing = findClosingFence(markdown, opening[0].length);
  if (!closing) return { data: {}, body: stripBom(markdown) };

  const yamlText = markdown.slice(opening[0].length, closing.index);
  const data = parseYamlMapping(yamlText);
  if (!data) return { data: {}, body: stripBom(markdown) };
  return { data, body: markdown.slice(closing.index + closing.length) };
}

/** Renders front matter as a `---` fenced block (no trailing newline), or '' when there is nothing to write. */
export function formatFrontMatter(data: PageFrontMatter | undefined): string {
  if (!data) return '';
  const entries = Object.entries(data).filter(([, value]) => value !== undefined);
  if (entries.length === 0) return '';
  const yaml = stringifyYaml(Object.fromEntries(entries), { lineWidth: 0 });
  return `---\n${yaml}---`;
}

function findClosingFence(markdown: string, from: number): { index: number; length: number } | null {
  CLOSING_FENCE.lastIndex = from;
  const match = CLOSING_FENCE.exec(markdown);
  return match ? { index: match.index, length: match[0].length } : null;
}

function parseYamlMapping(yamlText: string): PageFrontMatter | null {
  if (yamlText.trim() === '') return {};
  try {
    // Duplicate keys keep the last value rather than discarding the whole block; warnings
    // (unknown tags) must not reach the process log, errors still throw and are handled below.
    const value: unknown = parseYaml(yamlText, { uniqueKeys: false, logLevel: 'error' });
    if (value === null || value === undefined) return {};
    if (typeof value !== 'object' || Array.isArray(value)) return null;
    return value as PageFrontMatter;
  } catch {
    return null;
  }
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
