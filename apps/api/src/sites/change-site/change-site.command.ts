import { Command } from '@nestjs/cqrs';
import { SiteCommand } from '@quire/domain';

/**
 * Any change to an existing site (update, publish, site spaces, customization, share links,
 * redirects): they all load the site, decide and append the same way, so one handler runs
 * them and the domain's `decideSite` tells them apart. Answers whether anything was recorded.
 */
export class ChangeSiteCommand extends Command<{ changed: boolean }> {
  constructor(
    readonly siteId: string,
    readonly change: Exclude<SiteCommand, { type: 'CreateSite' }>,
    readonly actorId: string,
  ) {
    super();
  }
}
