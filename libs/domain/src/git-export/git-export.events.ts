import { GitRunRequest } from '../git-run/git-run';
import { DomainEvent } from '../shared/event';

/** The request as recorded: the URL never carries credentials (they travel only with the job).
 * Its `ref` is `refs/heads/<branch>`: the branch the commit is pushed to (created when missing). */
export interface GitExportRequest extends GitRunRequest {
  exportId: string;
  commitMessage: string;
}

export type GitExportRequested = DomainEvent<'GitExportRequested', { spaceId: string; request: GitExportRequest; requestedBy: string; at: string }>;
export type GitExportStarted = DomainEvent<'GitExportStarted', { spaceId: string; exportId: string; at: string }>;
/**
 * The space's `revision` is on the remote branch as `commit`: pushed as a new commit, or
 * already there (`pushed: false`, the branch held exactly that content).
 */
export type GitExportCompleted = DomainEvent<
  'GitExportCompleted',
  { spaceId: string; exportId: string; revision: string; commit: { oid: string; message: string }; pushed: boolean; standalone: boolean; at: string }
>;
/** `code` is one of GitExportFailureCode (or `internal`); `message` says what the user can do. */
export type GitExportFailed = DomainEvent<'GitExportFailed', { spaceId: string; exportId: string; code: string; message: string; at: string }>;
/** An export older (by its `timestamp`) than an import or export already applied to the space. */
export type GitExportSkipped = DomainEvent<'GitExportSkipped', { spaceId: string; exportId: string; reason: string; at: string }>;

export type GitExportEvent = GitExportRequested | GitExportStarted | GitExportCompleted | GitExportFailed | GitExportSkipped;

/** Reasons an export fails that a user can act on. */
export type GitExportFailureCode =
  /** The branch has commits since Quire last imported or exported it: import first, or force. */
  | 'remote_changed'
  /** HTTP 401/403, or credentials expired before the job ran. */
  | 'auth_failed'
  /** DNS failure, refused or reset connection, timeout. */
  | 'unreachable_host'
  /** HTTP 404, or not a git server. */
  | 'repo_not_found'
  /** The server refused the update (a protected branch, a hook). */
  | 'push_rejected'
  /** Any other HTTP failure. */
  | 'remote_error'
  | 'space_deleted';
