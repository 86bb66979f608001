import { Command } from '@nestjs/cqrs';

export class RemoveCustomHostnameCommand extends Command<{ removed: boolean }> {
  constructor(
    readonly organizationId: string,
    /** Only this one (DELETE /v1/custom-hostnames/{hostname}); undefined: whichever it has. */
    readonly hostname: string | undefined,
    readonly actorId: string,
    readonly actorIsInstanceAdmin: boolean,
  ) {
    super();
  }
}
