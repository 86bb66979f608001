import { z } from 'zod';
import { gitRunBody } from '../../git-runs/git-run-request';

/**
 * GitBook's ExportToGitRepository body: the import's fields (URL, cache id, tree and commit URLs,
 * project directory, timestamp, force, standalone, gitInfo), with a ref that must be a branch
 * (a push cannot move a tag) and the commit's message.
 */
export const exportGitRepositoryBody = gitRunBody.extend({
  ref: z.string().regex(/^refs\/heads\/[^\s~^:?*[\\]+$/, 'must be refs/heads/<branch>'),
  commitMessage: z.string().min(1).max(65_536),
});
