import { Command } from '@nestjs/cqrs';
import { Role } from '@quire/domain';

/** Sets (role) or removes (null) explicit grants; answers how many grants changed. */
export class SetSpacePermissionsCommand extends Command<{ changed: number }> {
  constructor(
    readonly spaceId: string,
    readonly grants: Array<{ userId: string; role: Role | null }>,
    readonly actorId: string,
  ) {
    super();
  }
}
