import { Body, Controller, HttpCode, Param, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { Caller, CurrentCaller } from '../../http/auth';
import { parseInput } from '../../http/validation';
import { ChangeRequestAccess } from '../../change-requests/change-request-access.service';
import { ContentReader } from '../../content/content-reader';
import { RestoreRevisionCommand } from './restore-revision.command';
import { restoreRevisionBody } from './restore-revision.dto';

/**
 * Restore (Quire's extension): a past revision, or one page as it was in it (`{"page": id}`),
 * becomes the live content as a new revision. It changes the live content without a change
 * request, so it takes what merging one takes (the review role, a space that is not locked).
 */
@Controller('v1/spaces/:spaceId/revisions/:revisionId/restore')
export class RestoreRevisionController {
  constructor(
    private readonly access: ChangeRequestAccess,
    private readonly reader: ContentReader,
    private readonly commands: CommandBus,
  ) {}

  @Post()
  @HttpCode(200)
  async restore(@Param('spaceId') spaceId: string, @Param('revisionId') revisionId: string, @Body() body: unknown, @CurrentCaller() caller: Caller) {
    await this.access.space(caller, spaceId, 'merge');
    const { page } = parseInput(restoreRevisionBody, body);
    await this.reader.requireRevision(spaceId, revisionId);
    return this.commands.execute(new RestoreRevisionCommand(spaceId, revisionId, page, caller.user.id));
  }
}
