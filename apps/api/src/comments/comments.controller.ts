import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Put, Query, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { FastifyReply } from 'fastify';
import { badRequest, CommentActor, notFound } from '@quire/domain';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { newId } from '@quire/platform/ids/ids';
import { CommentQueries, CommentRow, CommentScope } from '@quire/read-models/comments/comments.queries';
import { ContentQueries } from '@quire/read-models/content/content.queries';
import { Caller, CurrentCaller } from '../http/auth';
import { entityId, parseInput } from '../http/validation';
import { ChangeRequestAccess } from '../change-requests/change-request-access.service';
import { commentActor } from './comment-actor';
import { commentBody } from './comment-body';
import { ChangeCommentCommand } from './change-comment/change-comment.command';
import { listCommentsQuery, listRepliesQuery, postCommentBody, postReplyBody, readCommentQuery, updateCommentBody, updateReplyBody } from './comments.dto';
import { presentComment, presentReply } from './comments.presenter';
import { PostCommentCommand } from './post-comment/post-comment.command';

/** Each route serves a space's own comments and, with the same handler, a change request's. */
const both = (path: string) => [`comments${path}`, `change-requests/:changeRequestId/comments${path}`];

/**
 * Comments and replies, on a space (optionally on one of its pages and a node of it) and on a
 * change request (docs/permissions.md): `read` lists and reads them, `comment` posts, replies and
 * resolves; only the author edits what they wrote; the author or a space admin deletes.
 */
@Controller('v1/spaces/:spaceId')
export class CommentsController {
  constructor(
    private readonly access: ChangeRequestAccess,
    private readonly comments: CommentQueries,
    private readonly content: ContentQueries,
    private readonly commands: CommandBus,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
  ) {}

  @Get(both(''))
  async list(@Param('spaceId') spaceId: string, @Param('changeRequestId') key: string | undefined, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    const { scope, actor } = await this.place(caller, spaceId, key, 'read');
    const page = await this.comments.list(scope, parseInput(listCommentsQuery, query, 'query'));
    return { ...page, items: page.items.map((row) => presentComment(this.config, row, actor)) };
  }

  @Post(both(''))
  @HttpCode(200)
  async post(@Param('spaceId') spaceId: string, @Param('changeRequestId') key: string | undefined, @Body() body: unknown, @CurrentCaller() caller: Caller) {
    const { scope, revision, actor } = await this.place(caller, spaceId, key, 'comment');
    const input = parseInput(postCommentBody, body);
    if (input.node !== undefined && input.page === undefined) throw badRequest('Invalid body: node: a node is anchored on a page: give its page too');
    if (input.page !== undefined && !(await this.content.page(spaceId, revision, { id: input.page }, 'none'))) {
      throw badRequest(`Invalid body: page: no page ${input.page} in revision ${revision}`);
    }
    const comment = { revision, pageId: input.page, nodeId: input.node, body: commentBody(input.body) };
    const { commentId } = await this.commands.execute(new PostCommentCommand(scope, comment, actor));
    return presentComment(this.config, (await this.comments.comment(scope, commentId))!, actor);
  }

  @Get(both('/:commentId'))
  async get(@Param('spaceId') spaceId: string, @Param('changeRequestId') key: string | undefined, @Param('commentId') commentId: string, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    parseInput(readCommentQuery, query, 'query');
    const { scope, actor } = await this.place(caller, spaceId, key, 'read');
    return presentComment(this.config, await this.live(scope, commentId), actor);
  }

  @Put(both('/:commentId'))
  async update(@Param('spaceId') spaceId: string, @Param('changeRequestId') key: string | undefined, @Param('commentId') commentId: string, @Body() body: unknown, @CurrentCaller() caller: Caller) {
    const { scope, actor } = await this.place(caller, spaceId, key, 'read');
    const input = parseInput(updateCommentBody, body);
    await this.existing(scope, commentId);
    const change = { type: 'UpdateComment' as const, ...(input.body ? { body: commentBody(input.body) } : {}), ...(input.resolved !== undefined ? { resolved: input.resolved } : {}) };
    await this.commands.execute(new ChangeCommentCommand(commentId, change, actor));
    return presentComment(this.config, await this.live(scope, commentId), actor);
  }

  /** 205 when deleted now, 204 when it already was. */
  @Delete(both('/:commentId'))
  async delete(@Param('spaceId') spaceId: string, @Param('changeRequestId') key: string | undefined, @Param('commentId') commentId: string, @CurrentCaller() caller: Caller, @Res() reply: FastifyReply) {
    const { scope, actor } = await this.place(caller, spaceId, key, 'read');
    await this.existing(scope, commentId);
    const { changed } = await this.commands.execute(new ChangeCommentCommand(commentId, { type: 'DeleteComment' }, actor));
    await reply.status(changed ? 205 : 204).send();
  }

  @Get(both('/:commentId/replies'))
  async listReplies(@Param('spaceId') spaceId: string, @Param('changeRequestId') key: string | undefined, @Param('commentId') commentId: string, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    const { scope, actor } = await this.place(caller, spaceId, key, 'read');
    const f = parseInput(listRepliesQuery, query, 'query');
    await this.live(scope, commentId);
    const page = await this.comments.replies(commentId, f);
    return { ...page, items: page.items.map((row) => presentReply(this.config, row, actor)) };
  }

  @Post(both('/:commentId/replies'))
  @HttpCode(200)
  async postReply(@Param('spaceId') spaceId: string, @Param('changeRequestId') key: string | undefined, @Param('commentId') commentId: string, @Body() body: unknown, @CurrentCaller() caller: Caller) {
    const { scope, actor } = await this.place(caller, spaceId, key, 'comment');
    const input = parseInput(postReplyBody, body);
    await this.existing(scope, commentId);
    const replyId = newId();
    await this.commands.execute(new ChangeCommentCommand(commentId, { type: 'PostCommentReply', replyId, body: commentBody(input.body) }, actor));
    return presentReply(this.config, (await this.comments.reply(commentId, replyId))!, actor);
  }

  @Get(both('/:commentId/replies/:commentReplyId'))
  async getReply(
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') key: string | undefined,
    @Param('commentId') commentId: string,
    @Param('commentReplyId') replyId: string,
    @Query() query: unknown,
    @CurrentCaller() caller: Caller,
  ) {
    parseInput(readCommentQuery, query, 'query');
    const { scope, actor } = await this.place(caller, spaceId, key, 'read');
    await this.live(scope, commentId);
    return presentReply(this.config, await this.reply(commentId, replyId), actor);
  }

  @Put(both('/:commentId/replies/:commentReplyId'))
  async updateReply(
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') key: string | undefined,
    @Param('commentId') commentId: string,
    @Param('commentReplyId') replyId: string,
    @Body() body: unknown,
    @CurrentCaller() caller: Caller,
  ) {
    const { scope, actor } = await this.place(caller, spaceId, key, 'read');
    const input = parseInput(updateReplyBody, body);
    await this.existing(scope, commentId);
    parseInput(entityId, replyId, 'commentReplyId');
    await this.commands.execute(new ChangeCommentCommand(commentId, { type: 'UpdateCommentReply', replyId, body: commentBody(input.body) }, actor));
    return presentReply(this.config, await this.reply(commentId, replyId), actor);
  }

  /** 205 when deleted now, 204 when it already was. */
  @Delete(both('/:commentId/replies/:commentReplyId'))
  async deleteReply(
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') key: string | undefined,
    @Param('commentId') commentId: string,
    @Param('commentReplyId') replyId: string,
    @CurrentCaller() caller: Caller,
    @Res() reply: FastifyReply,
  ) {
    const { scope, actor } = await this.place(caller, spaceId, key, 'read');
    await this.existing(scope, commentId);
    parseInput(entityId, replyId, 'commentReplyId');
    const { changed } = await this.commands.execute(new ChangeCommentCommand(commentId, { type: 'DeleteCommentReply', replyId }, actor));
    await reply.status(changed ? 205 : 204).send();
  }

  /**
   * The space or change request the comments are on, the revision a new comment is made
   * against (the live one, or the change request's head), and what the caller may do there.
   */
  private async place(caller: Caller, spaceId: string, key: string | undefined, right: 'read' | 'comment'): Promise<{ scope: CommentScope; revision: string; actor: CommentActor }> {
    const found =
      key === undefined
        ? await this.access.space(caller, spaceId, right).then(({ space, role }) => ({ scope: { spaceId }, revision: space.revision, space, role }))
        : await this.access.changeRequest(caller, spaceId, key, right).then(({ space, role, row }) => ({ scope: { spaceId, changeRequestId: row.id }, revision: row.revision, space, role }));
    return { scope: found.scope, revision: found.revision, actor: commentActor(caller, found.space, found.role) };
  }

  /** A comment of the scope, deleted or not: what becomes of a deleted one is the domain's to say. */
  private async existing(scope: CommentScope, commentId: string): Promise<CommentRow> {
    parseInput(entityId, commentId, 'commentId');
    const row = await this.comments.comment(scope, commentId);
    if (!row) throw notFound('Comment not found');
    return row;
  }

  private async live(scope: CommentScope, commentId: string): Promise<CommentRow> {
    const row = await this.existing(scope, commentId);
    if (row.deleted_at) throw notFound('Comment not found: it was deleted');
    return row;
  }

  private async reply(commentId: string, replyId: string) {
    parseInput(entityId, replyId, 'commentReplyId');
    const row = await this.comments.reply(commentId, replyId);
    if (!row) throw notFound('Reply not found');
    return row;
  }
}
