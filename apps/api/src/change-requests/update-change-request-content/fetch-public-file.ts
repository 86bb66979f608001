import { lookup as dnsLookup } from 'dns';
import * as http from 'http';
import * as https from 'https';
import { BlockList, isIP } from 'net';
import { badRequest } from '@quire/domain';

/** Addresses a user-supplied URL must not reach (loopback, private, link-local, reserved...). */
const RESERVED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) RESERVED.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 128], ['::1', 128], ['::ffff:0:0', 96], ['64:ff9b::', 96], ['100::', 64], ['2001::', 23], ['2001:db8::', 32],
  ['fc00::', 7], ['fe80::', 10], ['ff00::', 8],
] as const) RESERVED.addSubnet(net, prefix, 'ipv6');

export function isReservedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return RESERVED.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Name resolution that refuses reserved addresses, used for the connection itself so a name
 * cannot resolve to a public address when checked and a private one when connected to.
 */
const guardedLookup = (isReserved: (address: string) => boolean): any => (hostname: string, options: any, callback: (...args: any[]) => void) => {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses: any) => {
    if (err) return callback(err);
    const list = addresses as Array<{ address: string; family: number }>;
    const bad = list.find((a) => isReserved(a.address));
    if (bad || list.length === 0) return callback(Object.assign(new Error(`${hostname} resolves to a private or reserved address`), { code: 'RESERVED_ADDRESS' }));
    if (options?.all) return callback(null, list);
    callback(null, list[0].address, list[0].family);
  });
};

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
  const isReserved = opts.isReserved ?? isReservedAddress;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badRequest(`${url} is not a valid URL`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw badRequest(`${url}: only http(s) URLs can be fetched`);
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && isReserved(host)) throw badRequest(`${url} points to a private or reserved address; send the bytes as base64 instead`);
  if ((/^localhost$/i.test(host) || /\.localhost$/i.test(host)) && isReserved('127.0.0.1')) throw badRequest(`${url} points to a private or reserved address; send the bytes as base64 instead`);

  const client = parsed.protocol === 'https:' ? https : http;
  const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
    const request = client.get(parsed, { lookup: guardedLookup(isReserved), timeout: opts.timeoutMs, signal, headers: { 'user-agent': 'Quire file fetcher' } }, resolve);
    request.on('timeout', () => request.destroy(Object.assign(new Error('timed out'), { code: 'ETIMEDOUT' })));
    request.on('error', reject);
  }).catch((err: any) => {
    if (err?.code === 'RESERVED_ADDRESS') throw badRequest(`${url} points to a private or reserved address; send the bytes as base64 instead`);
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
