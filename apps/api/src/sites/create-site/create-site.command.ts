import { Command } from '@nestjs/cqrs';
import { SiteVisibility } from '@quire/domain';

export class CreateSiteCommand extends Command<{ siteId: string }> {
  constructor(
    readonly input: { organizationId: string; title: string; basename?: string; visibility?: SiteVisibility },
    readonly actorId: string,
  ) {
    super();
  }
}
