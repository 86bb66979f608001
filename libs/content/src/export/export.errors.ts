import type { GitExportFailureCode } from '@quire/domain';

/**
 * A git export that failed for a reason the user can act on. `transient` failures (network
 * trouble, a 5xx, a branch that moved during the push) may succeed when retried; the others
 * fail the same way until the URL, credentials, branch protection or repository change.
 * Messages never hold credentials.
 */
export class GitExportError extends Error {
  constructor(
    readonly code: GitExportFailureCode,
    message: string,
    readonly transient: boolean,
    /** HTTP status, when the remote answered with one. */
    readonly statusCode?: number,
  ) {
    super(message);
    this.name = 'GitExportError';
  }
}
