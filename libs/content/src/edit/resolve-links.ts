import { posix } from 'path';
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

/**
 * Resolves the links GitBook's content API accepts in markdown into what the git-sync layout
 * stores, paths relative to the page's file: `/pages/<pageId>`, `/pages/<slug>/<slug>`,
 * `/pages/<slug>.md` and `/pages/.../README.md`, `./<ref>.md` (a page inserted by the same
 * batch), `/files/<fileId>` and `./<ref>` (a file inserted by the batch). External URLs and
 * ordinary relative links stay as written; a `/pages/...` link that names no page is kept as
 * plain text. Code blocks are left alone.
 */
export function resolveLinks(text: string, pageFile: string, targets: LinkTargets): string {
  const dir = posix.dirname(pageFile);
  const relative = (target: string) => {
    const rel = posix.relative(dir === '.' ? '' : dir, target) || posix.basename(target);
    return /[\s()<>]/.test(rel) ? `<${rel}>` : rel;
  };
  const rewrite = (line: string) =>
    line.replace(LINK, (whole, bang: string, label: string, rawDest: string, title: string) => {
      const dest = rawDest.startsWith('<') ? rawDest.slice(1, -1) : rawDest;
      const hash = dest.indexOf('#');
      const [target, anchor] = hash >= 0 ? [dest.slice(0, hash), dest.slice(hash)] : [dest, ''];
      const resolved = resolveTarget(target, targets);
      if (resolved === undefined) return whole;
      if (resolved === null) return bang ? whole : label;
      return `${bang}[${label}](${relative(resolved)}${anchor}${title})`;
    });
  const lines = text.split('\n');
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
