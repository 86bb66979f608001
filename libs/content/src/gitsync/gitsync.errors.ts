export type GitSyncLayoutErrorCode =
  /** structure.readme (default README.md) does not exist: GitBook refuses such a sync. */
  | 'no_readme'
  /** .gitbook.yaml cannot be parsed or points outside the repository. */
  | 'invalid_config';

export class GitSyncLayoutError extends Error {
  constructor(
    readonly code: GitSyncLayoutErrorCode,
    message: string,
    /** The repository path the error is about. */
    readonly path?: string,
  ) {
    super(message);
    this.name = 'GitSyncLayoutError';
  }
}
