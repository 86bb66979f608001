import { Inject, Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { REDIS } from '@quire/infrastructure/tokens';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { gitRunSecretKey, GitRunQueue, GitRunSecret, parseGitRunSecret } from '@quire/jobs/git-run-secret';

/**
 * The credentials a git run's request carried (an import's or an export's), waiting in Redis
 * for its job (never in the job's data or the events): read once, deleted once the run is settled.
 */
@Injectable()
export class GitRunSecrets {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
  ) {}

  /** The credentials of a run, `{}` when it had none, undefined when they expired. */
  async read(queue: GitRunQueue, runId: string, hasCredentials: boolean): Promise<GitRunSecret | undefined> {
    if (!hasCredentials) return {};
    const stored = await this.redis.get(gitRunSecretKey(this.config.queuePrefix, queue, runId));
    return stored ? parseGitRunSecret(stored) : undefined;
  }

  delete(queue: GitRunQueue, runId: string): Promise<number> {
    return this.redis.del(gitRunSecretKey(this.config.queuePrefix, queue, runId));
  }
}
