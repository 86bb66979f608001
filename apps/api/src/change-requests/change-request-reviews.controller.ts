import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, Query, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { FastifyReply } from 'fastify';
import { badRequest, notFound } from '@quire/domain';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { ChangeRequestReviewQueries } from '@quire/read-models/change-request-reviews/reviews.queries';
import { Caller, CurrentCaller } from '../http/auth';
import { entityId, parseInput } from '../http/validation';
import { ChangeRequestAccess } from './change-request-access.service';
import { listRequestedReviewersQuery, listReviewsQuery, requestReviewersBody, submitReviewBody } from './change-request-reviews.dto';
import { presentRequestedReviewer, presentReview } from './change-request-reviews.presenter';
import { normaliseDescription } from './change-requests.controller';
import { RemoveRequestedReviewerCommand } from './remove-requested-reviewer/remove-requested-reviewer.command';
import { RequestReviewersCommand } from './request-reviewers/request-reviewers.command';
import { SubmitReviewCommand } from './submit-review/submit-review.command';

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
    const { row } = await this.access.changeRequest(caller, spaceId, key, 'read');
    const page = await this.reviews.reviews(row.id, parseInput(listReviewsQuery, query, 'query'));
    return { ...page, items: page.items.map((r) => presentReview(this.config, r)) };
  }

  @Post('reviews')
  @HttpCode(201)
  async submitReview(@Param('spaceId') spaceId: string, @Param('changeRequestId') key: string, @Body() body: unknown, @CurrentCaller() caller: Caller) {
    const { row } = await this.access.changeRequest(caller, spaceId, key, 'review');
    const input = parseInput(submitReviewBody, body);
    const { reviewId } = await this.commands.execute(new SubmitReviewCommand(row.id, input.status, caller.user.id));
    return presentReview(this.config, (await this.reviews.review(row.id, reviewId))!);
  }

  @Get('reviews/:reviewId')
  async getReview(@Param('spaceId') spaceId: string, @Param('changeRequestId') key: string, @Param('reviewId') reviewId: string, @CurrentCaller() caller: Caller) {
    const { row } = await this.access.changeRequest(caller, spaceId, key, 'read');
    parseInput(entityId, reviewId, 'reviewId');
    const review = await this.reviews.review(row.id, reviewId);
    if (!review) throw notFound('Review not found');
    return presentReview(this.config, review);
  }
}
