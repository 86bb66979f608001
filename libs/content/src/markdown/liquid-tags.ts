/**
 * The `{% name key="value" %}` tag syntax GitBook uses for its custom blocks. Scanning works on
 * one source range at a time (a line, for the block rule): quoted values may contain `%}`.
 */

export interface LiquidTag {
  /** Tag name without the `end` prefix, lower-cased. */
  name: string;
  isEnd: boolean;
  attrs: Record<string, string>;
  /** Source text of the tag, `{%` to `%}` inclusive. */
  raw: string;
  /** Offset just after the closing `%}`. */
  end: number;
}

/** Block tags the converter understands; any other `{% ... %}` stays in the text as written. */
export const GITBOOK_BLOCK_TAGS: ReadonlySet<string> = new Set([
  'hint',
  'tabs',
  'tab',
  'code',
  'content-ref',
  'embed',
  'file',
  'stepper',
  'step',
  'columns',
  'column',
  'updates',
  'update',
  'if',
  'openapi',
  'openapi-operation',
  'openapi-schemas',
  'swagger',
  'swagger-description',
  'swagger-parameter',
  'swagger-response',
]);

/** Tags whose argument is an expression (`{% if visitor.claims.plan === "pro" %}`), kept whole as `attrs.expression`. */
const EXPRESSION_TAGS = new Set(['if']);

const OPEN_BRACE = 0x7b;
const PERCENT = 0x25;
const CLOSE_BRACE = 0x7d;
const DASH = 0x2d;
const BACKSLASH = 0x5c;

/** Reads one tag starting exactly at `pos` (which must hold `{%`), or returns null. */
export function scanLiquidTag(src: string, pos: number, max: number = src.length): LiquidTag | null {
  if (src.charCodeAt(pos) !== OPEN_BRACE || src.charCodeAt(pos + 1) !== PERCENT) return null;
  let p = pos + 2;
  if (src.charCodeAt(p) === DASH) p++;
  p = skipWhitespace(src, p, max);

  const nameStart = p;
  while (p < max && isNameChar(src.charCodeAt(p), p === nameStart)) p++;
  if (p === nameStart) return null;
  let name = src.slice(nameStart, p).toLowerCase();
  const isEnd = name.startsWith('end') && name.length > 3;
  if (isEnd) name = name.slice(3);
  if (!isEnd && EXPRESSION_TAGS.has(name)) return scanExpressionTag(src, pos, p, max, name);

  const attrs: Record<string, string> = {};
  for (;;) {
    p = skipWhitespace(src, p, max);
    if (p >= max) return null;
    const c = src.charCodeAt(p);
    if (c === DASH && src.charCodeAt(p + 1) === PERCENT && src.charCodeAt(p + 2) === CLOSE_BRACE) {
      return { name, isEnd, attrs, raw: src.slice(pos, p + 3), end: p + 3 };
    }
    if (c === PERCENT && src.charCodeAt(p + 1) === CLOSE_BRACE) {
      return { name, isEnd, attrs, raw: src.slice(pos, p + 2), end: p + 2 };
    }
    const argument = scanArgument(src, p, max);
    if (!argument) return null;
    if (argument.key !== null) attrs[argument.key] = argument.value;
    p = argument.end;
  }
}

function scanExpressionTag(src: string, pos: number, from: number, max: number, name: string): LiquidTag | null {
  // Quotes are skipped over so that a `%}` inside a string does not end the tag.
  let quote = 0;
  for (let p = from; p < max; p++) {
    const c = src.charCodeAt(p);
    if (quote) {
      if (c === BACKSLASH) p++;
      else if (c === quote) quote = 0;
      continue;
    }
    if (c === 0x22 || c === 0x27) quote = c;
    else if (c === PERCENT && src.charCodeAt(p + 1) === CLOSE_BRACE) {
      const trimDash = src.charCodeAt(p - 1) === DASH ? 1 : 0;
      const expression = src.slice(from, p - trimDash).trim();
      return expression === '' ? null : { name, isEnd: false, attrs: { expression }, raw: src.slice(pos, p + 2), end: p + 2 };
    }
  }
  return null;
}

/** Writes a tag; attributes whose value is undefined or false are left out. */
export function formatLiquidTag(name: string, attrs: Array<[string, string | number | boolean | undefined]> = []): string {
  let out = `{% ${name}`;
  for (const [key, value] of attrs) {
    if (value === undefined || value === false) continue;
    out += ` ${key}=${quoteValue(String(value))}`;
  }
  return `${out} %}`;
}

function quoteValue(value: string): string {
  if (!value.includes('"')) return `"${value}"`;
  if (!value.includes("'")) return `'${value}'`;
  return `"${value.replace(/[\\"]/g, (ch) => `\\${ch}`)}"`;
}

interface ScannedArgument {
  key: string | null;
  value: string;
  end: number;
}

/** `key="v"`, `key='v'`, `key=v`, or a positional word/quoted string (kept out of attrs). */
function scanArgument(src: string, pos: number, max: number): ScannedArgument | null {
  const c = src.charCodeAt(pos);
  if (c === 0x22 || c === 0x27) {
    const quoted = scanQuoted(src, pos, max);
    return quoted && { key: null, value: quoted.value, end: quoted.end };
  }
  let p = pos;
  while (p < max && !isWhitespace(src.charCodeAt(p)) && src.charCodeAt(p) !== 0x3d && !atTagEnd(src, p)) p++;
  if (p === pos) return null;
  const word = src.slice(pos, p);
  if (src.charCodeAt(p) !== 0x3d) return { key: null, value: word, end: p };
  p++;
  const v = src.charCodeAt(p);
  if (v === 0x22 || v === 0x27) {
    const quoted = scanQuoted(src, p, max);
    return quoted && { key: word, value: quoted.value, end: quoted.end };
  }
  const valueStart = p;
  while (p < max && !isWhitespace(src.charCodeAt(p)) && !atTagEnd(src, p)) p++;
  return { key: word, value: src.slice(valueStart, p), end: p };
}

function scanQuoted(src: string, pos: number, max: number): { value: string; end: number } | null {
  const quote = src.charCodeAt(pos);
  let value = '';
  let chunkStart = pos + 1;
  for (let p = pos + 1; p < max; p++) {
    const c = src.charCodeAt(p);
    if (c === BACKSLASH) {
      const next = src.charCodeAt(p + 1);
      if (next === quote || next === BACKSLASH) {
        value += src.slice(chunkStart, p);
        chunkStart = p + 1;
        p++;
      }
      continue;
    }
    if (c === quote) return { value: value + src.slice(chunkStart, p), end: p + 1 };
  }
  return null;
}

function atTagEnd(src: string, p: number): boolean {
  const c = src.charCodeAt(p);
  if (c === PERCENT) return src.charCodeAt(p + 1) === CLOSE_BRACE;
  return c === DASH && src.charCodeAt(p + 1) === PERCENT && src.charCodeAt(p + 2) === CLOSE_BRACE;
}

function skipWhitespace(src: string, p: number, max: number): number {
  while (p < max && isWhitespace(src.charCodeAt(p))) p++;
  return p;
}

function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
}

function isNameChar(c: number, first: boolean): boolean {
  const letter = (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
  if (first) return letter;
  return letter || (c >= 0x30 && c <= 0x39) || c === DASH || c === 0x5f;
}
