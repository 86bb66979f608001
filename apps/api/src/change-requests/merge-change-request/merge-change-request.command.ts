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
    /**
     * The space as the read model has it, with the merge rules in effect (its own, or its
     * organization's when it inherits them): the worker checks them again on the streams.
     */
    readonly space: { revision: string; mergeRules: MergeRulesConfiguration },
    readonly actorId: string,
  ) {
    super();
  }
}
