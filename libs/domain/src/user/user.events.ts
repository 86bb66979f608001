import { DomainEvent } from '../shared/event';

export type UserCreated = DomainEvent<
  'UserCreated',
  { userId: string; displayName: string; email: string; photoURL?: string; instanceAdmin: boolean; createdAt: string }
>;
/** Carries only the token's hash: the token itself is shown once and never stored. */
export type AccessTokenCreated = DomainEvent<
  'AccessTokenCreated',
  { userId: string; tokenId: string; tokenHash: string; label?: string; createdAt: string }
>;
export type EmailReserved = DomainEvent<'EmailReserved', { email: string; userId: string }>;

export type UserEvent = UserCreated | AccessTokenCreated;

export const userStream = (userId: string) => `user-${userId}`;
/** One stream per email address makes uniqueness an expected-version check. */
export const emailStream = (emailHash: string) => `user-email-${emailHash}`;
