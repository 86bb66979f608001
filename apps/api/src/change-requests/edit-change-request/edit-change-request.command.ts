import { Command } from '@nestjs/cqrs';

/** GitBook's updateChangeRequestById: subject, description and status (metadata only). */
export class EditChangeRequestCommand extends Command<void> {
  constructor(
    readonly changeRequestId: string,
    readonly changes: { subject?: string; description?: unknown; status?: 'draft' | 'open' | 'archived' },
    readonly actorId: string,
  ) {
    super();
  }
}
