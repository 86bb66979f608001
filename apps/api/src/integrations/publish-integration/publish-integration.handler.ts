import { Inject } from '@nestjs/common';
import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { decideIntegration, integrationAggregate, IntegrationPublished, integrationStream, SealedValue, unprocessable } from '@quire/domain';
import { SecretBox } from '@quire/platform/crypto/secret-box';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { CommandExecutor } from '@quire/projections/command-executor';
import { PublishIntegrationCommand } from './publish-integration.command';

export const INTEGRATION_SECRETS_PURPOSE = 'integration-secrets';
/** Binds a sealed secret to its integration: it does not open as another's. */
export const integrationSecretsContext = (name: string) => `integration:${name}`;

/** Seals the secrets (never recorded in the clear), then records the new version; without `secrets` the previous ones are kept. */
@CommandHandler(PublishIntegrationCommand)
export class PublishIntegrationHandler implements ICommandHandler<PublishIntegrationCommand> {
  private readonly box?: SecretBox;

  constructor(
    private readonly executor: CommandExecutor,
    @Inject(QUIRE_CONFIG) config: QuireConfig,
  ) {
    this.box = SecretBox.forPurpose(config.secretKey, INTEGRATION_SECRETS_PURPOSE);
  }

  async execute({ name, organizationId, definition, secrets, actorId }: PublishIntegrationCommand) {
    // Not sent: the live version's secrets carry over (in decide); `{}`: cleared.
    let sealed: SealedValue | null | undefined = secrets === undefined ? undefined : null;
    if (secrets && Object.keys(secrets).length > 0) {
      if (!this.box) {
        throw unprocessable(
          'This Quire instance cannot store integration secrets: QUIRE_SECRET_KEY is not configured. Ask its operator to set it, or publish without secrets.',
        );
      }
      sealed = this.box.seal(JSON.stringify(secrets), integrationSecretsContext(name));
    }
    const { events } = await this.executor.execute({
      stream: integrationStream(name),
      aggregate: integrationAggregate,
      decide: (state, ctx) =>
        decideIntegration({ type: 'PublishIntegration', name, organizationId, definition, secrets: sealed, publisherId: actorId }, state, ctx),
      metadata: { actor: actorId },
    });
    return { version: (events[0] as IntegrationPublished).data.version };
  }
}
