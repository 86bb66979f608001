import * as http from 'http';
import * as https from 'https';
import { badRequest } from '@quire/domain';
import { guardOutbound, RefusedAddressError } from '@quire/platform/net/outbound-guard';

export interface FetchedFile {
  bytes: Uint8Array;
  contentType?: string;
}

export interface FetchPublicFileOptions {
  maxBytes: number;
  /** The whole download, redirects included, must end within this time: a server that
   * sends a byte now and then cannot hold the request open. */
  timeoutMs: number;
  /** Which addresses are refused; every private and reserved one unless a test says otherwise. */
  isReserved?: (address: string) => boolean;
}

/**
 * Downloads a file named by a public http(s) URL for insert_files: private and reserved
 * addresses are refused (the URL's host, every redirect, and the address actually connected
 * to), as are answers larger than `maxBytes` (by their Content-Length, or once that many bytes
 * arrived) and downloads that do not end within `timeoutMs`. Failures are bad input (400).
 */
export async function fetchPublicFile(url: string, opts: FetchPublicFileOptions): Promise<FetchedFile> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), opts.timeoutMs);
  try {
    return await fetchWithin(url, opts, deadline.signal, 3);
  } catch (err) {
    if (deadline.signal.aborted) throw badRequest(`Could not fetch ${url}: the download did not finish within ${formatSeconds(opts.timeoutMs)}`);
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

async function fetchWithin(url: string, opts: FetchPublicFileOptions, signal: AbortSignal, redirects: number): Promise<FetchedFile> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badRequest(`${url} is not a valid URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw badRequest(`${url}: only http(s) URLs can be fetched`);
  const refused = () => badRequest(`${url} points to a private or reserved address; send the bytes as base64 instead`);
  let guard: ReturnType<typeof guardOutbound>;
  try {
    guard = guardOutbound(parsed, { isReserved: opts.isReserved });
  } catch (err) {
    if (err instanceof RefusedAddressError) throw refused();
    throw err;
  }

  const client = parsed.protocol === 'https:' ? https : http;
  const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const request = client.get(parsed, { ...guard, timeout: opts.timeoutMs, signal, headers: { 'user-agent': 'Quire file fetcher' } }, resolve);
    request.on('timeout', () => request.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
    request.on('error', reject);
  }).catch((err: any) => {
    if (err instanceof RefusedAddressError) throw refused();
    throw badRequest(`Could not fetch ${url}: ${err?.message ?? err}`);
  });

  const status = response.statusCode ?? 0;
  if (status >= 300 && status < 400 && response.headers.location) {
    response.resume();
    if (redirects <= 0) throw badRequest(`Could not fetch ${url}: too many redirects`);
    return fetchWithin(new URL(response.headers.location, parsed).toString(), opts, signal, redirects - 1);
  }
  if (status !== 200) {
    response.resume();
    throw badRequest(`Could not fetch ${url}: the server answered ${status}`);
  }
  const tooLarge = () => badRequest(`Could not fetch ${url}: the file is larger than ${opts.maxBytes} bytes`);
  if (Number(response.headers['content-length'] ?? 0) > opts.maxBytes) {
    response.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response) {
    size += chunk.length;
    if (size > opts.maxBytes) {
      response.destroy();
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  const contentType = response.headers['content-type']?.split(';')[0].trim();
  return { bytes: new Uint8Array(Buffer.concat(chunks)), ...(contentType ? { contentType } : {}) };
}
