/**
 * What imports and exports of a space share: the request's fields, the statuses a run goes
 * through, and the rule that orders them together by `timestamp` (GitBook's rule: an older
 * request is skipped).
 */

/** A git run's request as recorded: the URL never carries credentials (they travel only with the job). */
export interface GitRunRequest {
  url: string;
  ref: string;
  repoCacheID?: string;
  repoTreeURL?: string;
  repoCommitURL?: string;
  repoProjectDirectory?: string;
  timestamp?: string;
  force?: boolean;
  standalone?: boolean;
  gitInfo?: { provider?: 'github' | 'gitlab'; url?: string };
  hasCredentials: boolean;
}

export type GitRunStatus = 'queued' | 'running' | 'completed' | 'failed' | 'skipped';

export function isRunSettled(status: GitRunStatus | undefined): boolean {
  return status === 'completed' || status === 'failed' || status === 'skipped';
}

/** A request timestamp as a UTC ISO string; undefined when absent or not a date. */
export function instantOf(timestamp: string | undefined): string | undefined {
  const ms = timestamp ? Date.parse(timestamp) : NaN;
  return Number.isNaN(ms) ? undefined : new Date(ms).toISOString();
}
