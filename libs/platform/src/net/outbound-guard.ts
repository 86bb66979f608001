import { lookup as dnsLookup, type LookupAddress } from 'dns';
import { BlockList, isIP, type LookupFunction } from 'net';

/**
 * The one guard of every outbound request a user's input names (insert_files by URL, git
 * import and export): loopback, private, link-local and other reserved addresses are refused,
 * unless an operator allowed the host by name. It is checked where it cannot be dodged:
 * a literal address before the request, and a host name at connect time, on the addresses the
 * connection will actually use (so a name cannot resolve to a public address when checked and
 * a private one when connected to). Callers check again on every redirect.
 */

/** Addresses a user-supplied URL must not reach (loopback, private, link-local, reserved...). */
const RESERVED = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) RESERVED.addSubnet(net, prefix, 'ipv4');
// IPv4-mapped addresses (::ffff:a.b.c.d) need no rule of their own: BlockList checks them
// against the IPv4 rules. A rule for ::ffff:0:0/96 would, the other way round, match every
// IPv4 address.
for (const [net, prefix] of [
  ['::', 128], ['::1', 128], ['64:ff9b::', 96], ['100::', 64], ['2001::', 23], ['2001:db8::', 32],
  ['fc00::', 7], ['fe80::', 10], ['ff00::', 8],
] as const) RESERVED.addSubnet(net, prefix, 'ipv6');

export function isReservedAddress(address: string): boolean {
  const family = isIP(address);
  if (family === 0) return true;
  return RESERVED.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

export interface OutboundPolicy {
  /**
   * Hosts an operator allows although they resolve to reserved addresses (an intranet git
   * server): `host` (any port) or `host:port`, host names or IP addresses (`[::1]:8080`).
   */
  allowedHosts?: readonly string[];
  /** Which addresses are refused: every reserved one unless a test says otherwise. */
  isReserved?: (address: string) => boolean;
}

/** A request was not made because its address is reserved. Carries no detail on purpose. */
export class RefusedAddressError extends Error {
  readonly code = 'REFUSED_ADDRESS';
  constructor(readonly host: string) {
    super(`${host} is a private or reserved address`);
    this.name = 'RefusedAddressError';
  }
}

/**
 * What a request to `url` must be made with: throws RefusedAddressError for a literal
 * reserved address, answers `{}` for an allowed host, and otherwise a `lookup` for the
 * connection that refuses reserved addresses (node skips `lookup` for a literal address,
 * which is why those are checked here). `new URL` has already turned `0x7f000001`,
 * `2130706433` and `127.1` into `127.0.0.1`.
 */
export function guardOutbound(url: URL, policy: OutboundPolicy = {}): { lookup?: LookupFunction } {
  if (isAllowedHost(url, policy.allowedHosts ?? [])) return {};
  const isReserved = policy.isReserved ?? isReservedAddress;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host)) {
    if (isReserved(host)) throw new RefusedAddressError(url.host);
    return {};
  }
  return { lookup: guardedLookup(isReserved) };
}

function isAllowedHost(url: URL, allowed: readonly string[]): boolean {
  if (!allowed.length) return false;
  const hostname = url.hostname.toLowerCase();
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  return allowed.some((entry) => {
    const parsed = parseAllowedHost(entry);
    return parsed !== undefined && parsed.hostname === hostname && (parsed.port === undefined || parsed.port === port);
  });
}

/** `host` or `host:port` as a URL would spell it; undefined when it is not one. */
export function parseAllowedHost(entry: string): { hostname: string; port?: string } | undefined {
  const text = entry.trim();
  if (!text || /[/?#@\s]/.test(text)) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(`http://${text}`);
  } catch {
    return undefined;
  }
  const explicitPort = /:\d+$/.test(text);
  return { hostname: parsed.hostname.toLowerCase(), ...(explicitPort ? { port: parsed.port || '80' } : {}) };
}

/** Name resolution that refuses a name with any reserved address among its answers. */
function guardedLookup(isReserved: (address: string) => boolean): LookupFunction {
  return ((hostname: string, options: any, callback: (...args: any[]) => void) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err);
      if (addresses.length === 0 || addresses.some((a) => isReserved(a.address))) return callback(new RefusedAddressError(hostname));
      if (options?.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  }) as LookupFunction;
}
