import { setTimeout as sleep } from 'timers/promises';
import { Injectable } from '@nestjs/common';
import { DomainError, notFound, RevisionPageNode } from '@quire/domain';
import { expandIncludes, JSONDocument, parseBlobMarkdown, RefTargets, refTargetsBytes, resolveDocumentRefs, stableMarkdown } from '@quire/content/markdown';
import { ContentStore } from '@quire/content/store';
import { ContentQueries, RevisionHeaderRow, RevisionPage, RevisionRow } from '@quire/read-models/content/content.queries';
import { decodeCursor, idCursor, toPage } from '@quire/platform/http/pagination';
import { ContentPresenterContext, presentFile, presentPage, presentRevision } from './content.presenter';
import { PageOptions } from './content-options';
import { Caller } from '../http/auth';
import { ConditionalRead, revisionTag, SerializedJson } from '../http/conditional';
import { jsonBytes, RevisionCache } from './revision-cache';
import { entityId, parseInput } from '../http/validation';
import { AccessService } from '../permissions/access.service';
import { ChangeRequestQueries } from '@quire/read-models/change-requests/change-requests.queries';
import { presentChangeRequest } from '../change-requests/change-requests.presenter';
import { MaybePromise, thenMaybe } from '@quire/platform/maybe-promise';

/**
 * How long a read waits for the content read model to hold a revision that another read model
 * (spaces, change requests) already names. Projections run independently, so the space's
 * `revision` can move a moment before the content projection has that revision's pages.
 */
const REVISION_LAG_MS = 3_000;

const INCLUDE = /\{%\s*include\s/;

/**
 * Reads of one revision (a space's live one, a change request's head, any past one), shared by
 * every content route. What a revision holds never changes, so everything read or computed from
 * one (its row, a page looked up by id or path, a page's body in each format) comes from the
 * RevisionCache after the first read; only access and which revision is live are read per request.
 * Each read answers a ConditionalRead: its ETag (the revision and the representation asked for)
 * is known before any body is made.
 */
@Injectable()
export class ContentReader {
  constructor(
    private readonly content: ContentQueries,
    private readonly access: AccessService,
    private readonly changeRequests: ChangeRequestQueries,
    private readonly store: ContentStore,
    private readonly cache: RevisionCache,
  ) {}

  /**
   * A revision's row. One that a read model names (`from: 'read-model'`: the live revision, a
   * change request's head) exists, so a miss means the content read model lags: wait for it.
   * One the caller names (`from: 'caller'`) is a 404 when the space has none such: revisions
   * are keyed by space, so another space's revision is not found either.
   */
  private async revisionRow(spaceId: string, revisionId: string, from: RevisionSource): Promise<RevisionRow> {
    const load = () => this.cache.get(['revision', spaceId, revisionId], () => this.content.revision(spaceId, revisionId), jsonBytes);
    if (from === 'read-model') return this.awaitRevision(spaceId, revisionId, load);
    parseInput(entityId, revisionId, 'revisionId');
    const rev = await load();
    if (!rev) throw notFound('Revision not found in this space');
    return rev;
  }

  /** A revision of the space the caller names (its row without the tree); 404 when the space has none such. */
  async requireRevision(spaceId: string, revisionId: string): Promise<RevisionHeaderRow> {
    parseInput(entityId, revisionId, 'revisionId');
    const rev = await this.content.revisionHeader(spaceId, revisionId);
    if (!rev) throw notFound('Revision not found in this space');
    return rev;
  }

  async revision(ctx: ContentPresenterContext, revisionId: string, from: RevisionSource = 'read-model'): Promise<ConditionalRead<unknown>> {
    const rev = await this.revisionRow(ctx.spaceId, revisionId, from);
    // A merge revision names the change request it merged (GitBook's RevisionTypeMerge), which
    // changes on its own: it is part of the representation, so of the tag.
    const merged = rev.kind === 'merge' && rev.merged_from ? await this.changeRequests.byIdOrNumber(ctx.spaceId, rev.merged_from) : undefined;
    const mergedFrom = merged ? presentChangeRequest(ctx.config, merged) : undefined;
    return { etag: revisionTag(rev.id, 'revision', presentation(ctx), mergedFrom ?? null), body: () => presentRevision(ctx, rev, mergedFrom) };
  }

  /** The revision's pages as GitBook's listPagesInRevisionById gives them. */
  async pages(ctx: ContentPresenterContext, revisionId: string, from: RevisionSource = 'read-model'): Promise<ConditionalRead<unknown>> {
    const rev = await this.revisionRow(ctx.spaceId, revisionId, from);
    return { etag: revisionTag(rev.id, 'pages', presentation(ctx)), body: () => ({ pages: rev.pages.map((p) => presentPage(ctx, p)) }) };
  }

  /** One file of the revision; a file the revision does not have is a 404, whatever other revisions hold. */
  async file(ctx: ContentPresenterContext, revisionId: string, fileId: string, from: RevisionSource = 'read-model'): Promise<ConditionalRead<unknown>> {
    const rev = await this.revisionRow(ctx.spaceId, revisionId, from);
    parseInput(entityId, fileId, 'fileId');
    const file = rev.files.find((f) => f.id === fileId);
    if (!file) throw notFound('File not found in this revision');
    return { etag: revisionTag(rev.id, 'file', fileId, presentation(ctx)), body: () => presentFile(ctx, file) };
  }

  async files(ctx: ContentPresenterContext, revisionId: string, opts: { page?: string; limit: number }, from: RevisionSource = 'read-model'): Promise<ConditionalRead<unknown>> {
    const rev = await this.revisionRow(ctx.spaceId, revisionId, from);
    const after = decodeCursor(opts.page, idCursor)?.[0] as string | undefined;
    return {
      etag: revisionTag(rev.id, 'files', presentation(ctx), opts.page ?? null, opts.limit),
      body: () => {
        const sorted = [...rev.files].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
        const rows = sorted.filter((f) => !after || f.id > after).slice(0, opts.limit + 1);
        return toPage(rows, opts.limit, (f) => presentFile(ctx, f), (f) => [f.id], rev.files.length);
      },
    };
  }

  /** A page of the space's live revision: access and the live revision are the only reads per request. */
  livePage(ctx: ContentPresenterContext, caller: Caller, by: PageKey, options: PageOptions): MaybePromise<ConditionalRead<SerializedJson>> {
    // Warm (access and the page kept): answered without a promise, as pageRead.
    return thenMaybe(this.access.spaceAccess(caller, ctx.spaceId, 'read'), ({ space }) => this.pageRead(ctx, space.revision, by, options));
  }

  /**
   * A page of any revision of the space the caller names (`part: 'document'`: its document
   * alone); a revision the space does not have is a 404 before any page is looked up.
   */
  revisionPage(ctx: ContentPresenterContext, caller: Caller, revisionId: string, by: PageKey, options: PageOptions, part: PagePart = 'page'): MaybePromise<ConditionalRead<SerializedJson>> {
    // Warm (access and the page kept): answered without a promise, as pageRead.
    return thenMaybe(this.access.spaceAccess(caller, ctx.spaceId, 'read'), () => {
      parseInput(entityId, revisionId, 'revisionId');
      return this.pageRead(ctx, revisionId, by, options, 'caller', part);
    });
  }

  /** A page of a revision a read model names, presented, for a caller whose access is already settled (published URLs). */
  async page(ctx: ContentPresenterContext, revisionId: string, by: PageKey, options: PageOptions) {
    return (await this.presentedPage(ctx, revisionId, by, options, 'read-model')).page;
  }

  /**
   * A page of a revision (by default one a read model names: the live one, a change request's
   * head), for a caller whose access is already settled, as the bytes of its JSON with their
   * ETag. A revision never changes, so the representation is presented and serialized once per
   * revision, page, part and options, and kept as bytes in the RevisionCache: a warm read is a
   * cache lookup.
   */
  pageRead(ctx: ContentPresenterContext, revisionId: string, by: PageKey, options: PageOptions, from: RevisionSource = 'read-model', part: PagePart = 'page'): MaybePromise<ConditionalRead<SerializedJson>> {
    const path = pagePath(by);
    // The page's path or id, free text from the URL, comes last: every part before it has a fixed
    // count and holds no separator, so no two reads share a key.
    const key = ['page-json', ctx.spaceId, revisionId, part, presentationKey(ctx), pageOptionsKey(options), path !== undefined ? `path:${path}` : `id:${(by as { id: string }).id}`];
    const answer = (read: { etag: string; json: SerializedJson }) => ({ etag: read.etag, body: () => read.json });
    // Warm (the common case): answered without a promise.
    const kept = this.cache.cached<{ etag: string; json: SerializedJson }>(key);
    if (kept) return answer(kept);
    return this.cache
      .get(
        key,
        async () => {
          const { etag, page } = await this.presentedPage(ctx, revisionId, by, options, from);
          if (part === 'document' && page.document === undefined) throw notFound('This page has no document');
          return { etag, json: SerializedJson.of(part === 'document' ? page.document : page) };
        },
        (r) => r.json.bytes.length + 2 * r.etag.length + 64,
      )
      .then((read) => answer(read!));
  }

  /** A page of a revision presented (with its body in the format asked for), and its ETag. A link is found by id only (by path there is no page of its own to show). */
  private async presentedPage(ctx: ContentPresenterContext, revisionId: string, by: PageKey, options: PageOptions, from: RevisionSource): Promise<{ etag: string; page: any }> {
    const path = pagePath(by);
    const found = await this.revisionPageLookup(ctx.spaceId, revisionId, path !== undefined ? { path } : by, from);
    if (!found || (found.kind === 'link' && path !== undefined)) throw notFound('Page not found in this space');
    const body = found.kind === 'sheet' ? await this.body(ctx.spaceId, revisionId, found.node, found.markdown, options) : undefined;
    return { etag: revisionTag(revisionId, 'page', found.page_id, presentation(ctx), options), page: presentPage(ctx, found.node, body) };
  }

  /**
   * A page of a revision with its markdown (null: the revision has no such page), looked up once
   * per revision. A revision a read model names but the content read model does not hold yet is
   * waited for; one the caller names is a 404.
   */
  async revisionPageLookup(spaceId: string, revisionId: string, by: PageKey, from: RevisionSource = 'read-model'): Promise<RevisionPage | null> {
    const [kind, value] = 'id' in by ? ['id', by.id] : ['path', by.path];
    const load = () =>
      this.cache.get(
        ['page', spaceId, revisionId, kind, value],
        async () => {
          const found = await this.content.revisionPage(spaceId, revisionId, by);
          return found.revision ? { page: found.page } : undefined;
        },
        jsonBytes,
      );
    const found = from === 'caller' ? await load() : await this.awaitRevision(spaceId, revisionId, load);
    if (!found) throw notFound('Revision not found in this space');
    return found.page;
  }

  /**
   * GitBook's getDocumentById: a page's `documentId` (the blob of its markdown) as a document,
   * its references resolved against the revision it is read from: the live one when it has it
   * (found once per live revision), else the newest that has it.
   */
  async document(ctx: ContentPresenterContext, liveRevision: string, documentId: string, options: Pick<PageOptions, 'dereferenced'>): Promise<ConditionalRead<unknown>> {
    parseInput(entityId, documentId, 'documentId');
    const found =
      (await this.cache.get(['document', ctx.spaceId, liveRevision, documentId], () => this.content.documentPage(ctx.spaceId, documentId, liveRevision), jsonBytes)) ??
      (await this.content.documentPage(ctx.spaceId, documentId));
    if (!found) throw notFound('Document not found in this space');
    const asDocument = { ...options, format: 'document', 'format.markdown.refs': 'relative' } as const;
    return {
      etag: revisionTag(found.revision_id, 'document', documentId, options),
      body: async () => (await this.body(ctx.spaceId, found.revision_id, { file: found.file, blob: documentId }, found.markdown, asDocument))!.document,
    };
  }

  /**
   * The body a read asks for, computed once per revision, page body and options. Markdown with
   * `refs=relative` (the hot path) is the stored markdown itself. `dereferenced` (true or
   * reusable-contents) expands `{% include %}` reusable content first.
   */
  private async body(spaceId: string, revision: string, page: PageFile, stored: string | null, options: BodyOptions): Promise<PageBody | undefined> {
    if (options.format !== 'markdown' && options.format !== 'document') return undefined;
    const markdown = stored ?? '';
    const includes = options.dereferenced !== 'false' && !!page.file && INCLUDE.test(markdown);
    if (options.format === 'markdown' && !includes && (options['format.markdown.refs'] !== 'stable' || !markdown.includes(']('))) return { markdown };
    const key = ['body', spaceId, revision, page.file ?? '', page.blob ?? '', options.format, options['format.markdown.refs'], includes ? 'd' : ''];
    return this.cache.get(key, () => this.computeBody(spaceId, revision, page, markdown, includes, options), jsonBytes);
  }

  private async computeBody(spaceId: string, revision: string, page: PageFile, stored: string, includes: boolean, options: BodyOptions): Promise<PageBody> {
    const file = page.file;
    let markdown = stored;
    let expanded = false;
    if (includes && file) {
      markdown = await expandIncludes(markdown, file, await this.markdownBlobs(spaceId, revision), (blob) => this.includeMarkdown(spaceId, blob));
      expanded = markdown !== stored;
    }
    if (options.format === 'markdown') {
      if (options['format.markdown.refs'] !== 'stable' || !file || !markdown.includes('](')) return { markdown };
      const targets = await this.refTargets(spaceId, revision);
      return { markdown: targets ? stableMarkdown(markdown, file, targets) : markdown };
    }
    if (!page.blob) return { document: EMPTY_DOCUMENT };
    const document = parseBlobMarkdown(expanded ? `${page.blob}+${revision}` : page.blob, markdown).document;
    if (!file) return { document };
    const targets = await this.refTargets(spaceId, revision);
    return { document: targets ? resolveDocumentRefs(document, file, targets) : document };
  }

  /** What the references of a revision's pages can name, read once per revision. */
  private refTargets(spaceId: string, revision: string): Promise<RefTargets | undefined> {
    return this.cache.get(['ref-targets', spaceId, revision], () => this.content.refTargets(spaceId, revision), refTargetsBytes);
  }

  /**
   * The markdown files (pages, reusable content) of a revision's commit, path -> blob: read from
   * the git tree once per revision, and only for a `dereferenced` read of a page that includes.
   */
  private async markdownBlobs(spaceId: string, revision: string): Promise<Map<string, string>> {
    const tree = await this.cache.get(
      ['markdown-files', spaceId, revision],
      async () => new Map((await this.store.readRevisionFiles(spaceId, revision)).filter((f) => /\.md$/i.test(f.path)).map((f) => [f.path, f.oid])),
      (files) => files.size * 256,
    );
    return tree!;
  }

  /** The markdown of reusable content, by blob (immutable), read from the content store once. */
  private async includeMarkdown(spaceId: string, blob: string): Promise<string> {
    const text = await this.cache.get(['blob', blob], async () => new TextDecoder().decode(await this.store.readBlob(spaceId, blob)), (t) => 2 * t.length + 64);
    return text!;
  }

  /**
   * `load` until it gives something: the revision is named by another read model, so it exists
   * and the content projection will have it shortly. Past REVISION_LAG_MS the content read model
   * is stuck or far behind: 503, as for any read model that lags.
   */
  private async awaitRevision<T>(spaceId: string, revisionId: string, load: () => Promise<T | undefined>): Promise<T> {
    const deadline = Date.now() + REVISION_LAG_MS;
    for (let wait = 5; ; wait = Math.min(wait * 2, 100)) {
      const value = await load();
      if (value !== undefined) return value;
      if (Date.now() > deadline) throw new DomainError('unavailable', `Revision ${revisionId} of space ${spaceId} is not in the content read model yet; retry shortly`);
      await sleep(wait);
    }
  }
}

/** What of a page a read answers: the page (with its body), or its document alone (`.../document`). */
export type PagePart = 'page' | 'document';

/** A page named by id, or by path (with slashes, as the client sends it). */
export type PageKey = { id: string } | { path: string };

/** Where a page's body is in the revision's commit (its file) and which blob it is. */
type PageFile = Pick<RevisionPageNode, 'file' | 'blob'>;

type PageBody = { markdown?: string; document?: JSONDocument };

type BodyOptions = Pick<PageOptions, 'format' | 'format.markdown.refs' | 'dereferenced'>;

const EMPTY_DOCUMENT: JSONDocument = { object: 'document', data: {}, nodes: [] } as unknown as JSONDocument;

/** Who names the revision a read is of: a read model (the live revision, a change request's head) or the caller. */
export type RevisionSource = 'read-model' | 'caller';

/** What of the presenter context shapes a body besides the revision (the space is in the URL). */
function presentation(ctx: ContentPresenterContext) {
  return { metadata: ctx.metadata, filesRevision: ctx.filesRevision ?? null };
}

/** presentation(ctx) as a cache key part, without serializing an object per read. */
function presentationKey(ctx: ContentPresenterContext): string {
  return `${ctx.metadata ? 'm' : '-'}${ctx.filesRevision ?? ''}`;
}

/**
 * Every option of a page read, in a fixed order, as a cache key part (a warm read's key is made
 * per request: this replaces a JSON.stringify of the options). Each value is a boolean or one of
 * an enum's values, none holding `|`. PAGE_OPTION_KEYS must name every key of PageOptions (the
 * type below fails to compile otherwise), so an option added later cannot be left out of the key.
 */
function pageOptionsKey(o: PageOptions & { cachedMetadata?: boolean }): string {
  return `${o.metadata ? 1 : 0}${o.computed ? 1 : 0}${o.cachedMetadata === undefined ? '' : o.cachedMetadata ? 1 : 0}|${o.format ?? ''}|${o['format.markdown.refs']}|${o.evaluated}|${o.dereferenced}`;
}
const PAGE_OPTION_KEYS = ['metadata', 'computed', 'format', 'format.markdown.refs', 'evaluated', 'dereferenced'] as const;
type MissingFromKey = Exclude<keyof PageOptions, (typeof PAGE_OPTION_KEYS)[number]>;
const pageOptionsKeyIsComplete: [MissingFromKey] extends [never] ? true : never = true;
void pageOptionsKeyIsComplete;

function pagePath(by: PageKey): string | undefined {
  return 'path' in by ? by.path.replace(/^\/+|\/+$/g, '') : undefined;
}
