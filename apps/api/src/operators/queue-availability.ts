import { CallHandler, Inject, Injectable, NestInterceptor, OnModuleDestroy, OnModuleInit, Optional, UseInterceptors } from '@nestjs/common';
import Redis from 'ioredis';
import { Observable } from 'rxjs';
import { DomainError } from '@quire/domain';
import { REDIS } from '@quire/infrastructure/tokens';

/** Redis counts as down when disconnected, or when it has not answered a PING for this long. */
const STALE_AFTER_MS = 3000;
const PING_EVERY_MS = 1000;
const CHECK_TIMEOUT_MS = 1000;

/** Whether Redis answers now: connection state plus a heartbeat (a hung server keeps its socket open). */
@Injectable()
export class RedisAvailability implements OnModuleInit, OnModuleDestroy {
  private lastPong = Date.now();
  private timer?: NodeJS.Timeout;
  private pinging = false;

  constructor(@Optional() @Inject(REDIS) private readonly redis?: Redis) {}

  onModuleInit(): void {
    if (!this.redis) return;
    this.timer = setInterval(() => void this.ping(), PING_EVERY_MS);
    this.timer.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.timer);
  }

  get configured(): boolean {
    return !!this.redis;
  }

  isUp(): boolean {
    return !!this.redis && this.redis.status === 'ready' && Date.now() - this.lastPong < STALE_AFTER_MS;
  }

  /**
   * isUp(), but a stale heartbeat is asked again (one PING, bounded) before Redis counts as down:
   * a busy event loop (a large import parsing) delays the heartbeat without Redis being gone.
   */
  async check(timeoutMs = CHECK_TIMEOUT_MS): Promise<boolean> {
    if (this.isUp()) return true;
    if (!this.redis || this.redis.status !== 'ready') return false;
    let timer: NodeJS.Timeout | undefined;
    try {
      const answered = await Promise.race([
        this.redis.ping().then(() => true, () => false),
        new Promise<boolean>((r) => (timer = setTimeout(() => r(false), timeoutMs))),
      ]);
      if (answered) this.lastPong = Date.now();
      return answered;
    } finally {
      clearTimeout(timer);
    }
  }

  private async ping(): Promise<void> {
    // One PING at a time: with Redis hung they would pile up in the offline queue.
    if (this.pinging || this.redis!.status !== 'ready') return;
    this.pinging = true;
    try {
      await this.redis!.ping();
      this.lastPong = Date.now();
    } catch {
      /* counted as stale */
    } finally {
      this.pinging = false;
    }
  }
}

/**
 * On the routes whose command hands work to the job queue (slow commands: git import, merge,
 * update), bound with @QueueBacked(): while Redis is down they answer 503 at once, before anything
 * is recorded, instead of hanging on a queue that cannot take the job; every other route (reads,
 * plain writes) keeps working, and pays nothing for this (a global interceptor put an rxjs
 * pipeline on every request: ~4% of a read's CPU, profiled on GET /v1/spaces/{id}).
 */
@Injectable()
export class QueueAvailabilityInterceptor implements NestInterceptor {
  constructor(private readonly redis: RedisAvailability) {}

  async intercept(_: unknown, next: CallHandler): Promise<Observable<unknown>> {
    if (!(await this.redis.check())) {
      throw new DomainError('unavailable', 'The job queue (Redis) is unavailable, so this operation cannot be started now; nothing was recorded. Retry shortly.');
    }
    return next.handle();
  }
}

/** Marks a route whose command needs the job queue (see QueueAvailabilityInterceptor). */
export const QueueBacked = () => UseInterceptors(QueueAvailabilityInterceptor);
