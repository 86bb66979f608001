import type { GitHttpRequest, GitHttpResponse, HttpClient } from 'isomorphic-git';
import nodeHttp from 'isomorphic-git/http/node';
import { guardOutbound, RefusedAddressError, type OutboundPolicy } from '@quire/platform/net/outbound-guard';

/** Raised when a connection or a response body stays silent for too long. */
export class NetworkTimeoutError extends Error {
  readonly code = 'ETIMEDOUT';
  constructor(ms: number) {
    super(`No answer from the server for ${ms} ms`);
    this.name = 'NetworkTimeoutError';
  }
}

/** Raised when the repository's objects (the upload-pack response) exceed the import limit. */
export class RepositoryTooLargeError extends Error {
  readonly code = 'ERepositoryTooLarge';
  constructor(readonly maxBytes: number) {
    super(`The repository's objects exceed ${maxBytes} bytes`);
    this.name = 'RepositoryTooLargeError';
  }
}

/** Raised when a server keeps redirecting. */
export class TooManyRedirectsError extends Error {
  readonly code = 'TOO_MANY_REDIRECTS';
  constructor() {
    super('The server redirected too many times');
    this.name = 'TooManyRedirectsError';
  }
}

export interface GitHttpClientOptions {
  /** Longest silence accepted from the server, in ms: connecting, waiting for headers, and
   * between two chunks of a body. */
  idleTimeoutMs: number;
  /** Hosts an operator allows although they are private (`QUIRE_GIT_ALLOWED_HOSTS`). */
  allowedHosts: readonly string[];
  /** Token query parameters (`?private_token=`), sent on every request to the remote's host. */
  secretQuery?: Array<[string, string]>;
  /** Largest upload-pack response (the repository's objects as sent) accepted; unlimited by default. */
  maxBytes?: number;
  /** Which addresses are refused; every reserved one unless a test says otherwise. */
  isReserved?: OutboundPolicy['isReserved'];
}

const MAX_REDIRECTS = 5;

/**
 * The HTTP client of every git operation on a remote a user names (import, export): isomorphic-git's
 * node client behind the outbound guard, with an idle timeout.
 *
 * - The guard (`@quire/platform/net/outbound-guard`) refuses private, loopback, link-local and
 *   reserved addresses unless the host is allowed, on the address actually connected to. Redirects
 *   are followed here, one request at a time, so that every hop is checked the same way (the
 *   underlying client would follow them unchecked). A refusal is a RefusedAddressError.
 * - Without an idle timeout, a host that accepts the connection and then says nothing holds a
 *   job forever. The socket timeout covers connecting and waiting for headers; the body is read
 *   with the same limit per chunk, since a response stream cut off mid-way never ends for the
 *   client's reader.
 */
export function gitHttpClient(opts: GitHttpClientOptions): HttpClient {
  const policy: OutboundPolicy = { allowedHosts: opts.allowedHosts, isReserved: opts.isReserved };
  return {
    async request(request: GitHttpRequest): Promise<GitHttpResponse> {
      const origin = new URL(request.url);
      let url = origin;
      let headers = request.headers ?? {};
      // A body isomorphic-git sends is an array of buffers (upload-pack) or, for a push, the
      // pack as it is built: either can go again to the address a redirect names.
      const streamed = request.body && !Array.isArray(request.body) ? new ReplayableBody(request.body) : undefined;
      for (let redirects = 0; ; redirects++) {
        if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RefusedAddressError(url.host);
        const guard = guardOutbound(url, policy);
        // Secrets go only to the host the user gave them for.
        const sameHost = url.host === origin.host;
        const target = sameHost && opts.secretQuery?.length ? withQuery(url, opts.secretQuery) : url.toString();
        const send = streamed?.attempt(request.signal);
        const response = await nodeHttp
          .request({
            ...request,
            url: target,
            headers,
            ...(send && { body: send.body, signal: send.signal }),
            fetchOptions: { ...request.fetchOptions, ...guard, timeout: opts.idleTimeoutMs, followRedirects: false },
          })
          .catch((error: unknown) => {
            throw streamed?.failure ?? error;
          });
        const location = response.headers?.location;
        if (response.statusCode < 300 || response.statusCode >= 400 || !location) {
          if (!response.body) return response;
          const body = withIdleTimeout(response.body, opts.idleTimeoutMs);
          // A repository past the limit is refused while it arrives, not after it filled the
          // worker's memory or disk.
          const limited = opts.maxBytes !== undefined && opts.maxBytes < Infinity && url.pathname.endsWith('/git-upload-pack');
          return { ...response, body: limited ? withSizeLimit(body, opts.maxBytes!) : body };
        }
        await response.body?.return?.();
        if (redirects >= MAX_REDIRECTS) throw new TooManyRedirectsError();
        url = new URL(location, url);
        if (url.host !== origin.host) headers = withoutAuthorization(headers);
      }
    },
  };
}

/**
 * A request body produced while it is sent (a push's pack), kept as it goes so that a redirect
 * can send it again. isomorphic-git's node client pipes such a body without handling its
 * failure (an object that cannot be read mid-pack): here a failure aborts the request and is
 * what the request throws.
 */
class ReplayableBody {
  private readonly chunks: Uint8Array[] = [];
  private readonly source: AsyncIterator<Uint8Array>;
  private next?: Promise<IteratorResult<Uint8Array>>;
  private ended = false;
  private current?: AbortController;
  failure?: unknown;

  constructor(body: AsyncIterable<Uint8Array>) {
    this.source = body[Symbol.asyncIterator]();
  }

  /** The body for one request: what was produced so far, then the rest as it comes. */
  attempt(signal?: AbortSignal): { body: AsyncIterableIterator<Uint8Array>; signal: AbortSignal } {
    this.current?.abort();
    const controller = new AbortController();
    this.current = controller;
    const replay = async function* (this: ReplayableBody): AsyncGenerator<Uint8Array> {
      for (let i = 0; !controller.signal.aborted; i++) {
        if (i === this.chunks.length && !(await this.pull())) return;
        yield this.chunks[i];
      }
    };
    return { body: replay.call(this), signal: signal ? AbortSignal.any([signal, controller.signal]) : controller.signal };
  }

  /** One more chunk from the source into `chunks` (a request that was redirected may still be
   * asking too: the chunk is taken once); false at its end or on its failure. */
  private async pull(): Promise<boolean> {
    if (this.ended) return false;
    const next = (this.next ??= this.source.next());
    try {
      const result = await next;
      if (this.next === next) {
        this.next = undefined;
        if (result.done) this.ended = true;
        else this.chunks.push(result.value);
      }
      return !this.ended;
    } catch (error) {
      this.failure ??= error;
      this.ended = true;
      this.current?.abort(error);
      return false;
    }
  }
}

/** Token query parameters go on every request: isomorphic-git appends `/info/refs?service=...`
 * to the URL it is given, so they cannot stay in that URL. */
function withQuery(url: URL, params: Array<[string, string]>): string {
  const parsed = new URL(url);
  for (const [name, value] of params) parsed.searchParams.append(name, value);
  return parsed.toString();
}

function withoutAuthorization(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'authorization'));
}

async function* withSizeLimit(body: AsyncIterableIterator<Uint8Array>, maxBytes: number): AsyncIterableIterator<Uint8Array> {
  let received = 0;
  for await (const chunk of body) {
    received += chunk.byteLength;
    if (received > maxBytes) throw new RepositoryTooLargeError(maxBytes);
    yield chunk;
  }
}

async function* withIdleTimeout(body: AsyncIterableIterator<Uint8Array>, ms: number): AsyncIterableIterator<Uint8Array> {
  const iterator = body[Symbol.asyncIterator]();
  try {
    for (;;) {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new NetworkTimeoutError(ms)), ms);
      });
      try {
        const next = await Promise.race([iterator.next(), timeout]);
        if (next.done) return;
        yield next.value;
      } finally {
        clearTimeout(timer);
      }
    }
  } finally {
    await iterator.return?.();
  }
}
