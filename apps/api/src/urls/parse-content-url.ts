import { badRequest, isCustomHostname } from '@quire/domain';
import { SHARE_PARAM } from '../spaces/share-links';

/**
 * What a content URL names, before any lookup. Quire's URLs:
 * - published: `<QUIRE_PUBLISHED_URL>/<org hostname or id>/<space or collection id>[/<page path>]`
 *   (as spaces' `urls.published`), with `~/changes/<number or id>[/<page path>]` after the
 *   space id for a change request;
 * - published on an organization's custom hostname: `<scheme>://<custom hostname>/<space or
 *   collection id>[/<page path>]`, the same below the id (any host shaped like GitBook's
 *   SiteHostname, other than Quire's own, may be one: the caller looks it up);
 * - app: `<QUIRE_APP_URL>/s/<spaceId>[...same as above]`, `<QUIRE_APP_URL>/c/<collectionId>`
 *   (as `urls.app`), also under `/o/<organizationId>/`.
 */
export interface ContentUrlTarget {
  /** The organization segment of a published URL (hostname or id); absent for app URLs. */
  organization?: string;
  /** The host of a published URL on a custom hostname (lower case); absent otherwise. */
  customHostname?: string;
  /** A space or a collection id. */
  id: string;
  kind: 'space' | 'collection' | 'either';
  /** A change request key (number or id) when the URL goes through `~/changes/`. */
  changeRequest?: string;
  /** The page path inside the space (or the change request), '' for none. */
  pagePath: string;
  /** A share-link key carried in the query (`share`, or `shareKey`). */
  shareKey?: string;
}

export interface ContentUrlBases {
  publishedUrl: string;
  appUrl: string;
}

/** Parses a URL; `undefined` when it is well-formed but not one of Quire's content URLs. */
export function parseContentUrl(raw: string, bases: ContentUrlBases): ContentUrlTarget | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest('Invalid query: url: must be an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest('Invalid query: url: must be an http(s) URL');
  // `share` as in a share-link space's urls.published; `shareKey` as getSpaceById names it.
  const shareKey = url.searchParams.get(SHARE_PARAM) ?? url.searchParams.get('shareKey') ?? undefined;

  const published = segmentsUnder(url, bases.publishedUrl);
  if (published) {
    const [organization, id, ...rest] = published;
    if (!organization || !id) return undefined;
    return inSpace({ organization, id, kind: 'either', shareKey }, rest);
  }
  let app = segmentsUnder(url, bases.appUrl);
  if (!app) return onCustomHostname(url, bases, shareKey);
  if (app[0] === 'o' && app.length >= 4) app = app.slice(2);
  const [kind, id, ...rest] = app;
  if (!id) return undefined;
  if (kind === 's') return inSpace({ id, kind: 'space', shareKey }, rest);
  if (kind === 'c' && rest.length === 0) return { id, kind: 'collection', pagePath: '', shareKey };
  return undefined;
}

function onCustomHostname(url: URL, bases: ContentUrlBases, shareKey: string | undefined): ContentUrlTarget | undefined {
  // The WHATWG parser lower-cases hosts. A custom hostname is served on the default port only.
  const host = url.hostname;
  if (url.port !== '' || !isCustomHostname(host)) return undefined;
  if ([bases.publishedUrl, bases.appUrl].some((base) => new URL(base).hostname.toLowerCase() === host)) return undefined;
  const [id, ...rest] = segmentsUnder(url, url.origin)!;
  if (!id) return undefined;
  return inSpace({ customHostname: host, id, kind: 'either', shareKey }, rest);
}

function inSpace(target: Omit<ContentUrlTarget, 'pagePath'>, rest: string[]): ContentUrlTarget | undefined {
  if (rest[0] !== '~') return { ...target, pagePath: rest.join('/') };
  // `~/changes/<n>/...` is the only `~` route Quire knows.
  if (rest[1] !== 'changes' || !rest[2]) return undefined;
  return { ...target, kind: 'space', changeRequest: rest[2], pagePath: rest.slice(3).join('/') };
}

/** The decoded path segments of `url` below `base`, or undefined when it is not below it. */
function segmentsUnder(url: URL, base: string): string[] | undefined {
  const b = new URL(base);
  // The scheme may differ (http vs https behind a proxy); host, port and path must not.
  if (b.host.toLowerCase() !== url.host.toLowerCase()) return undefined;
  const basePath = b.pathname.replace(/\/+$/, '');
  const path = url.pathname;
  if (path !== basePath && !path.startsWith(`${basePath}/`)) return undefined;
  return path
    .slice(basePath.length)
    .split('/')
    .filter((s) => s !== '')
    .map((s) => {
      try {
        return decodeURIComponent(s);
      } catch {
        throw badRequest('Invalid query: url: malformed percent-encoding in the path');
      }
    });
}
