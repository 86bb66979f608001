import { Controller, Get, Inject, Query } from '@nestjs/common';
import { z } from 'zod';
import { notFound, Role } from '@quire/domain';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { ChangeRequestQueries } from '@quire/read-models/change-requests/change-requests.queries';
import { IdentityQueries } from '@quire/read-models/identity/identity.queries';
import { AccessQueries } from '@quire/read-models/permissions/permissions.queries';
import { presentChangeRequest } from '../change-requests/change-requests.presenter';
import { presentCollection } from '../collections/collections.presenter';
import { pageByIdQuery } from '../content/content-options';
import { ContentReader } from '../content/content-reader';
import { Caller, CurrentCaller } from '../http/auth';
import { entityId, parseInput } from '../http/validation';
import { AccessService } from '../permissions/access.service';
import { opensShareLink } from '../spaces/share-links';
import { presentPublishedSpace, presentSpace, spaceVisibility } from '../spaces/spaces.presenter';
import { ContentUrlTarget, parseContentUrl } from './parse-content-url';

/** The page as in a revision tree: no body (getContentByUrl takes no format). */
const PAGE_WITHOUT_BODY = pageByIdQuery.parse({});
const contentByUrlQuery = z.object({ url: z.string().min(1).max(4096) });

/** One answer for every URL the caller cannot use, so nothing about hidden content leaks. */
const nothingHere = () => notFound('No content found at this URL');

/**
 * GitBook's getContentByUrl: a published URL of Quire (under QUIRE_PUBLISHED_URL or on an
 * organization's custom hostname) or an app URL to the collection, or the space
 * (with the change request and page it names). Only content the caller can read resolves, and
 * public or unlisted spaces (not their change requests) for anyone signed in.
 */
@Controller('v1/urls')
export class UrlsController {
  constructor(
    private readonly access: AccessService,
    private readonly accessQueries: AccessQueries,
    private readonly identity: IdentityQueries,
    private readonly changeRequests: ChangeRequestQueries,
    private readonly reader: ContentReader,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
  ) {}

  @Get('content')
  async content(@Query() query: unknown, @CurrentCaller() caller: Caller) {
    const { url } = parseInput(contentByUrlQuery, query, 'query');
    const target = parseContentUrl(url, this.config);
    if (!target || !entityId.safeParse(target.id).success) throw nothingHere();
    const organizationId =
      target.customHostname !== undefined
        ? await this.organizationAt(target.customHostname)
        : target.organization !== undefined
          ? await this.organizationOf(target.organization)
          : undefined;

    if (target.kind !== 'collection') {
      const space = await this.accessQueries.space(target.id, caller.user.id);
      if (space && (organizationId === undefined || space.organization_id === organizationId)) return this.inSpace(caller, target, space);
      if (target.kind === 'space') throw nothingHere();
    }
    const collection = await this.accessQueries.collection(target.id, caller.user.id);
    if (!collection || (organizationId !== undefined && collection.organization_id !== organizationId) || target.pagePath) throw nothingHere();
    const role = this.access.roleOf(caller, collection);
    if (!role) throw nothingHere();
    return { collection: presentCollection(this.config, collection, role) };
  }

  private async inSpace(caller: Caller, target: ContentUrlTarget, space: NonNullable<Awaited<ReturnType<AccessQueries['space']>>>) {
    const own = this.access.roleOf(caller, space);
    // A public or unlisted space's site is served to anyone, and a share-link space's to whoever
    // has its key, so their URLs resolve for them too (read access); change requests stay with
    // those who have a role on the space.
    const published =
      !own &&
      target.changeRequest === undefined &&
      (['public', 'unlisted'].includes(spaceVisibility(space)) || opensShareLink(this.config, space, target.shareKey));
    const role: Role | null = own ?? (published ? 'read' : null);
    if (!role || space.deleted_at) throw nothingHere();
    // Someone without a role learns what the published site shows, no more.
    const result: Record<string, unknown> = { space: own ? presentSpace(this.config, space, own) : presentPublishedSpace(this.config, space) };
    let revision = space.revision;
    if (target.changeRequest !== undefined) {
      const changeRequest = entityId.safeParse(target.changeRequest).success ? await this.changeRequests.byIdOrNumber(space.id, target.changeRequest) : undefined;
      if (!changeRequest) throw nothingHere();
      result.changeRequest = presentChangeRequest(this.config, changeRequest);
      revision = changeRequest.revision;
    }
    if (target.pagePath) {
      result.page = await this.reader
        .page({ config: this.config, spaceId: space.id, metadata: true }, revision, { path: target.pagePath }, PAGE_WITHOUT_BODY)
        .catch((err: { code?: string }) => {
          throw err?.code === 'not_found' ? nothingHere() : err;
        });
    }
    return result;
  }

  /** The organization a published URL names, by hostname (as `urls.published` has it) or id. */
  private async organizationOf(segment: string): Promise<string> {
    const org = (await this.identity.organizationByHostname(segment.toLowerCase())) ?? (entityId.safeParse(segment).success ? await this.identity.organization(segment) : undefined);
    if (!org) throw nothingHere();
    return org.id;
  }

  /** The organization whose custom hostname a published URL is on (an unknown host names nothing). */
  private async organizationAt(customHostname: string): Promise<string> {
    const org = await this.identity.organizationByCustomHostname(customHostname);
    if (!org) throw nothingHere();
    return org.id;
  }
}
