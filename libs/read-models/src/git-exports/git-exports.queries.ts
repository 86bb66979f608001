import { Queryable } from '@quire/platform/db/db';
import { ListResponse } from '@quire/platform/http/pagination';
import { GitRunView, gitRunsAppliedThrough, listSpaceGitRuns, presentGitRun } from '../git-runs/space-git-runs';
import { Position } from '@quire/event-store/position';

export interface GitExportRun extends GitRunView {
  object: 'git-export';
  commitMessage: string;
  repoProjectDirectory?: string;
  force: boolean;
  /** With `commit`: the commit pushed, or the one already on the branch (`pushed: false`). */
  pushed?: boolean;
}

export class GitExportQueries {
  constructor(private readonly db: Queryable) {}

  list(spaceId: string, opts: { page?: string; limit: number }): Promise<ListResponse<GitExportRun>> {
    return listSpaceGitRuns(this.db, 'rm_git_exports', spaceId, opts, present);
  }

  /** How far these runs' read model has applied the event stream (read after a page, it covers the page). */
  appliedThrough(): Promise<Position> {
    return gitRunsAppliedThrough(this.db, 'rm_git_exports');
  }
}

function present(row: any): GitExportRun {
  const out: GitExportRun = { object: 'git-export', ...presentGitRun(row), commitMessage: row.commit_message, force: row.force };
  if (row.project_directory) out.repoProjectDirectory = row.project_directory;
  if (row.pushed !== null && row.pushed !== undefined) out.pushed = row.pushed;
  return out;
}
