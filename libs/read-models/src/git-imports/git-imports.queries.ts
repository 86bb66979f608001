import { Queryable } from '@quire/platform/db/db';
import { ListResponse } from '@quire/platform/http/pagination';
import { GitRunView, gitRunsAppliedThrough, listSpaceGitRuns, presentGitRun } from '../git-runs/space-git-runs';
import { Position } from '@quire/event-store/position';

export interface GitImportRun extends GitRunView {
  object: 'git-import';
  warnings: string[];
}

export class GitImportQueries {
  constructor(private readonly db: Queryable) {}

  list(spaceId: string, opts: { page?: string; limit: number }): Promise<ListResponse<GitImportRun>> {
    return listSpaceGitRuns(this.db, 'rm_git_imports', spaceId, opts, present);
  }

  /** How far these runs' read model has applied the event stream (read after a page, it covers the page). */
  appliedThrough(): Promise<Position> {
    return gitRunsAppliedThrough(this.db, 'rm_git_imports');
  }
}

function present(row: any): GitImportRun {
  return { object: 'git-import', ...presentGitRun(row), warnings: row.warnings ?? [] };
}
