import { setTimeout as sleep } from 'timers/promises';
import { Injectable } from '@nestjs/common';
import { DomainError, notFound, RevisionPageNode } from '@quire/domain';
import { expandIncludes, JSONDocument, parseBlobMarkdown, resolveDocumentRefs, stableMarkdown } from '@quire/content/markdown';
import { ContentStore } from '@quire/content/store';
import { LruCache } from '@quire/content/store/lru-cache';
import { ContentQueries, RevisionHeaderRow } from '@quire/read-models/content/content.queries';
import { decodeCursor, idCursor, toPage } from '@quire/platform/http/pagination';
import { ContentPresenterContext, presentFile, presentPage, presentRevision } from './content.presenter';
import { PageOptions } from './content-options';
import { Caller } from '../http/auth';
import { entityId, parseInput } from '../http/validation';
import { AccessService } from '../permissions/access.service';
import { ChangeRequestQueries } from '@quire/read-models/change-requests/change-requests.queries';
import { presentChangeRequest } from '../change-requests/change-requests.presenter';
import type { AccessFactsRow } from '@quire/read-models/permissions/permissions.queries';

/**
 * How long a read waits for the content read model to hold a revision that another read model
 * (spaces, change requests) already names. Projections run independently, so the space's
 * `revision` can move a moment before the content projection has that revision's pages.
 */
const REVISION_LAG_MS = 3_000;

const INCLUDE = /\{%\s*include\s/;

/** Reads of one revision (a space's live one, or a change request's), shared by both routes. */
@Injectable()
export class ContentReader {
  constructor(
    private readonly content: ContentQueries,
    private readonly access: AccessService,
    private readonly changeRequests: ChangeRequestQueries,
    private readonly store: ContentStore,
  ) {}

  /** Reusable content read for `dereferenced`, by blob (characters kept). */
  private readonly includes = new LruCache<string>(4 << 20, (text) => text.length + 1);
  /** Documents with their references resolved, per revision and page body (count of entries). */
  private readonly resolved = new LruCache<JSONDocument>(5_000);
  /** Markdown blobs by path of the revisions last dereferenced (see markdownBlobs). */
  private readonly trees = new Map<string, Promise<Map<string, string>>>();

  /**
   * A revision's row. One that a read model names (`from: 'read-model'`: the live revision, a
   * change request's head) exists, so a miss means the content read model lags: wait for it.
   * One the caller names (`from: 'caller'`) is a 404 when the space has none such: revisions
   * are keyed by space, so another space's revision is not found either.
   */
  private async revisionRow(spaceId: string, revisionId: string, from: RevisionSource) {
    if (from === 'read-model') return this.awaitRevision(spaceId, revisionId, () => this.content.revision(spaceId, revisionId));
    parseInput(entityId, revisionId, 'revisionId');
    const rev = await this.content.revision(spaceId, revisionId);
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

  async revision(ctx: ContentPresenterContext, revisionId: string, from: RevisionSource = 'read-model') {
    const rev = await this.revisionRow(ctx.spaceId, revisionId, from);
    // A merge revision names the change request it merged (GitBook's RevisionTypeMerge).
    const merged = rev.kind === 'merge' && rev.merged_from ? await this.changeRequests.byIdOrNumber(ctx.spaceId, rev.merged_from) : undefined;
    return presentRevision(ctx, rev, merged ? presentChangeRequest(ctx.config, merged) : undefined);
  }

  /** The revision's pages as GitBook's listPagesInRevisionById gives them. */
  async pages(ctx: ContentPresenterContext, revisionId: string, from: RevisionSource = 'read-model') {
    const rev = await this.revisionRow(ctx.spaceId, revisionId, from);
    return { pages: rev.pages.map((p) => presentPage(ctx, p)) };
  }

  /** One file of the revision; a file the revision does not have is a 404, whatever other revisions hold. */
  async file(ctx: ContentPresenterContext, revisionId: string, fileId: string, from: RevisionSource = 'read-model') {
    const rev = await this.revisionRow(ctx.spaceId, revisionId, from);
    parseInput(entityId, fileId, 'fileId');
    const file = rev.files.find((f) => f.id === fileId);
    if (!file) throw notFound('File not found in this revision');
    return presentFile(ctx, file);
  }

  async files(ctx: ContentPresenterContext, revisionId: string, opts: { page?: string; limit: number }, from: RevisionSource = 'read-model') {
    const rev = await this.revisionRow(ctx.spaceId, revisionId, from);
    const after = decodeCursor(opts.page, idCursor)?.[0] as string | undefined;
    const sorted = [...rev.files].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const rows = sorted.filter((f) => !after || f.id > after).slice(0, opts.limit + 1);
    return toPage(rows, opts.limit, (f) => presentFile(ctx, f), (f) => [f.id], rev.files.length);
  }

  /** A page of the space's live revision, access checked in the same round trip (the hot path). */
  async livePage(ctx: ContentPresenterContext, caller: Caller, by: { id: string } | { path: string }, options: PageOptions) {
    const path = pagePath(by);
    return this.pageFrom(ctx, path, options, () => this.content.livePage(ctx.spaceId, caller.user.id, path !== undefined ? { path } : by, options.format ?? 'none'), (row) => {
      this.admitReader(caller, row);
    });
  }

  /** A page of a change request's head, access checked in the same round trip (the same hot path as the space's). */
  async changeRequestPage(ctx: ContentPresenterContext, caller: Caller, key: string, by: { id: string } | { path: string }, options: PageOptions) {
    parseInput(entityId, ctx.spaceId, 'spaceId');
    parseInput(entityId, key, 'changeRequestId');
    const path = pagePath(by);
    return this.pageFrom(ctx, path, options, () => this.changeRequests.page(ctx.spaceId, caller.user.id, key, path !== undefined ? { path } : by, options.format ?? 'none'), (row) => {
      this.admitReader(caller, row);
      if (!row!.change_request_id) throw notFound('Change request not found');
    });
  }

  /** A page of a revision named by a read model, for a caller whose access is already settled (published URLs). */
  async page(ctx: ContentPresenterContext, revisionId: string, by: { id: string } | { path: string }, options: PageOptions) {
    const path = pagePath(by);
    const read = async () => ({ revision: revisionId, ...((await this.content.page(ctx.spaceId, revisionId, path !== undefined ? { path } : by, options.format ?? 'none')) ?? { node: null, kind: null, markdown: null, document: null }) });
    return this.pageFrom(ctx, path, options, read, () => undefined);
  }

  /**
   * A page of any revision of the space the caller names, access checked in the same round trip
   * as the live read (the same read, of another revision). A revision the space does not have is
   * a 404 before any page is looked up.
   */
  async revisionPage(ctx: ContentPresenterContext, caller: Caller, revisionId: string, by: { id: string } | { path: string }, options: PageOptions) {
    parseInput(entityId, ctx.spaceId, 'spaceId');
    parseInput(entityId, revisionId, 'revisionId');
    const path = pagePath(by);
    return this.pageFrom(ctx, path, options, () => this.content.revisionPage(ctx.spaceId, caller.user.id, revisionId, path !== undefined ? { path } : by, options.format ?? 'none'), (row) => {
      this.admitReader(caller, row);
      if (!row!.revision) throw notFound('Revision not found in this space');
    });
  }

  /**
   * GitBook's getDocumentById: a page's `documentId` (the blob of its markdown) as a document,
   * its references resolved against the revision it is read from (the live one when it has it).
   */
  async document(ctx: ContentPresenterContext, liveRevision: string, documentId: string, options: Pick<PageOptions, 'dereferenced'>) {
    parseInput(entityId, documentId, 'documentId');
    const found = await this.content.documentPage(ctx.spaceId, liveRevision, documentId);
    if (!found) throw notFound('Document not found in this space');
    const document = parseBlobMarkdown(documentId, found.markdown).document;
    const body = await this.body(ctx.spaceId, found.revision_id, { file: found.file, blob: documentId, markdown: found.markdown, document }, { ...options, format: 'document', 'format.markdown.refs': 'relative' });
    return body!.document;
  }

  /**
   * Whether the caller may read the space a page row was read from (its access facts come with
   * the row): the one check of every page read, live, of a change request or of a revision.
   */
  private admitReader(caller: Caller, row: ({ space_deleted_at: string | null } & Record<keyof AccessFactsRow, string | null>) | undefined): void {
    // The facts as the page functions return them: text columns, checked by roleOf.
    const role = row ? this.access.roleOf(caller, row as AccessFactsRow) : null;
    if (!row || !role || row.space_deleted_at) throw notFound('Space not found');
  }

  /**
   * The read of one page shared by every route: `read` gives the page with the revision it was
   * looked up in, `admit` throws for what is not a missing page (access, deleted space, unknown
   * change request). A page missing from a revision the content read model has not taken in yet
   * is read again once it has (projections run independently: the space or change request may
   * name a revision a moment before its pages are in). Then the body asked for, with its
   * references resolved to the revision's pages and files.
   */
  private async pageFrom<R extends PageReadRow>(
    ctx: ContentPresenterContext,
    path: string | undefined,
    options: PageOptions,
    read: () => Promise<R | undefined>,
    admit: (row: R | undefined) => void,
  ) {
    let row = await read();
    admit(row);
    if (!row!.node && row!.revision) {
      const revision = row!.revision;
      row = await this.awaitRevision(ctx.spaceId, revision, async () => ((await this.content.hasRevision(ctx.spaceId, revision)) ? read() : undefined));
      admit(row);
    }
    const found = row!;
    if (!found.node || (found.kind === 'link' && path !== undefined)) throw notFound('Page not found in this space');
    const body = found.kind === 'sheet' ? await this.body(ctx.spaceId, found.revision, { file: found.node.file, blob: found.node.blob, markdown: found.markdown, document: found.document }, options) : undefined;
    return presentPage(ctx, found.node, body);
  }

  /**
   * The body a read asks for; markdown with `refs=relative` (the hot path) is served as stored.
   * `dereferenced` (true or reusable-contents) expands `{% include %}` reusable content first.
   */
  private async body(spaceId: string, revision: string | null, row: PageBody, options: Pick<PageOptions, 'format' | 'format.markdown.refs' | 'dereferenced'>) {
    if (options.format !== 'markdown' && options.format !== 'document') return undefined;
    const file = row.file;
    let markdown = row.markdown ?? '';
    let expanded = false;
    if (options.dereferenced !== 'false' && file && revision && INCLUDE.test(markdown)) {
      const before = markdown;
      markdown = await expandIncludes(markdown, file, await this.markdownBlobs(spaceId, revision), (blob) => this.includeMarkdown(spaceId, blob));
      expanded = markdown !== before;
    }
    if (options.format === 'markdown') {
      if (options['format.markdown.refs'] !== 'stable' || !file || !revision || !markdown.includes('](')) return { markdown };
      const targets = await this.content.refTargets(spaceId, revision);
      return { markdown: targets ? stableMarkdown(markdown, file, targets) : markdown };
    }
    const parsed = expanded && row.blob ? parseBlobMarkdown(`${row.blob}+${revision}`, markdown).document : row.document;
    const document = (parsed ?? { object: 'document', data: {}, nodes: [] }) as JSONDocument;
    if (!parsed || !file || !revision) return { document };
    // Resolved once per revision and page body (both immutable); it shares untouched nodes with the parse.
    const key = `${spaceId}:${revision}:${row.blob ?? ''}:${file}:${expanded ? 'd' : ''}`;
    const hit = this.resolved.get(key);
    if (hit) return { document: hit };
    const targets = await this.content.refTargets(spaceId, revision);
    if (!targets) return { document };
    const resolved = resolveDocumentRefs(document, file, targets);
    this.resolved.set(key, resolved);
    return { document: resolved };
  }

  /**
   * The markdown files (pages, reusable content) of a revision's commit, path -> blob: read from
   * the git tree once per revision, and only for a `dereferenced` read of a page that includes.
   */
  private markdownBlobs(spaceId: string, revision: string): Promise<Map<string, string>> {
    const key = `${spaceId}:${revision}`;
    let hit = this.trees.get(key);
    if (!hit) {
      hit = this.store.readRevisionFiles(spaceId, revision).then(
        (files) => new Map(files.filter((f) => /\.md$/i.test(f.path)).map((f) => [f.path, f.oid])),
        (err) => {
          this.trees.delete(key);
          throw err;
        },
      );
      this.trees.set(key, hit);
      if (this.trees.size > 64) this.trees.delete(this.trees.keys().next().value!);
    }
    return hit;
  }

  /** The markdown of reusable content, by blob (immutable), read from the content store once. */
  private async includeMarkdown(spaceId: string, blob: string): Promise<string> {
    const hit = this.includes.get(blob);
    if (hit !== undefined) return hit;
    const text = new TextDecoder().decode(await this.store.readBlob(spaceId, blob));
    this.includes.set(blob, text);
    return text;
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

/** What every page read gives: the page (null when none), its body and the revision it is in. */
interface PageReadRow {
  revision: string | null;
  kind: 'sheet' | 'group' | 'link' | null;
  node: RevisionPageNode | null;
  markdown: string | null;
  document: unknown | null;
}

/** The body of a page as read from the read model, and where it is in the revision's commit. */
interface PageBody {
  file?: string;
  blob?: string;
  markdown: string | null;
  document: unknown | null;
}

/** Who names the revision a read is of: a read model (the live revision, a change request's head) or the caller. */
export type RevisionSource = 'read-model' | 'caller';

function pagePath(by: { id: string } | { path: string }): string | undefined {
  return 'path' in by ? by.path.replace(/^\/+|\/+$/g, '') : undefined;
}
