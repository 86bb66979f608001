import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Inject } from '@nestjs/common';
import { FastifyReply, FastifyRequest } from 'fastify';
import { ZodError } from 'zod';
import { DomainError, DomainErrorCode } from '@quire/domain';
import { InvalidCursorError } from '@quire/platform/http/pagination';
import { WrongExpectedVersionError } from '@quire/event-store/event-store.port';
import { JobVanishedError } from '@quire/jobs/job-queues';
import { ProjectionFailedError, ProjectionTimeoutError } from '@quire/projections/projector';
import { LOGGER } from '@quire/platform/logging/logger';
import type { Logger } from '@quire/platform/logging/logger';
import { zodMessage } from './validation';

const STATUS: Record<DomainErrorCode, number> = {
  bad_request: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  precondition_failed: 412,
  unprocessable: 422,
  too_many_requests: 429,
  unavailable: 503,
};

/** Every failure leaves as GitBook's `{"error": {"code", "message"}}`, never a stack trace. */
@Catch()
export class GitBookErrorFilter implements ExceptionFilter {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    const { status, message } = this.describe(exception);
    const where = { reqId: request?.id, method: request?.method, url: request?.url?.split('?')[0], status };
    if (exception instanceof DomainError && status >= 500) {
      // An expected refusal (a backing service is down, a job is still running): one line, no stack.
      this.logger.warn(where, message);
    } else if (status >= 500) {
      this.logger.error({ ...where, err: exception }, 'request failed');
    }
    void reply.status(status).header('content-type', 'application/json; charset=utf-8').send({ error: { code: status, message } });
  }

  private describe(exception: unknown): { status: number; message: string } {
    if (exception instanceof DomainError) return { status: STATUS[exception.code], message: exception.message };
    if (exception instanceof ZodError) return { status: 400, message: zodMessage(exception) };
    if (exception instanceof InvalidCursorError) return { status: 400, message: exception.message };
    if (exception instanceof ProjectionTimeoutError) return { status: 503, message: 'The change was recorded but read models are behind; retry the read shortly' };
    if (exception instanceof ProjectionFailedError) return { status: 503, message: 'A read model is stopped; an operator must look at it' };
    if (exception instanceof WrongExpectedVersionError) {
      // Only after the executor's retries all lost the race to other writers of the same thing.
      return { status: 409, message: 'Other requests kept changing this at the same moment; retry the request' };
    }
    if (exception instanceof JobVanishedError) {
      return { status: 503, message: 'The job queue (Redis) lost this job; the request is recorded and will be run again. Retry shortly.' };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      return { status, message: httpMessage(status, exception) };
    }
    const e = exception as { statusCode?: number; code?: string; message?: string };
    // Fastify's own errors: malformed JSON, body too large, unsupported media type...
    if (typeof e?.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
      if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return { status: 413, message: 'Request body is too large (limit 10 MB)' };
      if (e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return { status: 415, message: 'Unsupported content type; send application/json' };
      return { status: e.statusCode, message: e.statusCode === 400 ? `Malformed request body: ${e.message}` : (e.message ?? 'Bad request') };
    }
    if (e?.code === 'ECONNREFUSED' || /Connection is closed|ECONNREFUSED|Stream isn't writeable/.test(e?.message ?? '')) {
      return { status: 503, message: 'A backing service is unavailable; retry shortly' };
    }
    return { status: 500, message: 'Unexpected error' };
  }
}

function httpMessage(status: number, exception: HttpException): string {
  if (status === 404) return exception.message.replace(/^Cannot (\w+) (\S+?)(\?.*)?$/, 'No route for $1 $2');
  const body = exception.getResponse();
  if (typeof body === 'string') return body;
  const m = (body as { message?: unknown }).message;
  return Array.isArray(m) ? m.join('; ') : String(m ?? exception.message);
}
