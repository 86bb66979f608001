import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { FastifyReply } from 'fastify';
import { badRequest, CommentActor, notFound } from '@quire/domain';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { ChangeRequestReviewQueries, ReviewRow } from '@quire/read-models/change-request-reviews/reviews.queries';
import { CommentQueries } from '@quire/read-models/comments/comments.queries';
import { Caller, CurrentCaller } from '../http/auth';
import { entityId, parseInput } from '../http/validation';
import { ChangeRequestAccess } from './change-request-access.service';
import { listRequestedReviewersQuery, listReviewsQuery, requestReviewersBody, submitReviewBody } from './change-request-reviews.dto';
import { presentRequestedReviewer, presentReview } from './change-request-reviews.presenter';
import { normaliseDescription } from './change-requests.controller';
import { RemoveRequestedReviewerCommand } from './remove-requested-reviewer/remove-requested-reviewer.command';
import { RequestReviewersCommand } from './request-reviewers/request-reviewers.command';
import { SubmitReviewCommand } from './submit-review/submit-review.command';
import { commentActor } from '../comments/comment-actor';
import { commentBody } from '../comments/comment-body';
import { presentComment } from '../comments/comments.presenter';

/**
 * Review of a change request: who is asked to review it, and the reviews (docs/permissions.md).
 * Anyone who reads the space sees both; asking and un-asking needs the edit role, reviewing the
 * review role.
 */
@Controller('v1/spaces/:spaceId/change-requests/:changeRequestId')
export class ChangeRequestReviewsController {
  constructor(
    private readonly access: ChangeRequestAccess,
    private readonly reviews: ChangeRequestReviewQueries,
    private readonly comments: CommentQueries,
    private readonly commands: CommandBus,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
  ) {}

  @Get('requested-reviewers')
  async listRequestedReviewers(@Param('spaceId') spaceId: string, @Param('changeRequestId') key: string, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    const { row } = await this.access.changeRequest(caller, spaceId, key, 'read');
    const page = await this.reviews.requestedReviewers(row.id, parseInput(listRequestedReviewersQuery, query, 'query'));
    return { ...page, items: page.items.map((r) => presentRequestedReviewer(this.config, r)) };
  }

  /** Each user must exist (400) and hold the review role on the space (400: they could not review). */
  @Post('requested-reviewers')
  @HttpCode(200)
  async requestReviewers(@Param('spaceId') spaceId: string, @Param('changeRequestId') key: string, @Body() body: unknown, @CurrentCaller() caller: Caller) {
    const { row } = await this.access.changeRequest(caller, spaceId, key, 'edit');
    const input = parseInput(requestReviewersBody, body);
    const users = [...new Set(input.users)];
    for (const userId of users) {
      const canReview = await this.access.canReview(spaceId, userId);
      if (canReview === undefined) throw badRequest(`Invalid body: users: no user ${userId}`);
      if (!canReview) throw badRequest(`Invalid body: users: ${userId} cannot review this space (it takes the review role)`);
    }
    const details = {
      ...(input.subject !== undefined ? { subject: input.subject } : {}),
      ...(input.description !== undefined ? { description: normaliseDescription(input.description) } : {}),
    };
    await this.commands.execute(new RequestReviewersCommand(row.id, users, details, caller.user.id));
    const requested = await this.reviews.requestedReviewers(row.id, { users, limit: users.length });
    return { users: requested.items.map((r) => presentRequestedReviewer(this.config, r)) };
  }

  /** 205 when the user was asked and no longer is, 204 when they were not asked. */
  @Delete('requested-reviewers/:userId')
  async removeRequestedReviewer(
    @Param('spaceId') spaceId: string,
    @Param('changeRequestId') key: string,
    @Param('userId') userId: string,
    @CurrentCaller() caller: Caller,
    @Res() reply: FastifyReply,
  ) {
    const { row } = await this.access.changeRequest(caller, spaceId, key, 'edit');
    parseInput(entityId, userId, 'userId');
    const { removed } = await this.commands.execute(new RemoveRequestedReviewerCommand(row.id, userId, caller.user.id));
    await reply.status(removed ? 205 : 204).send();
  }

  @Get('reviews')
  async listReviews(@Param('spaceId') spaceId: string, @Param('changeRequestId') key: string, @Query() query: unknown, @CurrentCaller() caller: Caller) {
    const { space, role, row } = await this.access.changeRequest(caller, spaceId, key, 'read');
    const page = await this.reviews.reviews(row.id, parseInput(listReviewsQuery, query, 'query'));
    return { ...page, items: await this.present(page.items, commentActor(caller, space, role)) };
  }

  @Post('reviews')
  @HttpCode(201)
  async submitReview(@Param('spaceId') spaceId: string, @Param('changeRequestId') key: string, @Body() body: unknown, @CurrentCaller() caller: Caller) {
    const { space, role, row } = await this.access.changeRequest(caller, spaceId, key, 'review');
    const input = parseInput(submitReviewBody, body);
    const comment = input.comment === undefined ? undefined : commentBody(input.comment, 'comment');
    const actor = commentActor(caller, space, role);
    const { reviewId } = await this.commands.execute(new SubmitReviewCommand(spaceId, row.id, input.status, comment, actor));
    return (await this.present([(await this.reviews.review(row.id, reviewId))!], actor))[0];
  }

  @Get('reviews/:reviewId')
  async getReview(@Param('spaceId') spaceId: string, @Param('changeRequestId') key: string, @Param('reviewId') reviewId: string, @CurrentCaller() caller: Caller) {
    const { space, role, row } = await this.access.changeRequest(caller, spaceId, key, 'read');
    parseInput(entityId, reviewId, 'reviewId');
    const review = await this.reviews.review(row.id, reviewId);
    if (!review) throw notFound('Review not found');
    return (await this.present([review], commentActor(caller, space, role)))[0];
  }

  /** Reviews with the comments posted with them (one query for the page). */
  private async present(rows: ReviewRow[], actor: CommentActor) {
    const comments = await this.comments.byIds(rows.flatMap((r) => (r.comment_id ? [r.comment_id] : [])));
    return rows.map((r) => {
      const comment = r.comment_id ? comments.get(r.comment_id) : undefined;
      return presentReview(this.config, r, comment && presentComment(this.config, comment, actor));
    });
  }
}
