import { Command } from '@nestjs/cqrs';
import { MergeRulesConfiguration } from '@quire/domain';

export interface ChangeRequestJobAnswer {
  revision: string;
  result: 'merge' | 'update' | 'conflicts';
}

export class MergeChangeRequestCommand extends Command<ChangeRequestJobAnswer> {
  constructor(
    readonly spaceId: string,
    readonly changeRequestId: string,
    /** The space as the read model has it: the rules are checked again by the worker on the stream. */
    readonly space: { revision: string; mergeRules: MergeRulesConfiguration },
    readonly actorId: string,
  ) {
    super();
  }
}
