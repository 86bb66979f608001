import { Command } from '@nestjs/cqrs';

export class UnpublishIntegrationCommand extends Command<{ deleted: boolean }> {
  constructor(
    readonly name: string,
    readonly actorId: string,
  ) {
    super();
  }
}
