import { Inject, Injectable } from '@nestjs/common';
import { EVENT_STORE, EventStore } from '@quire/event-store/event-store.port';
import { ContentStore } from '@quire/content/store';
import { CommandExecutor } from '@quire/projections/command-executor';
import { LOGGER } from '@quire/platform/logging/logger';
import type { Logger } from '@quire/platform/logging/logger';
import { ChangeRequestGitWork } from './change-request-git-work';

/** ChangeRequestGitWork wired to the process's event store, executor and content store. */
@Injectable()
export class ChangeRequestGitWorkProvider extends ChangeRequestGitWork {
  constructor(@Inject(EVENT_STORE) events: EventStore, executor: CommandExecutor, content: ContentStore, @Inject(LOGGER) logger: Logger) {
    super(events, executor, content, logger.child({ component: 'change-requests' }));
  }
}
