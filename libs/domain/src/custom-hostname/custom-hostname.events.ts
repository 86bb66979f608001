import { DomainEvent } from '../shared/event';

/**
 * A claim on a custom hostname by an organization, made while the organization's stream was at
 * `organizationVersion`: the organization may record the hostname only by appending at exactly
 * that version (see custom-hostname.decide.ts for why that makes the claim safe to judge).
 */
export type CustomHostnameReserved = DomainEvent<'CustomHostnameReserved', { hostname: string; organizationId: string; organizationVersion: number }>;
export type CustomHostnameReleased = DomainEvent<'CustomHostnameReleased', { hostname: string; organizationId: string }>;

export type CustomHostnameEvent = CustomHostnameReserved | CustomHostnameReleased;

/** One reservation stream per hostname makes instance-wide uniqueness an expected-version check. */
export const customHostnameStream = (hostname: string) => `org-custom-hostname-${hostname}`;

/**
 * GitBook's SiteHostname (at least three labels: `docs.example.com`), lower case. Organization
 * hostnames (`^[a-z0-9-]{1,63}$`) have no dot, so the two can never be confused.
 */
export const CUSTOM_HOSTNAME_PATTERN = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/;
export const CUSTOM_HOSTNAME_MAX_LENGTH = 512;

export const isCustomHostname = (value: string) => value.length <= CUSTOM_HOSTNAME_MAX_LENGTH && CUSTOM_HOSTNAME_PATTERN.test(value);
