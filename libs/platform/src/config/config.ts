import { isIP } from 'net';
import { z } from 'zod';
import { parseAllowedHost } from '../net/outbound-guard';

const port = z.coerce.number().int().min(0).max(65535);
const url = (protocols: string[]) =>
  z.string().refine((value) => {
    try {
      return protocols.includes(new URL(value).protocol);
    } catch {
      return false;
    }
  }, `must be a URL with protocol ${protocols.join(' or ')}`);
const optional = <T extends z.ZodTypeAny>(schema: T) =>
  z.preprocess((v) => (v === '' ? undefined : v), schema.optional());
/** Comma-separated `host` or `host:port` entries. */
const hostList = z
  .string()
  .transform((value) => value.split(',').map((entry) => entry.trim()).filter(Boolean))
  .refine((entries) => entries.every((entry) => parseAllowedHost(entry)), 'must be a comma-separated list of host names or IP addresses, each optionally with :port');
/** Fastify's trustProxy: `true`, a number of proxy hops, or proxy addresses (CIDR ranges and proxy-addr's names allowed). */
const trustProxy = z.string().transform((value, ctx) => {
  const text = value.trim();
  if (text === 'true' || text === 'false') return text === 'true';
  if (/^\d+$/.test(text)) return Number(text);
  const entries = text.split(',').map((entry) => entry.trim()).filter(Boolean);
  const valid = (entry: string) => ['loopback', 'linklocal', 'uniquelocal'].includes(entry) || isIP(entry.replace(/\/\d+$/, '')) !== 0;
  if (!entries.length || !entries.every(valid)) {
    ctx.addIssue({ code: 'custom', message: 'must be true, false, a number of proxy hops, or a comma-separated list of proxy addresses or CIDR ranges' });
    return z.NEVER;
  }
  return entries;
});
const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/**
 * A git import's largest fetch. While isomorphic-git indexes a fetched pack the worker holds it
 * in memory (peak 344 MB for a 150 MB repository, `npm run bench -- large-repository`).
 */
const DEFAULT_IMPORT_MAX_BYTES = 256 * 1024 * 1024;

/** Every environment variable Quire reads, with its default. README's configuration table mirrors it. */
const schema = z.object({
  PORT: port.default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: optional(url(['postgres:', 'postgresql:'])),
  EVENTSTORE_URL: optional(url(['kurrentdb:', 'esdb:', 'kurrentdb+discover:', 'esdb+discover:'])),
  REDIS_URL: url(['redis:', 'rediss:']).default('redis://127.0.0.1:6379'),
  QUIRE_QUEUE_PREFIX: optional(z.string().regex(/^[a-zA-Z0-9:_-]+$/)),
  QUIRE_ADMIN_TOKEN: optional(z.string().min(16, 'must be at least 16 characters')),
  QUIRE_PUBLIC_URL: optional(url(['http:', 'https:'])),
  QUIRE_APP_URL: optional(url(['http:', 'https:'])),
  QUIRE_PUBLISHED_URL: optional(url(['http:', 'https:'])),
  QUIRE_SECRET_KEY: optional(z.string().min(32, 'must be at least 32 characters')),
  QUIRE_SITE_TOKEN_KEY: optional(z.string().min(32, 'must be at least 32 characters')),
  QUIRE_ASK_MODEL_URL: optional(url(['http:', 'https:'])),
  QUIRE_ASK_MODEL: z.string().default('gpt-4o-mini'),
  QUIRE_ASK_MODEL_KEY: optional(z.string()),
  QUIRE_ASK_MODEL_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(10_000),
  QUIRE_COMMAND_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
  QUIRE_JOB_RETRY_DELAY_MS: z.coerce.number().int().min(10).max(600_000).default(1000),
  QUIRE_RATE_LIMIT: z.coerce.number().int().min(0).default(0),
  QUIRE_AUTH_FAILURE_LIMIT: z.coerce.number().int().min(0).default(20),
  QUIRE_TRUST_PROXY: optional(trustProxy),
  QUIRE_GIT_ALLOWED_HOSTS: hostList.default([]),
  QUIRE_PAGE_MAX_BYTES: z.coerce.number().int().min(1024).default(1_000_000),
  QUIRE_PAGE_MAX_BLOCKS: z.coerce.number().int().min(10).default(10_000),
  QUIRE_IMPORT_MAX_BYTES: z.coerce.number().int().min(1024).default(DEFAULT_IMPORT_MAX_BYTES),
  QUIRE_CONTENT_CACHE_MB: z.coerce.number().int().min(1).max(65_536).default(256),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_PRETTY: optional(bool),
});

export type Env = z.infer<typeof schema>;

export interface QuireConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  eventStoreUrl?: string;
  redisUrl: string;
  /**
   * Key prefix of the job queues (and of the Redis keys that go with them: git-run secrets, locks,
   * limits). The runtime scopes it to the installation at start (`<queuePrefix>:<installationId>`,
   * see installationQueuePrefix), whether configured or not, so installations sharing a Redis never
   * share queues; once the runtime has started, this is the effective one.
   */
  queuePrefix: string;
  /**
   * True when an operator set the prefix (QUIRE_QUEUE_PREFIX). Such an installation's queues once
   * lived directly under it: the runtime moves its jobs still waiting there (see adoptLegacyJobs).
   */
  queuePrefixConfigured?: boolean;
  /** This installation's id, read from the event store by the runtime at start (absent before). */
  installationId?: string;
  adminToken?: string;
  publicUrl: string;
  appUrl: string;
  publishedUrl: string;
  secretKey?: string;
  /** Signs site tokens (POST /v1/urls/published); unset: a key generated once under DATA_DIR/secrets. */
  siteTokenKey?: string;
  askModel?: { url: string; model: string; key?: string };
  /** How long ask waits for the model before answering from the sources. */
  askModelTimeoutMs: number;
  commandTimeoutMs: number;
  /** A job that failed transiently (an unreachable git host) is retried after this, then twice as long each time. */
  jobRetryDelayMs: number;
  /** Memory (estimated) each API process gives to what it computed from revisions (apps/api/src/content/revision-cache.ts). */
  contentCacheBytes: number;
  rateLimitPerMinute: number;
  /** Failed authentications per minute per client address before it gets 429s; 0 turns it off. */
  authFailureLimitPerMinute: number;
  /** Which proxies' X-Forwarded-For / -Proto to believe, so that limits count per client, not per proxy. */
  trustProxy: boolean | number | string[];
  /** Git hosts an operator allows although their addresses are private (git import and export). */
  gitAllowedHosts: string[];
  /** What one page written through the API may hold (markdown bytes, blocks at every depth). */
  pageLimits: { maxBytes: number; maxBlocks: number };
  /** Largest repository a git import fetches (its objects as sent); past it the import fails with `repository_too_large`. */
  importMaxBytes?: number;
  logLevel: Env['LOG_LEVEL'];
  logPretty: boolean;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration: ${problems.join('; ')}`);
    this.name = 'ConfigError';
  }
}

/** The only place that reads process.env; a bad value stops boot with a message naming the variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, overrides: Partial<QuireConfig> = {}): QuireConfig {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`));
  }
  const e = parsed.data;
  const publicUrl = stripSlash(e.QUIRE_PUBLIC_URL ?? `http://localhost:${e.PORT}`);
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: e.DATA_DIR,
    databaseUrl: e.DATABASE_URL,
    eventStoreUrl: e.EVENTSTORE_URL,
    redisUrl: e.REDIS_URL,
    queuePrefix: e.QUIRE_QUEUE_PREFIX ?? 'quire',
    queuePrefixConfigured: e.QUIRE_QUEUE_PREFIX !== undefined || overrides.queuePrefix !== undefined,
    adminToken: e.QUIRE_ADMIN_TOKEN,
    publicUrl,
    appUrl: stripSlash(e.QUIRE_APP_URL ?? publicUrl),
    publishedUrl: stripSlash(e.QUIRE_PUBLISHED_URL ?? `${publicUrl}/sites`),
    secretKey: e.QUIRE_SECRET_KEY,
    siteTokenKey: e.QUIRE_SITE_TOKEN_KEY,
    askModel: e.QUIRE_ASK_MODEL_URL
      ? { url: e.QUIRE_ASK_MODEL_URL, model: e.QUIRE_ASK_MODEL, key: e.QUIRE_ASK_MODEL_KEY }
      : undefined,
    askModelTimeoutMs: e.QUIRE_ASK_MODEL_TIMEOUT_MS,
    commandTimeoutMs: e.QUIRE_COMMAND_TIMEOUT_MS,
    jobRetryDelayMs: e.QUIRE_JOB_RETRY_DELAY_MS,
    contentCacheBytes: e.QUIRE_CONTENT_CACHE_MB * 1024 * 1024,
    rateLimitPerMinute: e.QUIRE_RATE_LIMIT,
    authFailureLimitPerMinute: e.QUIRE_AUTH_FAILURE_LIMIT,
    trustProxy: e.QUIRE_TRUST_PROXY ?? false,
    gitAllowedHosts: e.QUIRE_GIT_ALLOWED_HOSTS,
    pageLimits: { maxBytes: e.QUIRE_PAGE_MAX_BYTES, maxBlocks: e.QUIRE_PAGE_MAX_BLOCKS },
    importMaxBytes: e.QUIRE_IMPORT_MAX_BYTES,
    logLevel: e.LOG_LEVEL,
    logPretty: e.LOG_PRETTY ?? false,
    ...overrides,
  };
}

function stripSlash(u: string): string {
  return u.replace(/\/+$/, '');
}

export const QUIRE_CONFIG = Symbol('QUIRE_CONFIG');
