import { Injectable } from '@nestjs/common';
import { notFound } from '@quire/domain';
import { ContentQueries } from '@quire/read-models/content/content.queries';
import { decodeCursor, toPage } from '@quire/platform/http/pagination';
import { ContentPresenterContext, presentFile, presentPage, presentRevision } from './content.presenter';
import { PageOptions } from './content-options';

/** Reads of one revision (a space's live one, or a change request's), shared by both routes. */
@Injectable()
export class ContentReader {
  constructor(private readonly content: ContentQueries) {}

  async revision(ctx: ContentPresenterContext, revisionId: string, mergedFrom?: unknown) {
    const rev = await this.content.revision(ctx.spaceId, revisionId);
    if (!rev) throw notFound('Revision not found');
    return presentRevision(ctx, rev, mergedFrom);
  }

  async files(ctx: ContentPresenterContext, revisionId: string, opts: { page?: string; limit: number }) {
    const rev = await this.content.revision(ctx.spaceId, revisionId);
    if (!rev) throw notFound('Revision not found');
    const after = decodeCursor(opts.page, 1)?.[0] as string | undefined;
    const sorted = [...rev.files].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const rows = sorted.filter((f) => !after || f.id > after).slice(0, opts.limit + 1);
    return toPage(rows, opts.limit, (f) => presentFile(ctx, f), (f) => [f.id], rev.files.length);
  }

  async page(ctx: ContentPresenterContext, revisionId: string, by: { id: string } | { path: string }, options: PageOptions) {
    const path = 'path' in by ? by.path.replace(/^\/+|\/+$/g, '') : undefined;
    const row = await this.content.page(ctx.spaceId, revisionId, path !== undefined ? { path } : by, options.format !== undefined);
    if (!row) throw notFound('Page not found in this space');
    if (row.kind === 'link' && path !== undefined) throw notFound('Page not found in this space');
    const body =
      options.format === 'markdown' ? { markdown: row.markdown ?? '' } : options.format === 'document' ? { document: row.document ?? { object: 'document', data: {}, nodes: [] } } : undefined;
    return presentPage(ctx, row.node, row.kind === 'sheet' ? body : undefined);
  }
}
