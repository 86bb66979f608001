import { posix } from 'path';
import { scanLiquidTag } from '../markdown/liquid-tags';
import { parseMarkdownTokens } from '../markdown/parse-markdown';
import type { EditablePage } from './editable-revision';

export interface LinkTargets {
  /** Page id -> repository path of its file (the layout's `pathById`). */
  pathById: Record<string, string>;
  /** API path (slugs joined by '/') -> page id. */
  idByApiPath: Map<string, string>;
  /** File id -> repository path. */
  fileById: Map<string, string>;
  /** Batch-local refs: page ref -> page id, file ref -> repository path. */
  pageRefs: Map<string, string>;
  fileRefs: Map<string, string>;
  /** Repository path of the space's first page (`/pages/README.md`). */
  readmePath?: string;
}

const LINK = /(!?)\[((?:[^[\]\\]|\\.|\[[^\]]*\])*)\]\(\s*(<[^>\n]*>|[^\s()]+)((?:\s+(?:"[^"\n]*"|'[^'\n]*'))?)\s*\)/g;
/** GitBook block tags whose attribute names a page or a file. */
const REF_TAG = /\{%-?\s*(content-ref|file|embed)\b/gi;
const TAG_ATTRIBUTE = /(\s)(url|src)=("[^"]*"|'[^']*')/g;
/** `<img src>` (and `<a href>`) in raw HTML, such as GitBook's `<figure>` images. */
const HTML_REF = /(<(?:img|a)\b[^>]*?\s(?:src|href)=)("[^"]*"|'[^']*')/gi;

/**
 * Resolves the links GitBook's content API accepts in markdown into what the git-sync layout
 * stores, paths relative to the page's file: `/pages/<pageId>`, `/pages/<slug>/<slug>`,
 * `/pages/<slug>.md` and `/pages/.../README.md`, `./<ref>.md` (a page inserted by the same
 * batch), `/files/<fileId>` and `./<ref>` (a file inserted by the batch). They are resolved in
 * markdown links and images, in the `url`/`src` of `{% content-ref %}`, `{% file %}` and
 * `{% embed %}` tags and in `<img src>` / `<a href>`. External URLs and ordinary relative links
 * stay as written; a markdown link to a `/pages/...` path that names no page is kept as plain
 * text. Code (fenced or indented blocks, code spans) is left alone: the parser's block tokens
 * say where code blocks are, and code spans are found as CommonMark delimits them.
 */
export function resolveLinks(text: string, pageFile: string, targets: LinkTargets): string {
  if (!/\]\(|\{%|<(?:img|a)\b/i.test(text)) return text;
  const dir = posix.dirname(pageFile);
  const relativeRaw = (target: string) => posix.relative(dir === '.' ? '' : dir, target) || posix.basename(target);
  const relative = (target: string) => {
    const rel = relativeRaw(target);
    return /[\s()<>]/.test(rel) ? `<${rel}>` : rel;
  };
  const split = (dest: string): [string, string] => {
    const hash = dest.indexOf('#');
    return hash >= 0 ? [dest.slice(0, hash), dest.slice(hash)] : [dest, ''];
  };
  /** A quoted attribute value resolved, or undefined to keep it as written. */
  const attribute = (quoted: string): string | undefined => {
    const quote = quoted[0];
    const [target, anchor] = split(quoted.slice(1, -1));
    const resolved = resolveTarget(target, targets);
    if (!resolved) return undefined;
    const value = `${relativeRaw(resolved)}${anchor}`;
    return value.includes(quote) ? undefined : `${quote}${value}${quote}`;
  };

  const codeLines = codeBlockLines(text);
  const lines = text.split('\n');
  const spans = codeSpans(lines, codeLines);
  const inCode = (line: number, offset: number) => spans.some(([l, from, to]) => l === line && offset >= from && offset < to);
  let changed = false;
  for (let i = 0; i < lines.length; i++) {
    if (codeLines.has(i)) continue;
    const line = lines[i];
    // Replacements as [from, to, text) of the line as written, so code spans are checked
    // against the offsets they were found at.
    const edits: Array<[number, number, string]> = [];
    if (line.includes('](')) {
      for (const m of line.matchAll(LINK)) {
        const [whole, bang, label, rawDest, title] = m;
        if (inCode(i, m.index!)) continue;
        const [target, anchor] = split(rawDest.startsWith('<') ? rawDest.slice(1, -1) : rawDest);
        const resolved = resolveTarget(target, targets);
        if (resolved === undefined) continue;
        const text = resolved === null ? (bang ? whole : label) : `${bang}[${label}](${relative(resolved)}${anchor}${title})`;
        edits.push([m.index!, m.index! + whole.length, text]);
      }
    }
    if (line.includes('{%')) {
      for (const m of line.matchAll(REF_TAG)) {
        const tag = scanLiquidTag(line, m.index!);
        if (!tag || inCode(i, m.index!)) continue;
        const text = tag.raw.replace(TAG_ATTRIBUTE, (whole, space: string, key: string, quoted: string) => {
          const value = attribute(quoted);
          return value ? `${space}${key}=${value}` : whole;
        });
        edits.push([m.index!, tag.end, text]);
      }
    }
    if (/<(?:img|a)\b/i.test(line)) {
      for (const m of line.matchAll(HTML_REF)) {
        const [whole, head, quoted] = m;
        const value = inCode(i, m.index!) ? undefined : attribute(quoted);
        if (value) edits.push([m.index!, m.index! + whole.length, `${head}${value}`]);
      }
    }
    if (edits.length === 0) continue;
    edits.sort((x, y) => x[0] - y[0]);
    let out = '';
    let last = 0;
    for (const [from, to, text] of edits) {
      if (from < last) continue;
      out += line.slice(last, from) + text;
      last = to;
    }
    out += line.slice(last);
    if (out !== line) {
      lines[i] = out;
      changed = true;
    }
  }
  return changed ? lines.join('\n') : text;
}

/** Lines inside fenced or indented code blocks, as the markdown parser sees them. */
function codeBlockLines(text: string): Set<number> {
  const lines = new Set<number>();
  if (!/^ {0,3}(?:`{3,}|~{3,})|^(?: {4}|\t)/m.test(text)) return lines;
  for (const token of parseMarkdownTokens(text)) {
    if ((token.type === 'fence' || token.type === 'code_block') && token.map) {
      for (let line = token.map[0]; line < token.map[1]; line++) lines.add(line);
    }
  }
  return lines;
}

/**
 * Code spans outside code blocks, as [line, from, to) per line they cover: a run of n
 * backticks up to the next run of exactly n, within one paragraph (no blank line between);
 * a backslash-escaped backtick opens nothing.
 */
function codeSpans(lines: readonly string[], codeLines: ReadonlySet<number>): Array<[number, number, number]> {
  const spans: Array<[number, number, number]> = [];
  for (let i = 0; i < lines.length; i++) {
    if (codeLines.has(i) || !lines[i].includes('`')) continue;
    let line = i;
    let pos = 0;
    while (line < lines.length && !codeLines.has(line)) {
      const text = lines[line];
      if (pos >= text.length) break;
      const ch = text[pos];
      if (ch === '\\') {
        pos += 2;
        continue;
      }
      if (ch !== '`') {
        pos++;
        continue;
      }
      let n = 0;
      while (text[pos + n] === '`') n++;
      const close = closingRun(lines, codeLines, line, pos + n, n);
      if (!close) {
        pos += n;
        continue;
      }
      // Record the span on each line it covers.
      for (let l = line; l <= close.line; l++) spans.push([l, l === line ? pos : 0, l === close.line ? close.end : lines[l].length]);
      if (close.line !== line) {
        // Continue after the span on its last line; that line is not scanned again.
        i = close.line;
        line = close.line;
      }
      pos = close.end;
    }
  }
  return spans;
}

function closingRun(lines: readonly string[], codeLines: ReadonlySet<number>, line: number, from: number, n: number): { line: number; end: number } | undefined {
  for (let l = line; l < lines.length && !codeLines.has(l); l++) {
    const text = lines[l];
    if (l > line && text.trim() === '') return undefined;
    const re = /`+/g;
    re.lastIndex = l === line ? from : 0;
    for (let m = re.exec(text); m; m = re.exec(text)) if (m[0].length === n) return { line: l, end: m.index + n };
  }
  return undefined;
}

/** A repository path; null for a `/pages/` link to nothing; undefined to leave the link as written. */
function resolveTarget(target: string, t: LinkTargets): string | null | undefined {
  if (target.startsWith('/pages/')) {
    const rest = decode(target.slice('/pages/'.length)).replace(/\/+$/, '');
    if (t.pathById[rest]) return t.pathById[rest];
    if (/^readme\.md$/i.test(rest)) return t.readmePath ?? null;
    const apiPath = rest.replace(/\/readme\.md$/i, '').replace(/\.md$/i, '');
    const id = t.idByApiPath.get(apiPath);
    return id && t.pathById[id] ? t.pathById[id] : null;
  }
  if (target.startsWith('/files/')) {
    const path = t.fileById.get(decode(target.slice('/files/'.length)));
    return path ?? undefined;
  }
  const local = decode(target.replace(/^\.\//, ''));
  const pageRef = t.pageRefs.get(local) ?? t.pageRefs.get(local.replace(/\.md$/i, ''));
  if (pageRef && t.pathById[pageRef]) return t.pathById[pageRef];
  const fileRef = t.fileRefs.get(local);
  if (fileRef) return fileRef;
  return undefined;
}

function decode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** API paths of a tree's pages (slugs joined by '/', groups included), as the git-sync reader builds them. */
export function apiPaths(pages: readonly EditablePage[], prefix = '', out = new Map<string, string>()): Map<string, string> {
  for (const page of pages) {
    if (page.kind === 'link') continue;
    const path = prefix ? `${prefix}/${page.slug}` : page.slug;
    if (!out.has(path)) out.set(path, page.id);
    apiPaths(page.children, path, out);
  }
  return out;
}
