import { Command } from '@nestjs/cqrs';

export class CreateUserCommand extends Command<{ userId: string }> {
  constructor(
    readonly input: { userId?: string; displayName: string; email: string; photoURL?: string; instanceAdmin?: boolean },
    readonly actorId?: string,
  ) {
    super();
  }
}
