import { Command } from '@nestjs/cqrs';
import { OrganizationMergeRules } from '@quire/domain';

/** `mergeRules` of GitBook's updateOrganizationById: the rules of its spaces that `inherit`. */
export class SetOrganizationMergeRulesCommand extends Command<void> {
  constructor(
    readonly organizationId: string,
    readonly mergeRules: OrganizationMergeRules,
    readonly actorId: string,
    readonly actorIsInstanceAdmin: boolean,
  ) {
    super();
  }
}
