import { join } from 'path';
import { LruCache } from './lru-cache';
import { InvalidSpaceIdError } from './store.errors';

/** One space's bare repository and the store-wide caches its reads go through. */
export interface SpaceRepo {
  spaceId: string;
  gitdir: string;
  caches: StoreCaches;
}

/** Regular file, executable file, symbolic link. */
export type FileMode = '100644' | '100755' | '120000';

export interface TreeEntry {
  /** '40000' for a tree, '100644' / '100755' for a file, '120000' for a symlink,
   * '160000' for a submodule commit. */
  mode: string;
  name: string;
  oid: string;
  type: 'blob' | 'tree' | 'commit';
}

export interface RevisionCommit {
  oid: string;
  tree: string;
  parents: string[];
  message: string;
  author: { name: string; email: string };
  timestamp: Date;
}

/**
 * Git objects never change, so these caches never go stale; they are shared by all spaces
 * of a store and keyed by space as well as oid, so a revision id from one space cannot
 * read content out of another through the cache.
 */
export interface StoreCaches {
  /** Blob contents; reads under way are shared by concurrent readers of the same blob (getOrLoad). */
  blobs: LruCache<Uint8Array>;
  trees: LruCache<readonly TreeEntry[]>;
  commits: LruCache<RevisionCommit>;
  /** Repositories known to exist, so writes do not re-check on every call. */
  initialised: Set<string>;
  /** Fan-out directories (objects/xx) known to exist. */
  objectDirs: Set<string>;
}

export interface StoreCacheOptions {
  /** Bytes of blob content kept in memory; 64 MB by default. */
  blobCacheBytes?: number;
  /** Tree entries kept in memory; 200,000 by default (roughly 40 MB). */
  treeCacheEntries?: number;
}

export function createStoreCaches(opts: StoreCacheOptions = {}): StoreCaches {
  return {
    blobs: new LruCache<Uint8Array>(opts.blobCacheBytes ?? 64 << 20, (blob) => blob.byteLength + 64),
    trees: new LruCache<readonly TreeEntry[]>(opts.treeCacheEntries ?? 200_000, (tree) => tree.length + 1),
    commits: new LruCache<RevisionCommit>(50_000),
    initialised: new Set(),
    objectDirs: new Set(),
  };
}

/** Space ids become directory names: only GitBook-style ids (see newId) are accepted. */
const SPACE_ID = /^[A-Za-z0-9_-]{1,128}$/;

export function spaceRepo(dataDir: string, spaceId: string, caches: StoreCaches): SpaceRepo {
  if (!SPACE_ID.test(spaceId)) throw new InvalidSpaceIdError(spaceId);
  return { spaceId, gitdir: join(dataDir, 'spaces', `${spaceId}.git`), caches };
}

export function cacheKey(repo: SpaceRepo, oid: string): string {
  return `${repo.spaceId}:${oid}`;
}

export const OID = /^[0-9a-f]{40}$/;
