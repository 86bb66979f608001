import * as fs from 'fs';
import git from 'isomorphic-git';
import type { ExportPlan } from '@quire/domain';
import { readGitSyncConfig } from '../gitsync/gitbook-config';
import { parseSummary } from '../gitsync/parse-summary';
import { toDirPrefix } from '../gitsync/repo-path';
import type { SourceTree } from '../gitsync/source-tree';
import { fetchRepository } from '../import/fetch-repository';
import { gitHttpClient } from '../git-http';
import { cacheRepositoryPath, withCacheLock } from '../import/import-git-repository';
import { looseBytesFromPacked, serializeCommit, writeObject } from '../store/git-objects';
import { openPackedObjects, type PackedObject, type PackedObjectReader } from '../store/packed-objects';
import { readBlob } from '../store/read-blob';
import type { RevisionFile } from '../store/read-revision-files';
import { classifyPushError } from './classify-push-error';
import { mergeGitbookConfig } from './merge-gitbook-config';
import { composeExportTree, type TreeFile } from './compose-export-tree';
import { copyObjects, listTreeFiles, plainRepo, writeTrees } from './git-trees';
import { renameSummaryLinks } from './page-renames';

export interface ExportToGitRepositoryOptions {
  /** Credential-free http(s) URL. */
  url: string;
  /** `refs/heads/<branch>`. */
  ref: string;
  auth?: { username: string; password: string };
  /** Secret query parameters (`private_token`...) sent with every request. */
  secretQuery?: Array<[string, string]>;
  /** Directory of the cache repositories imports use: an export shares its remote's. */
  cacheDir: string;
  repoCacheId?: string;
  /** Monorepo folder holding the docs (and their `.gitbook.yaml`). */
  projectDirectory?: string;
  /** The space's bare repository and the files of the revision to export. */
  spaceGitdir: string;
  files: RevisionFile[];
  /** Where the commit goes, once the branch's commit is known (the domain's rule), and the
   * files of the revision that holds that commit's content, when there is one. */
  plan(remoteCommit: string | undefined): Promise<{ plan: ExportPlan; baseFiles?: RevisionFile[]; renames?: ReadonlyMap<string, string> }>;
  commitMessage: string;
  author: { name: string; email: string };
  committer: { name: string; email: string };
  timestamp: Date;
  /** Longest silence accepted from the server, in ms; 30 s by default. */
  timeoutMs?: number;
  /** Hosts that may be pushed to although their addresses are private (the operator's
   * `QUIRE_GIT_ALLOWED_HOSTS`); every other private or reserved address is refused. */
  allowedHosts: readonly string[];
}

export type ExportToGitRepositoryResult =
  | { outcome: 'refused'; plan: Extract<ExportPlan, { kind: 'refused' }> }
  /** `pushed`: a new commit is on the branch; `unchanged`: the branch already held exactly
   * this content, and `commit` is its current commit. */
  | { outcome: 'pushed' | 'unchanged'; commit: string; parent?: string; objectsSent: number };

/** The local ref an export commit is pushed from, in the cache repository. */
const EXPORT_REF = 'refs/quire/export';

/**
 * Exports a space revision to a branch as one commit, child of the branch's current commit,
 * in GitBook's git-sync layout under the project directory. The branch's commit is fetched
 * into the import cache of that remote (usually there already); the space's trees and
 * blobs are reused, never re-rendered, and only what the remote lacks is sent. Refused
 * (nothing sent) when `plan` says so; the push itself is refused by the remote's
 * answer, which also refuses it if the branch moved meanwhile (remote_changed).
 */
export async function exportToGitRepository(opts: ExportToGitRepositoryOptions): Promise<ExportToGitRepositoryResult> {
  const gitdir = cacheRepositoryPath(opts.cacheDir, opts.url, opts.repoCacheId);
  await fs.promises.mkdir(opts.cacheDir, { recursive: true });
  const http = gitHttpClient({ idleTimeoutMs: opts.timeoutMs ?? 30_000, allowedHosts: opts.allowedHosts, secretQuery: opts.secretQuery });
  const onAuth = opts.auth ? () => ({ ...opts.auth }) : undefined;
  const secrets = (opts.secretQuery ?? []).map(([, value]) => value);
  const remoteFailure = (error: unknown) => classifyPushError(error, { url: opts.url, ref: opts.ref, auth: opts.auth, secrets });

  return withCacheLock(gitdir, async () => {
    await git.init({ fs, gitdir, bare: true });
    // What the branch is now: receive-pack's advertisement, which also checks early that the
    // credentials may push, and which the push goes on from (git push asks once).
    const discover = () => git.discoverReceivePack({ http, url: opts.url, onAuth });
    const advertisement = await discover().catch((error) => {
      throw remoteFailure(error);
    });
    const remoteCommit = advertisement.refs.get(opts.ref);
    const { plan, baseFiles, renames } = await opts.plan(remoteCommit);
    if (plan.kind === 'refused') return { outcome: 'refused', plan };
    const parent = plan.kind === 'on-top' ? plan.parent : undefined;
    const cache = {};
    if (parent && !(await hasObject(gitdir, parent, cache))) {
      const fetched = await fetchRepository({ http, gitdir, url: opts.url, ref: opts.ref, auth: opts.auth }).catch((error) => {
        throw remoteFailure(error);
      });
      if (fetched.commit !== parent) throw remoteFailure(Object.assign(new Error('moved'), { code: 'UserCanceledError' }));
    }

    const remote = parent ? await listTreeFiles(gitdir, (await git.readCommit({ fs, gitdir, oid: parent, cache })).commit.tree, cache) : new Map<string, TreeFile>();
    const config = await remoteLayout(gitdir, remote, opts.projectDirectory, cache);
    const repo = plainRepo(gitdir);
    const base = baseFiles && byPath(baseFiles);
    const revision = byPath(opts.files);
    await summaryInRemoteForm({ repo, spaceGitdir: opts.spaceGitdir, revision, remoteSummary: remote.get(config.summaryPath), renames, cache });
    const { files, fromSpace } = composeExportTree({ remote, revision, base, renames, ...config });
    if (config.remoteConfig) await mergeConfigInto(files, { repo, spaceGitdir: opts.spaceGitdir, path: `${toDirPrefix(opts.projectDirectory) ?? ''}.gitbook.yaml`, remote, revision, base, cache });
    const objectsSent = await copyObjects(plainRepo(opts.spaceGitdir), repo, fromSpace);
    const tree = await writeTrees(repo, files);
    if (parent && tree === (await git.readCommit({ fs, gitdir, oid: parent, cache })).commit.tree) {
      return { outcome: 'unchanged', commit: parent, parent, objectsSent: 0 };
    }
    const commit = await writeObject(
      repo,
      'commit',
      serializeCommit({ tree, parents: parent ? [parent] : [], author: opts.author, committer: opts.committer, timestamp: opts.timestamp, message: opts.commitMessage }),
    );
    await git.writeRef({ fs, gitdir, ref: EXPORT_REF, value: commit, force: true });
    const packed = await openPackedObjects(gitdir);
    try {
      await git.push({
        fs: packingFs(packed),
        http,
        gitdir,
        cache,
        url: opts.url,
        ref: EXPORT_REF,
        remoteRef: opts.ref,
        onAuth,
        // The update names the commit the export was built on as the branch's old value, and
        // the remote refuses it if the branch moved since (git's --force-with-lease).
        advertisement,
      });
    } catch (error) {
      // A refusal because the branch moved meanwhile says so: planned again, it may pass.
      const now = (error as { code?: string }).code === 'GitPushError' ? await discover().catch(() => undefined) : undefined;
      const moved = now !== undefined && now.refs.get(opts.ref) !== remoteCommit;
      throw remoteFailure(moved ? Object.assign(new Error('moved'), { code: 'UserCanceledError' }) : error);
    } finally {
      packed.close();
    }
    // The import's "have" for this branch: importing what was just pushed downloads nothing.
    await git.writeRef({ fs, gitdir, ref: opts.ref, value: commit, force: true });
    return { outcome: 'pushed', commit, parent, objectsSent };
  });
}

/**
 * The file system the push reads objects through. Building the pack reads every object to send
 * from its loose file (about two per page on a first export): Node's promise `readFile` spends
 * four asynchronous steps on each (open, stat, read, close), which dominated the push's own CPU
 * time in profiles; a loose object is small, so it is read at once. An object of a pack
 * copyObjects linked (a space's revision written as a pack) is read from the pack first (no
 * failed open and exception per object): asked with `{ packEntry: true }` (the patched
 * packChunks building the pack to send), the answer is the entry itself, its compressed bytes a
 * view of the one read, sent as they are; asked otherwise, the bytes its loose file would hold
 * (looseBytesFromPacked: no inflate/deflate). isomorphic-git asks with `{}` as options, not undefined: before, the
 * packed object was never found that way, and each was read through isomorphic-git's own pack
 * reader (a readdir per object, the whole pack read, every object inflated and deflated again).
 */
function packingFs(packed: PackedObjectReader) {
  return {
    promises: {
      ...fs.promises,
      readFile: async (path: fs.PathLike, options?: Parameters<typeof fs.readFileSync>[1] & { packEntry?: boolean }) => {
        if (typeof options === 'string' || options?.encoding) return fs.readFileSync(path, options);
        const object = packedObjectAt(packed, String(path));
        if (!object) return fs.readFileSync(path, options);
        return options?.packEntry ? object : looseBytesFromPacked(object);
      },
    },
  };
}

const LOOSE_OBJECT_PATH = /[\\/]objects[\\/]([0-9a-f]{2})[\\/]([0-9a-f]{38})$/;

/** The object of the linked packs at an object's loose path, or undefined (not packed whole there, or not an object's path). */
function packedObjectAt(packed: PackedObjectReader, path: string): PackedObject | undefined {
  const match = LOOSE_OBJECT_PATH.exec(path);
  return match ? packed.read(match[1] + match[2]) : undefined;
}

/** Where the docs are in the repository, as the branch's `.gitbook.yaml` says (the project
 * directory by default), and whether it has one of its own. */
async function remoteLayout(gitdir: string, remote: Map<string, TreeFile>, projectDirectory: string | undefined, cache: object) {
  const base = toDirPrefix(projectDirectory) ?? '';
  const blobs = new Set([...remote].filter(([, f]) => f.mode !== '160000' && f.mode !== '120000').map(([p]) => p));
  const tree: SourceTree = {
    files: () => [...blobs],
    read: async (path) => {
      const file = blobs.has(path) ? remote.get(path) : undefined;
      return file && (await git.readBlob({ fs, gitdir, oid: file.oid, cache })).blob;
    },
  };
  const config = await readGitSyncConfig(tree, blobs, projectDirectory).catch(() => undefined);
  if (!config) return { docsRoot: base, summaryPath: `${base}SUMMARY.md`, remoteConfig: false };
  return { docsRoot: config.docsRoot, summaryPath: config.summaryPath, remoteConfig: config.configPath === `${base}.gitbook.yaml` };
}

/**
 * The revision's SUMMARY.md as the export writes it: the repository's own when it states the
 * same table of contents (whatever its markdown form: bullets, blank lines, link style), else
 * the revision's, its links following pages Quire's editor moved (`renames`).
 */
async function summaryInRemoteForm(opts: {
  repo: ReturnType<typeof plainRepo>;
  spaceGitdir: string;
  revision: Map<string, TreeFile>;
  remoteSummary?: TreeFile;
  renames?: ReadonlyMap<string, string>;
  cache: object;
}): Promise<void> {
  const summary = opts.revision.get('SUMMARY.md');
  if (!summary) return;
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  const own = decode(await readBlob(plainRepo(opts.spaceGitdir), summary.oid));
  const moved = opts.renames?.size ? renameSummaryLinks(own, opts.renames) : own;
  const { remoteSummary } = opts;
  if (remoteSummary && remoteSummary.mode !== '120000' && remoteSummary.mode !== '160000') {
    const theirs = decode((await git.readBlob({ fs, gitdir: opts.repo.gitdir, oid: remoteSummary.oid, cache: opts.cache })).blob);
    if (sameTableOfContents(theirs, moved)) {
      opts.revision.set('SUMMARY.md', remoteSummary);
      return;
    }
  }
  if (moved !== own) opts.revision.set('SUMMARY.md', { oid: await writeObject(opts.repo, 'blob', new TextEncoder().encode(moved)), mode: '100644' });
}

/**
 * The repository's own `.gitbook.yaml` (kept by composeExportTree) with the changes the space
 * made to its copy merged in (mergeGitbookConfig); unchanged, it keeps its bytes.
 */
async function mergeConfigInto(
  files: Map<string, TreeFile>,
  opts: { repo: ReturnType<typeof plainRepo>; spaceGitdir: string; path: string; remote: Map<string, TreeFile>; revision: Map<string, TreeFile>; base?: Map<string, TreeFile>; cache: object },
): Promise<void> {
  const [theirs, ours, base] = [opts.remote.get(opts.path), opts.revision.get('.gitbook.yaml'), opts.base?.get('.gitbook.yaml')];
  if (!theirs || !ours || theirs.mode !== '100644' || ours.mode !== '100644') return;
  const decode = (bytes: Uint8Array) => new TextDecoder().decode(bytes);
  const read = async (gitdir: string, oid: string) => decode((await git.readBlob({ fs, gitdir, oid, cache: opts.cache })).blob);
  // The space's blobs through the store's reader: a revision's pack is read object by object.
  const space = plainRepo(opts.spaceGitdir);
  const merged = mergeGitbookConfig({
    theirs: await read(opts.repo.gitdir, theirs.oid),
    ours: decode(await readBlob(space, ours.oid)),
    ...(base ? { base: decode(await readBlob(space, base.oid)) } : {}),
  });
  if (merged !== undefined) files.set(opts.path, { oid: await writeObject(opts.repo, 'blob', new TextEncoder().encode(merged)), mode: '100644' });
}

/** Same groups, entries, titles, targets and nesting, whatever the markdown's form (blank
 * lines, bullet characters, the rule after a group). */
function sameTableOfContents(a: string, b: string): boolean {
  const shape = (markdown: string) => JSON.stringify(parseSummary(markdown).items, (key, value) => (key === 'line' ? undefined : value));
  return shape(a) === shape(b);
}

async function hasObject(gitdir: string, oid: string, cache: object): Promise<boolean> {
  try {
    await git.readObject({ fs, gitdir, oid, format: 'deflated', cache });
    return true;
  } catch {
    return false;
  }
}

function byPath(files: RevisionFile[]): Map<string, TreeFile> {
  return new Map(files.map((f) => [f.path, { oid: f.oid, mode: f.mode }]));
}
