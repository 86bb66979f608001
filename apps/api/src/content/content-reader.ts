import { setTimeout as sleep } from 'timers/promises';
import { Injectable } from '@nestjs/common';
import { DomainError, notFound } from '@quire/domain';
import { ContentQueries } from '@quire/read-models/content/content.queries';
import { decodeCursor, toPage } from '@quire/platform/http/pagination';
import { ContentPresenterContext, presentFile, presentPage, presentRevision } from './content.presenter';
import { PageOptions } from './content-options';
import { Caller } from '../http/auth';
import { AccessService } from '../permissions/access.service';
import { ChangeRequestQueries } from '@quire/read-models/change-requests/change-requests.queries';
import { presentChangeRequest } from '../change-requests/change-requests.presenter';

/**
 * How long a read waits for the content read model to hold a revision that another read model
 * (spaces, change requests) already names. Projections run independently, so the space's
 * `revision` can move a moment before the content projection has that revision's pages.
 */
const REVISION_LAG_MS = 3_000;

/** Reads of one revision (a space's live one, or a change request's), shared by both routes. */
@Injectable()
export class ContentReader {
  constructor(
    private readonly content: ContentQueries,
    private readonly access: AccessService,
    private readonly changeRequests: ChangeRequestQueries,
  ) {}

  async revision(ctx: ContentPresenterContext, revisionId: string) {
    const rev = await this.awaitRevision(ctx.spaceId, revisionId, () => this.content.revision(ctx.spaceId, revisionId));
    // A merge revision names the change request it merged (GitBook's RevisionTypeMerge).
    const merged = rev.kind === 'merge' && rev.merged_from ? await this.changeRequests.byIdOrNumber(ctx.spaceId, rev.merged_from) : undefined;
    return presentRevision(ctx, rev, merged ? presentChangeRequest(ctx.config, merged) : undefined);
  }

  async files(ctx: ContentPresenterContext, revisionId: string, opts: { page?: string; limit: number }) {
    const rev = await this.awaitRevision(ctx.spaceId, revisionId, () => this.content.revision(ctx.spaceId, revisionId));
    const after = decodeCursor(opts.page, 1)?.[0] as string | undefined;
    const sorted = [...rev.files].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const rows = sorted.filter((f) => !after || f.id > after).slice(0, opts.limit + 1);
    return toPage(rows, opts.limit, (f) => presentFile(ctx, f), (f) => [f.id], rev.files.length);
  }

  /** A page of the space's live revision, access checked in the same round trip (the hot path). */
  async livePage(ctx: ContentPresenterContext, caller: Caller, by: { id: string } | { path: string }, options: PageOptions) {
    const path = 'path' in by ? by.path.replace(/^\/+|\/+$/g, '') : undefined;
    const read = () => this.content.livePage(ctx.spaceId, caller.user.id, path !== undefined ? { path } : by, options.format ?? 'none');
    let row = await read();
    const role = row ? this.access.roleOf(caller, row as any) : null;
    if (!row || !role || row.space_deleted_at) throw notFound('Space not found');
    if (!row.node && row.revision) {
      // No such page, or the space moved to a revision the content read model had not taken in
      // when we read (it may have since): read again once it has the revision.
      const revision = row.revision;
      row = await this.awaitRevision(ctx.spaceId, revision, async () => ((await this.content.hasRevision(ctx.spaceId, revision)) ? read() : undefined));
      if (!row || row.space_deleted_at) throw notFound('Space not found');
    }
    if (!row.node || (row.kind === 'link' && path !== undefined)) throw notFound('Page not found in this space');
    const body =
      options.format === 'markdown' ? { markdown: row.markdown ?? '' } : options.format === 'document' ? { document: row.document ?? { object: 'document', data: {}, nodes: [] } } : undefined;
    return presentPage(ctx, row.node, row.kind === 'sheet' ? body : undefined);
  }

  async page(ctx: ContentPresenterContext, revisionId: string, by: { id: string } | { path: string }, options: PageOptions) {
    const path = 'path' in by ? by.path.replace(/^\/+|\/+$/g, '') : undefined;
    let row = await this.content.page(ctx.spaceId, revisionId, path !== undefined ? { path } : by, options.format ?? 'none');
    if (!row) {
      // No such page, or a revision the content read model had not taken in when we read.
      await this.awaitRevision(ctx.spaceId, revisionId, async () => ((await this.content.hasRevision(ctx.spaceId, revisionId)) ? true : undefined));
      row = await this.content.page(ctx.spaceId, revisionId, path !== undefined ? { path } : by, options.format ?? 'none');
    }
    if (!row) throw notFound('Page not found in this space');
    if (row.kind === 'link' && path !== undefined) throw notFound('Page not found in this space');
    const body =
      options.format === 'markdown' ? { markdown: row.markdown ?? '' } : options.format === 'document' ? { document: row.document ?? { object: 'document', data: {}, nodes: [] } } : undefined;
    return presentPage(ctx, row.node, row.kind === 'sheet' ? body : undefined);
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
