import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Caller } from './auth';
import { AnswerConditional, answerConditional } from './conditional';

/**
 * What a hot read route needs of its request (route parameters, query, caller, conditional
 * answer), resolved as one handler parameter. Nest resolves every handler parameter, custom ones
 * included, with promises of its own (about two per parameter per request): a warm page read
 * taking five parameters spent more of its CPU resolving them than reading the page.
 * `params` are Fastify's, as @Param gives them; `query` is what @Query() gives (validated by the
 * handler, as everywhere); `caller` is @CurrentCaller's; `answer` is @Conditional's.
 */
export interface ReadContext<P extends string = string> {
  params: Readonly<Record<P, string>>;
  query: unknown;
  caller: Caller;
  answer: AnswerConditional;
}

export const Read = createParamDecorator((_: unknown, ctx: ExecutionContext): ReadContext => {
  const http = ctx.switchToHttp();
  const req = http.getRequest<FastifyRequest & { caller: Caller }>();
  return { params: req.params as Record<string, string>, query: req.query, caller: req.caller, answer: answerConditional(req, http.getResponse<FastifyReply>()) };
});
