import { conflict, forbidden, notFound, unprocessable } from '../shared/domain-error';
import { DecideContext } from '../shared/event';
import { Role } from '../shared/roles';
import { OrganizationMergeRules } from '../space/space.settings';
import { OrganizationEvent } from './organization.events';
import { OrganizationState } from './organization.state';

export interface CreateOrganization {
  type: 'CreateOrganization';
  organizationId: string;
  title: string;
  hostname?: string;
  /** Claimed beforehand at version 0 (custom-hostname.decide.ts). */
  customHostname?: string;
  creatorId: string;
}

export interface SetOrganizationMemberRole {
  type: 'SetOrganizationMemberRole';
  organizationId: string;
  userId: string;
  /** null (GitBook's MemberRoleOrGuest) makes them a guest: no organization role, their explicit grants kept. */
  role: Role | null;
}

/** Who changes an organization's custom hostname: its admins, and the instance administrator. */
interface CustomHostnameActor {
  actorId: string;
  actorIsInstanceAdmin?: boolean;
}

/** Its hostname must have been claimed at the state's version first (custom-hostname.decide.ts). */
export interface SetOrganizationCustomHostname extends CustomHostnameActor {
  type: 'SetOrganizationCustomHostname';
  organizationId: string;
  hostname: string;
}

/** Removes the custom hostname; with `hostname`, only when it is that one. */
export interface RemoveOrganizationCustomHostname extends CustomHostnameActor {
  type: 'RemoveOrganizationCustomHostname';
  organizationId: string;
  hostname?: string;
}

/** The merge rules its spaces inherit; its admins (and the instance administrator) set them. */
export interface SetOrganizationMergeRules {
  type: 'SetOrganizationMergeRules';
  organizationId: string;
  mergeRules: OrganizationMergeRules;
  actorId: string;
  actorIsInstanceAdmin?: boolean;
}

export type OrganizationCommand = CreateOrganization | SetOrganizationMemberRole | SetOrganizationCustomHostname | RemoveOrganizationCustomHostname | SetOrganizationMergeRules;

export function decideOrganization(command: OrganizationCommand, state: OrganizationState, ctx: DecideContext): OrganizationEvent[] {
  const at = ctx.now.toISOString();
  switch (command.type) {
    case 'CreateOrganization':
      if (state.exists) throw conflict(`Organization ${command.organizationId} already exists`);
      return [
        {
          type: 'OrganizationCreated',
          data: { organizationId: command.organizationId, title: command.title, hostname: command.hostname, createdBy: command.creatorId, createdAt: at },
        },
        // The creator administers what they create.
        { type: 'OrganizationMemberRoleSet', data: { organizationId: command.organizationId, userId: command.creatorId, role: 'admin', at } },
        ...(command.customHostname
          ? [{ type: 'OrganizationCustomHostnameSet' as const, data: { organizationId: command.organizationId, hostname: command.customHostname, at } }]
          : []),
      ];
    case 'SetOrganizationMemberRole': {
      if (!state.exists) throw notFound('Organization not found');
      if ((state.members[command.userId] ?? null) === command.role) return [];
      const admins = Object.entries(state.members).filter(([, r]) => r === 'admin');
      if (state.members[command.userId] === 'admin' && command.role !== 'admin' && admins.length === 1) {
        throw unprocessable('An organization must keep at least one admin');
      }
      if (command.role === null) return [{ type: 'OrganizationMemberRemoved', data: { organizationId: command.organizationId, userId: command.userId, at } }];
      return [{ type: 'OrganizationMemberRoleSet', data: { organizationId: command.organizationId, userId: command.userId, role: command.role, at } }];
    }
    case 'SetOrganizationCustomHostname':
      mayChangeCustomHostname(command, state);
      if (state.customHostname === command.hostname) return [];
      return [
        {
          type: 'OrganizationCustomHostnameSet',
          data: { organizationId: command.organizationId, hostname: command.hostname, ...(state.customHostname ? { previous: state.customHostname } : {}), at },
        },
      ];
    case 'RemoveOrganizationCustomHostname':
      mayChangeCustomHostname(command, state);
      if (!state.customHostname || (command.hostname !== undefined && command.hostname !== state.customHostname)) return [];
      return [{ type: 'OrganizationCustomHostnameRemoved', data: { organizationId: command.organizationId, hostname: state.customHostname, at } }];
    case 'SetOrganizationMergeRules':
      mayChange(command, state, 'its merge rules');
      if (JSON.stringify(command.mergeRules) === JSON.stringify(state.mergeRules)) return [];
      return [{ type: 'OrganizationMergeRulesChanged', data: { organizationId: command.organizationId, mergeRules: command.mergeRules, by: command.actorId, at } }];
  }
}

function mayChangeCustomHostname(actor: CustomHostnameActor, state: OrganizationState): void {
  mayChange(actor, state, 'its custom hostname');
}

function mayChange(actor: CustomHostnameActor, state: OrganizationState, what: string): void {
  if (!state.exists) throw notFound('Organization not found');
  if (!actor.actorIsInstanceAdmin && state.members[actor.actorId] !== 'admin') {
    throw forbidden(`Only the organization's admins can change ${what}`);
  }
}
