import { RevisionFileNode, RevisionPageNode } from '@quire/domain';
import { QuireConfig } from '@quire/platform/config/config';
import { RevisionRow } from '@quire/read-models/content/content.queries';

const LAYOUT = {
  width: 'default',
  cover: false,
  coverSize: 'hero',
  coverMask: 'none',
  title: true,
  description: true,
  tableOfContents: true,
  outline: true,
  pagination: true,
  metadata: true,
  tags: true,
  actions: true,
  anchors: true,
} as const;

export interface ContentPresenterContext {
  config: QuireConfig;
  spaceId: string;
  /** Omit git metadata (metadata=false). */
  metadata: boolean;
  /**
   * The revision files are read in when the caller named it (revision reads): their downloadURL
   * then gives the bytes that revision has, even if the file was replaced since.
   */
  filesRevision?: string;
}

/** A page of a revision tree in GitBook's shape (RevisionPageDocument / Group / Link). */
export function presentPage(ctx: ContentPresenterContext, page: RevisionPageNode, body?: { markdown?: string; document?: unknown }): any {
  const base: any = { id: page.id, title: page.title };
  if (page.linkTitle) base.linkTitle = page.linkTitle;
  if (page.emoji) base.emoji = page.emoji;
  if (page.icon) base.icon = page.icon;
  if (page.condition) base.condition = page.condition;
  const children = () => page.children.filter((c) => c.kind !== 'group').map((c) => presentPage(ctx, c));
  switch (page.kind) {
    case 'group':
      return { ...base, kind: 'group', type: 'group', slug: page.slug, path: page.path, ...(page.hidden ? { hidden: true } : {}), pages: children() };
    case 'link':
      return { ...base, kind: 'link', type: 'link', href: page.href ?? '', target: { kind: 'url', url: page.href ?? '' } };
    default: {
      const out: any = {
        ...base,
        kind: 'sheet',
        type: 'document',
        urls: { app: `${ctx.config.appUrl}/s/${ctx.spaceId}/${encodePath(page.path)}` },
        slug: page.slug,
        path: page.path,
        pages: children(),
        layout: presentLayout(page.layout),
        tags: [],
      };
      if (page.cover) out.cover = presentCover(page.cover);
      if (page.description) out.description = page.description;
      if (page.hidden) out.hidden = true;
      if (page.blob) out.documentId = page.blob;
      if (ctx.metadata && page.blob && page.file) out.git = { oid: page.blob, path: page.file };
      if (body?.markdown !== undefined) out.markdown = body.markdown;
      else if (body?.document !== undefined) out.document = body.document;
      return out;
    }
  }
}

/** GitBook's RevisionPageLayoutOptions: the page's own options over GitBook's defaults. */
export function presentLayout(layout: RevisionPageNode['layout']): any {
  return layout ? { ...LAYOUT, ...layout } : LAYOUT;
}

/** GitBook's RevisionPageDocumentCover: a revision file or an external URL. */
export function presentCover(cover: NonNullable<RevisionPageNode['cover']>): any {
  const ref = cover.file ? { kind: 'file', file: cover.file } : { kind: 'url', url: cover.url ?? '' };
  return { ref, yPos: cover.yPos };
}

export function presentFile(ctx: ContentPresenterContext, file: RevisionFileNode): any {
  const out: any = {
    id: file.id,
    name: file.name,
    contentType: file.contentType,
    downloadURL: ctx.filesRevision
      ? `${ctx.config.publicUrl}/v1/spaces/${ctx.spaceId}/revisions/${ctx.filesRevision}/files/${file.id}/download`
      : `${ctx.config.publicUrl}/v1/spaces/${ctx.spaceId}/content/files/${file.id}/download`,
    size: file.size,
  };
  if (file.width && file.height) out.dimensions = { width: file.width, height: file.height };
  if (ctx.metadata) out.git = { oid: file.blob, path: file.file };
  return out;
}

/** GitBook's Revision: `initial` and `import` revisions are shown as `edits` (GitBook has no such types). */
export function presentRevision(ctx: ContentPresenterContext, rev: RevisionRow, mergedFrom?: unknown): any {
  const type = rev.kind === 'merge' && mergedFrom ? 'merge' : rev.kind === 'update' ? 'update' : rev.kind === 'rollback' ? 'rollback' : 'edits';
  const out: any = {
    object: 'revision',
    id: rev.id,
    type,
    parents: rev.parents,
    pages: rev.pages.map((p) => presentPage(ctx, p)),
    files: rev.files.map((f) => presentFile(ctx, f)),
    reusableContents: [],
    tags: [],
    createdAt: new Date(rev.created_at).toISOString(),
    urls: { app: `${ctx.config.appUrl}/s/${ctx.spaceId}/~/revisions/${rev.id}` },
  };
  if (type === 'merge') out.mergedFrom = mergedFrom;
  if (ctx.metadata && rev.git) out.git = { oid: rev.git.oid, message: rev.git.message, createdByGitBook: false, ...(rev.git.url ? { url: rev.git.url } : {}), ...(rev.git.ref ? { ref: rev.git.ref } : {}) };
  return out;
}

function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}
