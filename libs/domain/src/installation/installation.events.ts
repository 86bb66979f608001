import { DomainEvent } from '../shared/event';

/**
 * The installation (one event store with its read models and repositories) got its identity.
 * Recorded once, first thing at the first start; job queues are scoped by this id so that
 * installations sharing a Redis never take each other's jobs.
 */
export type InstallationCreated = DomainEvent<'InstallationCreated', { installationId: string }>;

export type InstallationEvent = InstallationCreated;

/** The one stream of the installation's own events. */
export const INSTALLATION_STREAM = 'installation';
