import { conflict, notFound } from '../shared/domain-error';
import { DecideContext } from '../shared/event';
import { AccessTokenCreated, UserCreated } from './user.events';
import { UserState } from './user.state';

export interface CreateUser {
  type: 'CreateUser';
  userId: string;
  displayName: string;
  email: string;
  photoURL?: string;
  instanceAdmin?: boolean;
}

export interface CreateAccessToken {
  type: 'CreateAccessToken';
  userId: string;
  tokenId: string;
  tokenHash: string;
  label?: string;
}

export type UserCommand = CreateUser | CreateAccessToken;

export function decideUser(command: UserCommand, state: UserState, ctx: DecideContext): Array<UserCreated | AccessTokenCreated> {
  switch (command.type) {
    case 'CreateUser':
      if (state.exists) throw conflict(`User ${command.userId} already exists`);
      return [
        {
          type: 'UserCreated',
          data: {
            userId: command.userId,
            displayName: command.displayName,
            email: command.email,
            photoURL: command.photoURL,
            instanceAdmin: command.instanceAdmin ?? false,
            createdAt: ctx.now.toISOString(),
          },
        },
      ];
    case 'CreateAccessToken':
      if (!state.exists) throw notFound('User not found');
      return [
        {
          type: 'AccessTokenCreated',
          data: {
            userId: command.userId,
            tokenId: command.tokenId,
            tokenHash: command.tokenHash,
            label: command.label,
            createdAt: ctx.now.toISOString(),
          },
        },
      ];
  }
}
