import { Command } from '@nestjs/cqrs';

export class SetCustomHostnameCommand extends Command<void> {
  constructor(
    readonly organizationId: string,
    /** Valid and in lower case (customHostnameInput). */
    readonly hostname: string,
    readonly actorId: string,
    readonly actorIsInstanceAdmin: boolean,
  ) {
    super();
  }
}
