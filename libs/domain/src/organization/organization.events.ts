import { DomainEvent } from '../shared/event';
import { Role } from '../shared/roles';
import { OrganizationMergeRules } from '../space/space.settings';

export type OrganizationCreated = DomainEvent<
  'OrganizationCreated',
  { organizationId: string; title: string; hostname?: string; createdBy: string; createdAt: string }
>;
export type OrganizationMemberRoleSet = DomainEvent<
  'OrganizationMemberRoleSet',
  { organizationId: string; userId: string; role: Role; at: string }
>;
export type OrganizationMemberRemoved = DomainEvent<'OrganizationMemberRemoved', { organizationId: string; userId: string; at: string }>;
/** `previous`: the custom hostname it replaces, released after this event (custom-hostname.decide.ts). */
export type OrganizationCustomHostnameSet = DomainEvent<
  'OrganizationCustomHostnameSet',
  { organizationId: string; hostname: string; previous?: string; at: string }
>;
export type OrganizationCustomHostnameRemoved = DomainEvent<'OrganizationCustomHostnameRemoved', { organizationId: string; hostname: string; at: string }>;
/** The merge rules of the organization's spaces whose own rules are `inherit`. */
export type OrganizationMergeRulesChanged = DomainEvent<
  'OrganizationMergeRulesChanged',
  { organizationId: string; mergeRules: OrganizationMergeRules; by: string; at: string }
>;
export type HostnameReserved = DomainEvent<'HostnameReserved', { hostname: string; organizationId: string }>;

export type OrganizationEvent =
  | OrganizationCreated
  | OrganizationMemberRoleSet
  | OrganizationMemberRemoved
  | OrganizationCustomHostnameSet
  | OrganizationCustomHostnameRemoved
  | OrganizationMergeRulesChanged;

export const organizationStream = (organizationId: string) => `org-${organizationId}`;
export const hostnameStream = (hostname: string) => `org-hostname-${hostname}`;
