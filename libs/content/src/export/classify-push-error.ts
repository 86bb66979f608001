import { classifyFetchError } from '../import/fetch-repository';
import { GitImportError } from '../import/import.errors';
import { scrubSecrets } from '../import/remote-url';
import { GitExportError } from './export.errors';

interface PushErrorLike {
  code?: string;
  message?: string;
  data?: { prettyDetails?: string; result?: { refs?: Record<string, { ok: boolean; error?: string }> } };
}

/**
 * Turns what isomorphic-git throws while talking to the remote (listing its refs, fetching,
 * pushing) into a GitExportError a user can act on; errors that are not about the remote
 * (a full disk, a bug) come back as they are, credentials scrubbed. The network and HTTP
 * cases are the import's own (classifyFetchError): one vocabulary for both directions.
 */
export function classifyPushError(error: unknown, opts: { url: string; ref: string; auth?: { password: string }; secrets?: string[] }): Error {
  const e = (error ?? {}) as PushErrorLike;
  const scrub = (text: string) => scrubSecrets(text, [opts.auth?.password, ...(opts.secrets ?? [])]);
  if (e.code === 'GitPushError') {
    // The server took the pack and refused the update: a protected branch, a hook, a rule.
    const reason = e.data?.result?.refs?.[opts.ref]?.error ?? e.data?.prettyDetails?.trim() ?? e.message ?? 'refused';
    return new GitExportError('push_rejected', scrub(`${opts.url} refused the update of ${opts.ref} (${reason}); nothing was changed. Check the branch's protection rules, or export to another branch`), false);
  }
  if (e.code === 'PushRejectedError') {
    return new GitExportError('push_rejected', scrub(`${opts.url} refused the update of ${opts.ref}: ${e.message ?? 'not a fast-forward'}`), false);
  }
  if (e.code === 'UserCanceledError') {
    // The branch is no longer where the export commit was built (found when its commit was
    // fetched, or after the remote refused the update). A retry plans again from where it is now.
    return new GitExportError('remote_changed', `${opts.ref} moved while the export ran; nothing was pushed`, true);
  }
  const classified = classifyFetchError(error, { url: opts.url, ref: opts.ref, auth: opts.auth ? { username: '', password: opts.auth.password } : undefined });
  if (classified instanceof GitImportError) {
    const code = classified.code === 'auth_failed' || classified.code === 'unreachable_host' || classified.code === 'repo_not_found' ? classified.code : 'remote_error';
    return new GitExportError(code, scrub(classified.message.replace('requires credentials', 'requires credentials that may push')), classified.transient, classified.statusCode);
  }
  if (classified instanceof Error) classified.message = scrub(classified.message);
  return classified;
}
