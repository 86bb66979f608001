import { Command } from '@nestjs/cqrs';
import { Role } from '@quire/domain';

export class SetMemberRoleCommand extends Command<void> {
  constructor(
    readonly organizationId: string,
    readonly userId: string,
    /** null makes the user a guest (GitBook's MemberRoleOrGuest). */
    readonly role: Role | null,
    readonly actorId: string,
  ) {
    super();
  }
}
