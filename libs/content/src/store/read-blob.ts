import { gitFs as fs } from './git-fs';
import git from 'isomorphic-git';
import { readLooseObject } from './git-objects';
import { inflatePacked, readPackedObject } from './packed-objects';
import { isGitError } from './read-revision';
import { cacheKey, OID, type SpaceRepo } from './space-repo';
import { ObjectNotFoundError } from './store.errors';

/** A file's bytes by blob oid. The caller gets its own copy: the cached one stays intact
 * whatever the caller does with it (a copy made by Uint8Array's constructor: the cached bytes
 * are often a Buffer, whose `slice` shares their memory). */
export async function readBlob(repo: SpaceRepo, oid: string): Promise<Uint8Array> {
  // Read models apply a new revision side by side (content and search each read every page):
  // one read of each blob serves them all.
  return new Uint8Array(await repo.caches.blobs.getOrLoad(cacheKey(repo, oid), () => readUncached(repo, oid)));
}

async function readUncached(repo: SpaceRepo, oid: string): Promise<Uint8Array> {
  if (!OID.test(oid)) throw new ObjectNotFoundError(repo.spaceId, oid);
  let blob: Uint8Array;
  try {
    // In a pack already known (no listing), else loose, else in a pack listed since.
    let packed = await readPackedObject(repo.gitdir, oid, { listAgain: false });
    const loose = packed ? undefined : await readLooseObject(repo, oid);
    if (loose && loose.type !== 'blob') throw new ObjectNotFoundError(repo.spaceId, oid);
    if (!packed && !loose) packed = await readPackedObject(repo.gitdir, oid);
    if (packed && packed.type !== 'blob') throw new ObjectNotFoundError(repo.spaceId, oid);
    if (loose) blob = loose.content;
    else if (packed) blob = await inflatePacked(packed, oid);
    // Packed as a delta (after a `git gc`): isomorphic-git reads those.
    else ({ blob } = await git.readBlob({ fs, gitdir: repo.gitdir, oid }));
  } catch (error) {
    if (isGitError(error, 'NotFoundError', 'ObjectTypeError')) throw new ObjectNotFoundError(repo.spaceId, oid);
    throw error;
  }
  return blob;
}
