import { badRequest, conflict } from '../shared/domain-error';
import { DecideContext } from '../shared/event';
import { IntegrationDefinition, IntegrationEvent, SealedValue } from './integration.events';
import { IntegrationState } from './integration.state';

/** GitBook's integrationName parameter. */
export const INTEGRATION_NAME_PATTERN = /^[a-zA-Z0-9-_.]+$/;
export const INTEGRATION_NAME_MAX = 100;

export interface PublishIntegration {
  type: 'PublishIntegration';
  name: string;
  organizationId: string;
  definition: IntegrationDefinition;
  /** Sealed new secrets; null clears them (`{}` sent); undefined (not sent) keeps the live version's. */
  secrets?: SealedValue | null;
  publisherId: string;
}

export interface UnpublishIntegration {
  type: 'UnpublishIntegration';
  name: string;
  actorId: string;
}

export type IntegrationCommand = PublishIntegration | UnpublishIntegration;

export function decideIntegration(command: IntegrationCommand, state: IntegrationState, ctx: DecideContext): IntegrationEvent[] {
  const at = ctx.now.toISOString();
  switch (command.type) {
    case 'PublishIntegration': {
      if (!INTEGRATION_NAME_PATTERN.test(command.name) || command.name.length > INTEGRATION_NAME_MAX) {
        throw badRequest(`Invalid integration name: must match ${INTEGRATION_NAME_PATTERN.source}, at most ${INTEGRATION_NAME_MAX} characters`);
      }
      // A name belongs to one organization while published; it is free again once unpublished.
      if (state.exists && state.organizationId !== command.organizationId) {
        throw conflict(`The integration name "${command.name}" is already used by another organization`);
      }
      const secrets = command.secrets === undefined ? (state.exists ? state.secrets : undefined) : (command.secrets ?? undefined);
      return [
        {
          type: 'IntegrationPublished',
          data: {
            name: command.name,
            organizationId: command.organizationId,
            version: state.version + 1,
            definition: command.definition,
            ...(secrets ? { secrets } : {}),
            publishedBy: command.publisherId,
            at,
          },
        },
      ];
    }
    case 'UnpublishIntegration':
      if (!state.exists) return [];
      return [{ type: 'IntegrationUnpublished', data: { name: command.name, organizationId: state.organizationId!, unpublishedBy: command.actorId, at } }];
  }
}
