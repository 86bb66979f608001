import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { createHash } from 'crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { thenMaybe } from '@quire/platform/maybe-promise';

/**
 * A read whose representation its entity tag fixes: the tag is known once access is checked and
 * the revision is settled, the body is made only when the client does not hold it already.
 */
export interface ConditionalRead<T> {
  etag: string;
  body: () => Promise<T> | T;
}

/**
 * A JSON body serialized already (a representation of immutable content, cached as bytes): sent
 * as is, so that a read served from the cache neither builds nor stringifies it again.
 */
export class SerializedJson {
  constructor(readonly bytes: Buffer) {}

  static of(value: unknown): SerializedJson {
    return new SerializedJson(Buffer.from(JSON.stringify(value)));
  }
}

/**
 * The weak entity tag (RFC 9110 §8.8.1) of a representation of a revision's content: the revision
 * (immutable) and everything in the request that shapes the body (route, ids, query options).
 * Weak, because the same content can be serialized to other bytes (another Quire version, a
 * compressed encoding) and still be the same representation.
 */
export function revisionTag(revision: string, ...representation: unknown[]): string {
  const shape = createHash('sha1').update(JSON.stringify(representation)).digest('base64url').slice(0, 16);
  return `W/"${revision}.${shape}"`;
}

/** If-None-Match holds `etag` (RFC 9110 §13.1.2: weak comparison, `*` matches any representation). */
export function ifNoneMatchHolds(header: string | string[] | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = etag.replace(/^W\//, '');
  return (Array.isArray(header) ? header.join(',') : header)
    .split(',')
    .map((t) => t.trim())
    .some((t) => t === '*' || t.replace(/^W\//, '') === opaque);
}

/**
 * Answers a conditional read: the ETag, and a 304 without a body when If-None-Match holds it,
 * else the body. Content is private to those who may read it and revalidated on every use (a
 * live revision moves, access can be revoked), so caches keep it `private, no-cache`.
 */
export type AnswerConditional = <T>(read: ConditionalRead<T>) => T | Buffer | undefined | Promise<T | Buffer | undefined>;

export const Conditional = createParamDecorator((_: unknown, ctx: ExecutionContext): AnswerConditional => {
  const http = ctx.switchToHttp();
  return answerConditional(http.getRequest<FastifyRequest>(), http.getResponse<FastifyReply>());
});

/** The AnswerConditional of one request (what @Conditional resolves to). */
export function answerConditional(req: FastifyRequest, reply: FastifyReply): AnswerConditional {
  const validators = (etag: string) => reply.header('etag', etag).header('cache-control', 'private, no-cache');
  const send = <T>(etag: string, body: T): T | Buffer => {
    void validators(etag);
    if (body instanceof SerializedJson) {
      void reply.type('application/json; charset=utf-8');
      return body.bytes;
    }
    return body;
  };
  // Synchronous when the body is (bytes kept for an immutable revision): no promise for a warm read.
  return (read) => {
    if (ifNoneMatchHolds(req.headers['if-none-match'], read.etag)) {
      void validators(read.etag).status(304);
      return undefined;
    }
    return thenMaybe(read.body(), (body) => send(read.etag, body));
  };
}
