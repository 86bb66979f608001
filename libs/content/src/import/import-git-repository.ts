import { createHash } from 'crypto';
import * as fs from 'fs';
import { join } from 'path';
import lockfile from 'proper-lockfile';
import { gitHttpClient } from '@quire/content/git-http';
import { GitSyncLayoutError, readGitSyncLayout, type ImportedLayout } from '@quire/content/gitsync';
import { collectImportFiles, type ImportedAsset } from './collect-import-files';
import { fetchRepository } from './fetch-repository';
import { gitSourceTree } from './git-source-tree';
import { PackObjectReader, parseCommit } from './pack-reader';
import { GitImportError } from './import.errors';
import { parseRemoteUrl, scrubSecrets } from './remote-url';

export interface ImportGitRepositoryOptions {
  /** http(s) clone URL; `user:password@` in it is used as credentials and never stored. */
  url: string;
  /** `refs/heads/<branch>` or `refs/tags/<tag>` (a short name is tried as either); the
   * remote's default branch when omitted. */
  ref?: string;
  auth?: { username: string; password: string };
  /** Secret query parameters (`private_token`...) sent with every request of the fetch;
   * those written in `url` are taken from it and used the same way. */
  secretQuery?: Array<[string, string]>;
  /** Directory for cache repositories, one per remote, kept between imports. */
  cacheDir: string;
  /** Distinguishes caches of the same remote (GitBook's `repoCacheID`); imports with the
   * same URL and id reuse one cache repository. */
  repoCacheId?: string;
  /** Monorepo folder holding `.gitbook.yaml`. */
  projectDirectory?: string;
  onProgress?: (progress: ImportProgress) => void;
  /** Longest silence accepted from the server, in ms; 30 s by default. */
  timeoutMs?: number;
  /** Hosts that may be fetched from although their addresses are private (the operator's
   * `QUIRE_GIT_ALLOWED_HOSTS`); every other private or reserved address is refused. */
  allowedHosts: readonly string[];
  /** Largest fetch accepted (the repository's objects as sent, compressed); past it the import fails with `repository_too_large`. */
  maxBytes?: number;
}

export interface ImportProgress {
  phase: 'fetch' | 'layout' | 'files';
  /** Git's own phase name while fetching ("Counting objects", "Receiving objects"...). */
  detail?: string;
  loaded?: number;
  total?: number;
}

export interface GitImportResult {
  commit: { oid: string; message: string; author: { name: string; email: string }; timestamp: Date };
  /** Page tree; its paths (readmePath, sourcePath) are repository paths. */
  layout: ImportedLayout;
  /** Page markdown and referenced assets, by path relative to `layout.docsRoot`. */
  files: Record<string, Uint8Array>;
  assets: ImportedAsset[];
  /** Everything the import skipped or could not resolve, layout warnings included. */
  warnings: string[];
  /** Where the time went, in ms: the fetch (network and pack index), then reading the commit's layout and files. */
  timings: { fetch: number; read: number };
}

/**
 * Where the cache repository of a remote lives. It is keyed by the credential-free URL
 * and the caller's `repoCacheId` together: a cache id alone, which API callers choose,
 * would let one tenant's server advertise a commit that only another tenant's private
 * cache holds and read it from there.
 */
export function cacheRepositoryPath(cacheDir: string, url: string, repoCacheId?: string): string {
  const key = createHash('sha256').update(parseRemoteUrl(url).url).update('\0').update(repoCacheId ?? '').digest('hex');
  return join(cacheDir, `${key.slice(0, 40)}.git`);
}

/**
 * Imports a git repository in GitBook's git-sync layout: fetches the ref into a cache
 * repository (shallow, incremental on re-import), reads the commit's tree straight from
 * git objects and returns the page tree with the files the pages need. Failures a user
 * can act on are GitImportErrors; no message or warning holds credentials.
 */
export async function importGitRepository(opts: ImportGitRepositoryOptions): Promise<GitImportResult> {
  const remote = parseRemoteUrl(opts.url);
  const auth = opts.auth ?? remote.auth;
  const secretQuery = [...(remote.secretQuery ?? []), ...(opts.secretQuery ?? [])];
  const gitdir = cacheRepositoryPath(opts.cacheDir, remote.url, opts.repoCacheId);
  await fs.promises.mkdir(opts.cacheDir, { recursive: true });
  const attempt = () => fetchAndRead({ ...opts, url: remote.url, auth, secretQuery }, gitdir);

  return withCacheLock(gitdir, async () => {
    const hadCache = fs.existsSync(gitdir);
    try {
      return await attempt();
    } catch (error) {
      if (error instanceof GitImportError || !hadCache) throw error;
      // A cache is only a cache: one left unreadable (a crash while a pack was written, a
      // full disk) is dropped and the import starts over from a fresh shallow fetch.
      await fs.promises.rm(gitdir, { recursive: true, force: true });
      return attempt();
    }
  });
}

async function fetchAndRead(opts: ImportGitRepositoryOptions, gitdir: string): Promise<GitImportResult> {
  const secrets = [opts.auth?.password, ...(opts.secretQuery ?? []).map(([, value]) => value)];
  const started = performance.now();
  const { commit } = await fetchRepository({
    http: gitHttpClient({ idleTimeoutMs: opts.timeoutMs ?? 30_000, allowedHosts: opts.allowedHosts, secretQuery: opts.secretQuery, maxBytes: opts.maxBytes }),
    gitdir,
    url: opts.url,
    ref: opts.ref,
    auth: opts.auth,
    onProgress: (event) => opts.onProgress?.({ phase: 'fetch', detail: event.phase, loaded: event.loaded, total: event.total }),
  });

  // Objects are read one at a time from the packs on disk: isomorphic-git would read a whole
  // pack into memory for any object of it, the whole repository for a small project directory.
  const fetched = performance.now();
  const objects = await PackObjectReader.open(gitdir);
  try {
    const result = await readImport(opts, objects, commit, secrets);
    return { ...result, timings: { fetch: Math.round(fetched - started), read: Math.round(performance.now() - fetched) } };
  } finally {
    await objects.close();
  }
}

async function readImport(opts: ImportGitRepositoryOptions, objects: PackObjectReader, commit: string, secrets: Array<string | undefined>): Promise<Omit<GitImportResult, 'timings'>> {
  const info = parseCommit((await objects.read(commit)).data);
  const tree = await gitSourceTree({ objects, commit });
  opts.onProgress?.({ phase: 'layout' });
  let layout: ImportedLayout;
  try {
    layout = await readGitSyncLayout(tree, { projectDirectory: opts.projectDirectory });
  } catch (error) {
    if (error instanceof GitSyncLayoutError) {
      throw new GitImportError(error.code, scrubSecrets(`${opts.url} (${opts.ref ?? 'default branch'}): ${error.message}`, secrets), false);
    }
    throw error;
  }

  const collected = await collectImportFiles({
    tree,
    layout,
    onProgress: (loaded, total) => opts.onProgress?.({ phase: 'files', loaded, total }),
  });
  return {
    commit: {
      oid: commit,
      message: info.message,
      author: { name: info.author.name, email: info.author.email },
      timestamp: new Date(info.author.timestamp * 1000),
    },
    layout,
    files: collected.files,
    assets: collected.assets,
    warnings: [...layout.warnings, ...collected.warnings].map((warning) => scrubSecrets(warning, secrets)),
  };
}

/** Imports sharing a cache repository take turns: a fetch rewrites its refs and shallow
 * file, and a dropped cache must not vanish under a reader. In this process they queue on
 * a promise; across processes (several workers over one DATA_DIR) on a lock file beside
 * the cache (`<cache>.git.lock`), kept fresh while held so that one left by a killed
 * process goes stale. Exports to the same remote use the same cache and take the same turns. */
const cacheLocks = new Map<string, Promise<unknown>>();

/**
 * How long a cache lock file may go without a refresh before another process takes it: six
 * missed refreshes, the horizon in which BullMQ itself declares a worker's job stalled. A
 * worker killed mid-import holds the lock no longer than this, so the worker that takes its
 * job over is not kept waiting (it waited up to two minutes).
 */
const CACHE_LOCK_STALE_MS = 30_000;
const CACHE_LOCK_REFRESH_MS = 5_000;

export async function withCacheLock<T>(gitdir: string, work: () => Promise<T>): Promise<T> {
  const previous = cacheLocks.get(gitdir) ?? Promise.resolve();
  const run = previous.catch(() => undefined).then(() => withCacheLockFile(gitdir, work));
  cacheLocks.set(gitdir, run);
  try {
    return await run;
  } finally {
    if (cacheLocks.get(gitdir) === run) cacheLocks.delete(gitdir);
  }
}

async function withCacheLockFile<T>(gitdir: string, work: () => Promise<T>): Promise<T> {
  let compromised: Error | undefined;
  const release = await lockfile.lock(gitdir, {
    lockfilePath: `${gitdir}.lock`,
    realpath: false,
    stale: CACHE_LOCK_STALE_MS,
    update: CACHE_LOCK_REFRESH_MS,
    // Another process's import of the same repository may take minutes: wait for it.
    retries: { forever: true, minTimeout: 100, maxTimeout: 2_000, factor: 1.5 },
    onCompromised: (err) => (compromised = err),
  });
  try {
    const result = await work();
    if (compromised) throw Object.assign(new Error(`Lost the lock on the repository cache: ${compromised.message}`), { code: 'ECOMPROMISED' });
    return result;
  } finally {
    await release().catch(() => undefined);
  }
}
