import { Command } from '@nestjs/cqrs';
import { IntegrationDefinition } from '@quire/domain';

export class PublishIntegrationCommand extends Command<{ version: number }> {
  constructor(
    readonly name: string,
    readonly organizationId: string,
    readonly definition: IntegrationDefinition,
    /** Plaintext: sealed by the handler before anything is recorded. */
    readonly secrets: Record<string, string> | undefined,
    readonly actorId: string,
  ) {
    super();
  }
}
