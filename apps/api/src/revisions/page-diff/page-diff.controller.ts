import { Controller, Get, Param, Query } from '@nestjs/common';
import { z } from 'zod';
import { notFound } from '@quire/domain';
import { Caller, CurrentCaller } from '../../http/auth';
import { entityId, parseInput } from '../../http/validation';
import { AccessService } from '../../permissions/access.service';
import { ContentReader } from '../../content/content-reader';
import { PageDiffs, PageSide, unifiedText } from './page-diff';

/** `from` and `to` are revisions of the space; `to` is the live revision unless given. */
const pageDiffQuery = z.object({ from: entityId, to: entityId.optional() });

/**
 * A textual diff of one page between any two revisions of its space (Quire's extension): its
 * markdown, line by line, as hunks and as unified diff text. A page missing on one side diffs
 * against nothing (created or deleted); missing on both sides, it is a 404.
 */
@Controller('v1/spaces/:spaceId/pages/:pageId/diff')
export class PageDiffController {
  constructor(
    private readonly access: AccessService,
    private readonly reader: ContentReader,
    private readonly diffs: PageDiffs,
  ) {}

  @Get()
  async diff(@Param('spaceId') spaceId: string, @Param('pageId') pageId: string, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    const q = parseInput(pageDiffQuery, query, 'query');
    const { space } = await this.access.spaceAccess(caller, spaceId, 'read');
    parseInput(entityId, pageId, 'pageId');
    const to = q.to ?? space.revision;
    await Promise.all([this.reader.requireRevision(spaceId, q.from), this.reader.requireRevision(spaceId, to)]);
    const diff = await this.diffs.between(spaceId, pageId, q.from, to);
    if (!diff.from.page && !diff.to.page) throw notFound('Page not found in either revision');
    let additions = 0;
    let deletions = 0;
    for (const hunk of diff.patch.hunks) {
      for (const line of hunk.lines) {
        if (line.startsWith('+')) additions++;
        else if (line.startsWith('-')) deletions++;
      }
    }
    return {
      object: 'page-diff',
      page: pageId,
      from: presentSide(diff.from),
      to: presentSide(diff.to),
      changed: diff.patch.hunks.length > 0,
      additions,
      deletions,
      hunks: diff.patch.hunks.map((h) => ({ oldStart: h.oldStart, oldLines: h.oldLines, newStart: h.newStart, newLines: h.newLines, lines: h.lines })),
      patch: unifiedText(diff),
    };
  }
}

function presentSide(side: PageSide) {
  return { revision: side.revision, ...(side.page ? { title: side.page.title, path: side.page.path } : {}), exists: !!side.page };
}
