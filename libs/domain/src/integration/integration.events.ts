import { DomainEvent } from '../shared/event';

/** GitBook's IntegrationScope, IntegrationCategory, IntegrationTarget and IntegrationVisibility. */
export const INTEGRATION_SCOPES = [
  'space:content:read', 'space:content:write', 'space:metadata:read', 'space:metadata:write', 'space:git:sync', 'page:feedback:read',
  'site:metadata:read', 'site:views:read', 'site:script:inject', 'site:script:cookies', 'site:visitor:auth', 'site:visitor:claims',
  'site:adaptive:read', 'site:adaptive:write', 'conversations:ingest', 'openapi:read', 'openapi:write',
] as const;
export type IntegrationScope = (typeof INTEGRATION_SCOPES)[number];
export const INTEGRATION_CATEGORIES = ['analytics', 'collaboration', 'content', 'marketing', 'visitor-auth', 'other'] as const;
export type IntegrationCategory = (typeof INTEGRATION_CATEGORIES)[number];
export const INTEGRATION_TARGETS = ['all', 'site', 'space', 'organization'] as const;
export type IntegrationTarget = (typeof INTEGRATION_TARGETS)[number];
export const INTEGRATION_VISIBILITIES = ['public', 'private', 'unlisted'] as const;
export type IntegrationVisibility = (typeof INTEGRATION_VISIBILITIES)[number];

/** An image sent inline (base64), kept by content hash so its URL never changes meaning. */
export interface IntegrationAsset {
  sha256: string;
  contentType: string;
  base64: string;
}

/** A value encrypted by the API (AES-256-GCM); the events never see the plaintext. */
export interface SealedValue {
  alg: string;
  kid: string;
  iv: string;
  tag: string;
  data: string;
}

/**
 * Everything a publish says about the integration except its secrets. GitBook's manifest
 * fields are kept as sent (blocks, configurations... are validated at the edge).
 */
export interface IntegrationDefinition {
  runtime: 'v1' | 'v2';
  title: string;
  description: string;
  summary?: string;
  visibility: IntegrationVisibility;
  target: IntegrationTarget;
  scopes: IntegrationScope[];
  categories: IntegrationCategory[];
  blocks?: unknown[];
  contentSources?: unknown[];
  externalLinks: Array<{ url: string; label: string }>;
  configurations?: Record<string, unknown>;
  contentSecurityPolicy?: string | Record<string, string>;
  script: string;
  icon?: IntegrationAsset;
  previewImages: IntegrationAsset[];
}

export type IntegrationPublished = DomainEvent<
  'IntegrationPublished',
  {
    name: string;
    organizationId: string;
    version: number;
    definition: IntegrationDefinition;
    /** The secrets (a JSON object of names to values), sealed; absent when none were sent. */
    secrets?: SealedValue;
    publishedBy: string;
    at: string;
  }
>;
export type IntegrationUnpublished = DomainEvent<'IntegrationUnpublished', { name: string; organizationId: string; unpublishedBy: string; at: string }>;

export type IntegrationEvent = IntegrationPublished | IntegrationUnpublished;

export const integrationStream = (name: string) => `integration-${name}`;
