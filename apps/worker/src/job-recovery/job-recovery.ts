import { Inject, Injectable, OnModuleDestroy, OnModuleInit, Optional } from '@nestjs/common';
import Redis from 'ioredis';
import { EVENT_STORE, EventStore } from '@quire/event-store/event-store.port';
import { JobQueues } from '@quire/jobs/job-queues';
import { pendingChangeRequestWork, requeueChangeRequestWork, requeueGitExport, requeueGitImport, unmergedChangeRequests } from '@quire/jobs/recovery/requeue';
import { Db } from '@quire/platform/db/db';
import { LOGGER } from '@quire/platform/logging/logger';
import type { Logger } from '@quire/platform/logging/logger';
import { DB, REDIS } from '@quire/infrastructure/tokens';

/**
 * Jobs are messengers for events: at start-up and when Redis comes back (possibly empty, after a
 * restart without persistence) every git import and export the events still call queued or
 * running, and every merge or update of a change request still pending, gets its job again, so a
 * lost job delays the work but never loses it. Part of the worker, so it runs wherever jobs are
 * processed (the worker process and the all-in-one process).
 */
@Injectable()
export class JobRecovery implements OnModuleInit, OnModuleDestroy {
  private disconnected = false;
  private running?: Promise<void>;
  private readonly onReady = () => {
    if (!this.disconnected) return;
    this.disconnected = false;
    void this.recover('redis reconnected');
  };
  private readonly onClose = () => {
    this.disconnected = true;
  };

  constructor(
    @Inject(DB) private readonly db: Db,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(LOGGER) private readonly logger: Logger,
    @Optional() private readonly jobs?: JobQueues,
    @Optional() @Inject(REDIS) private readonly redis?: Redis,
  ) {}

  onModuleInit(): void {
    if (!this.jobs || !this.redis) return;
    this.redis.on('close', this.onClose);
    this.redis.on('ready', this.onReady);
    void this.recover('startup');
  }

  async onModuleDestroy(): Promise<void> {
    this.redis?.off('close', this.onClose);
    this.redis?.off('ready', this.onReady);
    await this.running;
  }

  /** Gives every unfinished git import or export, and every pending change-request merge or update, whose job was lost a new one. */
  recover(reason: string): Promise<void> {
    this.running ??= this.run(reason).finally(() => (this.running = undefined));
    return this.running;
  }

  private async run(reason: string): Promise<void> {
    try {
      // The git-imports and git-exports read models know which runs the events still call unfinished.
      const imports = await this.db.query<{ id: string; space_id: string }>(`SELECT id, space_id FROM rm_git_imports WHERE status IN ('queued', 'running')`);
      let enqueued = 0;
      for (const row of imports.rows) if ((await requeueGitImport(this.jobs!, row.space_id, row.id, { retryFailed: false })) === 'enqueued') enqueued++;
      if (enqueued) this.logger.warn({ reason, enqueued }, 'job recovery: re-enqueued git imports whose jobs were lost');
      const exports = await this.db.query<{ id: string; space_id: string }>(`SELECT id, space_id FROM rm_git_exports WHERE status IN ('queued', 'running')`);
      let exportsEnqueued = 0;
      for (const row of exports.rows) if ((await requeueGitExport(this.jobs!, row.space_id, row.id, { retryFailed: false })) === 'enqueued') exportsEnqueued++;
      if (exportsEnqueued) this.logger.warn({ reason, enqueued: exportsEnqueued }, 'job recovery: re-enqueued git exports whose jobs were lost');
      let changeRequests = 0;
      for (const id of await unmergedChangeRequests(this.db)) {
        for (const work of await pendingChangeRequestWork(this.store, id)) {
          if ((await requeueChangeRequestWork(this.jobs!, work, { retryFailed: false })) === 'enqueued') changeRequests++;
        }
      }
      if (changeRequests) this.logger.warn({ reason, enqueued: changeRequests }, 'job recovery: re-enqueued change-request merges/updates whose jobs were lost');
    } catch (err: any) {
      this.logger.warn({ reason, err: err.message }, 'job recovery: could not check for lost jobs; will try at the next reconnection');
    }
  }
}
