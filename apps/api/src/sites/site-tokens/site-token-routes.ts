/**
 * The routes a site token may call: the reads of a space's published content (the space, its
 * content, revisions and documents, its search) and of the site itself (published structure, search,
 * redirects), plus public user profiles. Everything else, and every write, is refused (403) for
 * a site token whatever it names; which spaces it may read is checked by AccessService.
 * Change requests, permissions, git sync and imports are never published content.
 */
const READABLE: ReadonlyArray<{ methods: readonly string[]; route: RegExp }> = [
  { methods: ['GET', 'HEAD'], route: /^\/v1\/spaces\/:spaceId$/ },
  { methods: ['GET', 'HEAD'], route: /^\/v1\/spaces\/:spaceId\/(content|documents)(\/.*)?$/ },
  // A revision's content, not the space's history nor semantic changes (change-request previews).
  { methods: ['GET', 'HEAD'], route: /^\/v1\/spaces\/:spaceId\/revisions\/:revisionId(\/(pages|files|page|path|reusable-contents)(\/.*)?)?$/ },
  { methods: ['GET', 'HEAD'], route: /^\/v1\/spaces\/:spaceId\/search$/ },
  { methods: ['GET', 'HEAD'], route: /^\/v1\/users\/:userId$/ },
  { methods: ['GET', 'HEAD'], route: /^\/v1\/orgs\/:organizationId\/sites\/:siteId\/(published|redirect)$/ },
  // Search is a POST in GitBook's API, but reads.
  { methods: ['POST'], route: /^\/v1\/orgs\/:organizationId\/sites\/:siteId\/search$/ },
];

/** `route` is the matched route's pattern (Fastify's `routeOptions.url`), not the request path. */
export function siteTokenMayCall(method: string, route: string | undefined): boolean {
  if (!route) return false;
  const key = `${method} ${route}`;
  let may = decided.get(key);
  if (may === undefined) {
    may = READABLE.some((r) => r.methods.includes(method.toUpperCase()) && r.route.test(route));
    decided.set(key, may);
  }
  return may;
}

/**
 * Answers by method and matched route pattern: both come from the routes Fastify registered
 * (a request matching none has no route), so this stays as small as the API.
 */
const decided = new Map<string, boolean>();
