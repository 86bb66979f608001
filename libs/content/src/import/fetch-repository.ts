import * as fs from 'fs';
import { join } from 'path';
import git, { type AuthCallback, type GitProgressEvent, type HttpClient } from 'isomorphic-git';
import { GitImportError } from './import.errors';
import { scrubSecrets } from './remote-url';
import { RepositoryTooLargeError } from '../git-http/git-http-client';
import { PackObjectReader } from './pack-reader';

export interface FetchRepositoryOptions {
  http: HttpClient;
  /** Bare cache repository; created when missing. */
  gitdir: string;
  /** Credential-free URL. */
  url: string;
  /** `refs/heads/<branch>`, `refs/tags/<tag>`, or a short branch or tag name; the
   * remote's default branch (what its HEAD names) when omitted. */
  ref?: string;
  auth?: { username: string; password: string };
  onProgress?: (event: GitProgressEvent) => void;
}

export interface FetchedRef {
  /** The commit the ref points at (annotated tags peeled). */
  commit: string;
}

/** Where the commit of the remote's default branch is kept when no ref is named. */
const DEFAULT_BRANCH_REF = 'refs/quire/default-branch';

/** Each re-import adds a pack, and every object lookup walks all pack indexes: past this
 * many the cache is dropped and fetched afresh (shallow, so that costs one tree). */
const MAX_PACKS = 32;

/**
 * Brings the cache repository up to date with one ref of the remote: a shallow
 * (`depth: 1`), single-branch fetch the first time, then fetches that tell the server
 * which commit the cache already has, so a re-import downloads only the objects that
 * changed. Credentials go to the server through `onAuth` only: no remote URL is
 * configured, nothing is written to the repository's config. The caller must keep other
 * imports out of the same cache repository meanwhile.
 */
export async function fetchRepository(opts: FetchRepositoryOptions): Promise<FetchedRef> {
  const { gitdir, url, ref } = opts;
  const packs = await fs.promises.readdir(join(gitdir, 'objects', 'pack')).catch(() => [] as string[]);
  if (packs.filter((name) => name.endsWith('.pack')).length > MAX_PACKS) await fs.promises.rm(gitdir, { recursive: true, force: true });
  await git.init({ fs, gitdir, bare: true });
  // isomorphic-git records what it fetched under the remote's refspec. Only the refspec is
  // configured: the URL is passed to every fetch and never stored.
  if (!(await git.getConfig({ fs, gitdir, path: 'remote.origin.fetch' }))) {
    await git.setConfig({ fs, gitdir, path: 'remote.origin.fetch', value: '+refs/*:refs/remotes/origin/*' });
  }
  // The fetch names this local ref as the commit it already has ("have"); it must be the
  // name the fetch is given, which isomorphic-git expands like git does. Whatever the
  // remote's HEAD says does not matter when a ref is named: isomorphic-git is patched
  // (patches/isomorphic-git+*.patch) not to fail on a dangling or unadvertised HEAD.
  const localRef = !ref ? DEFAULT_BRANCH_REF : ref.startsWith('refs/') ? ref : `refs/heads/${ref}`;
  const onAuth: AuthCallback | undefined = opts.auth ? () => ({ ...opts.auth }) : undefined;
  // A shallow first fetch, then plain incremental ones. Asking for `depth` again would
  // make git's upload-pack send the whole tree once more: with a shallow "have" it only
  // leaves out known objects from thin packs, which isomorphic-git does not request.
  // The price of the plain fetch: after a force push, the new history comes in full.
  const cached = await git.resolveRef({ fs, gitdir, ref: localRef }).catch(() => undefined);
  let fetchHead: string | null;
  try {
    ({ fetchHead } = await git.fetch({
      fs,
      http: opts.http,
      gitdir,
      url,
      ref: localRef,
      remoteRef: ref || 'HEAD',
      singleBranch: true,
      depth: cached ? undefined : 1,
      tags: false,
      onAuth,
      onProgress: opts.onProgress,
    }));
  } catch (error) {
    throw classifyFetchError(error, opts);
  }
  if (!fetchHead) throw new GitImportError('ref_not_found', `${url} is an empty repository`, false);
  await git.writeRef({ fs, gitdir, ref: localRef, value: fetchHead, force: true });
  return { commit: await peelToCommit(gitdir, fetchHead) };
}

/** Through annotated tags to the commit; read object by object (isomorphic-git would load the whole pack). */
async function peelToCommit(gitdir: string, oid: string): Promise<string> {
  const objects = await PackObjectReader.open(gitdir);
  try {
    for (let depth = 0; depth < 10; depth++) {
      const { type, data } = await objects.read(oid);
      if (type === 'commit') return oid;
      if (type !== 'tag') break;
      oid = data.toString('utf8', 7, 47);
    }
  } finally {
    await objects.close();
  }
  throw new GitImportError('ref_not_found', `The ref does not point at a commit`, false);
}

interface GitLikeError {
  code?: string;
  message?: string;
  data?: { statusCode?: number; statusMessage?: string; what?: string };
}

/** Turns what isomorphic-git and node throw into errors a user can act on. Unknown errors
 * (a full disk, a bug) are returned as they are, with credentials scrubbed. */
export function classifyFetchError(error: unknown, opts: Pick<FetchRepositoryOptions, 'url' | 'ref' | 'auth'>): Error {
  const e = (error ?? {}) as GitLikeError;
  const scrub = (text: string) => scrubSecrets(text, [opts.auth?.password]);
  const { url, ref } = opts;
  const host = hostOf(url);
  if (error instanceof RepositoryTooLargeError) {
    return new GitImportError(
      'repository_too_large',
      scrub(`${url} is too large to import: its objects exceed the limit of ${formatBytes(error.maxBytes)} (QUIRE_IMPORT_MAX_BYTES); import a smaller repository, or raise the limit`),
      false,
    );
  }

  if (e.code === 'HttpError') {
    const status = e.data?.statusCode ?? 0;
    const answered = `${status}${e.data?.statusMessage ? ` ${e.data.statusMessage}` : ''}`;
    if (status === 401 || status === 403) {
      const why = opts.auth ? 'refused the credentials' : 'requires credentials';
      return new GitImportError('auth_failed', scrub(`${url} ${why} (HTTP ${answered})`), false, status);
    }
    if (status === 404) return new GitImportError('repo_not_found', scrub(`${url} was not found (HTTP 404)`), false, status);
    const transient = status >= 500 || status === 429 || status === 408;
    return new GitImportError('remote_error', scrub(`${url} answered HTTP ${answered}`), transient, status);
  }
  if (e.code === 'SmartHttpError') {
    return new GitImportError('repo_not_found', scrub(`${url} is not a git repository served over smart HTTP`), false);
  }
  if (e.code === 'NotFoundError' && ref && (e.data?.what === ref || e.data?.what?.endsWith(ref))) {
    return new GitImportError('ref_not_found', scrub(`${url} has no branch or tag ${ref}`), false);
  }
  if (e.code === 'NotFoundError' && e.data?.what === 'HEAD') {
    // No ref was named and the remote's HEAD names a branch that does not exist (or is not
    // advertised at all): there is no default branch to import.
    return new GitImportError('ref_not_found', scrub(`${url} has no default branch (its HEAD names no existing branch); import a branch or tag by name`), false);
  }
  if (e.code === 'RemoteCapabilityError') {
    return new GitImportError('remote_error', scrub(`${url} does not support shallow fetches`), false);
  }
  if (e.code === 'TOO_MANY_REDIRECTS') return new GitImportError('remote_error', scrub(`${url} redirected too many times`), false);
  const network = networkFailure(e);
  if (network) return new GitImportError('unreachable_host', scrub(`Cannot reach ${host}: ${UNREACHABLE}`), network.transient);

  if (error instanceof Error) error.message = scrub(error.message);
  return error instanceof Error ? error : new Error(scrub(String(error)));
}

/**
 * The one reason given for an address that was refused or could not be reached, whatever
 * happened: which of DNS, connect, reset, timeout or TLS failed would let a user map the
 * services of a network the import cannot see, one port at a time.
 */
const UNREACHABLE = 'the host is unknown, did not answer, or is not allowed (private and reserved addresses are refused unless an operator allows the host)';

/** Whether an error is a network failure, and whether a retry may get through. */
function networkFailure(e: GitLikeError): { transient: boolean } | undefined {
  switch (e.code) {
    case 'REFUSED_ADDRESS':
      // The outbound guard refused the address: it will refuse it again.
      return { transient: false };
    case 'ENOTFOUND':
      // The name does not exist: retrying will not create it.
      return { transient: false };
    case 'EAI_AGAIN':
    case 'ECONNREFUSED':
    case 'ECONNRESET':
    case 'EPIPE':
    case 'ETIMEDOUT':
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return { transient: true };
    case 'CERT_HAS_EXPIRED':
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return { transient: false };
  }
  // simple-get's socket timeout carries no code.
  if (e.message === 'Request timed out') return { transient: true };
  return undefined;
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MiB` : `${bytes} bytes`;
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
