import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isCustomHostname } from '@quire/domain';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { addRequestCheck } from '@quire/platform/http/fastify-plumbing';
import { LOGGER } from '@quire/platform/logging/logger';
import type { Logger } from '@quire/platform/logging/logger';
import { IdentityQueries } from '@quire/read-models/identity/identity.queries';
import { instanceHostnames } from '../custom-hostnames/instance-hostnames';
import { SitePages } from './site-pages';

/** Quire's own routes, served on every host: never a path of a custom hostname's site. */
const API_PATHS = /^\/(v1|health|metrics|admin)(\/|$)/;

/** A Host header that names no custom hostname (the empty string is never one). */
const NOT_CUSTOM = '';
const MAX_HOST_VERDICTS = 1024;

/**
 * Sites on organizations' custom hostnames: a GET or HEAD whose Host header is a known custom
 * hostname is answered here, before routing, as that organization's site at the host's root
 * (`/<spaceId>[/<page path>]`, `/<spaceId>/~/files/...`, `/<spaceId>/~/search`), by the same
 * SitePages as the sites below QUIRE_PUBLISHED_URL. A hook and not routes: those paths would
 * collide with the sites' own routes when QUIRE_PUBLISHED_URL is at a host's root, and only a
 * lookup can tell a custom hostname from any other host.
 *
 * Every other request goes on to the routes unchanged: other hosts (Quire's own, whatever a proxy
 * sends, hostnames no organization has), other methods, and the API paths on every host. Quire
 * trusts the Host header: the operator's proxy routes custom hostnames to it (DNS and TLS are the
 * proxy's job) and must pass the Host header through.
 */
@Injectable()
export class CustomHostSites implements OnModuleInit {
  private readonly ownHosts: Set<string>;
  /** Host header -> the custom hostname it names, or NOT_CUSTOM. */
  private readonly hostVerdicts = new Map<string, string>();

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly identity: IdentityQueries,
    private readonly pages: SitePages,
    @Inject(QUIRE_CONFIG) config: QuireConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    this.ownHosts = instanceHostnames(config);
  }

  onModuleInit(): void {
    // Hooks added before the server is ready apply to every route and to the not-found handler.
    const fastify = this.adapterHost.httpAdapter.getInstance<FastifyInstance>();
    // A request check, synchronous for most requests (the API, Quire's own hosts are told apart
    // without a lookup), so that they do not pay for a promise.
    addRequestCheck(fastify, (req, reply) => {
      const host = this.customHost(req);
      return host === undefined ? false : this.serve(host, req, reply);
    });
  }

  /**
   * The custom hostname a request may be for (its site answers it when an organization has that
   * hostname); undefined for every request that goes on to the routes without a lookup.
   */
  private customHost(req: FastifyRequest): string | undefined {
    if (req.method !== 'GET' && req.method !== 'HEAD') return undefined;
    // Every request asks, and nearly all with one of a few Host headers: the answer is kept by
    // header (Fastify's host, a trusted proxy's forwarded host included), so a warm API read pays
    // a map lookup instead of splitting, lower-casing and matching the pattern (1-2% of its CPU).
    const header = req.host;
    let host = this.hostVerdicts.get(header);
    if (host === undefined) {
      // Clients choose the Host header: the memo is bounded, and starts afresh when full.
      if (this.hostVerdicts.size >= MAX_HOST_VERDICTS) this.hostVerdicts.clear();
      this.hostVerdicts.set(header, (host = this.customHostOf(req.hostname)));
    }
    return host === NOT_CUSTOM ? undefined : host;
  }

  /** The custom hostname `hostname` may be, or NOT_CUSTOM. */
  private customHostOf(hostname: string): string {
    // Fastify's hostname is without the port: a proxy may forward to any port.
    const host = hostname.toLowerCase();
    return this.ownHosts.has(host) || !isCustomHostname(host) ? NOT_CUSTOM : host;
  }

  /** True when the request was answered as a custom hostname's site. */
  private async serve(host: string, req: FastifyRequest, reply: FastifyReply): Promise<boolean> {
    const path = new URL(req.url, 'http://host').pathname;
    if (API_PATHS.test(path)) return false;
    let organization;
    try {
      organization = await this.identity.organizationByCustomHostname(host);
    } catch (err) {
      this.logger.warn({ reqId: req.id, host, err }, 'custom hostname lookup failed');
      await reply.status(503).header('cache-control', 'no-store').type('text/plain; charset=utf-8').send('Service unavailable');
      return true;
    }
    if (!organization) return false;
    await this.route({ customHostname: host }, path, req, reply);
    return true;
  }

  private async route(address: { customHostname: string }, path: string, req: FastifyRequest, reply: FastifyReply) {
    const segments = decodeSegments(path);
    if (!segments?.length) return this.pages.nothingHere(reply);
    const [spaceId, ...rest] = segments;
    const query = (req.query ?? {}) as Record<string, unknown>;
    if (rest[0] === '~') {
      if (rest[1] === 'files' && rest[2] && rest.length <= 4) return this.pages.file(address, spaceId, rest[2], query.v, req, reply);
      if (rest[1] === 'search' && rest.length === 2) return this.pages.searchPage(address, spaceId, query.q, req, reply);
      if (rest[1] === 'search.json' && rest.length === 2) return this.pages.searchJson(address, spaceId, query.query, req, reply);
    }
    return this.pages.page(address, spaceId, rest.join('/'), req, reply);
  }
}

/** The decoded, non-empty path segments; undefined for malformed percent-encoding. */
function decodeSegments(path: string): string[] | undefined {
  try {
    return path
      .split('/')
      .filter((s) => s !== '')
      .map((s) => decodeURIComponent(s));
  } catch {
    return undefined;
  }
}
