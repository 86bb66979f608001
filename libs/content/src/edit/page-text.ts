import { escapeTitle, inlineToTitle, splitFrontMatter } from '../gitsync/markdown-inline';
import { formatFrontMatter, parseFrontMatter } from '../markdown/front-matter';
import type { PageFrontMatter } from '../markdown';

/**
 * A page file as git-sync stores it: optional YAML front matter, then the body, whose leading
 * `# H1` is the page title.
 */
export interface PageText {
  frontMatter: PageFrontMatter;
  /** Whether the text had a front matter block (kept as written when nothing changes in it). */
  hasFrontMatter: boolean;
  body: string;
}

export function splitPageText(text: string): PageText {
  const raw = splitFrontMatter(text);
  if (raw.frontMatter === undefined) return { frontMatter: {}, hasFrontMatter: false, body: text };
  const { data, body } = parseFrontMatter(text);
  // Front matter that is not a YAML mapping stays in the body, as the reader leaves it.
  if (body === text.replace(/^\uFEFF/, '')) return { frontMatter: {}, hasFrontMatter: false, body: text };
  return { frontMatter: data, hasFrontMatter: true, body };
}

export function joinPageText(page: PageText): string {
  const fm = formatFrontMatter(page.frontMatter);
  const body = page.body.replace(/^(?:[ \t]*\r?\n)+/, '');
  const text = fm ? `${fm}\n\n${body}` : body;
  return text.endsWith('\n') ? text : `${text}\n`;
}

const ATX_H1 = /^ {0,3}#(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;

/** The text of the body's leading `# H1` (blank lines may come first), if it starts with one. */
export function leadingHeading(body: string): string | undefined {
  for (const line of body.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    const m = ATX_H1.exec(line);
    if (!m) return undefined;
    const title = inlineToTitle(m[1] ?? '');
    return title || undefined;
  }
  return undefined;
}

/** Sets the body's leading `# H1` to `title`, adding one when the body has none. */
export function withHeading(body: string, title: string): string {
  const lines = body.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    if (ATX_H1.test(lines[i].replace(/\r$/, ''))) {
      lines[i] = `# ${escapeTitle(title)}`;
      return lines.join('\n');
    }
    break;
  }
  const rest = body.replace(/^(?:[ \t]*\r?\n)+/, '');
  return rest ? `# ${escapeTitle(title)}\n\n${rest}` : `# ${escapeTitle(title)}\n`;
}

/** GitBook's RevisionPageUpdate fields that live in a page's front matter. */
export interface PageMetadataInput {
  title?: string;
  slug?: string;
  emoji?: string;
  icon?: string;
  description?: string;
  hidden?: boolean;
  noIndex?: boolean;
  noRobotsIndex?: boolean;
  condition?: string;
}

/**
 * Front matter after applying metadata fields; `keep` lists keys the caller's own markdown
 * set, which take precedence. An empty string removes emoji, icon, description and condition;
 * `false` removes the boolean flags. Returns undefined when nothing changes.
 */
export function applyMetadata(frontMatter: PageFrontMatter, meta: PageMetadataInput, keep: ReadonlySet<string> = new Set()): PageFrontMatter | undefined {
  const out: PageFrontMatter = { ...frontMatter };
  let changed = false;
  const set = (key: string, value: unknown) => {
    if (keep.has(key)) return;
    if (value === undefined) return;
    const remove = value === '' || value === false;
    if (remove) {
      if (key in out) {
        delete out[key];
        changed = true;
      }
    } else if (out[key] !== value) {
      out[key] = value;
      changed = true;
    }
  };
  set('description', meta.description);
  set('emoji', meta.emoji);
  set('icon', meta.icon);
  set('hidden', meta.hidden);
  set('noIndex', meta.noIndex);
  set('noRobotsIndex', meta.noRobotsIndex);
  set('if', meta.condition);
  return changed ? out : undefined;
}
