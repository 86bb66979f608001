import { Command } from '@nestjs/cqrs';
import { Role } from '@quire/domain';

/** Sets (role) or removes (null) explicit grants; answers how many grants changed. */
export class SetCollectionPermissionsCommand extends Command<{ changed: number }> {
  constructor(
    readonly collectionId: string,
    readonly grants: Array<{ userId: string; role: Role | null }>,
    readonly actorId: string,
  ) {
    super();
  }
}
