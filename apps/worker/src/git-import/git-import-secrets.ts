import { Inject, Injectable } from '@nestjs/common';
import Redis from 'ioredis';
import { REDIS } from '@quire/infrastructure/tokens';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { gitImportSecretKey, GitImportSecret, parseGitImportSecret } from '@quire/jobs/git-import.job';

/**
 * The credentials an import's request carried, waiting in Redis for its job (never in the job's
 * data or the events): read once, deleted once the import is settled.
 */
@Injectable()
export class GitImportSecrets {
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
  ) {}

  /** The credentials of an import, `{}` when it had none, undefined when they expired. */
  async read(importId: string, hasCredentials: boolean): Promise<GitImportSecret | undefined> {
    if (!hasCredentials) return {};
    const stored = await this.redis.get(gitImportSecretKey(this.config.queuePrefix, importId));
    return stored ? parseGitImportSecret(stored) : undefined;
  }

  delete(importId: string): Promise<number> {
    return this.redis.del(gitImportSecretKey(this.config.queuePrefix, importId));
  }
}

/** The values a failure message or log line must not repeat. */
export function secretValues(secret: GitImportSecret): string[] {
  return [secret.auth?.password, ...(secret.query ?? []).map(([, value]) => value)].filter((v): v is string => !!v);
}
