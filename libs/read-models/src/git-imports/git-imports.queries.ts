import { Queryable } from '@quire/platform/db/db';
import { ListResponse } from '@quire/platform/http/pagination';
import { GitRunView, listSpaceGitRuns, presentGitRun } from '../git-runs/space-git-runs';

export interface GitImportRun extends GitRunView {
  object: 'git-import';
  warnings: string[];
}

export class GitImportQueries {
  constructor(private readonly db: Queryable) {}

  list(spaceId: string, opts: { page?: string; limit: number }): Promise<ListResponse<GitImportRun>> {
    return listSpaceGitRuns(this.db, 'rm_git_imports', spaceId, opts, present);
  }
}

function present(row: any): GitImportRun {
  return { object: 'git-import', ...presentGitRun(row), warnings: row.warnings ?? [] };
}
