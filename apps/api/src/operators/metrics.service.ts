import { Inject, Injectable, OnModuleDestroy, OnModuleInit, Optional } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { Job, QueueEvents } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import Redis from 'ioredis';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { comparePositions, parsePosition } from '@quire/event-store/position';
import { EVENT_STORE, EventStore } from '@quire/event-store/event-store.port';
import { JobQueues } from '@quire/jobs/job-queues';
import { QUIRE_CONFIG, QuireConfig } from '@quire/platform/config/config';
import { LOGGER } from '@quire/platform/logging/logger';
import type { Logger } from '@quire/platform/logging/logger';
import { withTimeout } from '@quire/platform/timeout';
import { Projector } from '@quire/projections/projector';
import { PROJECTOR, REDIS } from '@quire/infrastructure/tokens';
import { RedisAvailability } from './queue-availability';
import { RequestDurationHistogram } from './request-duration-histogram';

const JOB_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children', 'failed', 'completed'] as const;
/** Projections further behind than this are reported at the cap (reading more to count is waste). */
const LAG_CAP = 1000;
const SCRAPE_TIMEOUT_MS = 1500;

/**
 * Prometheus metrics of one process, in its own registry: HTTP latency by route and status,
 * the job queues (read from Redis: the same cluster-wide figures from every process), job
 * durations (from the queues' event streams), and the projector's lag and failures.
 */
@Injectable()
export class MetricsService implements OnModuleInit, OnModuleDestroy {
  readonly registry = new Registry();
  private readonly http: RequestDurationHistogram;
  private readonly jobDuration: Histogram<'queue' | 'outcome'>;
  private readonly queueEvents: QueueEvents[] = [];
  private readonly eventConnections: Redis[] = [];

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(PROJECTOR) private readonly projector: Projector,
    @Inject(EVENT_STORE) private readonly store: EventStore,
    @Inject(QUIRE_CONFIG) private readonly config: QuireConfig,
    @Inject(LOGGER) private readonly logger: Logger,
    @Optional() private readonly jobs?: JobQueues,
    @Optional() @Inject(REDIS) private readonly redis?: Redis,
    @Optional() private readonly availability?: RedisAvailability,
  ) {
    collectDefaultMetrics({ register: this.registry, prefix: 'quire_' });
    this.http = new RequestDurationHistogram('quire_http_request_duration_seconds', 'HTTP request latency, by method, route pattern and status', [
      0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30,
    ]);
    this.registry.registerMetric(this.http.asMetric());
    this.jobDuration = new Histogram({
      name: 'quire_job_duration_seconds',
      help: 'Time from a job starting to its completion or final failure, by queue',
      labelNames: ['queue', 'outcome'],
      buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
      registers: [this.registry],
    });
    const metrics = this;
    new Gauge({
      name: 'quire_queue_jobs',
      help: 'Jobs in each queue, by state (waiting, active, delayed, failed, completed...)',
      labelNames: ['queue', 'state'],
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const [queue, counts] of await metrics.scrapeQueueCounts()) {
          if (counts) for (const state of JOB_STATES) this.set({ queue, state }, counts[state] ?? 0);
        }
      },
    });
    new Gauge({
      name: 'quire_queue_up',
      help: '1 when the queue\'s counts could be read from Redis in this scrape, else 0 (quire_queue_jobs is then absent for it)',
      labelNames: ['queue'],
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const [queue, counts] of await metrics.scrapeQueueCounts()) this.set({ queue }, counts ? 1 : 0);
      },
    });
    new Gauge({
      name: 'quire_redis_up',
      help: '1 when Redis (the job queues) answered the last scrape, else 0',
      registers: [this.registry],
      async collect() {
        if (!metrics.redis) return this.set(0);
        // The heartbeat answers at once; a PING would wait out its timeout while Redis is down.
        this.set((metrics.availability ? await metrics.availability.check(SCRAPE_TIMEOUT_MS) : await probe(() => metrics.redis!.ping())) ? 1 : 0);
      },
    });
    new Gauge({
      name: 'quire_projection_events_behind',
      help: `Events not yet applied by each projection (capped at ${LAG_CAP})`,
      labelNames: ['projection'],
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const [projection, behind] of await metrics.projectionLag()) this.set({ projection }, behind);
      },
    });
    new Gauge({
      name: 'quire_projection_failed',
      help: '1 for a projection stopped on a failing event (an operator must look at it), else 0',
      labelNames: ['projection'],
      registers: [this.registry],
      async collect() {
        this.reset();
        for (const s of await metrics.projector.status()) this.set({ projection: s.name }, s.status === 'failed' ? 1 : 0);
      },
    });
  }

  onModuleInit(): void {
    const fastify = this.adapterHost.httpAdapter?.getInstance<FastifyInstance>();
    // Labelled by the route pattern, never the raw URL, so series stay few.
    fastify?.addHook('onResponse', (request, reply, done) => {
      this.http.observe(request.method, request.routeOptions?.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
      done();
    });
    if (this.jobs && this.redis) for (const queue of this.jobs.all()) this.followJobs(queue.name);
  }

  async onModuleDestroy(): Promise<void> {
    await Promise.all(this.queueEvents.map((e) => e.close().catch(() => undefined)));
    await Promise.all(this.eventConnections.map((c) => c.quit().catch(() => c.disconnect())));
  }

  async metrics(): Promise<string> {
    // Each scrape reads the queues afresh (once, shared by its gauges): never an earlier scrape's counts.
    this.lastCounts = undefined;
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** Observes each job's duration when its queue's event stream says it finished. */
  private followJobs(queueName: string): void {
    const connection = this.redis!.duplicate({ maxRetriesPerRequest: null });
    connection.on('error', () => undefined);
    this.eventConnections.push(connection);
    const events = new QueueEvents(queueName, { connection, prefix: this.config.queuePrefix, autorun: true });
    events.on('error', (err) => this.logger.debug({ queue: queueName, err: err.message }, 'metrics: queue events error'));
    const observe = async (jobId: string, outcome: 'completed' | 'failed') => {
      try {
        const job = await Job.fromId(this.jobs!.queue(queueName as any), jobId);
        if (job?.processedOn && job.finishedOn) this.jobDuration.observe({ queue: queueName, outcome }, (job.finishedOn - job.processedOn) / 1000);
      } catch {
        /* the job was removed meanwhile: nothing to measure */
      }
    };
    events.on('completed', ({ jobId }) => void observe(jobId, 'completed'));
    events.on('failed', ({ jobId }) => void observe(jobId, 'failed'));
    this.queueEvents.push(events);
  }

  private lastCounts?: { counts: Promise<Array<[string, Record<string, number> | undefined]>> };

  /** One read of the queues per scrape (metrics() starts each afresh), shared by the gauges that report it. */
  private scrapeQueueCounts(): Promise<Array<[string, Record<string, number> | undefined]>> {
    if (!this.lastCounts) this.lastCounts = { counts: this.queueCounts() };
    return this.lastCounts.counts;
  }

  /**
   * Each queue's counts, or undefined when they cannot be read. While Redis is known to be down
   * nothing is asked (a command would wait in ioredis' offline queue); otherwise the queues are
   * asked in parallel, each bounded, so a scrape never takes more than one timeout.
   */
  private async queueCounts(): Promise<Array<[string, Record<string, number> | undefined]>> {
    if (!this.jobs) return [];
    const queues = this.jobs.all();
    if (this.availability && !this.availability.isUp()) return queues.map((q) => [q.name, undefined]);
    return Promise.all(
      queues.map(async (queue): Promise<[string, Record<string, number> | undefined]> => {
        try {
          return [queue.name, await withTimeout(queue.getJobCounts(...JOB_STATES), SCRAPE_TIMEOUT_MS)];
        } catch {
          // The series are absent rather than wrong; quire_queue_up and quire_redis_up say why.
          return [queue.name, undefined];
        }
      }),
    );
  }

  private async projectionLag(): Promise<Array<[string, number]>> {
    const head = await this.store.headPosition();
    const out: Array<[string, number]> = [];
    for (const s of await this.projector.status()) {
      const at = parsePosition(s.position);
      out.push([s.name, comparePositions(at, head) >= 0 ? 0 : (await this.store.readAll(at, LAG_CAP)).length]);
    }
    return out;
  }
}

async function probe(fn: () => Promise<unknown>): Promise<boolean> {
  try {
    await withTimeout(fn(), SCRAPE_TIMEOUT_MS);
    return true;
  } catch {
    return false;
  }
}
