import { posix } from 'path';
import type { DocumentFragment, JSONDocument } from './document.types';

/**
 * What the references of a revision's pages can point at: its pages and files by repository
 * path. A revision never changes, so one RefTargets serves every read of that revision.
 */
export interface RefTargets {
  /** Repository path of a page's markdown (and, for a README, its folder) -> page id. */
  pageByFile: Map<string, string>;
  /** Repository path of a file -> file id. */
  fileByPath: Map<string, string>;
  /** Ids of the revision's pages and files, for stable links (`/pages/<id>`, `/files/<id>`). */
  pageIds: Set<string>;
  fileIds: Set<string>;
}

export function refTargets(pages: Iterable<{ id: string; file?: string | null }>, files: Iterable<{ id: string; file: string }>): RefTargets {
  const pageByFile = new Map<string, string>();
  const pageIds = new Set<string>();
  for (const page of pages) {
    pageIds.add(page.id);
    if (!page.file) continue;
    pageByFile.set(page.file, page.id);
    // `[x](guide/)` or `[x](guide)` names guide/README.md.
    const readme = /(?:^|\/)readme\.md$/i.exec(page.file);
    if (readme) {
      const dir = page.file.slice(0, readme.index);
      if (!pageByFile.has(dir)) pageByFile.set(dir, page.id);
    }
  }
  const fileByPath = new Map<string, string>();
  const fileIds = new Set<string>();
  for (const file of files) {
    fileByPath.set(file.file, file.id);
    fileIds.add(file.id);
  }
  return { pageByFile, fileByPath, pageIds, fileIds };
}

/** Bytes a RefTargets holds on the heap, estimated high (UTF-16 strings, a map or set entry's slots). */
export function refTargetsBytes(targets: RefTargets): number {
  let bytes = 256;
  for (const map of [targets.pageByFile, targets.fileByPath]) for (const [key, value] of map) bytes += 2 * (key.length + value.length) + 96;
  for (const set of [targets.pageIds, targets.fileIds]) for (const id of set) bytes += 2 * id.length + 64;
  return bytes;
}

export type ResolvedRef = { kind: 'page'; page: string } | { kind: 'anchor'; anchor: string; page?: string } | { kind: 'file'; file: string };

const HAS_SCHEME = /^[a-z][a-z0-9+.-]*:/i;

/**
 * The page or file a URL written in the page at `pageFile` points at (relative to that page's
 * folder, or to the repository root when it starts with `/`), or undefined for anything else
 * (external URLs, paths that name nothing in the revision).
 */
export function resolveRefUrl(url: string, pageFile: string, targets: RefTargets): ResolvedRef | undefined {
  if (url === '' || url.startsWith('//') || HAS_SCHEME.test(url)) return undefined;
  const hash = url.indexOf('#');
  const anchor = hash >= 0 ? url.slice(hash + 1) : '';
  let target = hash >= 0 ? url.slice(0, hash) : url;
  const query = target.indexOf('?');
  if (query >= 0) target = target.slice(0, query);
  if (target === '') return anchor ? { kind: 'anchor', anchor: safeDecode(anchor) } : undefined;
  // Stable links (format.markdown.refs=stable, or written so through the API and kept as is).
  const stable = /^\/(pages|files)\/([^/]+)\/?$/.exec(target);
  if (stable) {
    const id = safeDecode(stable[2]);
    if (stable[1] === 'pages' && targets.pageIds.has(id)) return anchor ? { kind: 'anchor', anchor: safeDecode(anchor), page: id } : { kind: 'page', page: id };
    if (stable[1] === 'files' && targets.fileIds.has(id)) return { kind: 'file', file: id };
  }
  const dir = posix.dirname(pageFile);
  for (const candidate of target === safeDecode(target) ? [target] : [target, safeDecode(target)]) {
    const joined = candidate.startsWith('/') ? posix.normalize(candidate.slice(1)) : posix.join(dir === '.' ? '' : dir, candidate);
    if (joined.startsWith('..')) continue;
    const path = joined.replace(/\/+$/, '').replace(/^\.$/, '');
    const page = targets.pageByFile.get(path);
    if (page !== undefined) return anchor ? { kind: 'anchor', anchor: safeDecode(anchor), page } : { kind: 'page', page };
    const file = targets.fileByPath.get(path);
    if (file !== undefined) return { kind: 'file', file };
  }
  return undefined;
}

/** Node types whose `ref` may only name a file or a URL (GitBook's schema). */
const FILE_OR_URL = new Set(['image', 'inline-image', 'drawing']);

/**
 * The document with its references resolved to GitBook ids: links, mentions, content-refs,
 * buttons to `{kind:'page'}` (or `{kind:'anchor', page}` with a fragment), images and `{% file %}`
 * blocks to `{kind:'file', file: <id>}`; what names nothing in the revision stays a URL. The
 * document given is shared (parsed once per blob): it is not changed, changed nodes are copies.
 */
export function resolveDocumentRefs(doc: JSONDocument, pageFile: string, targets: RefTargets): JSONDocument {
  const nodes = resolveNodes(doc.nodes as any[], pageFile, targets);
  return nodes === doc.nodes ? doc : { ...doc, nodes };
}

function resolveNodes(nodes: any[], pageFile: string, targets: RefTargets): any[] {
  let out: any[] | undefined;
  for (let i = 0; i < nodes.length; i++) {
    const next = resolveNode(nodes[i], pageFile, targets);
    if (next !== nodes[i]) (out ??= nodes.slice())[i] = next;
  }
  return out ?? nodes;
}

function resolveNode(node: any, pageFile: string, targets: RefTargets): any {
  if (node.object === 'text') return node;
  let copy: any = node;
  const ref = node.data?.ref;
  if (ref && (ref.kind === 'url' || ref.kind === 'file')) {
    const url = ref.kind === 'url' ? ref.url : ref.file;
    const resolved = typeof url === 'string' ? resolveRefUrl(url, pageFile, targets) : undefined;
    const allowed = resolved && (node.type === 'file' || FILE_OR_URL.has(node.type) ? resolved.kind === 'file' : !(resolved.kind === 'anchor' && ref.kind === 'file'));
    if (resolved && allowed) copy = { ...node, data: { ...node.data, ref: resolved } };
  }
  if (node.type === 'table' && node.data?.records) {
    const records = resolveTableRecords(node.data, pageFile, targets);
    if (records !== node.data.records) copy = { ...copy, data: { ...copy.data, records } };
  }
  if (node.nodes) {
    const children = resolveNodes(node.nodes, pageFile, targets);
    if (children !== node.nodes) copy = { ...copy, nodes: children };
  }
  if (node.fragments) {
    let fragments: DocumentFragment[] | undefined;
    (node.fragments as DocumentFragment[]).forEach((fragment, i) => {
      const children = resolveNodes(fragment.nodes as any[], pageFile, targets);
      if (children !== fragment.nodes) (fragments ??= [...node.fragments])[i] = { ...fragment, nodes: children } as DocumentFragment;
    });
    if (fragments) copy = { ...copy, fragments };
  }
  return copy;
}

/**
 * A table's record values that point into the repository, by column type: `content-ref` (a
 * cards table's target) to a page, anchor or file; `image` (a card's cover) and `files` to
 * file ids. Returns the records given when nothing changes.
 */
function resolveTableRecords(data: any, pageFile: string, targets: RefTargets): any {
  const definition = data.definition ?? {};
  let records: any;
  for (const [recordId, record] of Object.entries<any>(data.records)) {
    let values: any;
    for (const [column, value] of Object.entries<any>(record?.values ?? {})) {
      const next = resolveRecordValue(definition[column]?.type, value, pageFile, targets);
      if (next !== value) (values ??= { ...record.values })[column] = next;
    }
    if (values) (records ??= { ...data.records })[recordId] = { ...record, values };
  }
  return records ?? data.records;
}

function resolveRecordValue(type: unknown, value: any, pageFile: string, targets: RefTargets): any {
  const toFile = (url: unknown) => {
    const resolved = typeof url === 'string' ? resolveRefUrl(url, pageFile, targets) : undefined;
    return resolved?.kind === 'file' ? resolved : undefined;
  };
  switch (type) {
    case 'content-ref': {
      if (value?.kind !== 'url') return value;
      return resolveRefUrl(value.url, pageFile, targets) ?? value;
    }
    case 'image': {
      if (value?.ref?.kind === 'url') {
        const file = toFile(value.ref.url);
        return file ? { ...value, ref: file } : value;
      }
      return value?.kind === 'url' ? (toFile(value.url) ?? value) : value;
    }
    case 'files': {
      if (!Array.isArray(value)) return value;
      const ids = value.map((url) => toFile(url)?.file ?? url);
      return ids.some((id, i) => id !== value[i]) ? ids : value;
    }
    default:
      return value;
  }
}

// A destination may hold balanced parentheses one level deep (`image%20(1).png`), as CommonMark allows.
const LINK = /(!?)\[((?:[^[\]\\]|\\.|\[[^\]]*\])*)\]\(\s*(<[^>\n]*>|(?:[^\s()]|\([^\s()]*\))+)((?:\s+(?:"[^"\n]*"|'[^'\n]*'))?)\s*\)/g;

/**
 * `format.markdown.refs=stable`: the page's markdown with its relative links and images to
 * pages and files of the revision rewritten as `/pages/<pageId>` (`#anchor` kept) and
 * `/files/<fileId>`: refs that embed ids, which the content API's markdown writes resolve back
 * to the same pages and files wherever the page is moved. Code is left alone.
 */
export function stableMarkdown(markdown: string, pageFile: string, targets: RefTargets): string {
  if (!markdown.includes('](')) return markdown;
  const rewrite = (line: string) =>
    line.replace(LINK, (whole, bang: string, label: string, rawDest: string, title: string) => {
      const dest = rawDest.startsWith('<') ? rawDest.slice(1, -1) : rawDest;
      const resolved = resolveRefUrl(dest, pageFile, targets);
      if (!resolved || (bang && resolved.kind !== 'file')) return whole;
      const stable =
        resolved.kind === 'file'
          ? `/files/${resolved.file}`
          : resolved.kind === 'page'
            ? `/pages/${resolved.page}`
            : resolved.page
              ? `/pages/${resolved.page}#${encodeAnchor(resolved.anchor)}`
              : undefined;
      return stable === undefined ? whole : `${bang}[${label}](${stable}${title})`;
    });
  const lines = markdown.split('\n');
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const m = /^ {0,3}(`{3,}|~{3,})/.exec(lines[i]);
    if (m) {
      if (!fence) fence = m[1];
      else if (m[1][0] === fence[0] && m[1].length >= fence.length) fence = undefined;
      continue;
    }
    if (!fence && lines[i].includes('](')) lines[i] = rewrite(lines[i]);
  }
  return lines.join('\n');
}

function encodeAnchor(anchor: string): string {
  return anchor.replace(/[\s()<>]/g, (c) => encodeURIComponent(c));
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

const INCLUDE_LINE = /^ {0,3}\{%\s*include\s+(?:"([^"]+)"|'([^']+)'|([^\s%]+))\s*%\}[ \t]*$/gm;

/**
 * `dereferenced`: the page's markdown with each `{% include "..." %}` line (GitBook's reusable
 * content, one level) replaced by the included file's body, front matter dropped and its
 * relative links rebased onto the page's folder. `blobs` maps the revision's markdown files
 * (repository paths) to their blobs, `read` gives a blob's text; includes that name nothing in
 * the revision stay as written.
 */
export async function expandIncludes(markdown: string, pageFile: string, blobs: ReadonlyMap<string, string>, read: (blob: string) => Promise<string>): Promise<string> {
  if (!markdown.includes('{%')) return markdown;
  const found: Array<{ line: string; path: string; blob: string }> = [];
  for (const m of markdown.matchAll(INCLUDE_LINE)) {
    const target = m[1] ?? m[2] ?? m[3];
    const dir = posix.dirname(pageFile);
    for (const candidate of [target, safeDecode(target)]) {
      const path = candidate.startsWith('/') ? posix.normalize(candidate.slice(1)) : posix.join(dir === '.' ? '' : dir, candidate);
      const blob = blobs.get(path);
      if (blob) {
        found.push({ line: m[0], path, blob });
        break;
      }
    }
  }
  if (found.length === 0) return markdown;
  const bodies = new Map<string, string>();
  await Promise.all(
    found.map(async ({ line, path, blob }) => {
      const text = (await read(blob)).replace(/^---\r?\n[\s\S]*?\r?\n---[ \t]*(?:\r?\n|$)/, '').trim();
      bodies.set(line, rebaseLinks(text, path, pageFile));
    }),
  );
  return markdown.replace(INCLUDE_LINE, (line) => bodies.get(line) ?? line);
}

/** Relative links and images written in `fromFile`, made relative to `toFile`'s folder. */
export function rebaseLinks(markdown: string, fromFile: string, toFile: string): string {
  const from = posix.dirname(fromFile);
  const to = posix.dirname(toFile);
  if (from === to || !markdown.includes('](')) return markdown;
  return markdown.replace(LINK, (whole, bang: string, label: string, rawDest: string, title: string) => {
    const angle = rawDest.startsWith('<');
    const dest = angle ? rawDest.slice(1, -1) : rawDest;
    if (dest === '' || dest.startsWith('#') || dest.startsWith('/') || HAS_SCHEME.test(dest)) return whole;
    const rebased = posix.relative(to === '.' ? '' : to, posix.join(from === '.' ? '' : from, dest)) || '.';
    return `${bang}[${label}](${angle ? `<${rebased}>` : rebased}${title})`;
  });
}
