import { Command } from '@nestjs/cqrs';

export class CreateOrganizationCommand extends Command<{ organizationId: string }> {
  constructor(
    readonly title: string,
    readonly hostname: string | undefined,
    readonly creatorId: string,
    /** Valid and in lower case (customHostnameInput). */
    readonly customHostname?: string,
  ) {
    super();
  }
}
