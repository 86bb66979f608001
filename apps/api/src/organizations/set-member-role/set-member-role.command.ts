import { Command } from '@nestjs/cqrs';
import { Role } from '@quire/domain';

export class SetMemberRoleCommand extends Command<void> {
  constructor(
    readonly organizationId: string,
    readonly userId: string,
    readonly role: Role,
    readonly actorId: string,
  ) {
    super();
  }
}
