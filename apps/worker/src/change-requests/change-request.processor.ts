import { Inject, Injectable, OnModuleDestroy, OnModuleInit } from '@nestjs/common';
import Redis from 'ioredis';
import { JobWorkers } from '@quire/jobs/job-workers';
import { QUEUES } from '@quire/jobs/queues';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { LOGGER } from '@quire/platform/logging/logger';
import type { Logger } from '@quire/platform/logging/logger';
import { REDIS } from '@quire/infrastructure/tokens';
import { ChangeRequestJob, ChangeRequestJobResult } from '@quire/jobs/change-request.job';
import { MergeChangeRequest } from './merge-change-request/merge-change-request';
import { UpdateChangeRequest } from './update-change-request/update-change-request';

/**
 * Runs change-request merges (a change request into the space's live content) and updates (the
 * space's live content into a change request). Several at once: different spaces proceed in
 * parallel, and jobs of one space settle through the space stream's expected version. A job that
 * throws is retried with backoff; a merge that cannot happen (conflicts, merge rules) is a
 * result, not a failure.
 */
@Injectable()
export class ChangeRequestProcessor implements OnModuleInit, OnModuleDestroy {
  private workers?: JobWorkers;

  constructor(
    private readonly merge: MergeChangeRequest,
    private readonly update: UpdateChangeRequest,
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onModuleInit(): void {
    this.workers = new JobWorkers(this.redis, this.config.queuePrefix, this.logger.child({ component: 'change-requests' }), this.config.installationId);
    this.workers.register<ChangeRequestJob, ChangeRequestJobResult>(QUEUES.changeRequestMerge, (job) => this.merge.run(job.data), { concurrency: 4 });
    this.workers.register<ChangeRequestJob, ChangeRequestJobResult>(QUEUES.changeRequestUpdate, (job) => this.update.run(job.data), { concurrency: 4 });
  }

  async onModuleDestroy(): Promise<void> {
    await this.workers?.close();
  }
}
