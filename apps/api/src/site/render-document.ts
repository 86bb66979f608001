import type { DocumentBlock, DocumentFragment, DocumentInline, DocumentNode, DocumentText, JSONDocument } from '@quire/content/markdown';
import { headingSlug } from '@quire/content/markdown';
import { RevisionFileNode, RevisionPageNode } from '@quire/domain';
import { html, HtmlValue, SafeHtml, safeUrl } from './html';
import { resolveRelative, SiteIndex } from './site-index';
import { SiteUrls } from './site-urls';

export interface DocumentRenderContext {
  index: SiteIndex;
  urls: SiteUrls;
  /** Git path of the page's markdown: its relative links start from its folder. */
  pageFile?: string;
  /** The page's path in the site, for links written relative to page URLs. */
  pagePath?: string;
}

export interface OutlineEntry {
  id: string;
  title: string;
  level: 1 | 2 | 3;
}

export interface RenderedDocument {
  body: SafeHtml;
  /** The page's headings (top level only), for "On this page". */
  outline: OutlineEntry[];
}

type Target = { href: string; page?: RevisionPageNode; file?: RevisionFileNode; external?: boolean } | undefined;

const HEADINGS: Record<string, 1 | 2 | 3> = { 'heading-1': 1, 'heading-2': 2, 'heading-3': 3 };
const HINT_STYLES = new Set(['info', 'success', 'warning', 'danger']);

/**
 * GitBook's document JSON as HTML. Headings get the anchors GitBook gives them (`meta.id`, or
 * the same slug for nested ones); links, content-refs and images written as relative markdown
 * URLs are resolved against the revision to the site's page URLs and file URLs; what resolves
 * to nothing stays as text. Block types this renderer does not know show their children.
 */
export function renderDocument(document: JSONDocument | null | undefined, ctx: DocumentRenderContext): RenderedDocument {
  const nodes = document?.nodes ?? [];
  const renderer = new DocumentRenderer(ctx, nodes);
  return { body: html`${nodes.map((n) => renderer.block(n))}`, outline: renderer.outline };
}

class DocumentRenderer {
  readonly outline: OutlineEntry[] = [];
  private readonly usedIds = new Set<string>();
  private tabsCount = 0;

  constructor(
    private readonly ctx: DocumentRenderContext,
    topLevel: readonly DocumentBlock[],
  ) {
    // Anchors the converter assigned are kept as they are; nested headings get free ones.
    for (const node of topLevel) if (node.meta?.id) this.usedIds.add(node.meta.id);
  }

  block(node: DocumentNode): SafeHtml {
    if (node.object !== 'block') return this.inline(node);
    const data = node.data ?? {};
    const children = () => html`${(node.nodes ?? []).map((n) => this.block(n))}`;
    switch (node.type) {
      case 'paragraph':
        return html`<p${alignClass(data.align)}>${children()}</p>`;
      case 'heading-1':
      case 'heading-2':
      case 'heading-3':
        return this.heading(node, HEADINGS[node.type]);
      case 'list-unordered':
        return html`<ul>${children()}</ul>`;
      case 'list-ordered': {
        const start = typeof data.start === 'number' && data.start !== 1 ? data.start : undefined;
        return start !== undefined ? html`<ol start="${start}">${children()}</ol>` : html`<ol>${children()}</ol>`;
      }
      case 'list-tasks':
        return html`<ul class="tasks">${children()}</ul>`;
      case 'list-item':
        if (typeof data.checked === 'boolean') {
          return html`<li class="task${data.checked ? ' done' : ''}"><input type="checkbox" disabled${data.checked ? html` checked` : ''} aria-label="${data.checked ? 'Done' : 'To do'}">${children()}</li>`;
        }
        return html`<li>${children()}</li>`;
      case 'divider':
        return html`<hr>`;
      case 'blockquote':
        return html`<blockquote>${children()}</blockquote>`;
      case 'hint': {
        const style = HINT_STYLES.has(String(data.style)) ? String(data.style) : 'info';
        return html`<div class="hint hint-${style}" role="note"><span class="hint-icon" aria-hidden="true"></span><div class="hint-body">${children()}</div></div>`;
      }
      case 'code':
        return this.code(node);
      case 'math':
        return html`<div class="math" role="math"><code>${String(data.formula ?? '')}</code></div>`;
      case 'images':
        return html`<div class="images">${children()}</div>`;
      case 'image':
        return this.image(node);
      case 'file':
        return this.fileCard(node);
      case 'embed':
        return this.embed(String(data.url ?? ''));
      case 'content-ref':
        return this.contentRef(node);
      case 'expandable': {
        const title = this.fragment(node, 'expandable-title', true);
        return html`<details class="expandable"><summary>${title}</summary><div class="expandable-body">${this.fragment(node, 'expandable-body')}</div></details>`;
      }
      case 'tabs':
        return this.tabs(node);
      case 'tabs-item':
        return html`<div class="tab-panel">${children()}</div>`;
      case 'table':
        return this.table(node);
      case 'stepper':
        return html`<ol class="stepper">${children()}</ol>`;
      case 'stepper-step':
        return html`<li class="step">${children()}</li>`;
      case 'columns':
        return html`<div class="columns">${children()}</div>`;
      case 'column':
        return html`<div class="column">${children()}</div>`;
      case 'drawing': {
        const img = this.img(data.ref, '');
        return img ? html`<figure class="image drawing">${img}</figure>` : html``;
      }
      case 'updates':
        return html`<div class="updates">${children()}</div>`;
      case 'update': {
        const date = typeof data.date === 'string' && !Number.isNaN(Date.parse(data.date)) ? data.date.slice(0, 10) : '';
        return html`<section class="update">${date ? html`<time class="update-date" datetime="${date}">${date}</time>` : ''}<div class="update-body">${children()}</div></section>`;
      }
      case 'swagger':
      case 'openapi-operation':
        return this.apiOperation(node);
      case 'openapi-schemas': {
        const schemas = Array.isArray(data.schemas) ? data.schemas.map(String) : [];
        return html`<div class="card api-block"><span class="card-title">${schemas.join(', ')}</span><span class="card-meta">OpenAPI ${refText(data.ref)}</span></div>`;
      }
      default:
        return html`${children()}${(node.fragments ?? []).map((f) => this.fragmentNodes(f))}`;
    }
  }

  private heading(node: DocumentBlock, level: 1 | 2 | 3): SafeHtml {
    const title = plainText(node.nodes ?? []);
    let id = node.meta?.id;
    if (!id) {
      const base = headingSlug(title) || 'section';
      id = base;
      for (let n = 1; this.usedIds.has(id); n++) id = `${base}-${n}`;
      this.usedIds.add(id);
    }
    this.outline.push({ id, title, level });
    const content = html`${(node.nodes ?? []).map((n) => this.block(n))}<a class="anchor" href="#${id}" aria-label="Link to this section">#</a>`;
    const align = alignClass(node.data?.align);
    // The page title is the h1; document headings start one level below.
    if (level === 1) return html`<h2 id="${id}"${align}>${content}</h2>`;
    if (level === 2) return html`<h3 id="${id}"${align}>${content}</h3>`;
    return html`<h4 id="${id}"${align}>${content}</h4>`;
  }

  private code(node: DocumentBlock): SafeHtml {
    const data = node.data ?? {};
    const lines = (node.nodes ?? []).map((line) => (line.object === 'block' ? plainText(line.nodes ?? []) : plainText([line])));
    const syntax = typeof data.syntax === 'string' && /^[\w+#.-]{1,40}$/.test(data.syntax) ? data.syntax : undefined;
    const title = typeof data.title === 'string' && data.title !== '' ? data.title : undefined;
    const numbered = data.lineNumbers === true;
    return html`<figure class="code${numbered ? ' numbered' : ''}"><figcaption><span class="code-title">${title ?? syntax ?? ''}</span><button type="button" class="copy" hidden>Copy</button></figcaption><pre><code${syntax ? html` class="language-${syntax}"` : ''}>${lines.map(
      (l) => html`<span class="line">${l}</span>\n`,
    )}</code></pre></figure>`;
  }

  private image(node: DocumentBlock): SafeHtml {
    const data = node.data ?? {};
    const caption = this.fragment(node, 'caption', true);
    const alt = typeof data.alt === 'string' ? data.alt : caption ? plainText(captionNodes(node)) : '';
    const img = this.img(data.ref, alt, data.refDark);
    if (!img) return html`<p class="missing-image">${alt ? `[${alt}]` : ''}</p>`;
    return html`<figure class="image">${img}${caption.value ? html`<figcaption>${caption}</figcaption>` : ''}</figure>`;
  }

  /** An image; with a dark variant, a `<picture>` whose source the browser picks by colour scheme. */
  private img(ref: unknown, alt: string, refDark?: unknown, className?: string): SafeHtml | undefined {
    const target = this.imageTarget(ref);
    if (!target) return undefined;
    const size = target.file?.width && target.file?.height ? html` width="${target.file.width}" height="${target.file.height}"` : '';
    const img = html`<img src="${target.href}" alt="${alt}"${size}${className ? html` class="${className}"` : ''} loading="lazy" decoding="async">`;
    const dark = refDark === undefined ? undefined : this.imageTarget(refDark);
    return dark ? html`<picture><source srcset="${dark.href}" media="(prefers-color-scheme: dark)">${img}</picture>` : img;
  }

  private imageTarget(ref: unknown): Target {
    const target = this.resolve(ref);
    return !target || (target.external && !/^https?:/i.test(target.href)) ? undefined : target;
  }

  /** An API operation block: its method and path, and where its specification is. */
  private apiOperation(node: DocumentBlock): SafeHtml {
    const data = node.data ?? {};
    const method = String(data.method ?? '').toUpperCase();
    const ref = data.ref as { kind?: string; spec?: string } | undefined;
    const spec = ref?.kind === 'openapi' ? html`<span class="card-meta">OpenAPI ${String(ref.spec ?? '')}</span>` : '';
    const target = ref?.kind === 'url' ? this.resolve(ref) : undefined;
    const source = target?.external ? html`<a class="card-meta" href="${target.href}" rel="noopener noreferrer">${target.href}</a>` : spec;
    return html`<div class="card api-block"><span class="card-title"><span class="api-method">${method}</span> <code>${String(data.path ?? '')}</code></span>${source}</div>`;
  }

  private fileCard(node: DocumentBlock): SafeHtml {
    const target = this.resolve(node.data?.ref);
    const caption = typeof node.data?.caption === 'string' ? node.data.caption : undefined;
    if (!target?.file) return html`<p class="missing-file">${caption ?? 'File not found'}</p>`;
    return html`<a class="card file-card" href="${target.href}" download="${target.file.name}"><span class="card-title">${caption || target.file.name}</span><span class="card-meta">${target.file.name} · ${formatSize(target.file.size)}</span></a>`;
  }

  private embed(url: string): SafeHtml {
    const href = safeUrl(url);
    if (!href || !/^https?:/i.test(href)) return html`<p class="embed-invalid">${url}</p>`;
    let host = href;
    try {
      host = new URL(href).host;
    } catch {
      /* keep the URL */
    }
    return html`<a class="card embed" href="${href}" rel="noopener noreferrer"><span class="card-title">${host}</span><span class="card-meta">${href}</span></a>`;
  }

  private contentRef(node: DocumentBlock): SafeHtml {
    const target = this.resolve(node.data?.ref);
    if (!target) return html`<p class="broken-ref">${refText(node.data?.ref)}</p>`;
    if (target.page) {
      const p = target.page;
      return html`<a class="card content-ref" href="${target.href}"><span class="card-title">${p.emoji ? html`<span class="emoji">${emojiText(p.emoji)}</span> ` : ''}${p.title}</span>${
        p.description ? html`<span class="card-meta">${p.description}</span>` : ''
      }</a>`;
    }
    if (target.file) return html`<a class="card content-ref" href="${target.href}"><span class="card-title">${target.file.name}</span></a>`;
    return this.embed(target.href);
  }

  private tabs(node: DocumentBlock): SafeHtml {
    const name = `tabs-${++this.tabsCount}`;
    const items = (node.nodes ?? []).filter((n): n is DocumentBlock => n.object === 'block' && n.type === 'tabs-item');
    // Radio buttons switch the panels with CSS alone (site-style.ts styles up to 12 tabs).
    return html`<div class="tabs">${items.map(
      (item, i) => html`<input type="radio" class="tab-radio" name="${name}" id="${name}-${i}"${i === 0 ? html` checked` : ''}><label class="tab-label" for="${name}-${i}">${String(item.data?.title ?? `Tab ${i + 1}`)}</label>`,
    )}${items.map((item) => this.block(item))}</div>`;
  }

  private table(node: DocumentBlock): SafeHtml {
    const data = node.data as TableData;
    const columns = data.view?.columns ?? Object.keys(data.definition ?? {});
    const fragments = new Map((node.fragments ?? []).map((f) => [f.fragment, f]));
    const records = Object.entries(data.records ?? {}).sort(([, a], [, b]) => ((a.orderIndex ?? '') < (b.orderIndex ?? '') ? -1 : (a.orderIndex ?? '') > (b.orderIndex ?? '') ? 1 : 0));
    const cell = (column: string, value: unknown): HtmlValue => this.tableCell(data.definition?.[column], value, fragments);
    if (data.view?.type === 'cards') return this.cards(data, columns, records.map(([, r]) => r), cell);
    const align = (col: string) => {
      const a = data.definition?.[col]?.textAlignment;
      return a === 'center' || a === 'right' ? html` class="align-${a}"` : '';
    };
    const head = data.view?.hideHeader ? '' : html`<thead><tr>${columns.map((c) => html`<th${align(c)}>${data.definition?.[c]?.title ?? ''}</th>`)}</tr></thead>`;
    return html`<div class="table-wrap"><table>${head}<tbody>${records.map(([, r]) => html`<tr>${columns.map((c) => html`<td${align(c)}>${cell(c, r.values?.[c])}</td>`)}</tr>`)}</tbody></table></div>`;
  }

  /** GitBook's cards view: one card per record, linked to its target, with its cover image (and dark cover). */
  private cards(data: TableData, columns: string[], records: TableRecord[], cell: (column: string, value: unknown) => HtmlValue): SafeHtml {
    const view = data.view ?? {};
    const size = view.cardSize === 'large' ? ' cards-large' : '';
    return html`<div class="cards${size}">${records.map((record) => {
      const values = record.values ?? {};
      const cover = view.coverDefinition ? this.img(imageRef(values[view.coverDefinition]), '', view.coverDefinitionDark ? imageRef(values[view.coverDefinitionDark]) : undefined, 'card-cover') : undefined;
      const body = html`${cover ?? ''}<div class="card-body">${columns.map((c) => html`<div class="card-field">${cell(c, values[c])}</div>`)}</div>`;
      const target = view.targetDefinition ? this.resolve(values[view.targetDefinition]) : undefined;
      return target
        ? html`<a class="card table-card" href="${target.href}"${target.external ? html` rel="noopener noreferrer"` : ''}>${body}</a>`
        : html`<div class="card table-card">${body}</div>`;
    })}</div>`;
  }

  private tableCell(column: TableColumn | undefined, value: unknown, fragments: Map<string, DocumentFragment>): HtmlValue {
    if (value === undefined || value === null) return '';
    switch (column?.type) {
      case 'checkbox':
        return value === true ? html`<span class="checkbox checked" aria-label="Yes">✓</span>` : html`<span class="checkbox" aria-label="No"></span>`;
      case 'rating':
        return typeof value === 'number' ? html`<span class="rating" aria-label="${value} of ${column.max ?? 5}">${'★'.repeat(Math.max(0, Math.min(value, 10)))}</span>` : '';
      case 'select': {
        const values = Array.isArray(value) ? value : [value];
        return html`${values.map((v) => html`<span class="tag">${column.options?.find((o) => o.value === v)?.label ?? String(v)}</span>`)}`;
      }
      case 'content-ref': {
        const target = this.resolve(value);
        return target ? html`<a href="${target.href}">${target.page?.title ?? target.file?.name ?? refText(value)}</a>` : html`${refText(value)}`;
      }
      case 'image':
        return this.img(imageRef(value), '') ?? '';
      case 'files': {
        // A file id once read through the API, or a path relative to the page as imported (see resolve()'s `file` case).
        const refs = (Array.isArray(value) ? value : [value]).map((v) => (typeof v === 'string' ? { kind: 'file', file: v } : v));
        return html`${refs.map((ref) => {
          const target = this.resolve(ref);
          return target ? html`<a href="${target.href}">${target.file?.name ?? refText(ref)}</a> ` : '';
        })}`;
      }
    }
    if (typeof value === 'string' && fragments.has(value)) return this.fragmentNodes(fragments.get(value)!);
    if (typeof value === 'boolean') return value ? '✓' : '';
    if (typeof value === 'number' || typeof value === 'string') return String(value);
    return '';
  }

  /** A fragment's blocks; `inline` unwraps a lone paragraph (titles and captions). */
  private fragment(node: DocumentBlock, name: string, inline = false): SafeHtml {
    const fragment = (node.fragments ?? []).find((f) => f.fragment === name);
    if (!fragment) return html``;
    if (inline && fragment.nodes.length === 1 && fragment.nodes[0].type === 'paragraph') return html`${(fragment.nodes[0].nodes ?? []).map((n) => this.block(n))}`;
    return this.fragmentNodes(fragment);
  }

  private fragmentNodes(fragment: DocumentFragment): SafeHtml {
    return html`${fragment.nodes.map((n) => this.block(n))}`;
  }

  inline(node: DocumentInline | DocumentText): SafeHtml {
    if (node.object === 'text') return text(node);
    const data = node.data ?? {};
    const children = () => html`${(node.nodes ?? []).map((n) => this.inline(n))}`;
    switch (node.type) {
      case 'button':
        return this.button(node);
      case 'link':
      case 'mention': {
        const target = this.resolve(data.ref);
        const label = node.nodes?.length && plainText(node.nodes) !== '' ? children() : html`${target?.page?.title ?? refText(data.ref)}`;
        if (!target) return html`<span class="broken-link" title="This link leads nowhere in this space">${label}</span>`;
        const cls = target.external ? 'external' : '';
        return html`<a href="${target.href}"${cls ? html` class="${cls}"` : ''}${target.external ? html` rel="noopener noreferrer"` : ''}>${label}</a>`;
      }
      case 'inline-image':
        return this.img(data.ref, typeof data.alt === 'string' ? data.alt : '', data.refDark, data.size === 'line' ? 'inline-line' : undefined) ?? html``;
      case 'icon':
        return html`<span class="icon" role="img" aria-label="${String(data.icon ?? '')}"></span>`;
      case 'expression':
        return html`<code class="expression">${String(data.expression ?? '')}</code>`;
      case 'inline-math':
        return html`<code class="math" role="math">${String(data.formula ?? '')}</code>`;
      case 'emoji':
        return html`<span class="emoji">${emojiText(String(data.code ?? ''))}</span>`;
      case 'annotation': {
        const note = (node.fragments ?? []).flatMap((f) => f.nodes).map((b) => plainText(b.nodes ?? [])).join(' ');
        return html`<span class="annotation" title="${note}">${children()}</span>`;
      }
      default:
        return children();
    }
  }

  /** A link button, or a search / ask button, which opens the site's search with its query. */
  private button(node: DocumentInline): SafeHtml {
    const data = node.data as { label?: unknown; kind?: unknown; ref?: unknown; action?: { action?: string; query?: string } };
    const label = typeof data.label === 'string' ? data.label : '';
    const cls = `button button-${data.kind === 'secondary' ? 'secondary' : 'primary'}`;
    if (data.action) return html`<a href="${this.ctx.urls.search(data.action.query)}" class="${cls}">${label}</a>`;
    const target = this.resolve(data.ref);
    if (!target) return html`<span class="broken-link" title="This link leads nowhere in this space">${label || refText(data.ref)}</span>`;
    return html`<a href="${target.href}" class="${cls}"${target.external ? html` rel="noopener noreferrer"` : ''}>${label || target.page?.title || refText(data.ref)}</a>`;
  }

  /** A document ref (`url`, `page`, `file`, `anchor`) to where the site shows it. */
  private resolve(ref: unknown): Target {
    if (!ref || typeof ref !== 'object') return undefined;
    const r = ref as { kind?: string; url?: unknown; page?: unknown; file?: unknown; anchor?: unknown };
    const { index, urls } = this.ctx;
    const fromTarget = (t: ReturnType<typeof resolveRelative>): Target => {
      if (!t) return undefined;
      if (t.kind === 'page') return { href: urls.page(t.page, t.anchor), page: t.page };
      if (t.kind === 'file') return { href: urls.file(t.file), file: t.file };
      return { href: `#${t.anchor}` };
    };
    switch (r.kind) {
      case 'url': {
        const url = typeof r.url === 'string' ? r.url.trim() : '';
        if (url === '') return undefined;
        if (url.startsWith('#')) return { href: url };
        if (/^[a-z][a-z0-9+.-]*:/i.test(url.replace(/[\u0000-\u0020\u007f]/g, '')) || url.startsWith('//')) {
          const href = safeUrl(url);
          return href ? { href, external: true } : undefined;
        }
        return fromTarget(resolveRelative(index, { file: this.ctx.pageFile, path: this.ctx.pagePath }, url));
      }
      case 'page': {
        const page = typeof r.page === 'string' ? index.byId.get(r.page) : undefined;
        return page && page.kind === 'sheet' ? { href: urls.page(page, typeof r.anchor === 'string' ? r.anchor : undefined), page } : undefined;
      }
      case 'anchor':
        return typeof r.anchor === 'string' ? { href: `#${encodeURIComponent(r.anchor)}` } : undefined;
      case 'file': {
        if (typeof r.file !== 'string') return undefined;
        const file = index.filesById.get(r.file);
        return file ? { href: urls.file(file), file } : fromTarget(resolveRelative(index, { file: this.ctx.pageFile, path: this.ctx.pagePath }, r.file));
      }
      default:
        return undefined;
    }
  }
}

const MARK_TAGS: Record<string, [string, string]> = {
  bold: ['<strong>', '</strong>'],
  italic: ['<em>', '</em>'],
  code: ['<code>', '</code>'],
  strikethrough: ['<s>', '</s>'],
  keyboard: ['<kbd>', '</kbd>'],
  superscript: ['<sup>', '</sup>'],
  subscript: ['<sub>', '</sub>'],
};

const COLOR_NAME = /^\$?[a-z]{1,16}$/;

function text(node: DocumentText): SafeHtml {
  return html`${node.leaves.map((leaf) => {
    let out = html`${leaf.text}`.value;
    for (const mark of leaf.marks ?? []) {
      const tags = MARK_TAGS[mark.type];
      if (tags) out = tags[0] + out + tags[1];
      else if (mark.type === 'color') out = `${colorOpenTag(mark.data)}${out}</mark>`;
    }
    return new SafeHtml(out);
  })}`;
}

/** Colour marks as classes (the site's CSP allows no inline styles); names outside GitBook's palette are ignored. */
function colorOpenTag(data: Record<string, unknown> | undefined): string {
  const classes: string[] = [];
  for (const [field, prefix] of [['text', 'color'], ['background', 'bg']] as const) {
    const value = data?.[field];
    if (typeof value === 'string' && value !== 'default' && COLOR_NAME.test(value)) classes.push(`${prefix}-${value.replace('$', '')}`);
  }
  return `<mark class="${['colored', ...classes].join(' ')}">`;
}

const TEXT_ALIGN_CLASSES: Record<string, string> = { center: 'align-center', end: 'align-right', start: 'align-left' };

function alignClass(align: unknown): SafeHtml | '' {
  const cls = typeof align === 'string' ? TEXT_ALIGN_CLASSES[align] : undefined;
  return cls ? html` class="${cls}"` : '';
}

interface TableColumn {
  title?: string;
  type?: string;
  textAlignment?: string;
  max?: number;
  options?: Array<{ value?: string; label?: string }>;
}

interface TableRecord {
  orderIndex?: string;
  values?: Record<string, unknown>;
}

interface TableData {
  view?: { type?: string; columns?: string[]; hideHeader?: boolean; cardSize?: string; targetDefinition?: string; coverDefinition?: string; coverDefinitionDark?: string };
  records?: Record<string, TableRecord>;
  definition?: Record<string, TableColumn>;
}

/** An image cell value: a ref, or `{ref, objectFit, alt}`. */
function imageRef(value: unknown): unknown {
  return value && typeof value === 'object' && 'ref' in value ? (value as { ref: unknown }).ref : value;
}

function plainText(nodes: ReadonlyArray<DocumentNode>): string {
  let out = '';
  for (const node of nodes) {
    if (node.object === 'text') for (const leaf of node.leaves) out += leaf.text;
    else if (node.object === 'inline' && node.type === 'inline-math') out += String(node.data?.formula ?? '');
    else if (node.object === 'inline' && node.type === 'emoji') out += emojiText(String(node.data?.code ?? ''));
    else out += plainText(node.nodes ?? []);
  }
  return out;
}

function captionNodes(node: DocumentBlock): DocumentNode[] {
  return (node.fragments ?? []).filter((f) => f.fragment === 'caption').flatMap((f) => f.nodes);
}

function refText(ref: unknown): string {
  const r = (ref ?? {}) as Record<string, unknown>;
  return String(r.url ?? r.file ?? r.page ?? r.anchor ?? '');
}

/** GitBook writes emoji as code points ("1f389", "1f468-200d-1f4bb") or as the character. */
export function emojiText(code: string): string {
  if (!/^[0-9a-f]{2,6}(-[0-9a-f]{2,6})*$/i.test(code)) return code;
  try {
    return String.fromCodePoint(...code.split('-').map((h) => parseInt(h, 16)));
  } catch {
    return '';
  }
}

function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
