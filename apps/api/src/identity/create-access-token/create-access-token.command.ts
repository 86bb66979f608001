import { Command } from '@nestjs/cqrs';

export class CreateAccessTokenCommand extends Command<{ id: string; token: string }> {
  constructor(
    readonly userId: string,
    readonly label: string | undefined,
    readonly actorId: string,
  ) {
    super();
  }
}
