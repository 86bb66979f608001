import { CORE_SCHEMA, load as loadYaml, Type } from 'js-yaml';
import { stringify as stringifyYaml } from 'yaml';
import { LruCache } from '../store/lru-cache';
import type { PageFrontMatter } from './document.types';

const OPENING_FENCE = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSING_FENCE = /^(?:---|\.\.\.)[ \t]*(?:\r?\n|$)/gm;

/**
 * Splits a page into its YAML front matter and markdown body. Front matter that is not valid
 * YAML, or not a mapping, is left in the body untouched: a page must never fail to load
 * because of a typo in its metadata.
 */
export function parseFrontMatter(markdown: string): { data: PageFrontMatter; body: string } {
  const block = frontMatterBlock(markdown);
  if (!block) return { data: {}, body: stripBom(markdown) };
  const parsed = parseFrontMatterYaml(block.yaml);
  if ('problem' in parsed) return { data: {}, body: stripBom(markdown) };
  return { data: parsed.data, body: markdown.slice(block.end) };
}

/**
 * Why a page's front matter cannot be read (not YAML, or not a mapping), or undefined when it
 * can, or when the page has none.
 */
export function frontMatterProblem(markdown: string): string | undefined {
  const block = frontMatterBlock(markdown);
  if (!block || !block.yaml.trim()) return undefined;
  const parsed = parseFrontMatterYaml(block.yaml);
  return 'problem' in parsed ? parsed.problem : undefined;
}

/** A front matter block's mapping (its YAML text, without the fences), or undefined when it is not one. */
export function frontMatterData(yamlText: string): PageFrontMatter | undefined {
  const parsed = parseFrontMatterYaml(yamlText);
  return 'problem' in parsed ? undefined : parsed.data;
}

/** The `---` fenced block a page starts with: its YAML text, and where the body begins. */
function frontMatterBlock(markdown: string): { yaml: string; end: number } | undefined {
  const opening = OPENING_FENCE.exec(markdown);
  if (!opening) return undefined;
  const closing = findClosingFence(markdown, opening[0].length);
  if (!closing) return undefined;
  return { yaml: markdown.slice(opening[0].length, closing.index), end: closing.index + closing.length };
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

type ParsedYaml = { data: PageFrontMatter } | { problem: string };

/** Characters of front matter whose parse is kept. */
const PARSED_YAML_BUDGET_CHARS = 4 << 20;

/**
 * Parses of front matter by its text. An import reads each page's front matter three or four
 * times (the import's warnings, the asset references, the revision's page tree, the document),
 * and the YAML parser was the largest library in the worker's profile of an import.
 */
const parsedYaml = new LruCache<{ parsed: ParsedYaml; chars: number }>(PARSED_YAML_BUDGET_CHARS, (entry) => entry.chars);

/** The front matter's mapping, or why it is not one; callers get their own copy of the mapping. */
function parseFrontMatterYaml(yamlText: string): ParsedYaml {
  let parsed = parsedYaml.get(yamlText)?.parsed;
  if (!parsed) {
    parsed = parseYamlMapping(yamlText);
    parsedYaml.set(yamlText, { parsed, chars: yamlText.length + 64 });
  }
  return 'problem' in parsed ? parsed : { data: structuredClone(parsed.data) };
}

/**
 * YAML 1.2's core schema (what `yaml` parses by default: dates and `yes` stay strings, `<<` is a
 * plain key), where a tag the schema does not know (`!icon book`, `!!binary`) keeps its value
 * without it instead of failing the whole block: front matter written for another tool still
 * gives its description and icon. Tags the schema knows (`!!str 12`) still apply.
 */
const FRONT_MATTER_SCHEMA = CORE_SCHEMA.extend(
  (['scalar', 'sequence', 'mapping'] as const).map((kind) => new Type('', { kind, multi: true, construct: (value: unknown) => value })),
);

/**
 * Parsed with js-yaml: about eight times faster than `yaml` on GitBook's front matter (1.8 against
 * 14.3 ms for 1,308 blocks warm, 26 against 86 cold; the same values for every one of the 308
 * blocks of the fixtures and GitBook's own docs), and every page of an import is parsed in two
 * processes. `yaml` still writes front matter (formatFrontMatter).
 */
function parseYamlMapping(yamlText: string): ParsedYaml {
  if (yamlText.trim() === '') return { data: {} };
  try {
    // `json`: a duplicate key keeps the last value rather than discarding the whole block.
    const value: unknown = loadYaml(yamlText, { schema: FRONT_MATTER_SCHEMA, json: true });
    if (value === null || value === undefined) return { data: {} };
    if (typeof value !== 'object' || Array.isArray(value)) return { problem: 'not a mapping' };
    return { data: value as PageFrontMatter };
  } catch (err) {
    return { problem: ((err as Error).message.split('\n')[0] ?? 'parse error').slice(0, 120) };
  }
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
