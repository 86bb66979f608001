import { z } from 'zod';
import { conflict, CUSTOM_HOSTNAME_MAX_LENGTH, CUSTOM_HOSTNAME_PATTERN } from '@quire/domain';
import { QuireConfig } from '@quire/platform/config/config';

/** GitBook's SiteHostname at the edge; hostnames are case-insensitive, so they are kept in lower case. */
export const customHostnameInput = z
  .string()
  .trim()
  .toLowerCase()
  .max(CUSTOM_HOSTNAME_MAX_LENGTH)
  .regex(CUSTOM_HOSTNAME_PATTERN, 'must be a hostname with at least three labels, such as docs.example.com');

/**
 * The hosts of Quire's own URLs (API, app, published sites). No organization may take one as its
 * custom hostname, and requests to them are never served as a custom hostname's site.
 */
export function instanceHostnames(config: Pick<QuireConfig, 'publicUrl' | 'appUrl' | 'publishedUrl'>): Set<string> {
  return new Set([config.publicUrl, config.appUrl, config.publishedUrl].map((u) => new URL(u).hostname.toLowerCase()));
}

/** Refuses a custom hostname that is one of Quire's own hosts, as one already taken. */
export function assertNotInstanceHostname(config: Pick<QuireConfig, 'publicUrl' | 'appUrl' | 'publishedUrl'>, hostname: string): void {
  if (instanceHostnames(config).has(hostname)) throw conflict(`The custom hostname "${hostname}" is already taken (Quire itself is served there)`);
}
