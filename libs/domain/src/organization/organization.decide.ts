import { conflict, notFound, unprocessable } from '../shared/domain-error';
import { DecideContext } from '../shared/event';
import { Role } from '../shared/roles';
import { OrganizationEvent } from './organization.events';
import { OrganizationState } from './organization.state';

export interface CreateOrganization {
  type: 'CreateOrganization';
  organizationId: string;
  title: string;
  hostname?: string;
  creatorId: string;
}

export interface SetOrganizationMemberRole {
  type: 'SetOrganizationMemberRole';
  organizationId: string;
  userId: string;
  role: Role;
}

export type OrganizationCommand = CreateOrganization | SetOrganizationMemberRole;

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
      ];
    case 'SetOrganizationMemberRole': {
      if (!state.exists) throw notFound('Organization not found');
      if (state.members[command.userId] === command.role) return [];
      const admins = Object.entries(state.members).filter(([, r]) => r === 'admin');
      if (state.members[command.userId] === 'admin' && command.role !== 'admin' && admins.length === 1) {
        throw unprocessable('An organization must keep at least one admin');
      }
      return [{ type: 'OrganizationMemberRoleSet', data: { organizationId: command.organizationId, userId: command.userId, role: command.role, at } }];
    }
  }
}
