export type GitImportErrorCode =
  /** Not an http(s) URL: only git's smart HTTP protocol is supported. */
  | 'invalid_url'
  /** DNS failure, refused or reset connection, timeout. */
  | 'unreachable_host'
  /** HTTP 401 or 403: credentials missing or refused. */
  | 'auth_failed'
  /** HTTP 404, or the server is not a git server. */
  | 'repo_not_found'
  /** The branch or tag does not exist (or the repository is empty). */
  | 'ref_not_found'
  /** Any other HTTP failure, such as a 5xx. */
  | 'remote_error'
  /** The repository's objects exceed the import limit (QUIRE_IMPORT_MAX_BYTES). */
  | 'repository_too_large'
  /** The docs root has no README (from the git-sync layout reader). */
  | 'no_readme'
  /** `.gitbook.yaml` cannot be parsed or points outside the repository. */
  | 'invalid_config';

/**
 * A git import that failed for a reason the user can act on. `transient` failures (network
 * trouble, a 5xx) may succeed when retried; the others will fail the same way until the
 * URL, credentials, branch or repository change. Messages never hold credentials.
 */
export class GitImportError extends Error {
  constructor(
    readonly code: GitImportErrorCode,
    message: string,
    readonly transient: boolean,
    /** HTTP status, when the remote answered with one. */
    readonly statusCode?: number,
  ) {
    super(message);
    this.name = 'GitImportError';
  }
}
