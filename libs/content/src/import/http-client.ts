import type { GitHttpRequest, GitHttpResponse, HttpClient } from 'isomorphic-git';
import nodeHttp from 'isomorphic-git/http/node';

/** Raised when a connection or a response body stays silent for too long. */
export class NetworkTimeoutError extends Error {
  readonly code = 'ETIMEDOUT';
  constructor(ms: number) {
    super(`No answer from the server for ${ms} ms`);
    this.name = 'NetworkTimeoutError';
  }
}

/**
 * isomorphic-git's node client with an idle timeout. Without one, a host that accepts the
 * connection and then says nothing holds an import job forever. The socket timeout covers
 * connecting and waiting for headers; the body is read with the same limit per chunk,
 * since a response stream that is cut off mid-way never ends for the client's reader.
 */
export function httpClientWithTimeout(idleTimeoutMs: number, secretQuery: Array<[string, string]> = []): HttpClient {
  return {
    async request(request: GitHttpRequest): Promise<GitHttpResponse> {
      const url = secretQuery.length ? withQuery(request.url, secretQuery) : request.url;
      const response = await nodeHttp.request({ ...request, url, fetchOptions: { ...request.fetchOptions, timeout: idleTimeoutMs } });
      return response.body ? { ...response, body: withIdleTimeout(response.body, idleTimeoutMs) } : response;
    },
  };
}

/** Token query parameters (`?private_token=`) go on every request: isomorphic-git appends
 * `/info/refs?service=...` to the URL it is given, so they cannot stay in that URL. */
function withQuery(url: string, params: Array<[string, string]>): string {
  const parsed = new URL(url);
  for (const [name, value] of params) parsed.searchParams.append(name, value);
  return parsed.toString();
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
